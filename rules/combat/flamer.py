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
from rules.combat.dice import ONE, PMF, ZERO, binomial, cap, combine, convolve, dice_pmf, mixture, point
from rules.combat.to_hit import p_hit as hit_chance
from rules.combat.volley import Outcome, VolleyResult, cap_pins, casualties_marginal, pins_marginal


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


def resolve_flamethrowers(
    cfg: RulesConfig,
    need_hit: int,
    target: TargetCtx,
    vehicle_mounted: bool,
    *,
    pen: int,
    count: int,
    hits: Mapping[int, Fraction] | None = None,
    pins_mode: str | None = None,
    pin_cap: int | None = None,
) -> VolleyResult:
    """``count`` flamethrowers of one group firing at one unit: the same answer as ``count`` single
    shots merged by ``combine_results``, in time that grows with ``count`` squared, not exponentially.

    Merging the shots one by one made a joint outcome whose pins grow with every shot, each merge
    multiplying it by the next shot's outcomes (a 50-flamer volley held a worker for 30 s). The
    shots are identical and independent, so the number that hit, K, is binomial; given K = k the
    casualties (k hits' casualties added, capped at the unit) and the pins (k batches, added or the
    largest by ``mixed_fire_pins``) are independent. The joint is the mixture over k of their
    product. ``pin_cap`` folds pins at or above it onto it in the joint only (the pins
    distribution stays exact): see ``combine_results``.
    """
    models = target.models
    mode = pins_mode or cfg.mixed_fire_pins
    p = hit_chance(cfg, need_hit)
    hit_dist = dict(hits) if hits is not None else flamer_hits(cfg, vehicle_mounted)
    need_dmg = target.dv - pen
    r = p_damage(cfg, need_dmg)
    exc = Fraction(1, 36) if cfg.exceptional_damage and need_dmg <= 6 else ZERO
    pins_dist = dice_pmf(cfg.flamer_pins)
    forced = cfg.flamer_forced_morale
    # One flamethrower that hits: its casualties, and its chance of an exceptional damage roll.
    one_hit_casualties = mixture((wh, cap(binomial(h, r), models)) for h, wh in hit_dist.items())
    p_exc_one = sum((p * wh * (ONE - (ONE - exc) ** h) for h, wh in hit_dist.items()), ZERO)

    k_hits = binomial(count, p)
    hits_k, casualties_k, pins_k = point(0), point(0), point(0)
    hits_parts: list[tuple[Fraction, PMF]] = []
    pins_parts: list[tuple[Fraction, PMF]] = []
    outcome: Outcome = {}
    for k in range(count + 1):
        if k:
            # The distributions after k hits, from those after k - 1: one more hit's worth.
            hits_k = convolve(hits_k, hit_dist)
            casualties_k = cap(convolve(casualties_k, one_hit_casualties), models)
            pins_k = convolve(pins_k, pins_dist) if mode == "sum" else combine(pins_k, pins_dist, max)
        wk = k_hits.get(k, ZERO)
        if not wk:
            continue
        hits_parts.append((wk, hits_k))
        pins_parts.append((wk, pins_k))
        folded = cap_pins(pins_k, pin_cap)
        for c, vc in casualties_k.items():
            for pins, vp in folded.items():
                key = (c, pins, forced and k > 0)
                outcome[key] = outcome.get(key, ZERO) + wk * vc * vp
    outcome = {key: v for key, v in outcome.items() if v}
    p_exc = ONE - (ONE - p_exc_one) ** count
    return VolleyResult(
        hits_pmf=mixture(hits_parts),
        casualties_pmf=casualties_marginal(outcome),
        pins_pmf=mixture(pins_parts),
        outcome=outcome,
        p_exceptional=p_exc if cfg.exceptional_damage and target.kind in ("infantry", "artillery") else None,
        firer_pins=cfg.flamer_firer_pin * count,
    )
