"""Infantry assaulting a vehicle (``rules.combat.tank_assault``): exact vectors worked out by hand.

The cases are small enough to enumerate on paper: one or two men, one pen die, one damage result.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules.combat import national
from rules.combat.tank_assault import tank_assault
from rules.errors import RulesError

ON_FIRE_FAILS = F(10, 36)  # a fresh Regular crew (9) tests On Fire with that result's pin: 2D6 > 8


def test_a_soft_skin_is_destroyed_by_any_damage():
    # 4+ to hit (1/2); Pen +2 against 6+ damages on 4, 5 or 6 (1/2).
    assert tank_assault("v2", men=1, pen=2, damage_value=6, vehicle="soft_skin").p_knocked_out == F(1, 4)
    assert tank_assault("v2", men=2, pen=2, damage_value=6, vehicle="soft_skin").p_knocked_out == 1 - F(3, 4) ** 2


def test_a_natural_one_still_fails_to_damage():
    # Pen +5 against 6+: every face but the 1 damages.
    res = tank_assault("v3", men=1, pen=5, damage_value=6, vehicle="soft_skin")
    assert res.p_damage == F(5, 6) and res.p_knocked_out == F(5, 12)


def test_an_advance_order_needs_a_six_and_a_run_order_cannot_be_assaulted():
    res = tank_assault("v2", men=1, pen=2, damage_value=7, vehicle="open_topped", vehicle_order="advance")
    assert res.need_to_hit == 6 and res.p_knocked_out == F(1, 6) * F(2, 6)
    assert res.resolution == "destroyed_if_damaged" and res.tank_fear is None and res.p_assault == 1
    with pytest.raises(RulesError) as err:
        tank_assault("v2", men=1, pen=2, damage_value=7, vehicle_order="run")
    assert err.value.code == "run-cannot-assault" and err.value.field == "vehicle_order"


def test_without_anti_tank_weapons_an_enclosed_vehicle_takes_superficial_damage_only_2e():
    # Pen +3 at 8+: a 5 is superficial, a 6 (full) counts as superficial too: 2/6. 2nd edition's
    # superficial damage is D6-3 on the table: 4 stunned, 5 immobilised, 6 On Fire.
    res = tank_assault("v2", men=1, pen=3, damage_value=8, vehicle="enclosed", vehicle_order="advance")
    assert res.resolution == "superficial_only"
    assert res.categories == {"none": F(4, 6), "superficial": F(2, 6), "full": 0, "massive": 0}
    sup = F(1, 6) * F(2, 6)
    assert res.p_knocked_out == sup * F(1, 6) * ON_FIRE_FAILS == F(5, 1944)
    assert res.p_immobilised == sup * F(1, 6)
    assert res.pins.pmf == {0: 1 - sup * F(3, 6), 1: sup * F(3, 6)}


def test_the_3e_superficial_table_applies_without_anti_tank_weapons():
    # 3rd edition: superficial 6 is On Fire, 5 Immobilised; 4+ to hit.
    res = tank_assault("v3", men=1, pen=3, damage_value=8, vehicle="enclosed")
    sup = F(1, 2) * F(2, 6)
    assert res.p_knocked_out == sup * F(1, 6) * ON_FIRE_FAILS
    assert res.p_immobilised == sup * F(1, 6)


def test_anti_tank_weapons_roll_on_the_damage_table_as_a_normal_penetration():
    # A 5 is superficial (KO only through On Fire: 1/6 x 10/36), a 6 is full (4-6 KO, 3 On Fire).
    res = tank_assault("v2", men=1, pen=3, damage_value=8, vehicle="enclosed", vehicle_order="advance", at_weapons=True)
    ko_sup = F(1, 6) * ON_FIRE_FAILS
    ko_full = F(3, 6) + F(1, 6) * ON_FIRE_FAILS
    assert res.resolution == "damage_table" and res.tank_fear is None
    assert res.p_knocked_out == F(1, 6) * (F(1, 6) * ko_sup + F(1, 6) * ko_full) == F(4, 243)


def test_improvised_at_rerolls_the_grenades_failed_pen_roll():
    # Soft-skin: damage 1/2 becomes 1 - (1/2)^2.
    res = tank_assault("v2", men=1, pen=2, damage_value=6, vehicle="soft_skin", reroll_failed_pen=True)
    assert res.p_damage == F(3, 4) and res.p_knocked_out == F(3, 8)
    # Enclosed, AT grenades: the faces over 36 are none 16, superficial 10, full 10 (4 x 4 fail twice).
    res = tank_assault(
        "v2", men=1, pen=3, damage_value=8, vehicle_order="advance", at_weapons=True, reroll_failed_pen=True
    )
    assert res.categories == {"none": F(16, 36), "superficial": F(10, 36), "full": F(10, 36), "massive": 0}
    ko_sup = F(1, 6) * ON_FIRE_FAILS
    ko_full = F(3, 6) + F(1, 6) * ON_FIRE_FAILS
    assert res.p_knocked_out == F(1, 6) * (F(10, 36) * ko_sup + F(10, 36) * ko_full) == F(20, 729)


def test_improvised_at_acts_for_italian_grenades_in_2nd_edition_only():
    applied = national.improvised_at_grenades("v2", "italy", True)
    assert applied is not None and (applied.change, applied.name) == ("pen", "Improvised AT")
    assert national.improvised_at_grenades("v2", "italy", False) is None
    assert national.improvised_at_grenades("v2", "germany", True) is None
    assert national.improvised_at_grenades("v3", "italy", True) is None  # not sourced for 3rd edition


def test_tank_fear_is_an_order_test_at_minus_three_even_unpinned():
    res = tank_assault("v3", men=1, pen=0, damage_value=7)
    assert res.tank_fear is not None and res.tank_fear.morale == 6 and res.p_assault == F(15, 36)
    # Two pins and an officer's +1: 9 + 1 - 2 - 3 = 5.
    res = tank_assault("v2", men=1, pen=0, damage_value=7, pins=2, officer_bonus=1)
    assert res.p_assault == F(10, 36)
    # A Veteran with a +4 officer: 11 in 3rd edition (capped at 11), 10 in 2nd (capped at 10).
    assert tank_assault("v3", men=1, pen=0, damage_value=7, quality="veteran", officer_bonus=4).p_assault == F(35, 36)
    assert tank_assault("v2", men=1, pen=0, damage_value=7, quality="veteran", officer_bonus=4).p_assault == F(33, 36)
    # The overall knock-out chance is the product.
    res = tank_assault("v2", men=1, pen=3, damage_value=8, vehicle_order="advance")
    assert res.p_knocked_out_overall == F(15, 36) * F(5, 1944)


def test_a_vehicle_whose_pins_reach_its_morale_flees():
    # Regular crew (9) with 8 pins: a stunned result (superficial 4, D6-3 = 1) brings the 9th pin.
    res = tank_assault("v2", men=1, pen=3, damage_value=8, vehicle_order="advance", vehicle_pins=8)
    sup = F(1, 6) * F(2, 6)
    # Stunned or immobilised adds a pin (9: flees); On Fire's pin makes 9 and its test, at 9 - 9 clamped up
    # to 2, passes 1 time in 36: the crew then flees on its pins.
    assert res.p_pin_rout == sup * (F(2, 6) + F(1, 6) * F(1, 36)) == F(73, 3888)
    assert res.p_knocked_out == sup * F(1, 6) * F(35, 36)


def test_readings_are_named_per_edition():
    second = tank_assault("v2", men=1, pen=2, damage_value=7)
    third = tank_assault("v3", men=1, pen=2, damage_value=7)
    assert "pen_given" in second.readings and "pen_given" in third.readings
    assert "tank_fear_from_3e" in second.readings and "tank_fear_from_3e" not in third.readings
    grenades = tank_assault("v2", men=1, pen=2, damage_value=7, at_weapons=True)
    assert "tank_fear_from_3e" not in grenades.readings and "to_hit_from_3e" in grenades.readings


@pytest.mark.parametrize(
    ("field", "kwargs"),
    [
        ("men", {"men": 0}),
        ("pen", {"pen": -1}),
        ("damage_value", {"damage_value": 13}),
        ("vehicle", {"vehicle": "tank"}),
        ("at_weapons", {"at_weapons": "yes"}),
    ],
)
def test_bad_input_names_its_field(field, kwargs):
    args = {"men": 1, "pen": 2, "damage_value": 7, **kwargs}
    with pytest.raises(RulesError) as err:
        tank_assault("v2", **args)
    assert err.value.field == field
