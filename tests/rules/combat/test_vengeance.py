"""Vengeance (a British list's chosen characteristic, 2nd edition): a die before the order, 4-6 loses a pin,
and the test follows. Vectors by hand, through the order test page's code."""

from __future__ import annotations

from fractions import Fraction as F

from armybuilder.resolver.national_rules import order_test
from rules.combat import national


def cd(**kw):
    return {"edition": "v2", "quality": "regular", "pins": 1, "officer_bonus": 0, "modifier": 0, **kw}


def test_one_pin_half_the_time_none():
    # Regular morale 9. One pin: 8 or less, 26/36; the pin lost: 9 or less, 30/36 (still a test, no penalty).
    plain, _ = order_test(cd())
    assert plain.p_pass == F(26, 36)
    odds, notes = order_test(cd(vengeance=True))
    assert odds.p_pass == F(1, 2) * F(26, 36) + F(1, 2) * F(30, 36) == F(7, 9)
    assert odds.test_needed and odds.p_fubar == F(1, 36)  # the test is taken either way
    assert "Half the time (4–6) a pin is lost before the test: Vengeance" in notes


def test_three_pins_and_a_lost_nco_mix_both_ways():
    # 3 pins: 6 or less (15/36), 2 pins: 7 or less (21/36).
    odds, _ = order_test(cd(pins=3, vengeance=True))
    assert odds.p_pass == F(15 + 21, 72) == F(1, 2)
    # A British squad that lost its NCO: always -1, so 5 or less (10/36) and 6 or less (15/36).
    odds, _ = order_test(cd(pins=3, vengeance=True, nco="lost"))
    assert odds.p_pass == F(10 + 15, 72)


def test_not_for_inexperienced_or_unpinned_units_nor_in_third_edition():
    assert national.vengeance("v2", True, "inexperienced", 2) is None
    assert national.vengeance("v2", True, "veteran", 0) is None
    assert national.vengeance("v3", True, "veteran", 2) is None
    assert national.vengeance("v2", False, "veteran", 2) is None
    odds, notes = order_test(cd(quality="inexperienced", vengeance=True))
    assert odds == order_test(cd(quality="inexperienced"))[0]
    assert "Vengeance does not act here (no pin, an Inexperienced unit, or this edition)." in notes
