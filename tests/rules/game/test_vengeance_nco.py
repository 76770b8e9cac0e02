"""Game day: Britain's Vengeance on the order form and a squad's NCO lost with its casualties
(Germany's Initiative Training), with typed dice and exact outcomes."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules.errors import RulesError
from rules.game.engine import (
    Action,
    GameSetup,
    casualties,
    give_order,
    has_nco,
    order_odds,
    recorded_draw,
    replay,
    snap_order,
    state_from_data,
    state_to_data,
    vengeance_odds,
    vengeance_rule,
)

from .test_engine import Scripted, unit


def game(a_rules=("a-national-characteristic", "vengeance"), *, edition="v2", quality="regular") -> GameSetup:
    return GameSetup.from_data(
        {
            "edition": edition,
            "sides": [
                {
                    "key": "a",
                    "name": "A",
                    "units": [
                        unit("rifles", quality=quality),
                        unit("mmg", models=3, unit_type="team"),
                        unit(
                            "lt", models=1, unit_type="headquarters", officer_bonus=1, command_range=6, extra_orders=1
                        ),
                    ],
                    "rules": list(a_rules),
                },
                {"key": "b", "name": "B", "units": [unit("grens")]},
            ],
        }
    )


def pinned(n: int) -> list[Action]:
    return [Action("pins", "a", "rifles", {"delta": n}), recorded_draw("a")]


# --- Vengeance -----------------------------------------------------------------------------------


def test_vengeance_odds_are_the_half_and_half_mixture():
    state = replay(game(), pinned(1))
    # One pin, Regular: 8 or less (26/36) or, half the time, no pin: 9 or less (30/36) -> 7/9.
    assert vengeance_odds(state, "rifles") == F(7, 9)
    state = replay(game(), pinned(3))
    assert vengeance_odds(state, "rifles") == (F(15, 36) + F(21, 36)) / 2  # 6 or less, or 7 or less
    # With the lieutenant's +1: 7 or less, or 8 or less.
    assert vengeance_odds(state, "rifles", "lt") == (F(21, 36) + F(26, 36)) / 2


def test_a_vengeance_4_loses_the_last_pin_and_the_test_is_still_taken_without_it():
    before = pinned(1)
    state = replay(game(), before)
    action = give_order(state, "rifles", "fire", Scripted(), vengeance=True, vengeance_die=4, dice=(5, 4))
    assert action.data["vengeance"] == 4 and "vengeance_rolled" not in action.data
    after = replay(game(), [*before, action])
    # 5+4 = 9 passes at morale 9 (no pin left); with the pin it would have failed (8).
    rifles = after.unit("rifles")
    assert (rifles.order, rifles.pins) == ("fire", 0)
    detail = after.log[-1].detail
    assert (detail["vengeance"], detail["vengeance_shed"], detail["morale"], detail["passed"]) == (4, True, 9, True)


def test_a_vengeance_3_keeps_the_pins():
    before = pinned(2)
    state = replay(game(), before)
    action = give_order(state, "rifles", "fire", Scripted(), vengeance=True, vengeance_die=3, dice=(4, 4))
    after = replay(game(), [*before, action])
    # Two pins: 7 or less; 4+4 fails, the unit goes Down with both pins.
    assert (after.unit("rifles").order, after.unit("rifles").pins) == ("down", 2)
    assert after.log[-1].detail["vengeance_shed"] is False and after.log[-1].detail["morale"] == 7


def test_vengeance_rolled_by_muster_comes_before_the_test_dice():
    before = pinned(2)
    state = replay(game(), before)
    action = give_order(state, "rifles", "advance", Scripted(6, 3, 4), vengeance=True)
    assert (action.data["vengeance"], action.data["vengeance_rolled"], action.data["dice"]) == (6, True, [3, 4])
    after = replay(game(), [*before, action])
    # A pin lost (2 -> 1), then 3+4 at 8 or less passes and takes the last one.
    assert (after.unit("rifles").order, after.unit("rifles").pins) == ("advance", 0)
    assert after.log[-1].detail["vengeance_rolled"]


def test_vengeance_before_a_down_order_needs_no_test():
    before = pinned(2)
    state = replay(game(), before)
    action = give_order(state, "rifles", "down", Scripted(), vengeance=True, vengeance_die=5)
    assert "dice" not in action.data
    after = replay(game(), [*before, action])
    assert (after.unit("rifles").order, after.unit("rifles").pins) == ("down", 1)


def test_vengeance_serves_an_officer_s_passed_on_order():
    before = [Action("pins", "a", "rifles", {"delta": 2}), recorded_draw("a")]
    state = replay(game(), before)
    lt = give_order(state, "lt", "advance", Scripted())
    state = replay(game(), [*before, lt])
    snap = snap_order(state, "rifles", Scripted(), vengeance=True, vengeance_die=6, dice=(4, 5))
    after = replay(game(), [*before, lt, snap])
    # One pin left after the die, +1 for the lieutenant: 9 or less; 4+5 passes.
    assert (after.unit("rifles").order, after.unit("rifles").pins) == ("advance", 0)


@pytest.mark.parametrize(
    ("rules", "edition", "quality", "pins"),
    [
        (("a-national-characteristic",), "v2", "regular", 1),  # another characteristic chosen (or none)
        (("a-national-characteristic", "vengeance"), "v2", "inexperienced", 1),
        (("a-national-characteristic", "vengeance"), "v2", "regular", 0),  # no pin to lose
        (("vengeance",), "v3", "regular", 1),  # not modelled in 3rd edition
    ],
)
def test_vengeance_is_refused_where_it_cannot_act(rules, edition, quality, pins):
    setup = game(rules, edition=edition, quality=quality)
    before = [Action("pins", "a", "rifles", {"delta": pins}), recorded_draw("a")] if pins else [recorded_draw("a")]
    state = replay(setup, before)
    assert vengeance_rule(state, "rifles") is None and vengeance_odds(state, "rifles") is None
    with pytest.raises(RulesError, match="Vengeance"):
        give_order(state, "rifles", "fire", Scripted(), vengeance=True, vengeance_die=5, dice=(1, 1))
    forged = Action("order", "a", "rifles", {"order": "fire", "dice": [1, 1], "vengeance": 5})
    with pytest.raises(RulesError, match="Vengeance"):
        replay(setup, [*before, forged])


def test_a_forged_vengeance_die_is_refused():
    forged = Action("order", "a", "rifles", {"order": "fire", "dice": [1, 1], "vengeance": 7})
    with pytest.raises(RulesError, match="a die shows 1 to 6"):
        replay(game(), [*pinned(1), forged])


# --- the NCO -------------------------------------------------------------------------------------


def german(edition="v2", rules=("initiative-training",), quality="regular") -> GameSetup:
    return game(rules, edition=edition, quality=quality)


def test_a_lost_nco_costs_one_on_every_order_test_and_shows_in_the_state():
    setup = german(rules=())
    state = replay(setup, [])
    assert has_nco(state, "rifles") and not has_nco(state, "mmg") and not has_nco(state, "lt")
    action = casualties(state, "rifles", 2, Scripted(), nco=True)
    assert action.data == {"delta": 2, "nco": True}  # no rule, no die
    after = replay(setup, [action, *pinned(1)])
    rifles = after.unit("rifles")
    assert (rifles.models, rifles.nco_lost) == (3, True)
    assert not has_nco(after, "rifles")  # it is gone: it cannot be lost again
    # Regular, one pin, no NCO: 9 - 1 - 1 = 7 or less.
    assert order_odds(after, "rifles").morale == 7 and order_odds(after, "rifles").p_pass == F(21, 36)
    order = give_order(after, "rifles", "fire", Scripted(), dice=(4, 4))
    done = replay(setup, [action, *pinned(1), order])
    assert done.unit("rifles").order == "down" and done.log[-1].detail["nco"] == -1
    assert replay(setup, [action]).log[-1].detail == {"delta": 2, "models": 3, "nco": "lost", "nco_penalty": -1}


@pytest.mark.parametrize(("die", "lost"), [(1, True), (2, False), (6, False)])
def test_initiative_training_another_man_takes_over_on_2_plus(die, lost):
    setup = german()
    state = replay(setup, [])
    action = casualties(state, "rifles", 1, Scripted(), nco=True, nco_die=die)
    assert action.data == {"delta": 1, "nco": True, "nco_die": die}
    after = replay(setup, [action, *pinned(1)])
    assert after.unit("rifles").nco_lost is lost and has_nco(after, "rifles") is not lost
    assert order_odds(after, "rifles").morale == (7 if lost else 8)
    detail = after.log[0].detail
    assert (detail["nco"], detail["nco_die"], detail["rule"]) == (
        "lost" if lost else "replaced",
        die,
        "initiative-training",
    )


def test_initiative_training_die_rolled_by_muster():
    setup = german()
    action = casualties(replay(setup, []), "rifles", 1, Scripted(1), nco=True)
    assert (action.data["nco_die"], action.data["nco_rolled"]) == (1, True)
    assert replay(setup, [action]).unit("rifles").nco_lost


@pytest.mark.parametrize(("quality", "morale"), [("regular", 8), ("veteran", 9), ("inexperienced", 6)])
def test_3rd_edition_initiative_training_ignores_the_penalty_for_regulars_and_veterans(quality, morale):
    setup = german("v3", quality=quality)
    action = casualties(replay(setup, []), "rifles", 1, Scripted(), nco=True)
    assert "nco_die" not in action.data  # no die any more in 3rd edition
    after = replay(setup, [action, *pinned(1)])
    assert after.unit("rifles").nco_lost
    # 3rd edition: base 8/9/10 less one pin; an Inexperienced squad also takes the -1.
    assert order_odds(after, "rifles").morale == morale
    assert after.log[0].detail["nco_penalty"] == (-1 if quality == "inexperienced" else 0)


@pytest.mark.parametrize("edition", ["v1", "v3"])
def test_without_the_rule_a_lost_nco_is_minus_one_in_every_edition(edition):
    setup = german(edition, rules=())
    after = replay(setup, [casualties(replay(setup, []), "rifles", 1, Scripted(), nco=True), *pinned(1)])
    plain = replay(setup, pinned(1))
    assert order_odds(after, "rifles").morale == order_odds(plain, "rifles").morale - 1


def test_the_nco_is_refused_for_teams_officers_twice_or_without_a_casualty():
    setup = german()
    state = replay(setup, [])
    for key in ("mmg", "lt"):
        with pytest.raises(RulesError, match="no NCO"):
            casualties(state, key, 1, Scripted(), nco=True, nco_die=1)
    with pytest.raises(RulesError, match="remove at least one model"):
        casualties(state, "rifles", -1, Scripted(), nco=True, nco_die=1)
    lost = replay(setup, [casualties(state, "rifles", 1, Scripted(), nco=True, nco_die=1)])
    with pytest.raises(RulesError, match="no NCO"):
        casualties(lost, "rifles", 1, Scripted(), nco=True, nco_die=1)
    # Forged actions are checked when replayed: a team's NCO, and a 2nd-edition German die left out.
    with pytest.raises(RulesError, match="no NCO"):
        replay(setup, [Action("casualties", "a", "mmg", {"delta": 1, "nco": True, "nco_die": 1})])
    with pytest.raises(RulesError, match="a die shows 1 to 6"):
        replay(setup, [Action("casualties", "a", "rifles", {"delta": 1, "nco": True})])


def test_a_lost_nco_survives_a_snapshot_and_goes_with_undo():
    setup = german(rules=())
    action = casualties(replay(setup, []), "rifles", 1, Scripted(), nco=True)
    state = replay(setup, [action])
    again = state_from_data(setup, state_to_data(state))
    assert again.unit("rifles").nco_lost
    old = state_to_data(state)
    del old["units"]["rifles"]["nco_lost"]  # a snapshot stored before NCOs were tracked
    assert not state_from_data(setup, old).unit("rifles").nco_lost
    assert not replay(setup, []).unit("rifles").nco_lost  # undo: the action gone, the NCO back


def test_a_die_sent_for_a_side_without_initiative_training_changes_nothing():
    setup = german(rules=())
    forged = Action("casualties", "a", "rifles", {"delta": 1, "nco": True, "nco_die": 6})
    state = replay(setup, [forged])
    assert state.unit("rifles").nco_lost  # no other man takes over without the rule
    assert "rule" not in state.log[-1].detail and "nco_die" not in state.log[-1].detail


@pytest.mark.parametrize("seed", range(6))
def test_random_games_with_vengeance_and_ncos_replay_the_same_and_survive_snapshots(seed):
    """Orders with Vengeance's die and casualties with the NCO, rolled at random: the stored actions
    replay to the same state, and a snapshot of it reads back the same (nco_lost included)."""
    import random

    from rules.game.editions import ORDERS
    from rules.game.engine import apply, draw, end_turn, new_state

    rng = random.Random(seed)
    setup = GameSetup.from_data(
        {
            "edition": "v2",
            "sides": [
                {
                    "key": "a",
                    "name": "A",
                    "units": [unit(f"a{i}", quality=rng.choice(["regular", "veteran"])) for i in range(3)],
                    "rules": ["a-national-characteristic", "vengeance"],
                },
                {"key": "b", "name": "B", "units": [unit(f"b{i}") for i in range(3)], "rules": ["initiative-training"]},
            ],
        }
    )
    state = new_state(setup)
    actions: list[Action] = []
    for _ in range(200):
        units = [u for u in state.units.values() if not u.destroyed]
        try:
            if state.pending:
                u = rng.choice([u for u in units if u.side == state.pending and u.can_take_order])
                venge = vengeance_rule(state, u.key) is not None and rng.random() < 0.8
                action = give_order(state, u.key, rng.choice(ORDERS), rng, vengeance=venge)
            elif rng.random() < 0.4 and units:
                u = rng.choice(units)
                if rng.random() < 0.7:
                    # Vengeance needs British pins, short of the pin limit that would rout the unit.
                    u = rng.choice([u for u in units if u.side == "a" and u.pins < 5] or units)
                    action = Action("pins", u.side, u.key, {"delta": 1})
                else:
                    action = casualties(state, u.key, 1, rng, nco=has_nco(state, u.key) and rng.random() < 0.5)
            elif not state.bag_empty:
                action = draw(state, rng)
            else:  # kept Down and Ambush orders released, or the bag would stay empty
                action = end_turn(state, rng, release=list(state.units))
            apply(state, action)
        except RulesError:
            continue
        actions.append(action)
    assert any("vengeance" in a.data for a in actions) and any(a.data.get("nco") for a in actions)

    def seen(s):
        return [(u.pins, u.models, u.orders, u.destroyed, u.nco_lost) for u in s.units.values()]

    assert seen(replay(setup, actions)) == seen(state)
    assert seen(state_from_data(setup, state_to_data(state))) == seen(state)
