"""A team event of four teams of three in a real browser, on a phone and a desktop, in English and
French: a captain founds the fourth team and a player joins it by its link, the captain sets the
line-up, enters a result, and the team standings show beside the players'."""

from __future__ import annotations

import pytest
from django.db.models import Q
from playwright.sync_api import expect

from armybuilder.events import services
from armybuilder.events import teams as team_services
from armybuilder.events.models import Entrant, Pairing, Team, TeamMatch
from tests.conftest import log_in
from tests.events.factories import make_entrant
from tests.events.team_factories import make_team_event, players_of
from tests.lists.factories import make_user

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

FRENCH = {
    "Teams": "Équipes",
    "Team points": "Points d'équipe",
    "Players": "Joueurs",
    "You captain it.": "Vous en êtes le capitaine.",
    "Join Les Paras": "Rejoindre Les Paras",
    "The line-up of Les Paras is set.": "La composition de Les Paras est fixée.",
    "Set the line-up": "Fixer la composition",
    "Found the team and captain it": "Fonder l'équipe et en être le capitaine",
    "Join this team": "Rejoindre cette équipe",
}


def _say(lang: str):
    return (lambda text: FRENCH[text]) if lang == "fr" else (lambda text: text)


def _fits(page, viewport) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def _context(new_browser_context, live_server, user, viewport, lang):
    context = new_browser_context(viewport=viewport)
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    log_in(context, live_server, user)
    return context.new_page()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_team_event_of_four_teams_of_three(django_db_setup, live_server, new_browser_context, viewport, lang):
    t = _say(lang)
    organiser = make_user("orga")
    event = make_team_event(organiser, teams=3, size=3, rounds=3)
    captain = make_entrant(event, make_user("cap"))
    joiner = make_entrant(event, make_user("joiner"))
    third = make_entrant(event, make_user("third"))

    # Sign-up: the captain founds the fourth team on their phone (or desktop).
    cap = _context(new_browser_context, live_server, captain.user, viewport, lang)
    cap.goto(f"/events/{event.slug}/teams/")
    _fits(cap, viewport)
    cap.fill("#id_name", "Les Paras")
    cap.get_by_role("button", name=t("Found the team and captain it")).click()
    expect(cap.locator("#my-team")).to_contain_text(t("You captain it."))
    team = Team.objects.get(name="Les Paras")
    expect(cap.locator("#my-team .join-link")).to_have_text(
        f"{live_server.url}/events/{event.slug}/teams/join/{team.join_code}/"
    )
    _fits(cap, viewport)

    # A player joins by the link; the third is added by the organiser's service.
    player = _context(new_browser_context, live_server, joiner.user, viewport, lang)
    player.goto(f"/events/{event.slug}/teams/join/{team.join_code}/")
    expect(player.locator("h1")).to_have_text(t("Join Les Paras"))
    player.get_by_role("button", name=t("Join this team")).click()
    expect(player).to_have_url(f"{live_server.url}/events/{event.slug}/submit/")
    team_services.join_team(event, team.pk, third.pk)
    assert Entrant.objects.get(pk=joiner.pk).team_id == team.pk

    # Round 1 paired and published by the organiser; the captain sets the line-up on the round page.
    services.publish_round(services.pair_next_round(event))
    match = TeamMatch.objects.get(Q(team_a=team) | Q(team_b=team), round__event=event)
    side = match.side_of(team.pk)
    order = [third.pk, captain.pk, joiner.pk]
    cap.goto(f"/events/{event.slug}/rounds/1/")
    card = cap.locator(f"#team-match-{match.pk}")
    for index, pk in enumerate(order, start=1):
        card.locator(f"#m{match.pk}{side}-seat_{index}").select_option(str(pk))
    _fits(cap, viewport)
    card.get_by_role("button", name=t("Set the line-up")).click()
    expect(cap.locator("body")).to_contain_text(t("The line-up of Les Paras is set."))
    match.refresh_from_db()
    assert getattr(match, f"lineup_{side}") == order

    # The other captain's line-up, then every game resulted; the captain enters their own game's result.
    other = match.team_b if side == "a" else match.team_a
    team_services.set_lineup(event, match.pk, "b" if side == "a" else "a", players_of(other))
    for other_match in TeamMatch.objects.filter(round__event=event).exclude(pk=match.pk):
        team_services.set_lineup(event, other_match.pk, "a", players_of(other_match.team_a))
        team_services.set_lineup(event, other_match.pk, "b", players_of(other_match.team_b))
    mine = Pairing.objects.get(team_match=match, **({"player_a": captain} if side == "a" else {"player_b": captain}))
    cap.goto(f"/events/{event.slug}/rounds/1/")
    game = cap.locator(f"#pairing-{mine.pk}")
    game.locator(f"#p{mine.pk}-outcome_0").check()  # player a won
    game.locator(f"#p{mine.pk}-dice_a").fill("4")
    game.locator(f"form[action$='/pairings/{mine.pk}/result/'] button[type=submit]").click()
    expect(cap.locator(f"#pairing-{mine.pk}")).to_contain_text("4")
    services.confirm_result(mine, mine.player_b if side == "a" else mine.player_a)
    for pairing in Pairing.objects.filter(round__event=event).exclude(pk=mine.pk).select_related("round"):
        services.override_result(pairing, "a", 2, 1)
    _fits(cap, viewport)

    # The standings: teams beside the players, in the visitor's language.
    cap.goto(f"/events/{event.slug}/standings/")
    teams = cap.locator("#team-standings")
    expect(teams.locator("h2")).to_have_text(t("Teams"))
    expect(teams.locator("thead")).to_contain_text(t("Team points"))
    expect(teams.locator("tbody tr")).to_have_count(4)
    expect(teams).to_contain_text("Les Paras")
    expect(cap.locator("#player-standings h2")).to_have_text(t("Players"))
    expect(cap.locator("#player-standings tbody tr")).to_have_count(12)
    _fits(cap, viewport)
    # Side by side on a desktop, one above the other on a phone.
    team_box, player_box = teams.bounding_box(), cap.locator("#player-standings").bounding_box()
    if viewport is DESKTOP:
        assert abs(team_box["y"] - player_box["y"]) < 5 and player_box["x"] > team_box["x"]
    else:
        assert player_box["y"] > team_box["y"]
