"""A team event's pages read a number of queries that does not grow with its players: measured with
16 players (four teams of four) and 200 (fifty teams of four), one round played, the next published
with one line-up set, for the organiser, a captain and a visitor; the results export (CSV and JSON) too."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from armybuilder.events import services
from armybuilder.events import teams as team_services
from armybuilder.events.models import Team, TeamMatch
from tests.events.team_factories import make_team_event, players_of
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db

SIZE = 4


def _team_event_of(players: int, prefix: str):
    organiser = make_user(f"{prefix}orga")
    event = make_team_event(organiser, teams=players // SIZE, size=SIZE, prefix=prefix, lists_revealed=True, rounds=3)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    for match in TeamMatch.objects.filter(round=round_).select_related("team_a", "team_b"):
        if match.is_bye:
            continue
        team_services.set_lineup(event, match.pk, "a", players_of(match.team_a))
        team_services.set_lineup(event, match.pk, "b", players_of(match.team_b))
        for game in match.games.all():
            services.override_result(game, "a", 2, 1)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    first = TeamMatch.objects.filter(round=round_).select_related("team_a").first()
    team_services.set_lineup(event, first.pk, "a", players_of(first.team_a))
    return event, organiser, first.team_a.captain.user


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


PAGES = ["teams/", "rounds/1/", "rounds/2/", "standings/", "", "manage/", "results.csv"]


def test_team_pages_cost_the_same_queries_for_16_and_200_players():
    counts = []
    for players, prefix in ((16, "s"), (200, "l")):
        event, organiser, captain = _team_event_of(players, prefix)
        assert Team.objects.filter(event=event).count() == players // SIZE
        measured = []
        for user in (organiser, captain, None):
            client = Client()
            if user is not None:
                client.force_login(user)
            measured.append(
                [
                    _queries(client, f"/events/{event.slug}/{page}")
                    for page in PAGES
                    if user is organiser or "manage" not in page
                ]
            )
        measured.append([_queries(Client(), f"/api/events/{event.slug}/{api}/") for api in ("standings", "results")])
        counts.append(measured)
    assert counts[0] == counts[1]
