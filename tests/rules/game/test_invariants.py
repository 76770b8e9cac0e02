"""Whole games played at random: the bag always adds up, and a replay gives the same game."""

from __future__ import annotations

import random

import pytest

from rules.errors import RulesError
from rules.game.editions import ORDERS
from rules.game.engine import Action, GameSetup, apply, draw, end_turn, give_order, new_state, replay


def _setup(edition: str) -> GameSetup:
    def units(side: str, n: int) -> list[dict]:
        return [
            {"key": f"{side}{i}", "name": f"{side}{i}", "quality": "regular", "models": 5, "dice": 2 if i == 0 else 1}
            for i in range(n)
        ]

    return GameSetup.from_data(
        {
            "edition": edition,
            "sides": [
                {"key": "a", "name": "A", "units": units("a", 5)},
                {"key": "b", "name": "B", "units": units("b", 4)},
            ],
        }
    )


@pytest.mark.parametrize("seed", range(8))
def test_random_games_keep_the_bag_consistent_and_replay_the_same(seed: int) -> None:
    rng = random.Random(seed)
    game = _setup(rng.choice(["v1", "v2", "v3"]))
    state = new_state(game)
    actions: list[Action] = []
    for _ in range(150):
        if state.finished:
            break
        units = [u for u in state.units.values() if not u.destroyed]
        choice = rng.random()
        if state.pending:
            unit = rng.choice([u for u in units if u.side == state.pending and u.can_take_order])
            action = give_order(state, unit.key, rng.choice(ORDERS), rng)
        elif choice < 0.25 and units:
            unit = rng.choice(units)
            action = Action(
                rng.choice(["pins", "casualties"]), unit.side, unit.key, {"delta": rng.choice([1, 1, 2, -1])}
            )
        elif not state.bag_empty:
            action = draw(state, rng)
        else:
            action = end_turn(state, rng)
        try:
            apply(state, action)
        except RulesError:
            continue
        actions.append(action)
        for side in ("a", "b"):
            alive = [u for u in state.side_units(side) if not u.destroyed]
            used = sum(len(u.orders) for u in alive) + (1 if state.pending == side else 0)
            assert state.dice_in_bag(side) == sum(u.setup.dice for u in alive) - used >= 0
        # The pin limit always bites, and a drawn die always has a unit that can take it.
        assert all(u.pins < u.setup.base_morale or u.destroyed for u in state.units.values())
        assert not state.pending or any(u.can_take_order for u in state.side_units(state.pending))
    again = replay(game, actions)
    assert [(u.pins, u.models, u.orders, u.destroyed) for u in again.units.values()] == [
        (u.pins, u.models, u.orders, u.destroyed) for u in state.units.values()
    ]
    assert (again.turn, again.pending) == (state.turn, state.pending)
