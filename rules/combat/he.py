"""HE templates against units of men (spec §2.4).

One to-hit die per HE shot. A hit places a template; how many models it covers is geometry, so the user
enters it (``models_under_template``). 1e, and any edition against a building, roll the hits instead
(D3/D6/2D6/3D6 by HE class [S002 buildings column; 1e R]). Hits on a Down unit are halved.
"""

from __future__ import annotations

import math
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
    convolve_power,
    dice_pmf,
    mixture,
    point,
    push,
)
from rules.combat.volley import Outcome, VolleyResult, casualties_marginal, pins_marginal
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
) -> VolleyResult:
    """Casualties and pins from ``shots`` HE dice against a unit of men.

    K ~ Binomial(shots, p_hit) templates land; the models hit are the sum of K templates capped at the
    unit's size (each model is hit once [JK3]), then halved if the unit is Down. Each model hit takes a damage
    roll at the HE Pen (the HE size [S002, S000]) and, in 3e, a cover save unless the fire is indirect.
    Pins come as one batch per firing whatever K >= 1 (``he_multi_hit_pins`` [JK3; 2e R]).
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

    outcome: Outcome = {}
    hits_pmf: PMF = {}
    p_exc = ZERO
    for k, pk in binomial(shots, p_hit).items():
        if k == 0:
            outcome[(0, 0, False)] = outcome.get((0, 0, False), ZERO) + pk
            hits_pmf[0] = hits_pmf.get(0, ZERO) + pk
            continue
        models_hit = push(convolve_power(one_template, k), effective)
        cas_given_k = mixture((w, binomial(t, r)) for t, w in models_hit.items())
        pins_given_k = pins_dist if cfg.he_multi_hit_pins == "one_batch" else convolve_power(pins_dist, k)
        for c, vc in cas_given_k.items():
            for p, vp in pins_given_k.items():
                outcome[(c, p, False)] = outcome.get((c, p, False), ZERO) + pk * vc * vp
        for t, w in models_hit.items():
            hits_pmf[t] = hits_pmf.get(t, ZERO) + pk * w
            p_exc += pk * w * (ONE - (ONE - exc) ** t)
    outcome = {key: v for key, v in outcome.items() if v}
    return VolleyResult(
        hits_pmf=dict(sorted((k, v) for k, v in hits_pmf.items() if v)),
        casualties_pmf=casualties_marginal(outcome),
        pins_pmf=pins_marginal(outcome),
        outcome=outcome,
        p_exceptional=p_exc if cfg.exceptional_damage and target.kind in ("infantry", "artillery") else None,
    )
