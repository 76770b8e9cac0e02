"""HE templates against units of men (spec §2.4).

One to-hit die per HE shot. A hit places a template; how many models it covers is geometry, so the user
enters it (``models_under_template``). 1e, and any edition against a building, roll the hits instead
(D3/D6/2D6/3D6 by HE class [S002 buildings column; 1e R]). Hits on a Down unit are halved.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping
from fractions import Fraction

from rules.combat.config import RulesConfig
from rules.combat.context import TargetCtx
from rules.combat.damage import cover_save_need, p_damage, p_save
from rules.combat.dice import (
    ONE,
    PMF,
    ZERO,
    binomial,
    combine_counts,
    dice_pmf,
    from_counts,
    point,
    to_counts,
)
from rules.combat.volley import Outcome, VolleyResult, casualties_marginal
from rules.errors import RulesError

# Default models under one template when the user gives no count: models about 1.5" apart, so roughly
# 1, 2, 4 and 6 models under a 1", 2", 3" and 4" template (capped at the unit's size). Template geometry
# is out of scope for exact maths (spec §5), so this is only a starting value for the form.
DEFAULT_MODELS_UNDER_TEMPLATE = {1: 1, 2: 2, 3: 4, 4: 6}


def default_models_under_template(he_size: int) -> int:
    """The form's default count of models under one template of ``he_size`` inches."""
    return DEFAULT_MODELS_UNDER_TEMPLATE[min(max(he_size, 1), 4)]


def halve_for_down(cfg: RulesConfig, hits: int) -> int:
    """Hits on a Down unit: halved, rounding down in 2e [BS2, R] and up in 3e [JK3]."""
    return math.ceil(hits / 2) if cfg.he_down_rounding == "up" else hits // 2


def template_hits(cfg: RulesConfig, target: TargetCtx, he_size: int, hits: int | Mapping[int, Fraction] | None) -> PMF:
    """Distribution of raw models hit by ONE template (before Down halving and the unit cap).

    ``hits`` is the user's count of models under the template, a PMF, or None to roll the class dice
    (1e random hits, or a unit in a building).
    """
    if hits is None:
        return dice_pmf(cfg.he_class_hits_for(he_size))
    if isinstance(hits, int):
        if hits < 0:
            raise RulesError(
                f"models_under_template: must not be negative, got {hits}",
                code="negative",
                params={"field": "models_under_template", "value": hits},
            )
        return point(hits)
    return dict(hits)


