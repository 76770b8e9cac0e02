"""Large anti-tank volleys: the fast state chain against a small, slow reference written from the rules.

The reference below is deliberately naive: Fractions everywhere, one die at a time, every pen face and
every table die enumerated, no caching and no integer tricks. The optimised engine must agree with it
exactly on the (KO, immobilised, pins) distribution.
"""

from __future__ import annotations

import time
from fractions import Fraction as F
from typing import NamedTuple

import pytest

from rules.combat.api import ShotGroupInput, TargetInput, anti_tank, shooting
from rules.combat.config import RulesConfig
from rules.combat.dice import dice_pmf, total_mass
from rules.combat.vehicles import (
    ShotChain,
    VehicleCtx,
    VehicleState,
    resolve_at_shot,
    resolve_shots,
    shot_spec,
    start_state,
    summarise,
)
from rules.combat.weapons import Weapon

from .builders import CFG1, CFG2, CFG3, FLAMER_3E, PANZERFAUST

PEN6 = Weapon("Heavy gun", "pen6", 48, pen=6)
MEDIUM_TANK = TargetInput("armoured", "regular", 1, damage_value=9)


# --- the reference ---------------------------------------------------------------------------------


class Ref(NamedTuple):
    ko: bool = False
    imm: bool = False
    pins: int = 0
    steering: int = 0
    engine: int = 0  # 0 sound, 1 Slow, 2 crippled
    turret: bool = False


def _add(out: dict[Ref, F], s: Ref, p: F) -> None:
    if p:
        out[s] = out.get(s, F(0)) + p


def _pass(cfg: RulesConfig, morale: int, pins: int) -> F:
    m = min(max(morale - pins, cfg.morale_min), cfg.morale_cap)
    return F(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= m), 36)


def _dead(s: Ref) -> Ref:
    return Ref(ko=True, pins=s.pins)


def _test(cfg: RulesConfig, v: VehicleCtx, s: Ref) -> dict[Ref, F]:
    ok = _pass(cfg, v.morale, s.pins)
    return {s: ok, _dead(s): 1 - ok} if ok != 1 else {s: F(1)}


def _immobilise(s: Ref) -> dict[Ref, F]:
    return {_dead(s): F(1)} if s.imm else {s._replace(imm=True): F(1)}


def _full(cfg: RulesConfig, v: VehicleCtx, s: Ref, r: int) -> dict[Ref, F]:
    if r <= 0:
        return {s: F(1)}
    if r >= 4:
        return {_dead(s): F(1)}
    s = s._replace(pins=s.pins + 1)
    if r == 1:
        return {s: F(1)}
    if r == 2:
        return _immobilise(s)
    return _test(cfg, v, s)  # On fire: the pin first, then the test


def _superficial(cfg: RulesConfig, v: VehicleCtx, s: Ref, r: int) -> dict[Ref, F]:
    if r > 6:
        if cfg.superficial_above_six == "knocked_out":
            return {_dead(s): F(1)}
        r = 6
    s = s._replace(pins=s.pins + 1)
    if r == 3 and v.has_turret:
        return {s._replace(turret=True): F(1)}
    if r in (2, 3):
        return {_dead(s): F(1)} if s.steering == 2 else {s._replace(steering=s.steering + 1): F(1)}
    if r == 4:
        return _immobilise(s) if s.engine == 2 else {s._replace(engine=s.engine + 1): F(1)}
    if r == 5:
        return _immobilise(s)
    if r == 6:
        return _test(cfg, v, s)
    return {s: F(1)}


def _roll(cfg: RulesConfig, v: VehicleCtx, dist: dict[Ref, F], table: str, mod: int) -> dict[Ref, F]:
    out: dict[Ref, F] = {}
    for s, p in dist.items():
        if s.ko:
            _add(out, s, p)
            continue
        for d in range(1, 7):
            if table == "full":
                branch = _full(cfg, v, s, d + mod)
            elif cfg.superficial_mode == "3e_table":
                branch = _superficial(cfg, v, s, d + mod)
            else:
                branch = _full(cfg, v, s, d - 3 + mod)
            for s2, q in branch.items():
                _add(out, s2, p * q / 6)
    return out


