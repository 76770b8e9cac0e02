"""A game-day game started from a pairing: both sealed lists frozen in it, its result proposed at its end."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from armybuilder.events import services
from armybuilder.events.models import Result
from armybuilder.games.models import Game
from armybuilder.games.services import game_act
from armybuilder.lists.models import ArmyList
from rules.game.engine import Action
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_entry, make_unit, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def pairing():
    event = make_event()
    for name in ("anna", "boris"):
        make_entrant(event, make_user(name))
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return round_.pairings.select_related("round__event", "player_a__user", "player_b__user").get()


def test_either_player_starts_the_one_game_with_both_sealed_lists(pairing):
    a, b = pairing.player_a, pairing.player_b
    # Anna edits her list after sealing: the game has it as sealed.
    make_entry(a.submission.army_list, make_unit(army=a.submission.army_list.army, name="Late Addition"))
    lists_before = ArmyList.objects.count()
    url = f"/events/{pairing.round.event.slug}/pairings/{pairing.pk}/play/"
    response = _client(a.user).post(url)
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert [side["name"] for side in game.setup["sides"]] == [a.name, b.name]
    units = [unit["name"] for side in game.setup["sides"] for unit in side["units"]]
    assert len(units) == 2 and "Late Addition" not in units
    assert ArmyList.objects.count() == lists_before  # the throwaway lists are gone
    response = _client(b.user).post(url)
    assert response["Location"] == f"/g/{game.share_token}/" and Game.objects.count() == 1


def test_others_cannot_start_it(pairing):
    url = f"/events/{pairing.round.event.slug}/pairings/{pairing.pk}/play/"
    assert _client(make_user()).post(url).status_code == 404
    assert Client().post(url).status_code == 302  # to the log-in page
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("starter_seat", "result", "proposed"), [("a", "a", "a"), ("b", "a", "b"), ("b", "draw", "draw")]
)
def test_the_finished_games_result_is_proposed_to_both(pairing, starter_seat, result, proposed):
    starter = pairing.player_a if starter_seat == "a" else pairing.player_b
    game = services.start_game(pairing, starter)
    Game.objects.filter(pk=game.pk).update(result=result, finished_at=timezone.now())
    for player in (pairing.player_a, pairing.player_b):
        page = _client(player.user).get(f"/events/{pairing.round.event.slug}/rounds/1/").content.decode()
        assert "The game has ended" in page
        checked = re.findall(r'<input type="radio" name="outcome" value="(\w+)"[^>]*\bchecked\b', page)
        assert checked == [proposed]


def _remove(game: Game, side: str, count: int) -> None:
    """``count`` of ``side``'s units marked destroyed in game day (its "remove" action)."""
    for key in [unit["key"] for s in game.setup["sides"] if s["key"] == side for unit in s["units"]][:count]:
        game_act(game=game, build=lambda state, key=key: Action("remove", side=side, unit=key))


@pytest.mark.parametrize("starter_seat", ["a", "b"])
def test_the_proposed_result_carries_the_order_dice_each_player_destroyed(starter_seat):
    event = make_event()
    for name in ("anna", "boris"):
        make_entrant(event, make_user(name), units=4)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    pairing = round_.pairings.select_related("player_a__user", "player_b__user").get()
    starter = pairing.player_a if starter_seat == "a" else pairing.player_b
    game = services.start_game(pairing, starter)
    # The starter (game side a) destroys three of the other's units and loses one, then wins.
    _remove(game, "b", 3)
    _remove(game, "a", 1)
    for _turn in range(2):  # turns 1 and 2 end; the game ends in its third
        game_act(game=game, build=lambda state: Action("end_turn", data={"force": True}))
    game_act(game=game, build=lambda state: Action("end_game", data={"result": "a", "scenario": ""}))
    by_starter, by_other = (3, 1)
    dice_a, dice_b = (by_starter, by_other) if starter_seat == "a" else (by_other, by_starter)
    for player in (pairing.player_a, pairing.player_b):
        page = _client(player.user).get(f"/events/{event.slug}/rounds/1/").content.decode()
        assert re.findall(r'<input type="radio" name="outcome" value="(\w+)"[^>]*\bchecked\b', page) == [starter_seat]
        assert re.search(rf'name="dice_a" value="{dice_a}"', page), page
        assert re.search(rf'name="dice_b" value="{dice_b}"', page), page
        assert re.search(r'name="turns" value="3"', page), page
    # Sent as proposed, it is the pairing's result.
    client = _client(pairing.player_a.user)
    form = {"outcome": starter_seat, "dice_a": dice_a, "dice_b": dice_b, "turns": 3}
    client.post(f"/events/{event.slug}/pairings/{pairing.pk}/result/", form)
    result = Result.objects.get(pairing=pairing)
    assert (result.outcome, result.dice_a, result.dice_b, result.turns) == (starter_seat, dice_a, dice_b, 3)
    page = client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "3 turns" in page


def test_a_game_still_playing_proposes_nothing(pairing):
    game = services.start_game(pairing, pairing.player_a)
    _remove(game, "b", 1)
    page = _client(pairing.player_a.user).get(f"/events/{pairing.round.event.slug}/rounds/1/").content.decode()
    assert "The game has ended" not in page
    assert 'name="dice_b" value="0"' in page
