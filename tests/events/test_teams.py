"""Team events through the test client: sign-up, line-ups, results and standings, for every role."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.db.models import Q
from django.test import Client

from armybuilder.events import services
from armybuilder.events import teams as team_services
from armybuilder.events.models import Entrant, Outcome, Pairing, Result, Submission, Team, TeamMatch
from tests.events.factories import make_entrant, make_event
from tests.events.team_factories import make_team_event, players_of
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _text(response) -> str:
    return response.content.decode()


def _messages(response) -> str:
    return " ".join(str(message) for message in response.context["messages"]) if response.context else ""


# -- Sign-up ------------------------------------------------------------------------------------


def test_a_captain_founds_a_team_and_players_join_it_by_its_link():
    event = make_event(published=True, team_size=3)
    captain = make_entrant(event, make_user("cap"))
    response = _client(captain.user).post(f"/events/{event.slug}/teams/new/", {"name": "  Desert  Rats "})
    team = Team.objects.get(event=event)
    assert response.status_code == 302 and response["Location"].endswith("#my-team")
    assert team.name == "Desert Rats" and team.captain == captain
    page = _text(_client(captain.user).get(f"/events/{event.slug}/teams/"))
    assert f"/events/{event.slug}/teams/join/{team.join_code}/" in page and "You captain it." in page

    # A player who has not joined the event yet joins it and the team by the link.
    newcomer = make_user("newcomer")
    link = f"/events/{event.slug}/teams/join/{team.join_code}/"
    assert "Join Desert Rats" in _text(_client(newcomer).get(link))
    response = _client(newcomer).post(link)
    assert response.status_code == 302 and response["Location"] == f"/events/{event.slug}/submit/"
    assert Entrant.objects.get(event=event, user=newcomer).team == team

    # The code typed (or the link pasted) on the teams page leads to the same link.
    typist = make_entrant(event, make_user("typist"))
    response = _client(typist.user).post(f"/events/{event.slug}/teams/code/", {"code": f"https://x{link}"})
    assert response.status_code == 302 and response["Location"] == link
    _client(typist.user).post(link)
    assert team.members.count() == 3


def test_a_full_team_refuses_a_joiner_in_words():
    event = make_team_event(teams=2, size=2)
    team = Team.objects.get(name="Team 1")
    late = make_user("late")
    link = f"/events/{event.slug}/teams/join/{team.join_code}/"
    page = _client(late).get(link)
    assert "This team is full" in _text(page) and "Join this team" not in _text(page)
    response = _client(late).post(link)
    assert response.status_code == 409 and "This team is full" in _text(response)
    assert not Entrant.objects.filter(user=late, team__isnull=False).exists()


def test_refusals_of_the_sign_up_are_said():
    event = make_team_event(teams=2, size=2)
    in_team = Entrant.objects.get(user__username="t1p2")
    other = Team.objects.get(name="Team 2")
    # A name already taken, a player already in a team, an unknown code, a link of no team.
    free = make_entrant(event, make_user("free"))
    response = _client(free.user).post(f"/events/{event.slug}/teams/new/", {"name": "team 1"})
    assert response.status_code == 400 and "Another team of this event already has this name." in _text(response)
    response = _client(in_team.user).post(f"/events/{event.slug}/teams/join/{other.join_code}/")
    assert response.status_code == 409 and "already in a team" in _text(response)
    response = _client(free.user).post(f"/events/{event.slug}/teams/code/", {"code": "nope"})
    assert response.status_code == 400 and "No team of this event has this code." in _text(response)
    response = _client(free.user).get(f"/events/{event.slug}/teams/join/nope/")
    assert response.status_code == 404 and "This join link is not valid" in _text(response)
    # A visitor not entered is asked to join the event first.
    stranger = make_user("stranger")
    response = _client(stranger).post(f"/events/{event.slug}/teams/new/", {"name": "X"}, follow=True)
    assert "Join the event first" in _messages(response)
    assert not Team.objects.filter(name="X").exists()


def test_the_teams_no_longer_change_once_a_round_is_paired():
    event = make_team_event(teams=2, size=2)
    services.pair_next_round(event)
    team = Team.objects.get(name="Team 1")
    late = make_user("late")
    response = _client(late).post(f"/events/{event.slug}/teams/join/{team.join_code}/")
    assert response.status_code == 409 and "The first round is paired" in _text(response)
    member = Entrant.objects.get(user__username="t1p2")
    response = _client(member.user).post(f"/events/{event.slug}/teams/leave/", follow=True)
    assert "The first round is paired" in _messages(response)
    assert Entrant.objects.get(pk=member.pk).team == team


def test_a_captain_who_leaves_hands_the_team_on_and_the_last_one_ends_it():
    event = make_team_event(teams=1, size=2)
    team = Team.objects.get()
    captain, second = players_of(team)
    _client(Entrant.objects.get(pk=captain).user).post(f"/events/{event.slug}/teams/leave/")
    team.refresh_from_db()
    assert team.captain_id == second
    _client(Entrant.objects.get(pk=second).user).post(f"/events/{event.slug}/teams/leave/")
    assert not Team.objects.exists()


def test_the_organiser_founds_teams_and_adds_and_removes_players():
    organiser = make_user("orga")
    event = make_event(organiser, published=True, team_size=2)
    alice, bob, carol = (make_entrant(event, make_user(name)) for name in ("alice", "bob", "carol"))
    org = _client(organiser)
    response = org.post(f"/events/{event.slug}/manage/teams/", {"entrant": alice.pk, "name": "Paras"})
    team = Team.objects.get()
    assert response.status_code == 302 and team.captain == alice
    org.post(f"/events/{event.slug}/manage/teams/", {"entrant": bob.pk, "team": team.pk})
    assert set(team.members.values_list("pk", flat=True)) == {alice.pk, bob.pk}
    # Full now: refused in words, next to the team.
    response = org.post(f"/events/{event.slug}/manage/teams/", {"entrant": carol.pk, "team": team.pk})
    assert response.status_code == 400 and "This team is full" in _text(response)
    assert team.members.count() == 2
    # Neither a name nor a team: said next to the name.
    response = org.post(f"/events/{event.slug}/manage/teams/", {"entrant": carol.pk})
    assert "Name the new team, or choose a team" in _text(response)
    org.post(f"/events/{event.slug}/manage/teams/remove/{bob.pk}/")
    assert Entrant.objects.get(pk=bob.pk).team is None


@pytest.mark.parametrize("role", ["captain", "member", "anonymous", "other_organiser"])
def test_only_the_organiser_changes_teams_on_the_organisers_forms(role):
    event = make_team_event(teams=1, size=3)
    team = Team.objects.get()
    member = Entrant.objects.get(user__username="t1p2")
    users = {
        "captain": team.captain.user,
        "member": member.user,
        "anonymous": None,
        "other_organiser": make_event(make_user("other-orga")).organiser,
    }
    client = _client(users[role])
    free = make_entrant(event, make_user("free"))
    response = client.post(f"/events/{event.slug}/manage/teams/", {"entrant": free.pk, "name": "Mine"})
    assert response.status_code in (302, 404)
    assert response.status_code == 404 or response["Location"].startswith("/accounts/login/")
    response = client.post(f"/events/{event.slug}/manage/teams/remove/{member.pk}/")
    assert response.status_code in (302, 404)
    assert response.status_code == 404 or response["Location"].startswith("/accounts/login/")
    assert Team.objects.count() == 1 and Entrant.objects.get(pk=member.pk).team == team


def test_an_individual_event_has_no_teams_page():
    event = make_event(published=True)
    assert _client().get(f"/events/{event.slug}/teams/").status_code == 404


# -- Rounds and line-ups -----------------------------------------------------------------------


@pytest.fixture
def team_round():
    """Four teams of three, round 1 paired and published."""
    organiser = make_user("orga")
    event = make_team_event(organiser, teams=4, size=3)
    org = _client(organiser)
    assert org.post(f"/events/{event.slug}/manage/pair/").status_code == 302
    assert org.post(f"/events/{event.slug}/manage/rounds/1/publish/").status_code == 302
    match = TeamMatch.objects.order_by("position").first()
    return {"event": event, "organiser": organiser, "match": match}


def _lineup_post(players: list[int], side: str) -> dict:
    return {"side": side, **{f"seat_{index}": pk for index, pk in enumerate(players, start=1)}}


def test_pairing_refuses_incomplete_teams_in_words():
    organiser = make_user("orga")
    event = make_team_event(organiser, teams=2, size=3)
    Entrant.objects.filter(user__username="t2p3").update(team=None)
    response = _client(organiser).post(f"/events/{event.slug}/manage/pair/", follow=True)
    assert "Every team needs exactly the event's number of players per team" in _messages(response)
    assert not TeamMatch.objects.exists()


@pytest.mark.parametrize("status", [Submission.Status.PENDING, Submission.Status.RETURNED, None])
def test_pairing_refuses_a_team_whose_player_has_no_approved_list(status):
    # Each player's list is sealed and judged as at any event: a team plays only once all are approved.
    organiser = make_user("orga")
    event = make_team_event(organiser, teams=2, size=3)
    lists = Submission.objects.filter(entrant__user__username="t2p2")
    if status is None:
        lists.delete()
    else:
        lists.update(status=status)
    response = _client(organiser).post(f"/events/{event.slug}/manage/pair/", follow=True)
    assert "Every team needs exactly the event's number of players per team" in _messages(response)
    assert not TeamMatch.objects.exists()
    Submission.objects.filter(entrant__event=event).update(status=Submission.Status.APPROVED)
    if status is not None:
        assert _client(organiser).post(f"/events/{event.slug}/manage/pair/").status_code == 302
        assert TeamMatch.objects.filter(round__event=event).count() == 1


def test_captains_set_their_line_ups_and_the_games_are_made(team_round):
    event, match = team_round["event"], team_round["match"]
    url = f"/events/{event.slug}/team-pairings/{match.pk}/line-up/"
    captain_a, captain_b = match.team_a.captain, match.team_b.captain
    players_a, players_b = players_of(match.team_a), players_of(match.team_b)

    page = _text(_client(captain_a.user).get(f"/events/{event.slug}/rounds/1/"))
    assert f"Set the line-up of {match.team_a.name}" in page
    assert f"Set the line-up of {match.team_b.name}" not in page

    # Team a's captain: their own line-up, in their order; hidden from team b until both are set.
    order_a = list(reversed(players_a))
    response = _client(captain_a.user).post(url, _lineup_post(order_a, "a"), follow=True)
    assert f"The line-up of {match.team_a.name} is set." in _messages(response)
    first_a = Entrant.objects.get(pk=order_a[0]).name
    their_page = _text(_client(captain_b.user).get(f"/events/{event.slug}/rounds/1/"))
    assert "line-up set (shown once both are)" in their_page and f"1. {first_a}" not in their_page
    assert not Pairing.objects.exists()

    response = _client(captain_b.user).post(url, _lineup_post(players_b, "b"), follow=True)
    games = list(Pairing.objects.filter(team_match=match).order_by("table"))
    assert [(g.player_a_id, g.player_b_id) for g in games] == list(zip(order_a, players_b, strict=True))
    assert [g.table for g in games] == [match.position * 3 + n for n in (1, 2, 3)]
    assert f"1. {first_a}" in _text(_client().get(f"/events/{event.slug}/rounds/1/"))

    # Locked once made.
    response = _client(captain_a.user).post(url, _lineup_post(players_a, "a"), follow=True)
    assert "the line-ups can no longer change" in _messages(response)


def test_a_captain_cannot_set_the_other_teams_line_up(team_round):
    event, match = team_round["event"], team_round["match"]
    url = f"/events/{event.slug}/team-pairings/{match.pk}/line-up/"
    response = _client(match.team_a.captain.user).post(url, _lineup_post(players_of(match.team_b), "b"), follow=True)
    assert "only your own team's line-up is yours to set" in _messages(response)
    match.refresh_from_db()
    assert match.lineup_b == []


def test_a_line_up_uses_each_player_once_and_only_the_teams_players(team_round):
    event, match = team_round["event"], team_round["match"]
    url = f"/events/{event.slug}/team-pairings/{match.pk}/line-up/"
    captain = _client(match.team_a.captain.user)
    players = players_of(match.team_a)
    response = captain.post(url, _lineup_post([players[0], players[0], players[1]], "a"), follow=True)
    assert "Each player plays once" in _messages(response)
    response = captain.post(url, _lineup_post(players[:2] + players_of(match.team_b)[:1], "a"), follow=True)
    assert "Choose a player for every game." in _messages(response)
    response = captain.post(url, _lineup_post(players[:2], "a"), follow=True)
    assert "Choose a player for every game." in _messages(response)
    match.refresh_from_db()
    assert match.lineup_a == []


@pytest.mark.parametrize("role", ["member", "opponent", "anonymous", "other_organiser"])
def test_nobody_but_the_captain_or_the_organiser_sets_a_line_up(team_round, role):
    event, match = team_round["event"], team_round["match"]
    url = f"/events/{event.slug}/team-pairings/{match.pk}/line-up/"
    member = Entrant.objects.get(pk=players_of(match.team_a)[1])
    opponent = Entrant.objects.get(pk=players_of(match.team_b)[1])
    users = {
        "member": member.user,
        "opponent": opponent.user,
        "anonymous": None,
        "other_organiser": make_event(make_user("other-orga")).organiser,
    }
    response = _client(users[role]).post(url, _lineup_post(players_of(match.team_a), "a"), follow=True)
    if role == "anonymous":
        assert response.redirect_chain[-1][0].startswith("/accounts/login/")
    else:
        assert "Only the team's captain or the organiser sets its line-up." in _messages(response)
    match.refresh_from_db()
    assert match.lineup_a == []


def test_the_organiser_sets_line_ups_for_the_captains(team_round):
    event, match, organiser = team_round["event"], team_round["match"], team_round["organiser"]
    url = f"/events/{event.slug}/team-pairings/{match.pk}/line-up/"
    org = _client(organiser)
    page = _text(org.get(f"/events/{event.slug}/rounds/1/"))
    assert f"Set the line-up of {match.team_a.name}" in page and f"Set the line-up of {match.team_b.name}" in page
    org.post(url, _lineup_post(players_of(match.team_a), "a"))
    org.post(url, _lineup_post(players_of(match.team_b), "b"))
    assert Pairing.objects.filter(team_match=match).count() == 3


def _play_round(event, number: int, winner_side: str = "a") -> None:
    """Every team pairing of the round: line-ups as joined, each game won by ``winner_side``'s
    player, entered by one player and confirmed by the other through the pages."""
    for match in TeamMatch.objects.filter(round__event=event, round__number=number):
        if match.is_bye:
            continue
        url = f"/events/{event.slug}/team-pairings/{match.pk}/line-up/"
        _client(match.team_a.captain.user).post(url, _lineup_post(players_of(match.team_a), "a"))
        _client(match.team_b.captain.user).post(url, _lineup_post(players_of(match.team_b), "b"))
        for game in Pairing.objects.filter(team_match=match).select_related("player_a__user", "player_b__user"):
            outcome = Outcome.A_WINS if winner_side == "a" else Outcome.B_WINS
            _client(game.player_a.user).post(
                f"/events/{event.slug}/pairings/{game.pk}/result/", {"outcome": outcome, "dice_a": 2, "dice_b": 1}
            )
            _client(game.player_b.user).post(f"/events/{event.slug}/pairings/{game.pk}/confirm/")
            assert Result.objects.get(pairing=game).counts


def test_three_rounds_results_and_team_standings_beside_the_players(team_round):
    event, organiser = team_round["event"], team_round["organiser"]
    org = _client(organiser)
    # Round 2 waits for round 1's line-ups and results.
    response = org.post(f"/events/{event.slug}/manage/pair/", follow=True)
    assert "have no line-ups or unconfirmed results yet" in _messages(response)
    _play_round(event, 1)
    for number in (2, 3):
        assert org.post(f"/events/{event.slug}/manage/pair/").status_code == 302
        org.post(f"/events/{event.slug}/manage/rounds/{number}/publish/")
        _play_round(event, number)
    met = [frozenset((m.team_a_id, m.team_b_id)) for m in TeamMatch.objects.filter(round__event=event) if not m.is_bye]
    assert len(met) == len(set(met)) == 6  # four teams, three rounds: every team met every other once

    page = _text(_client().get(f"/events/{event.slug}/standings/"))
    assert 'id="team-standings"' in page and 'id="player-standings"' in page
    assert "Team points" in page and "Game points" in page
    data = json.loads(_client().get(f"/api/events/{event.slug}/standings/").content)
    assert data["team_tiebreaks"] == ["game_points", "games_won", "sos"]
    teams = data["teams"]
    assert len(teams) == 4 and sum(row["team_points"] for row in teams) == 6 * 3  # six team wins
    assert [row["team_points"] for row in teams] == sorted((row["team_points"] for row in teams), reverse=True)
    assert all(len(row["players"]) == 3 and row["matches"] == 3 for row in teams)
    assert len(data["standings"]) == 12 and sum(row["games"] for row in data["standings"]) == 12 * 3
    # The team standings are the rules' over the games played.
    rows = team_services.team_standings(event)
    assert [row.team.name for row in rows] == [row["team"]["name"] for row in teams]


def test_a_team_pairing_counts_once_every_game_has_a_counted_result(team_round):
    event, match = team_round["event"], team_round["match"]
    _play_round(event, 1)
    game = Pairing.objects.filter(team_match=match).first()
    Result.objects.filter(pairing=game).update(confirmed=False)
    rows = {row.team.pk: row.row for row in team_services.team_standings(event)}
    assert rows[match.team_a_id].played == 0 and rows[match.team_b_id].played == 0
    assert rows[match.team_a_id].team_points == 0


def test_a_teams_lists_are_revealed_together():
    organiser = make_user("orga")
    event = make_team_event(organiser, teams=2, size=2)
    stranger = _client()
    team = Team.objects.get(name="Team 1")
    lists = [f"/events/{event.slug}/entrants/{pk}/list/" for pk in players_of(team)]
    page = _text(stranger.get(f"/events/{event.slug}/teams/"))
    assert not any(link in page for link in lists)
    _client(organiser).post(f"/events/{event.slug}/manage/reveal/", {"on": "1"})
    page = _text(stranger.get(f"/events/{event.slug}/teams/"))
    other = Team.objects.get(name="Team 2")
    # Together: both under their team's name, before the next team's card begins.
    start, end = page.index(f'id="team-{team.pk}"'), page.index(f'id="team-{other.pk}"')
    assert all(start < page.index(link) < end for link in lists)


def test_the_event_api_says_the_team_size():
    event = make_team_event(teams=2, size=2)
    data = json.loads(_client().get(f"/api/events/{event.slug}/").content)
    team = Team.objects.get(name="Team 1")
    assert sorted(e["name"] for e in data["entrants"] if e["team"] == {"id": team.pk, "name": "Team 1"}) == [
        "t1p1",
        "t1p2",
    ]
    assert data["rules"]["team_size"] == 2 and data["rules"]["team_tiebreaks"] == ["game_points", "games_won", "sos"]


def test_the_event_form_sets_a_team_event():
    organiser = make_user("orga")
    event = make_event(organiser)
    response = _client(organiser).get(f"/events/{event.slug}/manage/edit/")
    assert 'name="team_size"' in _text(response) and 'name="team_tiebreaks"' in _text(response)


def test_a_line_up_set_moves_the_events_version(team_round):
    """A captain's line-up changes the round page: a poll validated before must not be a 304 after."""
    from armybuilder.events.freshness import event_version

    event, match = team_round["event"], team_round["match"]
    before = event_version(event.slug).stamp
    team_services.set_lineup(event, match.pk, "a", players_of(match.team_a))
    assert event_version(event.slug).stamp != before