def reference_die(
    cfg: RulesConfig,
    v: VehicleCtx,
    dist: dict[Ref, F],
    p_hit: F,
    pen: int,
    *,
    mod: int = 0,
    hit_pins: dict[int, F] | None = None,
    forced: bool = False,
) -> dict[Ref, F]:
    assert cfg.pin_on_no_effect
    hit_pins = hit_pins or {1: F(1)}
    out: dict[Ref, F] = {}
    for s, p in dist.items():
        if s.ko or (cfg.pin_rout and s.pins >= v.morale):
            _add(out, s, p)  # knocked out or routed: later dice change nothing
            continue
        _add(out, s, p * (1 - p_hit))
        for extra, p_pins in hit_pins.items():
            hit = s._replace(pins=s.pins + extra)
            for d in range(1, 7):
                t = d + pen
                if d == 1 or t < v.dv:
                    after = {hit: F(1)}
                elif t == v.dv:
                    after = _roll(cfg, v, {hit: F(1)}, "superficial", mod)
                elif t <= v.dv + 2:
                    after = _roll(cfg, v, {hit: F(1)}, "full", mod)
                else:
                    after = _roll(cfg, v, _roll(cfg, v, {hit: F(1)}, "full", mod), "full", mod)
                if forced:
                    tested: dict[Ref, F] = {}
                    for s2, q in after.items():
                        for s3, q3 in ({s2: F(1)} if s2.ko else _test(cfg, v, s2)).items():
                            _add(tested, s3, q * q3)
                    after = tested
                for s2, q in after.items():
                    _add(out, s2, p * p_hit * p_pins * q / 6)
    return out


def _project(states: dict) -> dict[tuple[bool, bool, int], F]:
    """(KO, immobilised and running, pins): what the summaries read, whatever the state layout."""
    out: dict[tuple[bool, bool, int], F] = {}
    for s, p in states.items():
        imm = s.immobilised if isinstance(s, VehicleState) else s.imm
        key = (s.ko, imm and not s.ko, s.pins)
        out[key] = out.get(key, F(0)) + p
    return out


CASES = [
    # cfg, vehicle, P(hit), pen total, dice, starting pins, result modifier, flamethrower
    (CFG2, VehicleCtx(dv=9, morale=9), F(1, 2), 6, 4, 0, 0, False),
    (CFG3, VehicleCtx(dv=9, morale=9), F(5, 6), 6, 4, 0, 0, False),
    (CFG3, VehicleCtx(dv=9, morale=9), F(1, 2), 7, 3, 5, 0, False),  # routs happen before the last die
    (CFG3, VehicleCtx(dv=8, morale=8, has_turret=False, slow=True), F(2, 3), 4, 4, 2, 1, False),
    (CFG3, VehicleCtx(dv=7, morale=10, open_topped=True, carries_flamer=True), F(1, 2), 3, 3, 0, 2, True),
    (CFG2, VehicleCtx(dv=7, morale=8), F(1, 3), 2, 5, 6, 1, False),
    (CFG1, VehicleCtx(dv=10, morale=9), F(1, 2), 7, 3, 0, 0, False),
    (CFG3, VehicleCtx(dv=9, morale=9), F(1, 2), 6, 2, 9, 0, False),  # already routed: nothing changes
]


@pytest.mark.parametrize(("cfg", "vehicle", "p_hit", "pen", "dice", "pins", "mod", "flamer"), CASES)
def test_the_fast_chain_matches_the_slow_reference(cfg, vehicle, p_hit, pen, dice, pins, mod, flamer) -> None:
    hit_pins = dice_pmf(cfg.flamer_pins) if flamer else None
    ref: dict[Ref, F] = {Ref(pins=pins, engine=int(vehicle.slow)): F(1)}
    fast = start_state(vehicle, pins)
    spec = shot_spec(vehicle, p_hit, pen, result_mod=mod, hit_pins=hit_pins, forced_check=flamer)
    chain = ShotChain(cfg, vehicle, spec, fast)
    for _ in range(dice):
        ref = reference_die(cfg, vehicle, ref, p_hit, pen, mod=mod, hit_pins=hit_pins, forced=flamer)
        fast = resolve_at_shot(cfg, p_hit, pen, vehicle, fast, result_mod=mod, hit_pins=hit_pins, forced_check=flamer)
        chain.step()
        assert _project(fast) == _project(ref)
        assert _project(chain.pmf()) == _project(ref)
        assert chain.mass(lambda s: s.ko) == sum((p for s, p in ref.items() if s.ko), F(0))
    assert sum(ref.values(), F(0)) == 1


