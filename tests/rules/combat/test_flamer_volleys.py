"""Many flamethrowers at once: exact, and bounded in cost (issue 23).

A 50-flamethrower volley at 50 men held a worker for 30 s: each shot was merged into a joint
outcome whose pins grew with every shot. ``resolve_flamethrowers`` mixes over the number of hits
instead, and ``combine_results`` folds pins that morale cannot tell apart; both must give the
answers the shot-by-shot merge gave.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from rules.combat.api import ShotGroupInput, TargetInput, shooting
from rules.combat.flamer import resolve_flamethrower, resolve_flamethrowers
from rules.combat.morale import pins_that_matter, shooting_with_morale
from rules.combat.volley import ShotGroup, combine_results, resolve_volley

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
