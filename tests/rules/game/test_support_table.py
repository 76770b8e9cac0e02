"""Game day offers the rolls Air Superiority and Massed Batteries change, typed or rolled, and logs them."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.game.engine import (
    Action,
    GameSetup,
    replay,
    resume,
    state_to_data,
    support_offers,
    support_roll,
)

from .test_engine import Scripted, unit


def game(a_rules=(), b_rules=(), edition="v2") -> GameSetup:
    return GameSetup.from_data(
        {
            "edition": edition,
            "sides": [
                {"key": "a", "name": "Ann", "units": [unit("rifles")], "rules": list(a_rules)},
                {"key": "b", "name": "Bob", "units": [unit("grens")], "rules": list(b_rules)},
            ],
        }
    )


def test_only_a_side_whose_list_carries_the_rule_is_offered_the_roll():
    state = replay(game(a_rules=("air-superiority",), b_rules=("massed-batteries",)), [])
    assert support_offers(state, "a") == ("air",)
    assert support_offers(state, "b") == ("radius",)
    plain = replay(game(), [])
    assert support_offers(plain, "a") == support_offers(plain, "b") == ()
    with pytest.raises(RulesError) as err:
        support_roll(plain, "a", "air", Scripted())
    assert err.value.code == "support"
    # 3rd edition: Air Superiority still gives two air strikes [CD3, unverified]; Massed Batteries is not
    # sourced for 3rd edition, so it offers nothing there.
    third = replay(game(a_rules=("air-superiority",), b_rules=("massed-batteries",), edition="v3"), [])
    assert support_offers(third, "a") == ("air",) and support_offers(third, "b") == ()


def test_massed_batteries_keeps_the_higher_of_two_dice():
    setup = game(b_rules=("massed-batteries",))
    state = replay(setup, [])
    typed = support_roll(state, "b", "radius", Scripted(), dice=[2, 5])
    assert typed.data == {"roll": "radius", "dice": [2, 5]}
    rolled = support_roll(state, "b", "radius", Scripted(6, 1))
    assert rolled.data == {"roll": "radius", "dice": [6, 1], "rolled": True}
    after = replay(setup, [typed, rolled])
    assert [e.detail["radius"] for e in after.log] == [11, 12]
    assert after.log[0].detail["rule"] == "massed-batteries"
    # One die is not a Massed Batteries roll: refused when applied, whatever built it.
    with pytest.raises(RulesError) as err:
        replay(setup, [Action("support", side="b", data={"roll": "radius", "dice": [5]})])
    assert err.value.code == "support-dice"


def test_air_superiority_calls_two_strikes_one_roll_a_turn():
    setup = game(a_rules=("air-superiority",))
    state = replay(setup, [])
    empty = support_roll(state, "a", "air", Scripted(), dice=[3])
    after = replay(setup, [empty])
    assert after.log[-1].detail["outcome"] == "empty" and after.log[-1].detail["left"] == 2
    assert support_offers(after, "a") == ()  # the skies were empty: roll again next turn
    with pytest.raises(RulesError):
        replay(setup, [empty, empty])
    turn2 = [empty, Action("end_turn", data={"release": [], "down_pins": {}, "force": True})]
    arrives = Action("support", side="a", data={"roll": "air", "dice": [5]})
    after = replay(setup, [*turn2, arrives])
    assert after.log[-1].detail["outcome"] == "arrives" and after.log[-1].detail["left"] == 1
    end = Action("end_turn", data={"release": [], "down_pins": {}, "force": True})
    rookie = Action("support", side="a", data={"roll": "air", "dice": [1]})
    after = replay(setup, [*turn2, arrives, end, rookie])
    assert after.log[-1].detail["outcome"] == "rookie" and after.log[-1].detail["left"] == 0
    after_turn = replay(setup, [*turn2, arrives, end, rookie, end])
    assert support_offers(after_turn, "a") == ()  # both calls used
    # The calls survive a snapshot (the log is not in it).
    again = resume(setup, state_to_data(after_turn), [])
    assert again.air_calls == {"a": 2, "b": 0} and support_offers(again, "a") == ()
