"""Italy's Defensive Strategy at game day [BR2]: the "who defends?" re-roll (exact odds on Muster's assumed
roll, 4-6 defends), the D3 emplacements, and no enemy Run order on the first turn when Italy defends."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.errors import RulesError
from rules.game.engine import (
    Action,
    GameSetup,
    defence_offered,
    defence_roll,
    defender_odds,
    emplacements_offered,
    emplacements_roll,
    end_turn,
    give_order,
    recorded_draw,
    replay,
    resume,
    run_refused,
    state_to_data,
)

from .test_engine import Scripted, unit

ITALY = ("defensive-strategy",)


def game(a_rules=ITALY, b_rules=(), edition="v2") -> GameSetup:
    return GameSetup.from_data(
        {
            "edition": edition,
            "sides": [
                {"key": "a", "name": "Ann", "units": [unit("bersaglieri")], "rules": list(a_rules)},
                {"key": "b", "name": "Bob", "units": [unit("grens")], "rules": list(b_rules)},
            ],
        }
    )


def _every_outcome(reroll: bool) -> Fraction:
    """The chance by enumeration of both dice: the first decides on 4-6, else the re-roll (when due)."""
    wins = 0
    for first in range(1, 7):
        for second in range(1, 7):
            wins += (second if reroll and first < 4 else first) >= 4
    return Fraction(wins, 36)


def test_the_italian_side_defends_three_times_in_four_and_only_it_is_offered():
    state = replay(game(), [])
    assert defence_offered(state, "a") and not defence_offered(state, "b")
    assert defender_odds(state, "a") == Fraction(3, 4) == _every_outcome(reroll=True)
    # Italian v Italian: no re-roll, a fair roll.
    both = replay(game(b_rules=ITALY), [])
    assert defender_odds(both, "a") == Fraction(1, 2) == _every_outcome(reroll=False)
    # 3rd edition: the rule is 2nd edition's, nothing is offered.
    assert not defence_offered(replay(game(edition="v3"), []), "a")


def test_typed_roll_rerolls_a_failure_and_the_second_result_stands():
    setup = game()
    state = replay(setup, [])
    fail_then_win = defence_roll(state, "a", Scripted(), dice=[2, 5])
    after = replay(setup, [fail_then_win])
    assert after.defender == "a"
    assert after.log[-1].detail == {
        "roll": "defender",
        "rule": "defensive-strategy",
        "dice": [2, 5],
        "defends": True,
        "rerolled": True,
    }
    fail_twice = replay(setup, [defence_roll(state, "a", Scripted(), dice=[3, 1])])
    assert fail_twice.defender == "b"
    first_wins = defence_roll(state, "a", Scripted(), dice=[6])
    assert first_wins.data["dice"] == [6] and replay(setup, [first_wins]).defender == "a"
    # Muster rolls the re-roll when only the failed first die was typed, and everything when none was.
    assert defence_roll(state, "a", Scripted(4), dice=[1]).data == {"roll": "defender", "dice": [1, 4], "rolled": True}
    assert defence_roll(state, "a", Scripted(2, 3)).data["dice"] == [2, 3]
    # A stored roll with a missing re-roll, or an unneeded one, is refused.
    with pytest.raises(RulesError):
        replay(setup, [Action("support", side="a", data={"roll": "defender", "dice": [2]})])
    with pytest.raises(RulesError):
        replay(setup, [Action("support", side="a", data={"roll": "defender", "dice": [5, 1]})])


def test_italian_v_italian_has_no_reroll():
    setup = game(b_rules=ITALY)
    state = replay(setup, [])
    assert defence_roll(state, "a", Scripted(), dice=[2]).data["dice"] == [2]
    assert replay(setup, [defence_roll(state, "a", Scripted(), dice=[2])]).defender == "b"


def test_recorded_defender_and_offers_end_before_the_first_order():
    setup = game()
    state = replay(setup, [])
    not_defending = defence_roll(state, "a", Scripted(), defends=False)
    after = replay(setup, [not_defending])
    assert after.defender == "b" and not defence_offered(after, "a")
    assert not emplacements_offered(after, "a")  # only a defending Italian side places them
    assert not run_refused(after, "a")  # Bob defends without the rule: nothing refused
    with pytest.raises(RulesError):
        defence_roll(after, "a", Scripted(), dice=[6])  # once a game
    ordered = replay(setup, [recorded_draw("b"), give_order(state, "grens", "advance", Scripted())])
    assert not defence_offered(ordered, "a")


def test_emplacements_are_a_d3_once_when_the_italian_side_defends():
    setup = game()
    state = replay(setup, [])
    defends = defence_roll(state, "a", Scripted(), defends=True)
    after = replay(setup, [defends])
    assert emplacements_offered(after, "a") and not emplacements_offered(after, "b")
    for die, count in ((1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)):
        placed = replay(setup, [defends, emplacements_roll(after, "a", Scripted(), die=die)])
        assert placed.emplacements["a"] == count and not emplacements_offered(placed, "a")
        assert placed.log[-1].detail == {"roll": "emplacements", "die": die, "count": count}
    assert emplacements_roll(after, "a", Scripted(6)).data == {"roll": "emplacements", "die": 6, "rolled": True}


def test_enemy_run_refused_on_turn_one_only_when_the_italian_side_defends():
    setup = game()
    state = replay(setup, [])
    actions = [defence_roll(state, "a", Scripted(), defends=True), recorded_draw("b")]
    turn1 = replay(setup, actions)
    assert run_refused(turn1, "b") and not run_refused(turn1, "a")
    with pytest.raises(RulesError) as refused:
        replay(setup, [*actions, give_order(turn1, "grens", "run", Scripted())])
    assert refused.value.code == "defensive-run"
    # Another order is fine, the Italians may run, and on turn 2 so may the enemy.
    actions.append(give_order(turn1, "grens", "advance", Scripted()))
    actions += [recorded_draw("a"), give_order(turn1, "bersaglieri", "run", Scripted())]
    actions.append(end_turn(replay(setup, actions), Scripted()))
    turn2 = replay(setup, [*actions, recorded_draw("b")])
    assert turn2.turn == 2 and not run_refused(turn2, "b")
    ran = replay(setup, [*actions, recorded_draw("b"), give_order(turn2, "grens", "run", Scripted())])
    assert ran.units["grens"].order == "run"


def test_defender_and_emplacements_survive_a_snapshot_and_undo():
    setup = game()
    state = replay(setup, [])
    defends = defence_roll(state, "a", Scripted(), dice=[1, 6])
    place = emplacements_roll(replay(setup, [defends]), "a", Scripted(), die=4)
    after = replay(setup, [defends, place])
    again = resume(setup, state_to_data(after), [])
    assert again.defender == "a" and again.emplacements == {"a": 2, "b": 0}
    old = state_to_data(after)
    del old["defender"], old["emplacements"]  # a snapshot from before the rule
    assert resume(setup, old, []).defender is None
    undone = replay(setup, [defends])  # undo drops the last action: the emplacements are offered again
    assert undone.emplacements["a"] == 0 and emplacements_offered(undone, "a")
    assert replay(setup, []).defender is None and defence_offered(replay(setup, []), "a")
