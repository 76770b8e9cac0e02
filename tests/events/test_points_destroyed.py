"""Events that rank by the points of enemy units destroyed (as some 2nd-edition events break ties):
the result form asks for them, game day proposes them from its log, and the standings, the API and
the CSVs carry them. Events that do not rank by them never ask."""

from __future__ import annotations

import csv
import io
import re

import pytest

from armybuilder.events import services
from armybuilder.events.models import Entrant, Result
from armybuilder.games.services import game_act
from rules.game.engine import Action
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


def _event(tiebreaks: str, names=("anna", "boris", "carla", "dmitri"), units: int = 1):
    event = make_event(make_user("orga"), published=True, rounds=3, tiebreaks=tiebreaks)
    for name in names:
        make_entrant(event, make_user(name), units=units)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return event, round_


def _result_url(event, pairing) -> str:
    return f"/events/{event.slug}/pairings/{pairing.pk}/result/"


@pytest.mark.parametrize(("tiebreaks", "asked"), [("score,sos,points", True), ("score,sos,dice", False)])
def test_the_result_form_asks_for_points_only_where_the_event_ranks_by_them(tiebreaks, asked):
    event, round_ = _event(tiebreaks)
    pairing = round_.pairings.select_related("player_a__user").first()
    page = _client(pairing.player_a.user).get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert ('name="points_a"' in page) is asked
    assert ("Points of enemy units destroyed by" in page) is asked


def test_points_entered_confirmed_and_ranked():
    event, round_ = _event("score,points,sos")
    pairings = list(round_.pairings.select_related("player_a__user", "player_b__user"))
    # Both games are won by player A: the winners tie on score; the points say who is first.
    for pairing, points in zip(pairings, ((320, 100), (780, 400)), strict=True):
        form = {"outcome": "a", "dice_a": "3", "dice_b": "1", "points_a": points[0], "points_b": points[1]}
        _client(pairing.player_a.user).post(_result_url(event, pairing), form)
        _client(pairing.player_b.user).post(f"/events/{event.slug}/pairings/{pairing.pk}/confirm/")
    assert sorted(Result.objects.values_list("points_a", "points_b")) == [(320, 100), (780, 400)]
    first, second = (p.player_a for p in sorted(pairings, key=lambda p: -p.result.points_a))
    data = _client().get(f"/api/events/{event.slug}/standings/").json()
    assert data["tiebreaks"] == ["score", "points", "sos"]
    top = data["standings"][:2]
    assert [row["entrant"]["name"] for row in top] == [first.name, second.name]
    assert [row["points"] for row in top] == [780, 320]
    page = _client().get(f"/events/{event.slug}/standings/").content.decode()
    assert "Points of enemy units destroyed" in page
    round_data = _client().get(f"/api/events/{event.slug}/rounds/1/").json()
    assert sorted(p["result"]["points_destroyed"] for p in round_data["pairings"]) == [[320, 100], [780, 400]]
    round_page = _client(first.user).get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "points destroyed 780–400" in round_page
    organiser = _client(event.organiser)
    results = list(csv.reader(io.StringIO(organiser.get(f"/events/{event.slug}/manage/results.csv").content.decode())))
    header = results[0]
    assert sorted((row[header.index("points_a")], row[header.index("points_b")]) for row in results[1:]) == [
        ("320", "100"),
        ("780", "400"),
    ]
    text = organiser.get(f"/events/{event.slug}/manage/standings.csv").content.decode()
    standings = list(csv.reader(io.StringIO(text)))
    assert "points" in standings[0] and standings[1][standings[0].index("points")] == "780"


@pytest.mark.parametrize("points_a", ["", "lots", "-5"])
def test_missing_or_bad_points_are_refused_in_words(points_a):
    event, round_ = _event("score,sos,points")
    pairing = round_.pairings.select_related("player_a__user").first()
    form = {"outcome": "a", "dice_a": "3", "dice_b": "1", "points_a": points_a, "points_b": "100"}
    response = _client(pairing.player_a.user).post(_result_url(event, pairing), form, follow=True)
    assert "choose a result and whole numbers of dice and points" in response.content.decode()
    assert not Result.objects.exists()


def test_the_organiser_sets_points_too():
    event, round_ = _event("score,sos,points")
    pairing = round_.pairings.first()
    form = {"outcome": "draw", "dice_a": "2", "dice_b": "2", "points_a": "150", "points_b": "175"}
    _client(event.organiser).post(f"/events/{event.slug}/manage/pairings/{pairing.pk}/override/", form)
    assert Result.objects.values_list("points_a", "points_b", "by_organiser").get() == (150, 175, True)


def _remove(game, side: str, count: int) -> None:
    keys = [u["key"] for s in game.setup["sides"] if s["key"] == side for u in s["units"]][:count]
    for key in keys:
        game_act(game=game, build=lambda state, key=key: Action("remove", side=side, unit=key))


def test_game_day_proposes_the_points_each_player_destroyed():
    event, round_ = _event("score,points,sos", names=("anna", "boris"), units=4)
    pairing = round_.pairings.select_related("player_a__user", "player_b__user").get()
    game = services.start_game(pairing, pairing.player_a)  # anna's phone: side a is seat a
    _remove(game, "b", 3)  # three of boris's 50-point squads
    _remove(game, "a", 1)
    game_act(game=game, build=lambda state: Action("end_game", data={"result": "a", "scenario": ""}))
    page = _client(pairing.player_a.user).get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert re.search(r'name="points_a" value="150"', page), page
    assert re.search(r'name="points_b" value="50"', page), page
    assert Entrant.objects.filter(event=event).count() == 2
