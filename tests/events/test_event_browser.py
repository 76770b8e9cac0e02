"""In a real browser, on a phone and a desktop, in English and French: an 8-player, 3-round event.

The organiser and one player use the browser throughout (create, join, submit an illegal then a
legal list, approve, reveal, pair, publish, enter and confirm results, standings, the lists' PDF);
the other seven players are made in the database and their results entered and confirmed through
the same services the pages call, except the browser player's opponent, who confirms in a browser.
"""

from __future__ import annotations

import re

import pytest
from django.db.models import Q
from playwright.sync_api import expect

from armybuilder.events import services
from armybuilder.events.models import Entrant, Event, Pairing
from tests.conftest import log_in
from tests.events.factories import make_entrant, make_player_list
from tests.lists.factories import make_army, make_edition, make_user

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# What the test reads and clicks, in each language (the French from locale/fr).
FRENCH = {
    "Save": "Enregistrer",
    "Join this event": "S'inscrire à cet événement",
    "Seal and submit": "Sceller et soumettre",
    "the limit is 100": "la limite est de 100",
    "The list is 150 points; the limit is 100.": "La liste fait 150 points ; la limite est de 100.",
    "Sent back": "Renvoyée",
    "Submit again": "Soumettre à nouveau",
    "Legal for Winter Cup.": "Légale pour Winter Cup.",
    "Approved": "Approuvée",
    "Reveal the lists": "Révéler les listes",
    "Hide the lists": "Masquer les listes",
    "Publish the event": "Publier l'événement",
    "Unpublish the event": "Dépublier l'événement",
    "Pair the next round": "Apparier la ronde suivante",
    "Publish this round": "Publier cette ronde",
    "Send": "Envoyer",
    "Waiting for confirmation": "En attente de confirmation",
    "Confirm this result": "Confirmer ce résultat",
    "Confirmed": "Confirmé",
    "PDF of every approved list": "PDF de toutes les listes approuvées",
}


