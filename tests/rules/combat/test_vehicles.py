from __future__ import annotations

import itertools
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.combat.api import ShotGroupInput, TargetInput, anti_tank, shooting
from rules.combat.dice import total_mass
from rules.combat.vehicles import (
    VehicleCtx,
    VehicleState,
    penetration_categories,
    resolve_at_shot,
    resolve_vehicle_hit,
    start_state,
    summarise,
    superficial_3e_result,
)

from .builders import CFG2, CFG3, LMG, MEDIUM_AT_GUN, PANZERFAUST, RIFLE

MEDIUM_TANK = VehicleCtx(dv=9, morale=9)
V21_KO_GIVEN_HIT = F(10693, 31104)


def _ko(states: dict[VehicleState, F]) -> F:
    return sum((p for s, p in states.items() if s.ko), F(0))


def test_it_gives_the_v21_penetration_categories() -> None:
    assert penetration_categories(9, 6) == {
        "none": F(1, 3),
        "superficial": F(1, 6),
        "full": F(1, 3),
        "massive": F(1, 6),
    }


def test_it_gives_the_v21_ko_chance_per_category_in_2e() -> None:
    fresh = VehicleState(pins=1)  # the pin of the hit itself
    assert _ko(resolve_vehicle_hit(CFG2, "superficial", fresh, MEDIUM_TANK)) == F(5, 72)
    assert _ko(resolve_vehicle_hit(CFG2, "full", fresh, MEDIUM_TANK)) == F(41, 72)
    assert _ko(resolve_vehicle_hit(CFG2, "massive", fresh, MEDIUM_TANK)) == F(4429, 5184)


def test_it_resolves_v21_a_2e_panzerfaust_against_a_medium_tank() -> None:
    res = anti_tank("2e", weapon=PANZERFAUST, damage_value=9, band="long")
    assert res.p_hit == F(1, 2)
    assert res.need_to_hit.modifiers == (("Long range", -1),)
    assert res.need_to_damage.pen_total == 6  # no long-range Pen penalty for shaped charges
    assert res.p_knocked_out == F(10693, 62208)
    states = resolve_at_shot(CFG2, F(1), 6, MEDIUM_TANK, start_state(MEDIUM_TANK))
    assert _ko(states) == V21_KO_GIVEN_HIT


def test_it_resolves_v22_a_3e_panzerfaust_at_point_blank() -> None:
    res = anti_tank("3e", weapon=PANZERFAUST, damage_value=9, band="point_blank")
    assert res.need_to_hit.need == 2
    assert res.p_hit == F(5, 6)
    assert res.need_to_damage.pen_total == 6  # no point-blank Pen bonus for shaped charges
    assert res.p_knocked_out == F(53465, 186624)
    states = resolve_at_shot(CFG3, F(1), 6, MEDIUM_TANK, start_state(MEDIUM_TANK))
    assert _ko(states) == V21_KO_GIVEN_HIT


def test_it_matches_a_brute_force_of_the_v21_hit() -> None:
    # Pen die, two table dice and two On Fire 2D6 tests: 6 x 6 x 6 x 36 x 36 outcomes, all counted.
    def on_fire(pins: int, a: int, b: int) -> bool:
        return a + b > min(max(9 - pins, 2), 10)  # True = test failed, knocked out

    def result(r: int, state: dict, fire: tuple[int, int]) -> bool:
        if r <= 0:
            return False
        state["pins"] += 1
        if r == 1:
            return False
        if r == 2:
            if state["imm"]:
                return True
            state["imm"] = True
            return False
        if r == 3:
            return on_fire(state["pins"], *fire)
        return True

    knocked_out = 0
    fires = list(itertools.product(range(1, 7), repeat=2))
    for d, r1, r2, f1, f2 in itertools.product(range(1, 7), range(1, 7), range(1, 7), fires, fires):
        t = d + 6
        state = {"pins": 1, "imm": False}
        if d == 1 or t < 9:
            ko = False
        elif t == 9:
            ko = result(r1 - 3, state, f1)
        elif t <= 11:
            ko = result(r1, state, f1)
        else:
            ko = result(r1, state, f1) or result(r2, state, f2)
        knocked_out += ko
    assert F(knocked_out, 6**3 * 36**2) == V21_KO_GIVEN_HIT


def test_it_knocks_out_on_a_second_immobilisation() -> None:
    stuck = VehicleState(immobilised=True, pins=2)
    out = resolve_vehicle_hit(CFG2, "full", stuck, MEDIUM_TANK)
    # Results 2 (immobilised again) and 4-6 knock out; 3 fails On Fire at morale 9 - 3 = 6: 21/36.
    assert _ko(out) == F(1, 6) + F(1, 2) + F(1, 6) * F(21, 36)


