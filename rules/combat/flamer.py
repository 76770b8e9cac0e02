"""Flamethrowers against units of men and soft-skins (spec §2.5).

One to-hit die; a hit scores D6 hits (D6+1 from a vehicle-mounted flamer) [S002, JK3], each rolling to
damage at the flamethrower's Pen with no cover save [JK3] and no gun-shield or building protection [BS2].
The target takes D3+1 pins [BS2, MK, JK3] and must take a morale check whatever the casualties
[BS2, MK, JK3]; in 3e the firer takes a pin, hit or miss [JK3, BTB].
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rules.combat.config import RulesConfig
from rules.combat.context import TargetCtx
from rules.combat.damage import p_damage
from rules.combat.dice import ONE, PMF, ZERO, binomial, cap, dice_pmf
from rules.combat.to_hit import p_hit as hit_chance
from rules.combat.volley import Outcome, VolleyResult, casualties_marginal, pins_marginal


def flamer_hits(cfg: RulesConfig, vehicle_mounted: bool) -> PMF:
    """Hits scored by a flamethrower that hits: D6, or D6+1 when vehicle-mounted."""
    return dice_pmf(cfg.flamer_hits_vehicle_mounted if vehicle_mounted else cfg.flamer_hits)


def resolve_flamethrower(
    cfg: RulesConfig,
    need_hit: int,
    target: TargetCtx,
    vehicle_mounted: bool,
    *,
    pen: int,
    hits: Mapping[int, Fraction] | None = None,
) -> VolleyResult:
    """Casualties, pins and the forced morale check from one flamethrower shot.

    ``hits`` overrides the D6 / D6+1 hit dice (the API passes a single hit against a soft-skin under
    ``flamer_vs_vehicle == "one_roll"``).
    """
    p = hit_chance(cfg, need_hit)
    hit_dist = dict(hits) if hits is not None else flamer_hits(cfg, vehicle_mounted)
    need_dmg = target.dv - pen
    r = p_damage(cfg, need_dmg)
    exc = Fraction(1, 36) if cfg.exceptional_damage and need_dmg <= 6 else ZERO
    pins_dist = dice_pmf(cfg.flamer_pins)
    forced = cfg.flamer_forced_morale

    outcome: Outcome = {}
    if ONE - p:
        outcome[(0, 0, False)] = ONE - p
    hits_pmf: PMF = {0: ONE - p} if ONE - p else {}
    p_exc = ZERO
    for h, wh in hit_dist.items():
        hits_pmf[h] = hits_pmf.get(h, ZERO) + p * wh
        p_exc += p * wh * (ONE - (ONE - exc) ** h)
        for c, vc in cap(binomial(h, r), target.models).items():
            for pins, vp in pins_dist.items():
                key = (c, pins, forced)
                outcome[key] = outcome.get(key, ZERO) + p * wh * vc * vp
    outcome = {k: v for k, v in outcome.items() if v}
    return VolleyResult(
        hits_pmf=dict(sorted((k, v) for k, v in hits_pmf.items() if v)),
        casualties_pmf=casualties_marginal(outcome),
        pins_pmf=pins_marginal(outcome),
        outcome=outcome,
        p_exceptional=p_exc if cfg.exceptional_damage and target.kind in ("infantry", "artillery") else None,
        firer_pins=cfg.flamer_firer_pin,
    )
