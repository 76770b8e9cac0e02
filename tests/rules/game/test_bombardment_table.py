"""Game day's preparatory bombardment: any side, once a game, before the first order; one die per enemy
unit on the table, two with Britain's Bombardment and the die kept chosen per unit; typed or rolled."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.game.engine import (
    Action,
    GameSetup,
    bombard_keep,
    bombard_offered,
    bombard_roll,
    bombard_to_keep,
    give_order,
    recorded_draw,
    replay,
    resume,
    state_to_data,
)

from .test_engine import Scripted, unit


def game(a_rules=(), b_rules=(), edition="v2") -> GameSetup:
    return GameSetup.from_data(
        {
            "edition": edition,
            "sides": [
                {"key": "a", "name": "Ann", "units": [unit("rifles")], "rules": list(a_rules)},
                {"key": "b", "name": "Bob", "units": [unit("grens"), unit("mg", models=3)], "rules": list(b_rules)},
            ],
        }
    )


def test_any_side_rolls_one_die_per_enemy_unit_typed_or_rolled():
    setup = game()
    state = replay(setup, [])
    assert bombard_offered(state, "a") and bombard_offered(state, "b")
    typed = bombard_roll(state, "a", Scripted(), units=["grens", "mg"], dice={"grens": [3], "mg": [6]})
    assert typed.data == {"roll": "bombard", "dice": {"grens": [3], "mg": [6]}}
    after = replay(setup, [typed])
    assert after.log[-1].detail == {"roll": "bombard", "dice": {"grens": [3], "mg": [6]}, "rule": ""}
    assert not bombard_offered(after, "a") and bombard_offered(after, "b")
    assert bombard_to_keep(after, "a") == {}  # one die each: nothing to choose
    # Muster rolls, unit by unit; a unit left out (in reserve) gets no die.
    rolled = bombard_roll(state, "a", Scripted(4), units=["mg"])
    assert rolled.data == {"roll": "bombard", "dice": {"mg": [4]}, "rolled": True}


def test_bombardment_rolls_two_dice_and_the_player_keeps_one_per_unit():
    setup = game(a_rules=("bombardment",))
    state = replay(setup, [])
    roll = bombard_roll(state, "a", Scripted(2, 5, 6, 1))
    assert roll.data["dice"] == {"grens": [2, 5], "mg": [6, 1]}
    after = replay(setup, [roll])
    assert after.log[-1].detail["rule"] == "bombardment"
    assert bombard_to_keep(after, "a") == {"grens": [2, 5], "mg": [6, 1]}
    keep = bombard_keep(after, "a", {"grens": 2, "mg": 6})
    done = replay(setup, [roll, keep])
    assert done.log[-1].detail == {
        "roll": "bombard-keep",
        "dice": {"grens": [2, 5], "mg": [6, 1]},
        "kept": {"grens": 2, "mg": 6},
        "rule": "bombardment",
    }
    assert bombard_to_keep(done, "a") == {}
    # A die that was not rolled, or a unit forgotten, is refused whatever built the action.
    for kept in ({"grens": 3, "mg": 6}, {"grens": 2}):
        with pytest.raises(RulesError) as err:
            replay(setup, [roll, Action("support", side="a", data={"roll": "bombard-keep", "kept": kept})])
        assert err.value.code == "bombard-keep"
    with pytest.raises(RulesError):
        bombard_keep(done, "a", {"grens": 2, "mg": 6})  # kept already
    # Bombardment is a 2nd-edition rule: one die per unit in 3rd edition.
    third = replay(game(a_rules=("bombardment",), edition="v3"), [])
    assert bombard_roll(third, "a", Scripted(3, 4)).data["dice"] == {"grens": [3], "mg": [4]}


def test_two_dice_typed_for_a_british_side_and_one_die_refused():
    setup = game(a_rules=("bombardment",))
    state = replay(setup, [])
    typed = bombard_roll(state, "a", Scripted(), units=["grens"], dice={"grens": [1, 6]})
    assert replay(setup, [typed]).log[-1].detail["dice"] == {"grens": [1, 6]}
    one = bombard_roll(state, "a", Scripted(), units=["grens"], dice={"grens": [4]})
    with pytest.raises(RulesError) as err:
        replay(setup, [one])
    assert err.value.code == "bombard-dice"


def test_once_a_game_a_side_and_never_after_the_first_order():
    setup = game()
    first = Action("support", side="b", data={"roll": "bombard", "dice": {"rifles": [5]}})
    with pytest.raises(RulesError) as err:
        replay(setup, [first, first])
    assert err.value.code == "bombard-once"
    draw = recorded_draw("a")
    state = replay(setup, [draw])
    assert bombard_offered(state, "b")  # a die drawn, no order yet: still before the game's first order
    order = give_order(state, "rifles", "fire", Scripted())
    late = replay(setup, [draw, order])
    assert not bombard_offered(late, "a") and not bombard_offered(late, "b")
    with pytest.raises(RulesError) as err:
        bombard_roll(late, "b", Scripted(3))
    assert err.value.code == "bombard-late"
    with pytest.raises(RulesError) as err:
        replay(setup, [draw, order, first])
    assert err.value.code == "bombard-late"
    # Units of its own side, or unknown keys, are not targets.
    with pytest.raises(RulesError) as err:
        replay(setup, [Action("support", side="a", data={"roll": "bombard", "dice": {"rifles": [5]}})])
    assert err.value.code == "bombard-units"


def test_the_bombardment_survives_a_snapshot():
    setup = game(a_rules=("bombardment",))
    roll = Action("support", side="a", data={"roll": "bombard", "dice": {"grens": [2, 5], "mg": [6, 1]}})
    state = replay(setup, [roll])
    again = resume(setup, state_to_data(state), [])
    assert again.bombard == {"a": {"grens": [2, 5], "mg": [6, 1]}, "b": {}}
    assert bombard_to_keep(again, "a") == {"grens": [2, 5], "mg": [6, 1]} and not bombard_offered(again, "a")
    kept = replay(
        setup, [roll, Action("support", side="a", data={"roll": "bombard-keep", "kept": {"grens": 5, "mg": 6}})]
    )
    assert resume(setup, state_to_data(kept), []).bombard_kept == {"a": True, "b": False}
    # A snapshot from before the bombardment existed carries none.
    old = state_to_data(replay(setup, []))
    del old["bombard"], old["bombard_kept"]
    assert bombard_offered(resume(setup, old, []), "a")
