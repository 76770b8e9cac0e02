"""Japan against tanks (2nd edition), by hand: the Banzai Charge passes the Tank Fear order test of an assault
on the closest visible enemy; a vehicle assaulting infantry forces a plain morale check [R], which Death
Before Dishonour passes for infantry and artillery."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules.combat import national
from rules.combat.tank_assault import tank_assault, vehicle_assault_check
from rules.errors import RulesError

# Ten Regular men, no anti-tank weapons, Pen +2, against an enclosed 7+ vehicle that has not moved.
ASSAULT = {"men": 10, "pen": 2, "damage_value": 7}


def test_the_banzai_charge_passes_the_tank_fear_test():
    plain = tank_assault("v2", **ASSAULT)
    # Tank Fear: morale 9 - 3 = 6, 2D6 at most 6 is 15/36.
    assert plain.tank_fear.p_pass == F(15, 36) and plain.p_assault == F(15, 36)
    banzai = tank_assault("v2", **ASSAULT, tank_fear_passed=True)
    assert banzai.tank_fear_passed and banzai.p_assault == 1
    assert banzai.p_knocked_out == plain.p_knocked_out
    assert banzai.p_knocked_out_overall == plain.p_knocked_out == plain.p_knocked_out_overall / F(15, 36)
    # With AT grenades there is no Tank Fear test, so nothing to pass.
    grenades = tank_assault("v2", **ASSAULT, at_weapons=True, tank_fear_passed=True)
    assert grenades.tank_fear is None and not grenades.tank_fear_passed and grenades.p_assault == 1
    # The rule: Japanese, charging the closest visible enemy, 2nd edition only.
    assert national.banzai("v2", "imperial-japan", charging=True) is not None
    assert national.banzai("v2", "imperial-japan", charging=False) is None
    assert national.banzai("v2", "italy", charging=True) is None
    assert national.banzai("v3", "imperial-japan", charging=True) is None


@pytest.mark.parametrize(
    ("quality", "pins", "officer", "morale", "p"),
    [
        ("regular", 0, 0, 9, F(30, 36)),  # 2D6 at most 9
        ("veteran", 2, 0, 8, F(26, 36)),  # 10 - 2
        ("inexperienced", 1, 2, 9, F(30, 36)),  # 8 - 1 + 2
        ("inexperienced", 3, 0, 5, F(10, 36)),  # 8 - 3
    ],
)
def test_a_vehicle_assault_forces_a_plain_morale_check(quality, pins, officer, morale, p):
    assert vehicle_assault_check("v2", quality=quality, pins=pins, officer_bonus=officer) == (morale, p)
    assert vehicle_assault_check("v2", quality=quality, pins=pins, officer_bonus=officer, auto_pass=True) == (
        morale,
        1,
    )


def test_death_before_dishonour_passes_it_for_japanese_infantry_and_artillery():
    for kind in ("infantry", "artillery"):
        applied = national.passes_vehicle_assault("v2", "imperial-japan", kind)
        assert applied is not None and applied.slug == "death-before-dishonour"
    assert national.passes_vehicle_assault("v2", "imperial-japan", "vehicle") is None
    assert national.passes_vehicle_assault("v2", "soviet-union", "infantry") is None
    assert national.passes_vehicle_assault("v3", "imperial-japan", "infantry") is None  # FLG3 says nothing of it
    with pytest.raises(RulesError):
        vehicle_assault_check("v2", pins=-1)
