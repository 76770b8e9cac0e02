"""The game engine without Django: the bag, orders and order tests, pins, end of turn, undo."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction as F

import pytest

from rules.errors import RulesError
from rules.game.engine import (
    Action,
    GameSetup,
    draw,
    end_turn,
    give_order,
    new_state,
    order_odds,
    recorded_draw,
    replay,
    snap_order,
    summarise,
)


class Scripted(random.Random):
    """Dice that come out in the order a test writes them (randrange for the bag, randint for dice)."""

    def __init__(self, *values: int) -> None:
        super().__init__(0)
        self.values = list(values)

    def randrange(self, *args, **kwargs):  # type: ignore[override]
        return self.values.pop(0)

    def randint(self, a, b):  # type: ignore[override]
        return self.values.pop(0)


def unit(key, quality="regular", models=5, **kw):
    return {"key": key, "name": key.title(), "quality": quality, "models": models, **kw}


def setup(edition="v2", a=None, b=None) -> GameSetup:
    return GameSetup.from_data(
        {
            "edition": edition,
            "sides": [
                {"key": "a", "name": "Alice", "units": a or [unit("rifles"), unit("mmg", models=3)]},
                {"key": "b", "name": "Bob", "units": b or [unit("grens")]},
            ],
        }
    )


def play(game: GameSetup, *actions: Action):
    return replay(game, actions)


def test_it_puts_one_die_per_unit_and_side_in_the_bag() -> None:
    state = new_state(setup(b=[unit("grens"), unit("tank", models=1, unit_type="vehicle_armoured", dice=2)]))
    assert (state.dice_in_bag("a"), state.dice_in_bag("b")) == (2, 3)


def test_it_draws_each_die_left_equally_often() -> None:
    state = new_state(setup())
    rng = random.Random(1234)
    counts = Counter(draw(state, rng).side for _ in range(3000))
    # 2 dice of a, 1 of b: about 2000 against 1000 (six standard deviations is about 155).
    assert abs(counts["a"] - 2000) < 155


def test_it_maps_the_die_drawn_to_its_side() -> None:
    state = new_state(setup())
    assert [draw(state, Scripted(i)).side for i in range(3)] == ["a", "a", "b"]


def test_it_takes_the_drawn_die_out_of_the_bag() -> None:
    state = play(setup(), recorded_draw("b"))
    assert (state.pending, state.dice_in_bag("b")) == ("b", 0)


def test_it_refuses_a_die_a_side_no_longer_has() -> None:
    game = setup()
    with pytest.raises(RulesError, match="no die left"):
        play(game, recorded_draw("b"), Action("order", "b", "grens", {"order": "fire"}), recorded_draw("b"))


def test_it_refuses_a_second_draw_before_the_order() -> None:
    state = play(setup(), recorded_draw("a"))
    with pytest.raises(RulesError, match="order first"):
        draw(state, random.Random(1))


def test_a_destroyed_unit_takes_its_die_out_of_the_bag() -> None:
    state = play(setup(), Action("remove", "a", "mmg"))
    assert state.dice_in_bag("a") == 1


def test_it_gives_an_unpinned_unit_its_order_without_a_test() -> None:
    game = setup()
    action = give_order(play(game, recorded_draw("a")), "rifles", "advance", Scripted())
    state = play(game, recorded_draw("a"), action)
    assert (state.unit("rifles").order, state.pending) == ("advance", None)


def test_it_gives_the_order_test_odds_from_the_combat_engine() -> None:
    game = setup(a=[unit("rifles"), unit("lt", models=1, officer_bonus=1, command_range=6)])
    state = play(game, Action("pins", "b", "rifles", {"delta": 3}))
    odds = order_odds(state, "rifles", "lt")
    # Regular 9, three pins, a +1 officer: 7 or less on 2D6.
    assert (odds.morale, odds.p_pass, odds.p_fubar) == (7, F(21, 36), F(1, 36))


@pytest.mark.parametrize(
    ("dice", "given", "pins"),
    [((3, 4), "fire", 1), ((4, 4), "down", 2), ((6, 6), "fubar", 2)],
)
def test_it_takes_the_order_test_of_a_pinned_unit(dice, given, pins) -> None:
    game = setup()
    before = [Action("pins", "b", "rifles", {"delta": 2}), recorded_draw("a")]
    action = give_order(play(game, *before), "rifles", "fire", Scripted(1), dice=dice)
    state = play(game, *before, action)
    assert (state.unit("rifles").order, state.unit("rifles").pins) == (given, pins)


def test_a_fubar_rolls_on_the_chart() -> None:
    game = setup()
    before = [Action("pins", "b", "rifles", {"delta": 1}), recorded_draw("a")]
    state = play(game, *before, give_order(play(game, *before), "rifles", "fire", Scripted(2), dice=(6, 6)))
    assert state.log[-1].detail["fubar"] == "friendly_fire"


@pytest.mark.parametrize(("chart", "result"), [(2, "friendly_fire"), (3, "panic")])
def test_a_fubar_rolled_by_the_players_is_taken_as_rolled(chart, result) -> None:
    # A phone that played offline rolled the chart's die and showed its result: the server takes it.
    game = setup()
    before = [Action("pins", "b", "rifles", {"delta": 1}), recorded_draw("a")]
    action = give_order(play(game, *before), "rifles", "fire", Scripted(), dice=(6, 6), fubar=chart)
    assert (action.data["fubar"], play(game, *before, action).log[-1].detail["fubar"]) == (chart, result)


def test_a_rally_die_rolled_by_the_players_is_taken_and_a_wrong_one_refused() -> None:
    game = setup("v2", a=[unit("rifles", quality="veteran")])
    before = [Action("pins", "b", "rifles", {"delta": 6}), recorded_draw("a")]
    action = give_order(play(game, *before), "rifles", "rally", Scripted(), dice=(1, 2), rally=4)
    assert play(game, *before, action).unit("rifles").pins == 1  # 6, less one for the test, less 4
    with pytest.raises(RulesError):
        give_order(play(game, *before), "rifles", "rally", Scripted(), dice=(1, 2), rally=7)


def test_down_needs_no_test_and_keeps_the_pins() -> None:
    game = setup()
    before = [Action("pins", "b", "rifles", {"delta": 2}), recorded_draw("a")]
    state = play(game, *before, give_order(play(game, *before), "rifles", "down", Scripted()))
    assert (state.unit("rifles").order, state.unit("rifles").pins) == ("down", 2)


@pytest.mark.parametrize(("edition", "pins_left"), [("v2", 2), ("v3", 0)])
def test_rally_sheds_d6_more_in_2nd_and_every_pin_in_3rd(edition, pins_left) -> None:
    game = setup(edition, a=[unit("rifles", quality="veteran")])
    before = [Action("pins", "b", "rifles", {"delta": 6}), recorded_draw("a")]
    # Veteran 10 with six pins: 4 or less passes; then a 3 on the Rally die (2nd ed only).
    action = give_order(play(game, *before), "rifles", "rally", Scripted(3), dice=(1, 2))
    assert play(game, *before, action).unit("rifles").pins == pins_left


@pytest.mark.parametrize(
    ("edition", "quality", "limit"), [("v2", "regular", 9), ("v3", "veteran", 10), ("v2", "inexperienced", 8)]
)
def test_pins_at_the_unmodified_morale_rout_the_unit(edition, quality, limit) -> None:
    game = setup(edition, a=[unit("rifles", quality=quality)])
    below = play(game, Action("pins", "b", "rifles", {"delta": limit - 1}))
    at = play(game, Action("pins", "b", "rifles", {"delta": limit - 1}), Action("pins", "b", "rifles", {"delta": 1}))
    assert (below.unit("rifles").destroyed, at.unit("rifles").destroyed, at.unit("rifles").destroyed_how) == (
        False,
        True,
        "pins",
    )


def test_casualties_wipe_the_unit_out_at_zero_models() -> None:
    state = play(
        setup(), Action("casualties", "b", "mmg", {"delta": 2}), Action("casualties", "b", "mmg", {"delta": 1})
    )
    assert (state.unit("mmg").models, state.unit("mmg").destroyed) == (0, True)


def test_a_second_immobilised_knocks_a_2nd_ed_vehicle_out() -> None:
    tank = unit("tank", models=1, unit_type="vehicle_armoured", damage_value=9)
    hit = Action("damage", "a", "tank", {"result": "immobilised"})
    state = play(setup("v2", b=[tank]), hit, hit)
    assert (state.unit("tank").destroyed_how, state.dice_in_bag("b")) == ("knocked_out", 0)


def test_damage_results_add_a_pin_and_set_the_vehicle_on_fire() -> None:
    tank = unit("tank", models=1, unit_type="vehicle_armoured", damage_value=9)
    state = play(setup("v3", b=[tank]), Action("damage", "a", "tank", {"result": "on_fire"}))
    assert (state.unit("tank").pins, state.unit("tank").on_fire) == (1, True)


def _turn_with_down(edition: str, roll: int, release: tuple[str, ...] = ()):
    game = setup(edition, b=[unit("grens"), unit("snipers", models=2)])
    actions = _actions_before_end(game)
    actions.append(end_turn(play(game, *actions), Scripted(roll), release=release))
    return play(game, *actions)


def _actions_before_end(game: GameSetup) -> list[Action]:
    """A turn to its end: the grenadiers, with three pins, went Down."""
    actions = [Action("pins", "a", "grens", {"delta": 3})]
    for side, key, order in (
        ("a", "rifles", "fire"),
        ("b", "grens", "down"),
        ("a", "mmg", "ambush"),
        ("b", "snipers", "run"),
    ):
        actions.append(recorded_draw(side))
        actions.append(give_order(play(game, *actions), key, order, Scripted()))
    return actions


@pytest.mark.parametrize(("edition", "pins_left"), [("v2", 1), ("v3", 0)])
def test_end_of_turn_sheds_d3_pins_in_2nd_and_all_in_3rd_for_staying_down(edition, pins_left) -> None:
    # A 4 on the die is a D3 of 2 (2nd ed); 3rd ed sheds all three pins.
    state = _turn_with_down(edition, 4)
    assert (state.turn, state.unit("grens").pins) == (2, pins_left)


@pytest.mark.parametrize(("edition", "typed", "pins_left"), [("v2", 1, 2), ("v2", 3, 0), ("v3", 1, 0)])
def test_end_of_turn_takes_the_d3_the_players_rolled_for_staying_down(edition, typed, pins_left) -> None:
    game = setup(edition, b=[unit("grens"), unit("snipers", models=2)])
    pre = _actions_before_end(game)
    action = end_turn(play(game, *pre), Scripted(), down_dice={"grens": typed})
    assert play(game, *pre, action).unit("grens").pins == pins_left


def test_end_of_turn_refuses_a_d3_over_3() -> None:
    game = setup("v2", b=[unit("grens"), unit("snipers", models=2)])
    with pytest.raises(RulesError):
        end_turn(play(game, *_actions_before_end(game)), Scripted(), down_dice={"grens": 4})


@pytest.mark.parametrize("edition", ["v2", "v3"])
def test_end_of_turn_keeps_down_and_ambush_dice_out_of_the_bag(edition) -> None:
    state = _turn_with_down(edition, 1)
    kept = {key: u.order for key, u in state.units.items() if u.kept}
    assert (kept, state.dice_in_bag("a"), state.dice_in_bag("b")) == ({"grens": "down", "mmg": "ambush"}, 1, 1)


def test_end_of_turn_returns_a_released_order_to_the_bag() -> None:
    state = _turn_with_down("v3", 1, release=("mmg",))
    assert (state.unit("mmg").order, state.dice_in_bag("a")) == (None, 2)


def test_it_refuses_to_end_the_turn_with_dice_in_the_bag() -> None:
    state = new_state(setup())
    with pytest.raises(RulesError, match="Dice are left"):
        play(state.setup, end_turn(state, Scripted()))


def test_undo_is_replaying_all_but_the_last_action() -> None:
    game = setup()
    actions = [
        recorded_draw("a"),
        Action("order", "a", "rifles", {"order": "fire"}),
        Action("pins", "b", "mmg", {"delta": 1}),
    ]
    before, after = play(game, *actions[:-1]), play(game, *actions)
    assert (before.unit("mmg").pins, after.unit("mmg").pins, len(before.log)) == (0, 1, 2)


def test_the_summary_counts_units_and_points_lost_per_side_and_turns_played() -> None:
    game = setup(b=[unit("grens", points=120), unit("snipers", points=50)])
    state = play(
        game, Action("remove", "a", "grens"), Action("end_game", None, None, {"result": "a", "scenario": "Hold"})
    )
    summary = summarise(state)
    assert (summary.sides[1].units_lost, summary.sides[1].points_lost, summary.turns_played) == (1, 120, 1)


def test_nothing_happens_after_the_game_is_over() -> None:
    game = setup()
    with pytest.raises(RulesError, match="over"):
        play(game, Action("end_game", data={"result": "draw"}), recorded_draw("a"))


def test_a_drawn_die_leaves_with_the_last_unit_that_could_take_it() -> None:
    state = play(setup(), recorded_draw("b"), Action("remove", "a", "grens"))
    assert (state.pending, state.bag_empty) == (None, False)


# --- "You men, snap to action!" ------------------------------------------------------------------


def officer_game(extra_orders=2, bonus=2):
    captain = unit("lt", models=2, officer_bonus=bonus, command_range=6, extra_orders=extra_orders)
    return setup(a=[captain, unit("rifles"), unit("mmg", models=3), unit("snipers", models=2)])


def test_an_officer_passes_his_order_to_as_many_units_as_his_extra_orders() -> None:
    game = officer_game(extra_orders=2)
    lead = [recorded_draw("a"), Action("order", side="a", unit="lt", data={"order": "advance"})]
    state = play(game, *lead)
    assert (state.snap.officer, state.snap.order, state.snap.left) == ("lt", "advance", 2)
    rifles = snap_order(state, "rifles", Scripted())
    assert rifles == Action("snap", side="a", unit="rifles", data={"officer": "lt", "order": "advance"})
    mmg = snap_order(play(game, *lead, rifles), "mmg", Scripted())
    state = play(game, *lead, rifles, mmg)
    assert [state.unit(k).order for k in ("lt", "rifles", "mmg", "snipers")] == ["advance", "advance", "advance", None]
    # Each took a die of its own from the bag: one is left, the snipers'.
    assert state.dice_in_bag("a") == 1
    assert state.snap is None
    with pytest.raises(RulesError) as refused:
        play(game, *lead, rifles, mmg, Action("snap", side="a", unit="snipers", data={"order": "advance"}))
    assert refused.value.code == "no-snap"


def test_a_pinned_unit_tests_with_the_officers_bonus_and_may_fail() -> None:
    game = officer_game(bonus=2)
    start = [recorded_draw("b"), Action("order", side="b", unit="grens", data={"order": "fire"})]
    pin = Action("pins", side="a", unit="rifles", data={"delta": 3})
    lead = [recorded_draw("a"), Action("order", side="a", unit="lt", data={"order": "fire"})]
    state = play(game, *start, pin, *lead)
    # Regular 9, three pins -3, the officer's +2: 8 or less on 2D6.
    assert order_odds(state, "rifles", "lt").morale == 8
    passed = snap_order(state, "rifles", Scripted(), dice=(4, 4))
    after = play(game, *start, pin, *lead, passed)
    assert (after.unit("rifles").order, after.unit("rifles").pins) == ("fire", 2)
    failed = snap_order(state, "rifles", Scripted(), dice=(4, 5))
    after = play(game, *start, pin, *lead, failed)
    assert (after.unit("rifles").order, after.unit("rifles").pins) == ("down", 3)
    assert after.snap.left == 1  # the failed unit used one of the officer's orders and its own die


def test_no_snap_after_a_failed_officer_test_or_once_the_next_die_is_drawn() -> None:
    game = officer_game()
    pinned_lt = Action("pins", side="a", unit="lt", data={"delta": 1})
    failed = Action("order", side="a", unit="lt", data={"order": "advance", "dice": [6, 5]})
    state = play(game, pinned_lt, recorded_draw("a"), failed)
    assert state.unit("lt").order == "down" and state.snap is None
    state = play(game, recorded_draw("a"), Action("order", side="a", unit="lt", data={"order": "run"}))
    assert state.snap is not None
    state = play(
        game, recorded_draw("a"), Action("order", side="a", unit="lt", data={"order": "run"}), recorded_draw("a")
    )
    assert state.snap is None
    with pytest.raises(RulesError) as refused:
        snap_order(state, "rifles", Scripted())
    assert refused.value.code == "no-snap"


def test_only_other_units_of_his_side_take_his_own_order() -> None:
    game = officer_game()
    lead = [recorded_draw("a"), Action("order", side="a", unit="lt", data={"order": "advance"})]
    for bad, code in [
        (Action("snap", side="b", unit="grens", data={"order": "advance"}), "snap-unit"),
        (Action("snap", side="a", unit="lt", data={"order": "advance"}), "snap-unit"),
        (Action("snap", side="a", unit="rifles", data={"order": "run"}), "snap-order"),
    ]:
        with pytest.raises(RulesError) as refused:
            play(game, *lead, bad)
        assert refused.value.code == code


def test_an_officer_ordered_last_offers_nothing_no_unit_could_take() -> None:
    game = officer_game()
    others = [
        step
        for key in ("rifles", "mmg", "snipers")
        for step in (recorded_draw("a"), Action("order", side="a", unit=key, data={"order": "advance"}))
    ]
    state = play(game, *others, recorded_draw("a"), Action("order", side="a", unit="lt", data={"order": "advance"}))
    assert state.unit("lt").order == "advance" and state.dice_in_bag("a") == 0
    assert state.snap is None  # every other unit has its order: nothing to pass on, nothing to show
    # One unit still without an order: the offer stands, for up to his extra orders.
    state = play(game, *others[:4], recorded_draw("a"), Action("order", side="a", unit="lt", data={"order": "fire"}))
    assert (state.snap.order, state.snap.left) == ("fire", 2)


def test_a_unit_without_extra_orders_offers_none() -> None:
    state = play(
        officer_game(extra_orders=0), recorded_draw("a"), Action("order", side="a", unit="lt", data={"order": "fire"})
    )
    assert state.snap is None