def test_the_round_api_shows_team_pairings_and_line_ups_once_both_are_set(team_round):
    event, match = team_round["event"], team_round["match"]
    url = f"/api/events/{event.slug}/rounds/1/"
    data = json.loads(_client().get(url).content)
    assert len(data["team_pairings"]) == 2 and data["pairings"] == []
    first = data["team_pairings"][0]
    assert [team["name"] for team in first["teams"]] == [match.team_a.name, match.team_b.name]
    team_services.set_lineup(event, match.pk, "a", players_of(match.team_a))
    assert json.loads(_client().get(url).content)["team_pairings"][0]["lineups"] is None
    team_services.set_lineup(event, match.pk, "b", players_of(match.team_b))
    data = json.loads(_client().get(url).content)
    assert data["team_pairings"][0]["lineups"] == [players_of(match.team_a), players_of(match.team_b)]
    assert len(data["pairings"]) == 3


def test_a_teams_join_code_is_shown_to_its_players_and_the_organiser_only():
    organiser = make_user("orga")
    event = make_team_event(organiser, teams=2, size=3)
    team = Team.objects.get(name="Team 1")
    Entrant.objects.filter(user__username="t1p3").update(team=None)  # a place left: the link is offered
    member = Entrant.objects.get(user__username="t1p2")
    opponent = Entrant.objects.get(user__username="t2p2")
    assert team.join_code in _text(_client(member.user).get(f"/events/{event.slug}/teams/"))
    assert team.join_code in _text(_client(organiser).get(f"/events/{event.slug}/teams/"))
    for user in (opponent.user, make_user("visitor"), None):
        assert team.join_code not in _text(_client(user).get(f"/events/{event.slug}/teams/"))


