"""Fanatics at game day: pins at the unit's unmodified morale do not rout a Fanatic unit while two or
more men are left (rules-notes, pin limit; as the shooting odds have it, ``morale.py``'s fanatic_men)."""

from __future__ import annotations

import pytest

from rules.game.engine import Action, GameSetup
from tests.rules.game.test_engine import play, setup, unit

LIMIT = 9  # a Regular unit's unmodified morale


def pins(delta: int) -> Action:
    return Action("pins", "b", "rifles", {"delta": delta})


def casualties(delta: int) -> Action:
    return Action("casualties", "b", "rifles", {"delta": delta})


@pytest.mark.parametrize("edition", ["v2", "v3"])
@pytest.mark.parametrize("men", [2, 5])
def test_a_fanatic_unit_with_two_or_more_men_stays_at_its_pin_limit(edition, men) -> None:
    game = setup(edition, a=[unit("rifles", models=men, fanatic=True)])
    state = play(game, pins(LIMIT), pins(3))
    rifles = state.unit("rifles")
    assert (rifles.destroyed, rifles.pins, state.dice_in_bag("a")) == (False, LIMIT + 3, 1)


def test_a_fanatic_unit_with_one_man_is_routed_at_its_pin_limit() -> None:
    game = setup(a=[unit("rifles", models=1, fanatic=True)])
    below = play(game, pins(LIMIT - 1)).unit("rifles")
    at = play(game, pins(LIMIT)).unit("rifles")
    assert (below.destroyed, at.destroyed, at.destroyed_how) == (False, True, "pins")


def test_a_fanatic_unit_at_its_pin_limit_routs_when_casualties_leave_one_man() -> None:
    game = setup(a=[unit("rifles", models=4, fanatic=True)])
    two_left = play(game, pins(LIMIT), casualties(2))
    one_left = play(game, pins(LIMIT), casualties(2), casualties(1))
    assert (two_left.unit("rifles").destroyed, two_left.log[-1].detail.get("routed")) == (False, None)
    assert (one_left.unit("rifles").destroyed_how, one_left.log[-1].detail["routed"]) == ("pins", True)


def test_a_pinned_fanatic_below_its_limit_is_not_routed_by_casualties() -> None:
    state = play(setup(a=[unit("rifles", models=4, fanatic=True)]), pins(LIMIT - 1), casualties(3))
    assert (state.unit("rifles").models, state.unit("rifles").destroyed) == (1, False)


def test_a_fanatic_vehicle_crew_is_routed_by_damage_pins_with_one_model() -> None:
    # A vehicle is one model: the exemption needs two men, so its damage pins rout it as before.
    tank = unit("rifles", models=1, unit_type="vehicle_armoured", damage_value=9, fanatic=True)
    state = play(setup(a=[tank]), pins(LIMIT - 1), Action("damage", "b", "rifles", {"result": "on_fire"}))
    assert state.unit("rifles").destroyed_how == "pins"


def test_a_unit_that_is_not_fanatic_is_routed_as_before() -> None:
    state = play(setup(a=[unit("rifles", models=5, fanatic=False)]), pins(LIMIT))
    assert state.unit("rifles").destroyed_how == "pins"


def test_a_game_stored_before_the_flag_reads_every_unit_as_not_fanatic() -> None:
    stored = {
        "edition": "v2",
        "sides": [
            {
                "key": "a",
                "name": "Alice",
                "units": [{"key": "rifles", "name": "Rifles", "quality": "regular", "models": 5}],
            },
            {
                "key": "b",
                "name": "Bob",
                "units": [{"key": "grens", "name": "Grens", "quality": "regular", "models": 5}],
            },
        ],
    }
    game = GameSetup.from_data(stored)
    assert game.sides[0].units[0].fanatic is False
    assert play(game, pins(LIMIT)).unit("rifles").destroyed_how == "pins"


def test_a_stand_in_unit_of_unknown_size_is_routed_even_if_flagged_fanatic() -> None:
    # Muster cannot count its men, so it cannot show two are left: the rout stands.
    state = play(setup(a=[unit("rifles", models=None, fanatic=True)]), pins(LIMIT))
    assert state.unit("rifles").destroyed_how == "pins"
