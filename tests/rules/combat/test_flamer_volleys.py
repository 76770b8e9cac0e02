"""Many flamethrowers or HE shots at once: exact, and bounded in cost.

A 50-flamethrower volley at 50 men held a worker for 30 s: each shot was merged into a joint
outcome whose pins grew with every shot. ``resolve_flamethrowers`` mixes over the number of hits
instead, and ``combine_results`` folds pins that morale cannot tell apart; both must give the
answers the shot-by-shot merge gave.
"""

from __future__ import annotations

import time
from dataclasses import replace
from fractions import Fraction as F

import pytest

from rules.combat.api import ShotGroupInput, TargetInput, shooting
from rules.combat.damage import cover_save_need, p_damage, p_save
from rules.combat.dice import ONE, ZERO, binomial, convolve_power, dice_pmf, mixture, push
from rules.combat.flamer import resolve_flamethrower, resolve_flamethrowers
from rules.combat.he import halve_for_down, resolve_he, template_hits
from rules.combat.morale import pins_that_matter, shooting_with_morale
from rules.combat.volley import ShotGroup, casualties_marginal, combine_results, pins_marginal, resolve_volley
from rules.combat.weapons import Weapon

from .builders import CFG1, CFG2, CFG3, FLAMER_2E, FLAMER_3E, LMG, target

CONFIGS = {"1e": CFG1, "2e": CFG2, "3e": CFG3}


@pytest.mark.parametrize("edition", sorted(CONFIGS))
@pytest.mark.parametrize("mode", ["max", "sum"])
@pytest.mark.parametrize("count", [1, 2, 3, 4])
@pytest.mark.parametrize("models", [3, 8])
def test_a_group_of_flamethrowers_is_the_shots_merged_one_by_one(edition, mode, count, models):
    cfg = replace(CONFIGS[edition], mixed_fire_pins=mode)
    t = target(models=models)
    shot = resolve_flamethrower(cfg, 3, t, False, pen=2)
    merged = combine_results(cfg, [shot] * count, models)
    group = resolve_flamethrowers(cfg, 3, t, False, pen=2, count=count)
    assert group.outcome == merged.outcome
    assert group.hits_pmf == merged.hits_pmf
    assert group.casualties_pmf == merged.casualties_pmf
    assert group.pins_pmf == merged.pins_pmf
    assert group.p_exceptional == merged.p_exceptional
    assert group.firer_pins == merged.firer_pins


def test_a_vehicle_flamethrower_group_matches_too():
    t = target(models=6)
    shot = resolve_flamethrower(CFG2, 2, t, True, pen=2)
    group = resolve_flamethrowers(CFG2, 2, t, True, pen=2, count=3)
    assert group.outcome == combine_results(CFG2, [shot] * 3, 6).outcome


@pytest.mark.parametrize("edition", sorted(CONFIGS))
@pytest.mark.parametrize("pin_rout", [True, False])
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"pins": 3},
        {"pins": 12},
        {"quality": "veteran", "officer_bonus": 2},
        {"quality": "inexperienced", "morale_modifier": -3},
        {"stubborn": True},
    ],
)
def test_folding_pins_changes_neither_the_fate_nor_the_pins(edition, pin_rout, kwargs):
    cfg = replace(CONFIGS[edition], pin_rout=pin_rout, mixed_fire_pins="sum")
    t = target(models=8, **kwargs)
    rifles = resolve_volley(cfg, [ShotGroup(6, 3, 4)], t)
    flamers = resolve_flamethrowers(cfg, 3, t, False, pen=2, count=3)
    exact = combine_results(cfg, [rifles, flamers], 8)
    cap = pins_that_matter(cfg, t)
    folded = combine_results(
        cfg, [rifles, resolve_flamethrowers(cfg, 3, t, False, pen=2, count=3, pin_cap=cap)], 8, pin_cap=cap
    )
    assert max(pins for _, pins, _ in folded.outcome) <= cap
    assert folded.pins_pmf == exact.pins_pmf
    assert folded.casualties_pmf == exact.casualties_pmf
    assert shooting_with_morale(cfg, folded, t) == shooting_with_morale(cfg, exact, t)


