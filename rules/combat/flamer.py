"""Flamethrowers against units of men and soft-skins (spec §2.5).

One to-hit die; a hit scores D6 hits (D6+1 from a vehicle-mounted flamer) [S002, JK3], each rolling to
damage at the flamethrower's Pen with no cover save [JK3] and no gun-shield or building protection [BS2].
The target takes D3+1 pins [BS2, MK, JK3] and must take a morale check whatever the casualties
[BS2, MK, JK3]; in 3e the firer takes a pin, hit or miss [JK3, BTB].
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping
from fractions import Fraction

from rules.combat.config import RulesConfig
from rules.combat.context import TargetCtx
from rules.combat.damage import p_damage
from rules.combat.dice import (
    ONE,
    PMF,
    ZERO,
    binomial,
    cap,
    combine_counts,
    dice_pmf,
    from_counts,
    mixture,
    to_counts,
)
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
    p, hit_dist, r, exc, pins_dist, forced = _flamer_chances(cfg, need_hit, pen, target, hits, vehicle_mounted)

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
    p, hit_dist, r, exc, pins_dist, forced = _flamer_chances(cfg, need_hit, pen, target, hits, vehicle_mounted)
    # One flamethrower that hits: its casualties, and its chance of an exceptional damage roll.
    one_hit_casualties = mixture((wh, cap(binomial(h, r), models)) for h, wh in hit_dist.items())
    p_exc_one = sum((p * wh * (ONE - (ONE - exc) ** h) for h, wh in hit_dist.items()), ZERO)

    # Exact integer weights throughout (a Fraction product reduces by a gcd each time): after k hits
    # the hits, casualties and pins are counts over dh^k, dc^k and dp^k; the number of hits is
    # binomial, C(n, k) p_num^k p_miss^(n-k) over p_den^n. Every term is lifted to dh^n, dc^n, dp^n.
    hits_one, dh = to_counts(hit_dist)
    casualties_one, dc = to_counts(one_hit_casualties)
    pins_one, dp = to_counts(pins_dist)
    num, den = p.numerator, p.denominator
    hits_k, casualties_k, pins_k = {0: 1}, {0: 1}, {0: 1}
    hits_total: dict[int, int] = {}
    pins_total: dict[int, int] = {}
    joint: dict[tuple[int, int, bool], int] = {}
    for k in range(count + 1):
        if k:
            # The distributions after k hits, from those after k - 1: one more hit's worth.
            hits_k = combine_counts(hits_k, hits_one, operator.add)
            casualties_k = combine_counts(casualties_k, casualties_one, lambda a, b: min(a + b, models))
            pins_k = combine_counts(pins_k, pins_one, operator.add if mode == "sum" else max)
        wk = math.comb(count, k) * num**k * (den - num) ** (count - k)
        if not wk:
            continue
        lift = count - k
        _accumulate(hits_total, hits_k, wk * dh**lift)
        _accumulate(pins_total, pins_k, wk * dp**lift)
        folded: dict[int, int] = {}
        for q, v in pins_k.items():
            key = q if pin_cap is None else min(q, pin_cap)
            folded[key] = folded.get(key, 0) + v
        scale = wk * dc**lift * dp**lift
        hit_forced = forced and k > 0
        for c, vc in casualties_k.items():
            for q, vq in folded.items():
                key = (c, q, hit_forced)
                joint[key] = joint.get(key, 0) + scale * vc * vq
    joint_den = den**count * dc**count * dp**count
    outcome: Outcome = {key: Fraction(v, joint_den) for key, v in joint.items() if v}
    p_exc = ONE - (ONE - p_exc_one) ** count
    return VolleyResult(
        hits_pmf=from_counts(hits_total, den**count * dh**count),
        casualties_pmf=casualties_marginal(outcome),
        pins_pmf=from_counts(pins_total, den**count * dp**count),
        outcome=outcome,
        p_exceptional=p_exc if cfg.exceptional_damage and target.kind in ("infantry", "artillery") else None,
        firer_pins=cfg.flamer_firer_pin * count,
    )


def _accumulate(total: dict[int, int], counts: Mapping[int, int], scale: int) -> None:
    for key, v in counts.items():
        total[key] = total.get(key, 0) + scale * v


def _flamer_chances(cfg, need_hit, pen, target, hits, vehicle_mounted):
    """What one flamethrower shot and a volley of them share: P(hit), the hits, P(damage) per hit,
    P(exceptional damage), the pins a hit places and whether it forces a morale check."""
    hit_dist = dict(hits) if hits is not None else flamer_hits(cfg, vehicle_mounted)
    need_dmg = target.dv - pen
    exc = Fraction(1, 36) if cfg.exceptional_damage and need_dmg <= 6 else ZERO
    return (
        hit_chance(cfg, need_hit),
        hit_dist,
        p_damage(cfg, need_dmg),
        exc,
        dice_pmf(cfg.flamer_pins),
        cfg.flamer_forced_morale,
    )
