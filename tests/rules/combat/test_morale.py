from __future__ import annotations

from fractions import Fraction as F

from rules.combat.api import order_test
from rules.combat.morale import check_triggered, morale_check

from .builders import CFG2, CFG3


def test_it_resolves_v15_a_2e_order_test() -> None:
    res = order_test("2e", quality="regular", pins=3, officer_bonus=1)
    assert res.morale == 7
    assert res.p_pass == F(7, 12)
    assert res.p_fail == F(5, 12)
    assert res.p_fubar == F(1, 36)
    assert res.p_fail_not_fubar == F(7, 18)
    assert res.p_fubar_friendly_fire == F(1, 108)
    assert res.p_fubar_panic == F(1, 54)
    assert res.p_double_one == F(1, 36)
    assert res.p_pass + res.p_fail == 1
    assert res.test_needed is True


def test_it_resolves_v15_in_1e_without_the_double_one() -> None:
    res = order_test("v1", quality="regular", pins=3, officer_bonus="second_lieutenant")
    assert res.p_pass == F(7, 12)
    assert res.p_double_one is None
    assert "officer_bonuses" in res.unverified


def test_it_resolves_v16_a_3e_order_test_with_a_platoon_commander() -> None:
    res = order_test("3e", quality="regular", pins=3, officer_bonus="platoon_commander")
    assert res.morale == 8
    assert res.p_pass == F(13, 18)
    assert res.unverified == ()  # confirmed in the rules notes §13
    # The +1 alternative (RD1) as a plain number.
    assert order_test("3e", quality="regular", pins=3, officer_bonus=1).p_pass == F(7, 12)


def test_it_clamps_morale_per_edition() -> None:
    two = order_test("2e", quality="veteran", pins=0, officer_bonus=4)
    three = order_test("3e", quality="veteran", pins=0, officer_bonus=4)
    assert two.morale == 10 and two.p_pass == F(33, 36)
    assert three.morale == 11 and three.p_pass == F(35, 36)
    assert "morale_cap" in two.unverified
    assert two.test_needed is False
    low = order_test("2e", quality="inexperienced", pins=9)
    assert low.morale == 2 and low.p_pass == F(1, 36)
    assert low.p_fail_not_fubar == 1 - F(1, 36) - F(1, 36)


def test_it_lets_stubborn_units_ignore_pins_on_morale_checks() -> None:
    assert morale_check(CFG2, 9, 0, 3) == F(15, 36)
    assert morale_check(CFG2, 9, 0, 3, stubborn=True) == F(30, 36)
    assert morale_check(CFG3, 9, 0, 3, fanatic_men=2) == F(30, 36)


def test_it_triggers_the_check_by_starting_or_current_strength() -> None:
    from dataclasses import replace

    assert check_triggered(CFG2, 1, 6, 10)  # 5 left of 10
    assert not check_triggered(CFG2, 1, 7, 10)
    assert not check_triggered(CFG2, 6, 6, 10)  # wiped out: no check
    current = replace(CFG2, morale_check_trigger="half_of_current")
    assert check_triggered(current, 3, 6, 10)
    assert not check_triggered(current, 2, 6, 10)