def test_it_follows_the_3e_superficial_table() -> None:
    fresh = VehicleState(pins=1)
    assert superficial_3e_result(CFG3, MEDIUM_TANK, fresh, 2) == {VehicleState(pins=2, steering=1): 1}
    assert superficial_3e_result(CFG3, MEDIUM_TANK, fresh, 3) == {VehicleState(pins=2, turret_jammed=True): 1}
    no_turret = VehicleCtx(dv=9, morale=9, has_turret=False)
    assert superficial_3e_result(CFG3, no_turret, fresh, 3) == {VehicleState(pins=2, steering=1): 1}
    twice = VehicleState(pins=1, steering=2)
    assert superficial_3e_result(CFG3, MEDIUM_TANK, twice, 2) == {VehicleState(ko=True, pins=2): 1}
    assert superficial_3e_result(CFG3, MEDIUM_TANK, fresh, 4) == {VehicleState(pins=2, slow=True): 1}
    slow = VehicleState(pins=1, slow=True)
    crippled = VehicleState(pins=2, slow=True, engine_crippled=True)
    assert superficial_3e_result(CFG3, MEDIUM_TANK, slow, 4) == {crippled: 1}
    assert superficial_3e_result(CFG3, MEDIUM_TANK, crippled, 4) == {
        VehicleState(pins=3, slow=True, engine_crippled=True, immobilised=True): 1
    }
    # A modifier above 6 is capped at On fire [R].
    assert superficial_3e_result(CFG3, MEDIUM_TANK, fresh, 7) == superficial_3e_result(CFG3, MEDIUM_TANK, fresh, 6)


def test_it_carries_state_across_several_shots() -> None:
    res = anti_tank("2e", weapon=PANZERFAUST, damage_value=9, band="long", shots=5)
    kos = [step.p_knocked_out for step in res.by_shot]
    assert kos[0] == F(10693, 62208)
    assert all(a < b for a, b in itertools.pairwise(kos))
    # Iterating the state is not the same as multiplying independent KO chances.
    assert kos[1] != 1 - (1 - kos[0]) ** 2
    assert total_mass(res.pins.pmf) == 1


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from([CFG2, CFG3]),
    st.integers(7, 11),
    st.integers(0, 8),
    st.integers(1, 4),
    st.integers(0, 4),
    st.booleans(),
)
def test_it_keeps_vehicle_state_distributions_summing_to_one(cfg, dv, pen, shots, pins, open_topped) -> None:
    vehicle = VehicleCtx(dv=dv, morale=9, open_topped=open_topped)
    states = start_state(vehicle, pins)
    for _ in range(shots):
        states = resolve_at_shot(cfg, F(1, 2), pen, vehicle, states, result_mod=int(open_topped))
        assert sum(states.values(), F(0)) == 1
    summary = summarise(cfg, vehicle, states, pins)
    assert total_mass(summary.pins_added) == 1
    assert 0 <= summary.p_knocked_out + summary.p_immobilised <= 1
    assert sum(penetration_categories(dv, pen).values(), F(0)) == 1


def test_it_destroys_a_soft_skin_when_damaged() -> None:
    res = shooting(
        "3e",
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(RIFLE, 6)],
        target=TargetInput("soft_skin", "regular", 1),
    )
    r = F(1, 2) * F(1, 6)
    assert res.p_destroyed == 1 - (1 - r) ** 6  # destroyed unless every shot fails
    assert res.casualties.pmf == {0: (1 - r) ** 6, 1: 1 - (1 - r) ** 6}


def test_it_cannot_hurt_or_pin_a_tank_with_rifles() -> None:
    res = shooting(
        "2e",
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(RIFLE, 10), ShotGroupInput(LMG, 1)],
        target=TargetInput("armoured", "regular", 1, damage_value=9),
    )
    assert res.vehicle.p_knocked_out == 0
    assert res.p_pin == 0
    assert res.need_to_damage[0].need == 9


def test_it_pins_an_open_topped_vehicle_with_small_arms() -> None:
    res = shooting(
        "2e",
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(RIFLE, 2)],
        target=TargetInput("armoured", "regular", 1, damage_value=7, open_topped=True),
    )
    assert res.p_pin == 1 - F(1, 3) ** 2
    assert res.vehicle.p_knocked_out == 0


def test_it_applies_facing_and_3e_point_blank_pen() -> None:
    res = shooting(
        "3e",
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(MEDIUM_AT_GUN, 1, "point_blank")],
        target=TargetInput("armoured", "regular", 1, damage_value=9, facing="side"),
        anti_tank_gun=True,
    )
    assert dict(map(tuple, res.need_to_damage[0].modifiers)) == {"Pen": 5, "Side armour": 1, "Point blank": 1}
    assert res.vehicle.pen_total == (7,)
    assert res.need_to_hit[0].need == 1  # 4 - 2 (point blank) - 1 (anti-tank gun)
    assert res.need_to_hit[0].p == F(5, 6)
    assert total_mass(res.vehicle.categories) == 1
