from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from armybuilder.events import services
from armybuilder.events.models import Entrant, Event, Pairing, Result, Submission, TeamMatch
from tests.builtin_data import V2_NATIONS, module_data

pytestmark = pytest.mark.django_db

v2_catalogue = module_data(*V2_NATIONS)


def _seed(**kwargs) -> Event:
    out = io.StringIO()
    call_command("seed_event", stdout=out, **kwargs)
    slug = out.getvalue().strip().splitlines()[-1]
    return Event.objects.get(slug=slug)


def _played(event: Event) -> list[tuple]:
    return [
        (p.round.number, p.table, p.player_a.submission.army_slug, getattr(p.player_b, "pk", None) is None)
        for p in Pairing.objects.filter(round__event=event).select_related("round", "player_a__submission", "player_b")
    ]


def test_seed_event_builds_a_played_event_of_legal_lists_reproducibly(v2_catalogue):
    event = _seed(players=7, rounds=3, seed=5)
    assert event.published and event.entrants.count() == 7
    rows = services.entrant_rows(services.event_for_rules().get(pk=event.pk))
    assert all(row.legal for row in rows), [row.problems for row in rows]
    assert all(row.submission.status == Submission.Status.APPROVED for row in rows)
    assert len({row.submission.army_slug for row in rows}) > 1  # several built-in armies
    assert event.round_set.filter(published=True).count() == 3
    assert Result.objects.filter(pairing__round__event=event).count() == 9  # 3 games a round, one bye
    assert all(result.counts for result in Result.objects.filter(pairing__round__event=event))
    again = _seed(players=7, rounds=3, seed=5)
    assert _played(again) == _played(event)
    results = [
        [(r.outcome, r.dice_a, r.dice_b) for r in Result.objects.filter(pairing__round__event=e).order_by("pk")]
        for e in (event, again)
    ]
    assert results[0] == results[1]


def test_seeded_players_are_shown_by_a_short_name_not_their_account(v2_catalogue):
    call_command("seed_event", "--players", "4", "--rounds", "1", "--seed", "3", stdout=io.StringIO())
    names = sorted(entrant.name for entrant in Entrant.objects.select_related("user"))
    assert names == ["Player 1", "Player 2", "Player 3", "Player 4"]


def test_an_open_round_is_published_without_results_and_players_can_log_in(v2_catalogue, client):
    event = _seed(players=6, rounds=1, seed=2, open_round=True, password="tournament-day-42")
    assert event.rounds == 2
    latest = event.round_set.get(number=2)
    assert latest.published
    assert latest.pairings.count() == 3
    assert not Result.objects.filter(pairing__round=latest).exists()
    assert Result.objects.filter(pairing__round__number=1, pairing__round__event=event).count() == 3
    username = Entrant.objects.filter(event=event).select_related("user").first().user.username
    response = client.post("/accounts/login/", {"username": username, "password": "tournament-day-42"})
    assert response.status_code == 302
    assert client.get(f"/events/{event.slug}/rounds/2/").context["entrant"] is not None


def test_without_a_password_seeded_players_cannot_log_in(v2_catalogue, client):
    event = _seed(players=2, rounds=0, seed=4)
    user = Entrant.objects.filter(event=event).select_related("user").first().user
    assert not user.has_usable_password()


def _team_play(event: Event) -> list[tuple]:
    matches = TeamMatch.objects.filter(round__event=event).select_related("round", "team_a", "team_b")
    return [(m.round.number, m.team_a.name, m.team_b.name if m.team_b else None) for m in matches] + [
        (p.round.number, p.table, p.player_a.name, p.player_b.name, p.result.outcome)
        for p in Pairing.objects.filter(round__event=event).select_related(
            "round", "player_a__user", "player_b__user", "result"
        )
    ]


def test_seed_event_builds_a_team_event_of_four_teams_of_three_reproducibly(v2_catalogue):
    from armybuilder.events.teams import team_standings

    event = _seed(players=12, rounds=3, seed=7, team_size=3)
    assert event.team_size == 3 and event.teams.count() == 4
    assert all(team.members.count() == 3 and team.captain.team_id == team.pk for team in event.teams.all())
    # Three rounds of two team pairings of three games each, every one resulted and counted.
    assert Result.objects.filter(pairing__round__event=event, confirmed=True).count() == 3 * 2 * 3
    met = [frozenset((m.team_a_id, m.team_b_id)) for m in TeamMatch.objects.filter(round__event=event)]
    assert len(set(met)) == 6  # every team met every other, never twice
    rows = team_standings(event)
    assert sum(row.row.played for row in rows) == 12
    again = _seed(players=12, rounds=3, seed=7, team_size=3)
    assert _team_play(again) == _team_play(event)


def test_seed_event_refuses_teams_that_do_not_divide_the_players(v2_catalogue):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="divide --players"):
        _seed(players=10, rounds=1, seed=1, team_size=3)


def _standings(season) -> list[tuple]:
    from armybuilder.leagues.services import season_table

    return [
        (s.name, s.row.place, s.row.total, [(r.points, r.place, r.field, r.counted) for r in s.row.results])
        for s in season_table(season)
    ]


def test_seed_season_builds_a_reproducible_season_of_events_with_dropped_results(v2_catalogue, client):
    from armybuilder.leagues.models import Season

    out = io.StringIO()
    call_command("seed_season", players=6, rounds=2, seed=9, events=3, stdout=out)
    season = Season.objects.get(slug=out.getvalue().strip().splitlines()[-1])
    assert f"/seasons/{season.slug}/" in out.getvalue()
    assert season.published and season.best == 2 and season.edition.slug == "v2"
    events = list(season.events.order_by("date"))
    assert len(events) == 3 and len({event.date for event in events}) == 3
    assert all(event.published and event.entrants.count() == 6 for event in events)
    assert Result.objects.filter(pairing__round__event__in=events, confirmed=True).count() == 3 * 2 * 3
    # Nine players in the pool, six in each event: some play all three and drop their worst.
    players = {entrant.user_id for event in events for entrant in event.entrants.all()}
    assert len(players) > 6
    table = _standings(season)
    assert any(not counted for row in table for *_rest, counted in row[3])
    assert all(sum(counted for *_r, counted in row[3]) <= 2 for row in table)
    assert client.get(f"/seasons/{season.slug}/").status_code == 200

    again = io.StringIO()
    call_command("seed_season", players=6, rounds=2, seed=9, events=3, stdout=again)
    other = Season.objects.get(slug=again.getvalue().strip().splitlines()[-1])
    assert other.pk != season.pk
    assert _standings(other) == table
    different = io.StringIO()
    call_command("seed_season", players=6, rounds=2, seed=10, events=3, stdout=different)
    assert _standings(Season.objects.get(slug=different.getvalue().strip().splitlines()[-1])) != table


def test_seed_season_refuses_a_season_of_one_event(v2_catalogue):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--events must be between 2 and 12"):
        call_command("seed_season", players=6, rounds=1, seed=1, events=1, stdout=io.StringIO())
