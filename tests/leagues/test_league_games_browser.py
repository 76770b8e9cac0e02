"""League games in a real browser without JavaScript, on a phone in English and a desktop in
French: a player reports a game against another, the opponent confirms it, the season's standings
count it; no page scrolls sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.leagues.models import LeagueGame, Season
from tests.conftest import log_in
from tests.lists.factories import make_edition, make_user

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
BOB = "Bartholomew-Maximilian"

WORDS = {
    "en": {
        "opponent": "Opponent (username)",
        "won": "I won",
        "report": "Report the game",
        "yourself": "You cannot report a game against yourself.",
        "reported": f"it counts once {BOB} confirms it",
        "waiting": f"Waiting for {BOB} to confirm.",
        "confirm": "Confirm",
        "confirmed": "The game is confirmed: it counts in the standings.",
        "won against": f"won against {BOB}",
    },
    "fr": {
        "opponent": "Adversaire (nom d’utilisateur)",
        "won": "J’ai gagné",
        "report": "Déclarer la partie",
        "yourself": "Vous ne pouvez pas déclarer une partie contre vous-même.",
        "reported": f"elle comptera dès que {BOB} l’aura confirmée",
        "waiting": f"En attente de la confirmation de {BOB}.",
        "confirm": "Confirmer",
        "confirmed": "La partie est confirmée : elle compte au classement.",
        "won against": f"a gagné contre {BOB}",
    },
}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "en"), (DESKTOP, "fr")], ids=["phone-en", "desktop-fr"])
def test_report_and_confirm_a_league_game(django_db_setup, live_server, new_browser_context, viewport, lang):
    words = WORDS[lang]

    def no_sideways_scroll(page) -> None:
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1

    def context_of(user):
        context = new_browser_context(viewport=viewport, java_script_enabled=False)
        log_in(context, live_server, user)
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        return context

    organiser = make_user("orga")
    anne = make_user("anne", first_name="Anne")
    bob = make_user("bob_with_a_rather_long_username_for_a_phone", first_name=BOB)
    season = Season.objects.create(
        organiser=organiser, name="Club league", edition=make_edition("v3"), published=True, reports_open=True
    )
    url = f"/seasons/{season.slug}/"

    page = context_of(anne).new_page()
    page.goto(url)
    no_sideways_scroll(page)
    page.get_by_label(words["opponent"]).fill("anne")
    page.get_by_label(words["won"]).check()
    page.get_by_role("button", name=words["report"]).click()
    expect(page.get_by_text(words["yourself"])).to_be_visible()
    no_sideways_scroll(page)
    page.get_by_label(words["opponent"]).fill(bob.username)
    page.get_by_label("Mission").fill("Hold until relieved")
    page.get_by_role("button", name=words["report"]).click()
    expect(page.get_by_text(words["reported"])).to_be_visible()
    expect(page.get_by_text(words["waiting"])).to_be_visible()
    no_sideways_scroll(page)

    other = context_of(bob).new_page()
    other.goto(url)
    other.get_by_role("button", name=words["confirm"], exact=True).click()
    expect(other.get_by_text(words["confirmed"])).to_be_visible()
    expect(other.locator(".standings tbody tr").first).to_contain_text("Anne")
    no_sideways_scroll(other)
    assert LeagueGame.objects.get().confirmed

    other.goto(f"/players/{anne.username}/")
    expect(other.get_by_text(words["won against"])).to_be_visible()
    no_sideways_scroll(other)