def test_the_team_size_no_longer_changes_once_a_round_is_paired():
    organiser = make_user("orga")
    event = make_team_event(organiser, teams=2, size=2)
    services.pair_next_round(event)
    form = _client(organiser).get(f"/events/{event.slug}/manage/edit/").context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None and name != "allowed_armies"}
    data.update({"edition": event.edition_id, "date": "2026-12-05", "team_size": 3, "list_deadline": ""})
    response = _client(organiser).post(f"/events/{event.slug}/manage/edit/", data)
    assert response.status_code == 200
    assert "the number of players per team can no longer change" in _text(response)
    event.refresh_from_db()
    assert event.team_size == 2


def test_a_substitute_replaces_a_dropped_player_mid_event(team_round):
    """Teams are locked for the players once round 1 is paired; the organiser still brings in a
    substitute for a player who dropped, and the team is paired again with them."""
    event, organiser, match = team_round["event"], team_round["organiser"], team_round["match"]
    org = _client(organiser)
    _play_round(event, 1)
    dropped = Entrant.objects.get(pk=players_of(match.team_a)[2])
    services.drop(event, dropped.pk, 2)
    response = org.post(f"/events/{event.slug}/manage/pair/", follow=True)
    assert "Every team needs exactly" in _messages(response)
    substitute = make_entrant(event, make_user("sub"))
    # The substitute cannot join by the link now; the organiser adds them.
    response = _client(substitute.user).post(f"/events/{event.slug}/teams/join/{match.team_a.join_code}/")
    assert response.status_code == 409 and "The first round is paired" in _text(response)
    response = org.post(f"/events/{event.slug}/manage/teams/", {"entrant": substitute.pk, "team": match.team_a.pk})
    assert response.status_code == 302 and Entrant.objects.get(pk=substitute.pk).team == match.team_a
    # Founding a team mid-event stays refused.
    late = make_entrant(event, make_user("late"))
    response = org.post(f"/events/{event.slug}/manage/teams/", {"entrant": late.pk, "name": "Latecomers"})
    assert response.status_code == 400 and "The first round is paired" in _text(response)
    assert org.post(f"/events/{event.slug}/manage/pair/").status_code == 302
    assert TeamMatch.objects.filter(round__event=event, round__number=2).count() == 2
    # The dropped player is refused in a line-up; the substitute plays.
    services.publish_round(event.round_set.get(number=2))
    second = TeamMatch.objects.get(Q(team_a=match.team_a) | Q(team_b=match.team_a), round__event=event, round__number=2)
    side = second.side_of(match.team_a_id)
    captain = match.team_a.captain
    url = f"/events/{event.slug}/team-pairings/{second.pk}/line-up/"
    members = players_of(match.team_a)
    with_dropped = [pk for pk in members if pk != substitute.pk]
    response = _client(captain.user).post(url, _lineup_post(with_dropped, side), follow=True)
    assert "who still play: their list approved, not dropped" in _messages(response)
    playing = [pk for pk in members if pk != dropped.pk]
    response = _client(captain.user).post(url, _lineup_post(playing, side), follow=True)
    assert "is set" in _messages(response)


