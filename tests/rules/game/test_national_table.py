"""National rules at the table (game day): Not One Step Back! for a Soviet side."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules.errors import RulesError
from rules.game.engine import Action, GameSetup, commissar_odds, give_order, recorded_draw, replay, snap_order

from .test_engine import Scripted, unit


def soviet(edition: str = "v2", rules: tuple[str, ...] = ("not-one-step-back",), models: int = 5) -> GameSetup:
    return GameSetup.from_data(
        {
            "edition": edition,
            "sides": [
                {
                    "key": "a",
                    "name": "Ivan",
                    "units": [
                        unit("rifles", models=models),
                        unit("lt", models=1, officer_bonus=1, command_range=6, extra_orders=1),
                    ],
                    "rules": list(rules),
                },
                {"key": "b", "name": "Bob", "units": [unit("grens")]},
            ],
        }
    )


PINNED = [Action("pins", "a", "rifles", {"delta": 3}), recorded_draw("a")]  # regular 9 - 3: 6 or less


def test_a_failed_test_near_a_commissar_is_taken_again_for_a_man():
    game = soviet()
    state = replay(game, PINNED)
    # 15/36 at once, or a failure (21/36) and then 15/36.
    assert commissar_odds(state, "rifles") == F(15, 36) + F(21, 36) * F(15, 36)
    # The first roll (4+4) fails; the re-roll (typed) passes.
    action = give_order(state, "rifles", "fire", Scripted(), dice=(4, 4), commissar=True, reroll=(2, 3))
    assert action.data["reroll"] == [2, 3] and "reroll_rolled" not in action.data
    after = replay(game, [*PINNED, action])
    rifles = after.unit("rifles")
    assert (rifles.order, rifles.pins, rifles.models) == ("fire", 2, 4)
    assert after.log[-1].detail["commissar"] and after.log[-1].detail["first"] == [4, 4]


def test_a_passed_first_test_costs_no_man_and_a_rolled_re_roll_can_fail_again():
    game = soviet()
    state = replay(game, PINNED)
    passed = give_order(state, "rifles", "fire", Scripted(), dice=(1, 2), commissar=True)
    assert "reroll" not in passed.data
    assert replay(game, [*PINNED, passed]).unit("rifles").models == 5
    # Rolled by Muster: the first roll fails (5+5), the re-roll is rolled (6+6: FUBAR, chart die 5).
    action = give_order(state, "rifles", "fire", Scripted(5, 5, 6, 6, 5), commissar=True)
    assert action.data["dice"] == [5, 5] and action.data["reroll"] == [6, 6] and action.data["reroll_rolled"]
    after = replay(game, [*PINNED, action])
    assert (after.unit("rifles").order, after.unit("rifles").models) == ("fubar", 4)


def test_the_commissar_also_serves_an_officer_s_passed_on_order():
    game = soviet()
    before = [*PINNED[:1], recorded_draw("a")]
    state = replay(game, before)
    lt = give_order(state, "lt", "advance", Scripted())
    state = replay(game, [*before, lt])
    assert commissar_odds(state, "rifles", "lt") == F(21, 36) + F(15, 36) * F(21, 36)  # 7 or less with +1
    snap = snap_order(state, "rifles", Scripted(), dice=(5, 5), commissar=True, reroll=(3, 3))
    after = replay(game, [*before, lt, snap])
    assert (after.unit("rifles").order, after.unit("rifles").models) == ("advance", 4)


@pytest.mark.parametrize(
    ("edition", "rules", "models"),
    [("v2", (), 5), ("v2", ("not-one-step-back",), 2), ("v3", ("not-one-step-back",), 5)],
)
def test_no_commissar_for_other_armies_small_units_or_3rd_edition(edition, rules, models):
    game = soviet(edition, rules, models)
    state = replay(game, PINNED)
    assert commissar_odds(state, "rifles") is None
    with pytest.raises(RulesError, match="does not apply"):
        give_order(state, "rifles", "fire", Scripted(), dice=(6, 5), commissar=True)
    forged = Action("order", "a", "rifles", {"order": "fire", "dice": [6, 5], "commissar": True, "reroll": [1, 1]})
    with pytest.raises(RulesError, match="does not apply"):
        replay(game, [*PINNED, forged])


def test_a_failed_test_needs_its_second_roll():
    forged = Action("order", "a", "rifles", {"order": "fire", "dice": [6, 5], "commissar": True})
    with pytest.raises(RulesError, match="second roll"):
        replay(soviet(), [*PINNED, forged])