def resolve_he(
    cfg: RulesConfig,
    p_hit: Fraction,
    hits: int | Mapping[int, Fraction] | None,
    target: TargetCtx,
    he_size: int,
    indirect: bool,
    *,
    shots: int = 1,
    point_blank: bool = False,
    pin_cap: int | None = None,
) -> VolleyResult:
    """Casualties and pins from ``shots`` HE dice against a unit of men.

    K ~ Binomial(shots, p_hit) templates land; the models hit are the sum of K templates capped at the
    unit's size (each model is hit once [JK3]), then halved if the unit is Down. Each model hit takes a damage
    roll at the HE Pen (the HE size [S002, S000]) and, in 3e, a cover save unless the fire is indirect.
    Pins come as one batch per firing whatever K >= 1 (``he_multi_hit_pins`` [JK3; 2e R]).

    The distributions for K = k are built from those for k - 1 (one more template, one more batch
    of pins), as integer weights, so a hundred shots cost a hundred small steps. ``pin_cap`` folds
    pins in the joint outcome only (see ``combine_results``); the pins distribution stays exact.
    """
    if not 1 <= he_size <= 6:
        raise RulesError(
            f"he_size: must be 1 to 6 inches, got {he_size}",
            code="he-size",
            params={"field": "he_size", "value": he_size},
        )
    models = target.models
    need_dmg = target.dv - he_size
    need_save = cover_save_need(cfg, target, kind="he", indirect=indirect, point_blank=point_blank)
    r = p_damage(cfg, need_dmg) * (ONE - p_save(cfg, need_save))
    exc = Fraction(1, 36) if cfg.exceptional_damage and need_dmg <= 6 else ZERO
    one_template = template_hits(cfg, target, he_size, hits)
    pins_dist = dice_pmf(cfg.he_pins_for(he_size))

    def effective(raw: int) -> int:
        # Each model is hit once at most, so the cap is the unit's size, halved (the edition's rounding)
        # when it is Down: two templates of 2 on a Down unit of 2 give 1 hit, never 2 [JK3; spec §2.4].
        # For one template covering no more than the unit this is the same as halving first.
        capped = min(raw, models)
        return halve_for_down(cfg, capped) if target.down else capped

    # Casualties among t models hit, for every t a template volley can leave (at most the unit).
    casualties_of = [to_counts(binomial(t, r)) for t in range(models + 1)]
    # (1 - exc)^t = keep^t / exc_den^t: the chance that none of t models hit rolls exceptional damage.
    keep, exc_den = exc.denominator - exc.numerator, exc.denominator
    template, dt = to_counts(one_template)
    pins_one, dp = to_counts(pins_dist)
    per_hit_pins = cfg.he_multi_hit_pins != "one_batch"
    num, den = p_hit.numerator, p_hit.denominator

    raw_k: dict[int, int] = {0: 1}  # raw models hit (capped at the unit) after k templates, over dt^k
    pins_k: dict[int, int] = {0: 1}  # pins after k hits, over dp^k (one batch, or one per hit)
    pins_den_k = 1
    joint: dict[tuple[int, int, bool], int] = {}
    hits_total: dict[int, int] = {}
    pins_total: dict[int, int] = {}
    exc_total = 0
    # Every term is lifted to one denominator: den^shots (templates landing) x dt^shots (their models)
    # x dp^shots (pins) x the casualties' and exceptional damage's own denominators.
    cas_den = math.lcm(*(d for _, d in casualties_of))
    exc_lift = exc_den**models
    pins_final_den = dp**shots if per_hit_pins else dp
    for k in range(shots + 1):
        if k:
            raw_k = combine_counts(raw_k, template, lambda a, b: min(a + b, models))
            if per_hit_pins or k == 1:
                pins_k = combine_counts(pins_k, pins_one, operator.add)
                pins_den_k *= dp
        wk = math.comb(shots, k) * num**k * (den - num) ** (shots - k)
        if not wk:
            continue
        scale = wk * dt ** (shots - k)  # over den^shots x dt^shots
        pins_scale = pins_final_den // pins_den_k
        for q, v in pins_k.items():
            pins_total[q] = pins_total.get(q, 0) + wk * v * pins_scale  # over den^shots x pins_final_den
        folded: dict[int, int] = {}
        for q, v in pins_k.items():
            key = q if pin_cap is None else min(q, pin_cap)
            folded[key] = folded.get(key, 0) + v * pins_scale
        models_hit: dict[int, int] = {}
        for raw, v in raw_k.items():
            t = effective(raw)
            models_hit[t] = models_hit.get(t, 0) + v
        casualties_k: dict[int, int] = {}  # over dt^k x cas_den
        for t, v in models_hit.items():
            hits_total[t] = hits_total.get(t, 0) + scale * v
            exc_total += scale * v * (exc_lift - keep**t * exc_den ** (models - t))
            counts, dc = casualties_of[t]
            lift = cas_den // dc
            for c, vc in counts.items():
                casualties_k[c] = casualties_k.get(c, 0) + v * vc * lift
        # Given k templates, the pins do not depend on the casualties.
        for c, vc in casualties_k.items():
            for q, vq in folded.items():
                joint[(c, q, False)] = joint.get((c, q, False), 0) + scale * vc * vq
    base = den**shots * dt**shots
    outcome: Outcome = {key: Fraction(v, base * cas_den * pins_final_den) for key, v in joint.items() if v}
    return VolleyResult(
        hits_pmf=from_counts(hits_total, base),
        casualties_pmf=casualties_marginal(outcome),
        pins_pmf=from_counts(pins_total, den**shots * pins_final_den),
        outcome=outcome,
        p_exceptional=(
            Fraction(exc_total, base * exc_lift)
            if cfg.exceptional_damage and target.kind in ("infantry", "artillery")
            else None
        ),
    )