def test_the_dashboard_says_each_players_team():
    organiser = make_user("orga")
    event = make_team_event(organiser, teams=2, size=2)
    loner = make_entrant(event, make_user("loner"))
    page = _text(_client(organiser).get(f"/events/{event.slug}/manage/"))
    row = page[page.index(f'id="entrant-{loner.pk}"') :]
    assert "no team yet" in row[: row.index("</tr>")]
    member = Entrant.objects.get(user__username="t2p2")
    row = page[page.index(f'id="entrant-{member.pk}"') :]
    assert f'#team-{member.team_id}">Team 2</a>' in row[: row.index("</tr>")]


def test_a_team_pairing_reads_in_the_visitors_language(team_round):
    event, match = team_round["event"], team_round["match"]
    a, b = match.team_a.name, match.team_b.name
    english = _text(_client().get(f"/events/{event.slug}/rounds/1/"))
    french = _text(_client().get(f"/events/{event.slug}/rounds/1/", HTTP_ACCEPT_LANGUAGE="fr"))
    assert f"<strong>{a}</strong> v <strong>{b}</strong>" in english
    assert f"<strong>{a}</strong> contre <strong>{b}</strong>" in french


def test_the_results_csv_and_json_of_a_team_event_say_each_players_team_and_its_place(team_round):
    event, organiser = team_round["event"], team_round["organiser"]
    org = _client(organiser)
    _play_round(event, 1)
    for number in (2, 3):
        org.post(f"/events/{event.slug}/manage/pair/")
        org.post(f"/events/{event.slug}/manage/rounds/{number}/publish/")
        _play_round(event, number)
    standings = json.loads(_client().get(f"/api/events/{event.slug}/standings/").content)
    team_place = {row["team"]["name"]: row["place"] for row in standings["teams"]}
    team_of = dict(Entrant.objects.filter(event=event).values_list("user__username", "team__name"))

    response = _client().get(f"/events/{event.slug}/results.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["placing", "player", "army", "wins", "draws", "losses", "points", "team", "team_placing"]
    assert len(rows) == 13
    for row in rows[1:]:
        assert row[7] == team_of[row[1]] and row[8] == str(team_place[row[7]])
        assert int(row[3]) + int(row[4]) + int(row[5]) == 3
    data = _client().get(f"/api/events/{event.slug}/results/").json()
    assert [(r["player"], r["team"], r["team_placing"]) for r in data["results"]] == [
        (row[1], row[7], int(row[8])) for row in rows[1:]
    ]
    # Team points 3 per team win, each team pairing won by one side: the leaders won all three.
    leaders = [row["team"]["name"] for row in standings["teams"] if row["team_points"] == 9]
    assert leaders and all(team_place[name] == 1 for name in leaders)