def _say(lang: str):
    return (lambda text: FRENCH[text]) if lang == "fr" else (lambda text: text)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_whole_event_in_the_browser(django_db_setup, live_server, new_browser_context, viewport, lang):
    t = _say(lang)
    language = [{"name": "django_language", "value": lang, "url": live_server.url}]
    edition = make_edition("v3")
    army = make_army(edition=edition, slug="germany", name="Germany")
    organiser = make_user("orga")
    player = make_user("pia")
    org_context = new_browser_context(viewport=viewport)
    org_context.add_cookies(language)
    log_in(org_context, live_server, organiser)
    org = org_context.new_page()

    # Create the event.
    org.goto("/events/new/")
    org.fill("#id_name", "Winter Cup")
    org.fill("#id_date", "2026-12-05")
    org.select_option("#id_edition", str(edition.pk))
    org.fill("#id_points_limit", "100")
    org.fill("#id_rounds", "3")
    org.click(f"main button:has-text({t('Save')!r})")
    org.wait_for_url(re.compile(r".*/events/[\w-]+/manage/$"))
    event = Event.objects.get()
    assert org.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1

    # Seven players enter through the database, one through the browser.
    for index in range(7):
        make_entrant(event, make_user(f"player{index}"), army=army, approve=False, units=2)
    player_context = new_browser_context(viewport=viewport)
    player_context.add_cookies(language)
    log_in(player_context, live_server, player)
    me = player_context.new_page()
    too_big = make_player_list(player, army, units=3, name="Too big")
    legal = make_player_list(player, army, units=2, name="Just right")
    me.goto(f"/events/{event.slug}/")
    me.click(f"button:has-text({t('Join this event')!r})")
    me.wait_for_url(f"**/events/{event.slug}/submit/")
    me.select_option("#id_army_list", str(too_big.pk))
    me.click(f"button:has-text({t('Seal and submit')!r})")
    me.wait_for_url(f"**/events/{event.slug}/")
    expect(me.locator("ul.problems")).to_contain_text(t("the limit is 100"))
    entrant = Entrant.objects.get(user=player)

    # The organiser sees the problem and sends the list back with a note.
    org.goto(f"/events/{event.slug}/manage/")
    row = org.locator(f"#entrant-{entrant.pk}")
    expect(row).to_contain_text(t("The list is 150 points; the limit is 100."))
    row.locator("input[name=note]").fill("Over the limit")
    row.locator("button[value=return]").click()
    expect(org.locator(f"#entrant-{entrant.pk}")).to_contain_text(t("Sent back"))

    me.reload()
    expect(me.locator("body")).to_contain_text("Over the limit")
    me.click(f"a:has-text({t('Submit again')!r})")
    me.select_option("#id_army_list", str(legal.pk))
    me.click(f"button:has-text({t('Seal and submit')!r})")
    me.wait_for_url(f"**/events/{event.slug}/")
    expect(me.locator("p.ok")).to_contain_text(t("Legal for Winter Cup."))

    # Approve all eight, reveal the lists, publish the event.
    org.goto(f"/events/{event.slug}/manage/")
    for other in Entrant.objects.filter(event=event):
        org.locator(f"#entrant-{other.pk} button[value=approve]").click()
        expect(org.locator(f"#entrant-{other.pk}")).to_contain_text(t("Approved"))
    org.click(f"button:has-text({t('Reveal the lists')!r})")
    expect(org.locator(f"button:has-text({t('Hide the lists')!r})")).to_be_visible()
    org.click(f"button:has-text({t('Publish the event')!r})")
    expect(org.locator(f"button:has-text({t('Unpublish the event')!r})")).to_be_visible()

    opponents = set()
    for number in (1, 2, 3):
        org.click(f"button:has-text({t('Pair the next round')!r})")
        expect(org.locator("ol.pairings li")).to_have_count(4)
        org.click(f"button:has-text({t('Publish this round')!r})")
        org.wait_for_url(f"**/events/{event.slug}/rounds/{number}/")
        mine = Pairing.objects.get(Q(player_a=entrant) | Q(player_b=entrant), round__event=event, round__number=number)
        opponent = mine.player_b if mine.player_a_id == entrant.pk else mine.player_a
        assert opponent.pk not in opponents
        opponents.add(opponent.pk)

        # The browser player enters the result on their phone; the opponent confirms on theirs.
        me.goto(f"/events/{event.slug}/")
        me.click(f"a[href$='/rounds/{number}/#pairing-{mine.pk}']")
        card = me.locator(f"#pairing-{mine.pk}")
        card.locator("input[name=outcome][value=a]").check()
        card.locator("input[name=dice_a]").fill("4")
        card.locator("input[name=dice_b]").fill("2")
        card.locator(f"button:has-text({t('Send')!r})").click()
        expect(me.locator(f"#pairing-{mine.pk}")).to_contain_text(t("Waiting for confirmation"))
        other_context = new_browser_context(viewport=viewport)
        other_context.add_cookies(language)
        log_in(other_context, live_server, opponent.user)
        them = other_context.new_page()
        them.goto(f"/events/{event.slug}/rounds/{number}/")
        them.locator(f"#pairing-{mine.pk} button:has-text({t('Confirm this result')!r})").click()
        expect(them.locator(f"#pairing-{mine.pk}")).to_contain_text(t("Confirmed"))
        other_context.close()
        for pairing in Pairing.objects.filter(round__event=event, round__number=number).exclude(pk=mine.pk):
            services.enter_result(pairing, pairing.player_a, "draw", 1, 1)
            services.confirm_result(pairing, pairing.player_b)
        org.goto(f"/events/{event.slug}/manage/")

    # Live standings, public: eight rows, in order of score.
    visitor_context = new_browser_context(viewport=viewport)
    visitor_context.add_cookies(language)
    visitor = visitor_context.new_page()
    visitor.goto(f"/events/{event.slug}/standings/")
    rows = visitor.locator("table.standings tbody tr")
    expect(rows).to_have_count(8)
    scores = [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(8)]
    assert scores == sorted(scores, reverse=True)
    assert visitor.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1

    # One PDF of every approved list, from the dashboard.
    # Tests run tasks inside the request (Django's immediate backend): eight rosters take a while.
    org.click(f"button:has-text({t('PDF of every approved list')!r})", no_wait_after=True)
    expect(org.locator("#pdf-job-download")).to_be_visible(timeout=120_000)
    response = org.request.get(org.locator("#pdf-job-download").get_attribute("href"))
    assert response.headers["content-type"] == "application/pdf" and response.body()[:4] == b"%PDF"