@pytest.mark.parametrize(("edition", "flamer"), [("1e", FLAMER_2E), ("2e", FLAMER_2E), ("3e", FLAMER_3E)])
def test_fifty_flamethrowers_at_fifty_men_take_well_under_a_second(edition, flamer):
    start = time.process_time()
    result = shooting(
        edition,
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(flamer, 40, "point_blank"), ShotGroupInput(LMG, 10, "point_blank")],
        target=TargetInput("infantry", "regular", 50),
    )
    assert time.process_time() - start < 1.0
    assert sum(result.casualties.pmf.values()) == 1 and sum(result.pins.pmf.values()) == 1
    assert "mixed_fire_pins" in result.unverified  # its "sum" alternative was worked out too


# --- HE: a hundred shots (50 light autocannons) took 12 s ----------------------------------------


def reference_he(cfg, p_hit, hits, target, he_size, indirect, *, shots=1, point_blank=False):
    """``resolve_he`` as it was before it was bounded, k templates convolved from scratch in Fractions."""
    models = target.models
    need_dmg = target.dv - he_size
    need_save = cover_save_need(cfg, target, kind="he", indirect=indirect, point_blank=point_blank)
    r = p_damage(cfg, need_dmg) * (ONE - p_save(cfg, need_save))
    exc = F(1, 36) if cfg.exceptional_damage and need_dmg <= 6 else ZERO
    one_template = template_hits(cfg, target, he_size, hits)
    pins_dist = dice_pmf(cfg.he_pins_for(he_size))

    def effective(raw):
        capped = min(raw, models)
        return halve_for_down(cfg, capped) if target.down else capped

    outcome, hits_pmf, p_exc = {}, {}, ZERO
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
    p_exceptional = p_exc if cfg.exceptional_damage and target.kind in ("infantry", "artillery") else None
    return outcome, dict(sorted((k, v) for k, v in hits_pmf.items() if v)), p_exceptional


@pytest.mark.parametrize("edition", sorted(CONFIGS))
@pytest.mark.parametrize("pins", ["one_batch", "per_hit"])
@pytest.mark.parametrize("shots", [1, 2, 4])
@pytest.mark.parametrize(("hits", "size"), [(3, 2), (None, 3), ({1: F(1, 2), 4: F(1, 2)}, 1)])
@pytest.mark.parametrize("down", [False, True])
def test_he_volleys_are_what_they_were(edition, pins, shots, hits, size, down):
    cfg = replace(CONFIGS[edition], he_multi_hit_pins=pins)
    t = target(models=7, down=down, cover="soft")
    result = resolve_he(cfg, F(2, 3), hits, t, size, False, shots=shots)
    outcome, hits_pmf, p_exc = reference_he(cfg, F(2, 3), hits, t, size, False, shots=shots)
    assert result.outcome == outcome
    assert result.hits_pmf == hits_pmf
    assert result.p_exceptional == p_exc
    assert result.pins_pmf == pins_marginal(outcome)
    assert result.casualties_pmf == casualties_marginal(outcome)


@pytest.mark.parametrize("edition", sorted(CONFIGS))
def test_folded_he_pins_keep_the_fate_and_the_pins(edition):
    cfg = replace(CONFIGS[edition], he_multi_hit_pins="per_hit")
    t = target(models=8, pins=2)
    exact = resolve_he(cfg, F(1, 2), 2, t, 2, False, shots=5)
    folded = resolve_he(cfg, F(1, 2), 2, t, 2, False, shots=5, pin_cap=pins_that_matter(cfg, t))
    assert folded.pins_pmf == exact.pins_pmf
    assert len(folded.outcome) < len(exact.outcome)
    assert shooting_with_morale(cfg, folded, t) == shooting_with_morale(cfg, exact, t)


@pytest.mark.parametrize("edition", ["1e", "2e", "3e"])
def test_a_hundred_he_shots_at_fifty_men_take_well_under_a_second(edition):
    autocannon = Weapon("Light autocannon", "light-autocannon", 48, shots="2", pen=2, he_size=1)
    start = time.process_time()
    result = shooting(
        edition,
        order="fire",
        firer_quality="inexperienced",
        firer_pins=30,
        groups=[ShotGroupInput(autocannon, 50, "normal", models_under_template=50)],
        target=TargetInput("infantry", "inexperienced", 50),
    )
    assert time.process_time() - start < 1.0
    assert sum(result.casualties.pmf.values()) == 1