def test_a_random_number_of_dice_mixes_the_chain() -> None:
    vehicle = VehicleCtx(dv=9, morale=9)
    spec = shot_spec(vehicle, F(1, 2), 6)
    mixed = resolve_shots(CFG3, vehicle, spec, start_state(vehicle), {1: F(1, 3), 3: F(2, 3)})
    one: dict[Ref, F] = {Ref(): F(1)}
    one = reference_die(CFG3, vehicle, one, F(1, 2), 6)
    three = reference_die(CFG3, vehicle, reference_die(CFG3, vehicle, one, F(1, 2), 6), F(1, 2), 6)
    expected: dict[tuple[bool, bool, int], F] = {}
    for weight, dist in ((F(1, 3), one), (F(2, 3), three)):
        for key, p in _project(dist).items():
            expected[key] = expected.get(key, F(0)) + weight * p
    assert _project(mixed) == expected


def test_the_api_matches_the_reference_with_a_flamethrower() -> None:
    res = shooting(
        "3e",
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(FLAMER_3E, 2, "point_blank")],
        target=TargetInput("armoured", "regular", 1, damage_value=7, pins=1),
    )
    vehicle = VehicleCtx(dv=7, morale=9)
    ref: dict[Ref, F] = {Ref(pins=1): F(1)}
    p_hit = res.need_to_hit[0].p
    pen = res.vehicle.pen_total[0]
    for _ in range(2):
        ref = reference_die(CFG3, vehicle, ref, p_hit, pen, hit_pins=dice_pmf(CFG3.flamer_pins), forced=True)
    assert res.vehicle.p_knocked_out == sum((p for s, p in ref.items() if s.ko), F(0))
    assert res.vehicle.p_pin_rout == sum((p for s, p in ref.items() if not s.ko and s.pins >= 9), F(0))


def test_a_routed_vehicle_is_not_knocked_out_later() -> None:
    res = anti_tank("3e", weapon=PANZERFAUST, damage_value=9, shots=3, pins=9, band="long")
    assert res.p_knocked_out == 0
    assert res.p_pin_rout == 1
    assert res.pins.pmf == {0: 1}


def test_fifty_anti_tank_dice_resolve_exactly() -> None:
    start = time.perf_counter()
    res = shooting(
        "3e",
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(PEN6, 50)],
        target=MEDIUM_TANK,
    )
    elapsed = time.perf_counter() - start
    vehicle = res.vehicle
    assert total_mass(res.pins.pmf) == 1
    assert total_mass(res.casualties.pmf) == 1
    assert total_mass(res.hits.pmf) == 1
    assert total_mass(vehicle.categories) == 1
    assert 0 < vehicle.p_knocked_out < 1
    assert vehicle.p_knocked_out + vehicle.p_pin_rout <= 1
    assert elapsed < 10  # about 0.05 s; the state-by-state engine took about 45 s


def test_fifty_anti_tank_shots_report_every_step() -> None:
    res = anti_tank("3e", weapon=PEN6, damage_value=9, shots=50)
    kos = [step.p_knocked_out for step in res.by_shot]
    assert len(kos) == 50
    assert kos == sorted(kos)
    assert kos[-1] == res.p_knocked_out
    assert total_mass(res.pins.pmf) == 1


def test_the_chain_sums_to_one_after_every_die() -> None:
    vehicle = VehicleCtx(dv=9, morale=9)
    chain = ShotChain(CFG3, vehicle, shot_spec(vehicle, F(1, 2), 6), start_state(vehicle))
    for _ in range(20):
        chain.step()
        assert sum(chain.pmf().values(), F(0)) == 1
    summary = summarise(CFG3, vehicle, chain.pmf(), 0)
    assert total_mass(summary.pins_added) == 1
    # No live state holds as many pins as the morale: those have routed and merged.
    assert all(s.ko or s.pins < 9 or s == VehicleState(immobilised=s.immobilised, pins=s.pins) for s in chain.states)
