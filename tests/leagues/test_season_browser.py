"""A season of three events in a real browser, on a phone and a desktop, in English and in French:
the organiser creates it from three played events counting each player's best two, publishes it,
and a visitor reads the standings with every player's counted and dropped results; no page
scrolls sideways."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from armybuilder.events.models import Pairing, Result, Round
from armybuilder.leagues.models import Season
from tests.conftest import log_in
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import make_edition, make_user

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
LONG_NAME = "Bartholomew-Maximilian"

WORDS = {
    "en": {
        "name": "Name",
        "edition": "Edition",
        "best": "Results counted per player",
        "published": "Published",
        "save": "Save",
        "created": "The season is created.",
        "unpublished": "This season is not published: only you can see it.",
        "edit": "Edit the season",
        "saved": "The season is saved.",
        "rules": "Each player's best 2 results count.",
        "results": "Results (dropped ones struck through)",
        "dropped": "dropped",
    },
    "fr": {
        "name": "Nom",
        "edition": "Édition",
        "best": "Résultats comptés par joueur",
        "published": "Publiée",
        "save": "Enregistrer",
        "created": "La saison est créée.",
        "unpublished": "Cette saison n'est pas publiée : vous seul la voyez.",
        "edit": "Modifier la saison",
        "saved": "La saison est enregistrée.",
        "rules": "Les 2 meilleurs résultats de chaque joueur comptent.",
        "results": "Résultats (ceux écartés sont barrés)",
        "dropped": "retiré",
    },
}


def _played_event(organiser, players, outcomes, *, day, name):
    """A published event of one round: players[0] v players[1], players[2] v players[3], resulted."""
    event = make_event(organiser, name=name, date=day, published=True)
    entrants = [make_entrant(event, user) for user in players]
    round_ = Round.objects.create(event=event, number=1, published=True)
    for table, outcome in enumerate(outcomes, start=1):
        a, b = entrants[2 * table - 2], entrants[2 * table - 1]
        pairing = Pairing.objects.create(round=round_, table=table, player_a=a, player_b=b, position=table)
        Result.objects.create(pairing=pairing, outcome=outcome, confirmed=True)
    return event


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_three_event_season_counts_each_players_best_two(
    django_db_setup, live_server, new_browser_context, viewport, lang
):
    words = WORDS[lang]

    def no_sideways_scroll(page) -> None:
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1

    def context_of(user=None):
        context = new_browser_context(viewport=viewport, java_script_enabled=False)
        if user is not None:
            log_in(context, live_server, user)
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        return context

    organiser = make_user("orga")
    anne, bob, carl = (make_user(n, first_name=n.title()) for n in ("anne", "bob", "carl"))
    dora = make_user("dora", first_name=LONG_NAME)
    # Four players at each event, so each has three results and best 2 drops one of them.
    # January: Anne beat Bob, Carl beat Dora: Anne and Carl share 1st of 4 (100), Bob and Dora 3rd (50).
    # February: Bob beat Anne, Dora beat Carl: Bob and Dora 100, Anne and Carl 50.
    # March: Anne beat Carl, Dora beat Bob: Anne and Dora 100, Bob and Carl 50.
    # Anne: 100 + 100 counted, 50 dropped; Dora: 100 + 100, 50 dropped; Bob and Carl: 100 + 50, 50 dropped.
    days = [datetime.date(2026, month, 10) for month in (1, 2, 3)]
    _played_event(organiser, [anne, bob, carl, dora], ["a", "a"], day=days[0], name="January")
    _played_event(organiser, [bob, anne, dora, carl], ["a", "a"], day=days[1], name="February")
    _played_event(organiser, [anne, carl, dora, bob], ["a", "a"], day=days[2], name="March")
    # Not of the season: another club's event stays unticked.
    _played_event(make_user(), [anne, bob], ["draw"], day=datetime.date(2026, 4, 1), name="Elsewhere")
    make_edition("v3")

    page = context_of(organiser).new_page()
    page.goto("/seasons/new/")
    no_sideways_scroll(page)
    page.get_by_label(words["name"], exact=True).fill("Club season 2026")
    page.get_by_label(words["edition"], exact=True).select_option(label="Edition v3")
    page.get_by_label(words["best"]).fill("2")
    for name, day in zip(("January", "February", "March"), days, strict=True):
        page.get_by_label(f"{name} · {day:%Y-%m-%d}").check()
    page.get_by_role("button", name=words["save"]).click()
    expect(page.get_by_text(words["created"])).to_be_visible(timeout=30000)
    expect(page.get_by_text(words["unpublished"])).to_be_visible(timeout=30000)
    no_sideways_scroll(page)
    season = Season.objects.get()
    assert sorted(season.events.values_list("name", flat=True)) == ["February", "January", "March"]
    assert season.best == 2 and not season.published

    anonymous = context_of().new_page()
    assert anonymous.goto(f"/seasons/{season.slug}/").status == 404  # not published yet

    page.get_by_role("link", name=words["edit"]).click()
    page.get_by_label(words["published"], exact=True).check()
    page.get_by_role("button", name=words["save"]).click()
    expect(page.get_by_text(words["saved"])).to_be_visible(timeout=30000)
    expect(page.get_by_text(words["unpublished"])).to_have_count(0)

    anonymous.goto(f"/seasons/{season.slug}/")
    expect(anonymous.get_by_role("heading", name="Club season 2026")).to_be_visible(timeout=30000)
    expect(anonymous.get_by_text(words["rules"])).to_be_visible()
    expect(anonymous.get_by_role("columnheader", name=words["results"])).to_be_visible()
    no_sideways_scroll(anonymous)
    rows = anonymous.locator(".standings tbody tr")
    expect(rows).to_have_count(4)
    expected = {
        "Anne": ("1", "200", ["100", "100"], "50"),
        LONG_NAME: ("1", "200", ["100", "100"], "50"),
        "Bob": ("3", "150", ["100", "50"], "50"),
        "Carl": ("3", "150", ["100", "50"], "50"),
    }
    for player, (place, total, counted, dropped) in expected.items():
        row = rows.filter(has=anonymous.get_by_role("link", name=player, exact=True))
        expect(row.locator("td").nth(0)).to_have_text(place)
        expect(row.locator("td").nth(2)).to_have_text(total)
        expect(row.locator(".counted")).to_have_text(counted)
        struck = row.locator("del.dropped")
        expect(struck).to_have_text([dropped])
        expect(struck).to_have_attribute("title", words["dropped"])
    for name in ("January", "February", "March"):
        expect(anonymous.get_by_role("link", name=name, exact=True)).to_be_visible()

    # In print: the standings whole (every row, dropped results still struck through), without the
    # site's navigation, and for the organiser without the edit link and the game form's heading.
    for printed in (anonymous, page):
        printed.goto(f"/seasons/{season.slug}/")
        printed.emulate_media(media="print")
        expect(printed.locator(".site-header")).to_be_hidden()
        expect(printed.locator(".standings tbody tr")).to_have_count(4)
        for row in printed.locator(".standings tbody tr").all():
            expect(row).to_be_visible()
        expect(printed.locator("del.dropped")).to_have_count(4)
        assert printed.locator("del.dropped").first.evaluate("e => getComputedStyle(e).textDecorationLine") == (
            "line-through"
        )
        no_sideways_scroll(printed)
    expect(page.get_by_role("link", name=words["edit"])).to_be_hidden()
    expect(page.locator("#report-game")).to_be_hidden()
    expect(anonymous.get_by_role("link", name="Elsewhere")).to_have_count(0)
