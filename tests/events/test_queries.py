"""The organiser's dashboard, a round's pairings and the standings read a number of queries that does
not grow with the number of players (measured at two sizes, pages and API)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from armybuilder.events import services
from armybuilder.events.round_games import SharedGame
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


def _event_of(players: int):
    organiser = make_user()
    event = make_event(organiser, published=True, lists_revealed=True, rounds=3)
    for _ in range(players):
        make_entrant(event)
    make_entrant(event, approve=False)  # one waiting for approval, on the dashboard too
    for _ in range(2):
        round_ = services.pair_next_round(event)
        services.publish_round(round_)
        for pairing in round_.pairings.all():
            if not pairing.is_bye:
                services.override_result(pairing, "a", 2, 1)
    services.pair_next_round(event)  # a draft round on the dashboard
    return event, organiser


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


PAGES = ["manage/", "rounds/1/", "standings/", "", "manage/entrants.csv"]
API = ["", "rounds/1/", "standings/"]


def test_query_counts_do_not_grow_with_the_players():
    counts = []
    for players in (5, 15):
        event, organiser = _event_of(players)
        client = Client()
        client.force_login(organiser)
        pages = [_queries(client, f"/events/{event.slug}/{page}") for page in PAGES]
        api = [_queries(Client(), f"/api/events/{event.slug}/{page}") for page in API]
        counts.append((pages, api))
    assert counts[0] == counts[1]


def test_the_round_page_builds_a_result_form_only_where_it_shows_one():
    """A phone following the round builds no form; a player builds theirs; the organiser every game's."""
    organiser = make_user()
    event = make_event(organiser, published=True, rounds=1)
    entrants = [make_entrant(event) for _ in range(5)]
    services.publish_round(services.pair_next_round(event))
    url = f"/events/{event.slug}/rounds/1/"

    anonymous = Client().get(url)
    assert anonymous.status_code == 200
    # Every game as every viewer sees it: the shared rendering, no form built.
    assert [type(p) for p in anonymous.context["pairings"]] == [SharedGame] * 3
    assert b'name="outcome"' not in anonymous.content

    player = Client()
    player.force_login(entrants[0].user)
    pairings = player.get(url).context["pairings"]
    mine = [p for p in pairings if not isinstance(p, SharedGame)]
    assert len(pairings) == 3 and len(mine) == 1 and mine[0].mine
    if not mine[0].is_bye:
        assert mine[0].form is not None
        assert f'id="p{mine[0].pk}-outcome_0"' in player.get(url).content.decode()

    boss = Client()
    boss.force_login(organiser)
    games = [p for p in boss.get(url).context["pairings"] if not p.is_bye]
    assert len(games) == 2 and all(p.form is not None for p in games)
