"""National rules at the table (game day): Not One Step Back!, Tiger Fear, Avanti Savoia! and
Communication Breakdown!."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules.errors import RulesError
from rules.game.engine import (
    Action,
    GameSetup,
    avanti_modifier,
    commissar_odds,
    die_to_send_back,
    give_order,
    order_odds,
    recorded_draw,
    replay,
    send_back,
    snap_order,
)

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


def two_sides(a_rules=(), b_rules=(), *, edition="v2", b_units=None) -> GameSetup:
    return GameSetup.from_data(
        {
            "edition": edition,
            "sides": [
                {"key": "a", "name": "A", "units": [unit("rifles"), unit("mmg", models=3)], "rules": list(a_rules)},
                {
                    "key": "b",
                    "name": "B",
                    "units": b_units or [unit("tiger", models=1, unit_type="vehicle_armoured"), unit("grens")],
                    "rules": list(b_rules),
                },
            ],
        }
    )


def test_tiger_fear_tests_as_if_with_one_more_pin_even_unpinned():
    game = two_sides(b_rules=("tiger-fear",))
    state = replay(game, [recorded_draw("a")])
    # No pins: no test, unless within 18" of the Tiger: then regular 9 - 1, 8 or less on 2D6.
    assert order_odds(state, "rifles", tiger=True).p_pass == F(26, 36)
    failed = give_order(state, "rifles", "fire", Scripted(), dice=(5, 4), tiger=True)
    after = replay(game, [recorded_draw("a"), failed])
    assert (after.unit("rifles").order, after.unit("rifles").pins) == ("down", 0)
    passed = give_order(state, "rifles", "fire", Scripted(), dice=(4, 4), tiger=True)
    after = replay(game, [recorded_draw("a"), passed])
    assert (after.unit("rifles").order, after.unit("rifles").pins) == ("fire", 0)  # the Tiger's pin is not real
    # Down needs no test, Tiger or not.
    assert "dice" not in give_order(state, "rifles", "down", Scripted(), tiger=True).data


@pytest.mark.parametrize(
    ("b_rules", "b_units", "edition"),
    [
        ((), None, "v2"),  # not a German army
        (("tiger-fear",), [unit("grens")], "v2"),  # no armour left to be a Tiger
        (("tiger-fear",), None, "v3"),  # gone in 3rd edition
    ],
)
def test_tiger_fear_is_refused_where_it_cannot_act(b_rules, b_units, edition):
    state = replay(two_sides(b_rules=b_rules, b_units=b_units, edition=edition), [recorded_draw("a")])
    with pytest.raises(RulesError, match="Tiger Fear"):
        give_order(state, "rifles", "fire", Scripted(), dice=(1, 1), tiger=True)


END_TURN = Action("end_turn", data={"force": True, "release": [], "down_pins": {}})


def test_avanti_savoia_moves_italian_morale_by_two_with_three_units_between_the_sides_as_the_turn_begins():
    b_units = [unit(f"b{i}") for i in range(4)]
    game = two_sides(a_rules=("avanti-savoia",), b_units=b_units)
    pinned = [Action("pins", "a", "rifles", {"delta": 1})]
    even = replay(game, pinned)
    assert avanti_modifier(even, "a") == 0 and order_odds(even, "rifles").morale == 8
    removed = [*pinned, *(Action("remove", "b", f"b{i}") for i in range(3))]
    # Counted when the turn begins: three enemy units down this turn change nothing until the next.
    assert avanti_modifier(replay(game, removed), "a") == 0
    ahead = replay(game, [*removed, END_TURN])
    assert avanti_modifier(ahead, "a") == 2 and order_odds(ahead, "rifles").morale == 10
    assert avanti_modifier(ahead, "b") == 0  # the rule is the Italians' only
    behind = two_sides(a_rules=("avanti-savoia",), b_units=[unit("grens")])
    state = replay(behind, [*pinned, Action("remove", "a", "mmg"), END_TURN])
    assert avanti_modifier(state, "a") == 0  # one unit behind: nothing
    three = GameSetup.from_data(
        {
            "edition": "v2",
            "sides": [
                {"key": "a", "name": "A", "units": [unit(f"a{i}") for i in range(4)], "rules": ["avanti-savoia"]},
                {"key": "b", "name": "B", "units": [unit("grens")]},
            ],
        }
    )
    losses = [Action("pins", "a", "a0", {"delta": 1}), *(Action("remove", "a", f"a{i}") for i in (1, 2, 3))]
    state = replay(three, [*losses, END_TURN])
    assert avanti_modifier(state, "a") == -2 and order_odds(state, "a0").morale == 6
    assert avanti_modifier(replay(two_sides(a_rules=("avanti-savoia",), edition="v3"), []), "a") == 0


def test_the_turn_start_losses_survive_a_snapshot():
    from rules.game.engine import state_from_data, state_to_data

    game = two_sides(a_rules=("avanti-savoia",), b_units=[unit(f"b{i}") for i in range(4)])
    state = replay(game, [*(Action("remove", "b", f"b{i}") for i in range(3)), END_TURN])
    again = state_from_data(game, state_to_data(state))
    assert again.lost_at_start == {"a": 0, "b": 3} and avanti_modifier(again, "a") == 2


def test_communication_breakdown_sends_the_first_french_die_back_once():
    game = two_sides(a_rules=("communication-breakdown",))
    state = replay(game, [recorded_draw("a")])
    assert die_to_send_back(state) == "a"
    action = send_back(state)
    assert action.side == "b"
    state = replay(game, [recorded_draw("a"), action])
    assert (state.pending, state.dice_in_bag("a"), state.sent_back) == (None, 2, True)
    # Only once: the next French die stays.
    again = replay(game, [recorded_draw("a"), action, recorded_draw("a")])
    assert die_to_send_back(again) is None
    with pytest.raises(RulesError, match="sent back"):
        replay(game, [recorded_draw("a"), action, recorded_draw("a"), Action("send_back", "b")])


def test_communication_breakdown_only_for_the_first_die_of_the_game():
    game = two_sides(a_rules=("communication-breakdown",))
    # The first die was the enemy's: a French die drawn after it is not the first.
    after_enemy = replay(
        game, [recorded_draw("b"), Action("order", "b", "grens", {"order": "fire"}), recorded_draw("a")]
    )
    assert die_to_send_back(after_enemy) is None
    # The French side cannot send back its own die, and other armies have no such rule.
    with pytest.raises(RulesError, match="sent back"):
        replay(game, [recorded_draw("a"), Action("send_back", "a")])
    assert die_to_send_back(replay(two_sides(), [recorded_draw("a")])) is None
    assert die_to_send_back(replay(two_sides(b_rules=("communication-breakdown",)), [recorded_draw("a")])) is None


@pytest.mark.parametrize(
    ("edition", "rules", "left"), [("v2", ("blitzkrieg",), 2), ("v3", ("blitzkrieg",), 2), ("v2", (), 1)]
)
def test_blitzkrieg_gives_a_german_officer_one_more_order_to_pass_on(edition, rules, left):
    game = soviet(edition, rules)  # a lieutenant with one extra order
    state = replay(game, [recorded_draw("a")])
    after = replay(game, [recorded_draw("a"), give_order(state, "lt", "advance", Scripted())])
    assert after.snap is not None and after.snap.left == left
    assert bool(after.log[-1].detail.get("blitzkrieg")) == (left == 2)


def test_a_banzai_charge_runs_without_a_test_and_sheds_a_pin():
    game = two_sides(a_rules=("banzai-charge",))
    before = [Action("pins", "a", "rifles", {"delta": 4}), recorded_draw("a")]
    state = replay(game, before)
    action = give_order(state, "rifles", "run", Scripted(), banzai=True)
    assert "dice" not in action.data and action.data["banzai"]
    after = replay(game, [*before, action])
    assert (after.unit("rifles").order, after.unit("rifles").pins) == ("run", 3)
    assert after.log[-1].detail["banzai"]
    with pytest.raises(RulesError, match="Banzai"):
        give_order(state, "rifles", "fire", Scripted(), banzai=True)  # only with Run
    with pytest.raises(RulesError, match="Banzai"):
        give_order(replay(two_sides(), before), "rifles", "run", Scripted(), banzai=True)  # not Japanese
    with pytest.raises(RulesError, match="Banzai"):
        give_order(
            replay(two_sides(a_rules=("banzai-charge",), edition="v3"), before),
            "rifles",
            "run",
            Scripted(),
            banzai=True,
        )
    forged = Action("order", "a", "rifles", {"order": "advance", "banzai": True})
    with pytest.raises(RulesError, match="Banzai"):
        replay(game, [*before, forged])


def test_up_and_at_em_passes_a_british_assault_unless_inexperienced():
    game = two_sides(a_rules=("a-national-characteristic", "up-and-at-em"))
    before = [Action("pins", "a", "rifles", {"delta": 2}), recorded_draw("a")]
    state = replay(game, before)
    after = replay(game, [*before, give_order(state, "rifles", "run", Scripted(), banzai=True)])
    assert (after.unit("rifles").order, after.unit("rifles").pins) == ("run", 1)
    assert after.log[-1].detail["rule"] == "up-and-at-em"
    green = GameSetup.from_data(
        {
            "edition": "v2",
            "sides": [
                {
                    "key": "a",
                    "name": "A",
                    "units": [unit("rifles", quality="inexperienced")],
                    "rules": ["up-and-at-em"],
                },
                {"key": "b", "name": "B", "units": [unit("grens")]},
            ],
        }
    )
    with pytest.raises(RulesError, match="Banzai"):
        give_order(replay(green, before), "rifles", "run", Scripted(), banzai=True)
