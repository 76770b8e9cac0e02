from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.combat.api import ShotGroupInput, TargetInput, shooting
from rules.combat.context import ShooterCtx
from rules.combat.dice import ONE, binomial, mean, total_mass
from rules.combat.flamer import resolve_flamethrower
from rules.combat.he import resolve_he
from rules.combat.results import Save
from rules.combat.to_hit import p_hit, to_hit
from rules.combat.volley import ShotGroup, combine_results, resolve_volley

from .builders import CFG1, CFG2, CFG3, FLAMER_2E, FLAMER_3E, LMG, MEDIUM_MORTAR, RIFLE, SMG, target

V02_PMF = {
    0: F(9765625, 60466176),
    1: F(9765625, 30233088),
    2: F(1953125, 6718464),
    3: F(390625, 2519424),
    4: F(546875, 10077696),
    5: F(21875, 1679616),
    6: F(21875, 10077696),
    7: F(625, 2519424),
    8: F(125, 6718464),
    9: F(25, 30233088),
    10: F(1, 60466176),
}

V08_PMF = {
    0: F(48828125, 31381059609),
    1: F(429687500, 31381059609),
    2: F(1718750000, 31381059609),
    3: F(1375000000, 10460353203),
    4: F(2200000000, 10460353203),
    5: F(2464000000, 10460353203),
    6: F(1971200000, 10460353203),
    7: F(1126400000, 10460353203),
    8: F(591331328, 10460353203),
}


def _rifles_at_long_range_in_soft_cover(edition: str) -> dict:
    return shooting(
        edition,
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(RIFLE, 10, "long")],
        target=TargetInput("infantry", "regular", 10, "soft"),
    )


def test_it_resolves_v02_ten_rifles_at_long_range_in_soft_cover_2e() -> None:
    res = _rifles_at_long_range_in_soft_cover("2e")
    assert res.need_to_hit[0].need == 5
    assert res.need_to_hit[0].p == F(1, 3)
    assert res.need_to_damage[0].p == F(1, 2)
    assert res.p_pin == F(58025, 59049)
    assert res.hits.mean == F(10, 3)
    assert res.casualties.mean == F(5, 3)
    assert res.casualties.pmf == V02_PMF
    assert res.save is None


def test_it_resolves_v02_identically_in_1e() -> None:
    res = _rifles_at_long_range_in_soft_cover("1e")
    assert res.p_pin == F(58025, 59049)
    assert res.casualties.pmf == V02_PMF


def test_it_resolves_v03_the_same_volley_in_3e() -> None:
    res = _rifles_at_long_range_in_soft_cover("3e")
    assert res.need_to_hit[0].need == 4
    assert res.need_to_hit[0].p == F(1, 2)
    assert res.save == (Save(5, F(1, 3)),)
    assert res.p_pin == F(1023, 1024)
    assert res.hits.mean == 5
    assert res.casualties.mean == F(5, 3)
    assert res.casualties.pmf == V02_PMF
    assert res.p_exceptional is None


def test_it_resolves_v08_rifles_and_an_lmg_against_inexperienced_men() -> None:
    # The vector puts every shot at normal range (p_hit 2/3), so both groups use the normal band.
    res = shooting(
        "2e",
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(RIFLE, 7), ShotGroupInput(LMG, 1)],
        target=TargetInput("infantry", "inexperienced", 8),
    )
    assert [g.p for g in res.need_to_hit] == [F(2, 3), F(2, 3)]
    assert res.p_pin == F(177146, 177147)
    assert res.casualties.pmf == V08_PMF
    assert res.casualties.mean == F(1888026412, 387420489)


def test_it_resolves_the_engine_volley_without_the_api() -> None:
    res = resolve_volley(CFG2, [ShotGroup(10, 5, 4)], target(models=10))
    assert res.casualties_pmf == binomial(10, F(1, 6))
    assert res.p_pin == F(58025, 59049)
    assert res.e_hits == F(10, 3)
    # Exceptional damage: a hit, then a natural 6 that damages, then a further 6.
    assert res.p_exceptional == 1 - (1 - F(1, 3) * F(1, 36)) ** 10


def test_it_lists_to_hit_modifiers_with_labels() -> None:
    shooter = ShooterCtx("inexperienced", 2, "advance")
    need = to_hit(CFG2, shooter, target(cover="hard", down=True, models=2), RIFLE, "long")
    labels = dict(need.modifiers)
    assert labels == {
        "Long range": -1,
        "Fire on the move": -1,
        "Pinned (2)": -2,
        "Inexperienced firer": -1,
        "Hard cover": -2,
        "Target Down": -2,
        "Small unit or team": -1,
    }
    assert need.need == 3 + 10
    assert p_hit(CFG2, need.need) == F(1, 36)
    # 3e: flat pin, no cover, Down or range modifiers, point blank +2.
    need3 = to_hit(CFG3, shooter, target(cover="hard", down=True, models=2), RIFLE, "point_blank")
    assert dict(need3.modifiers) == {"Point blank": 2, "Fire on the move": -1, "Pinned": -1, "Inexperienced firer": -1}
    assert need3.need == 5


def test_it_exempts_assault_weapons_from_the_moving_penalty() -> None:
    need = to_hit(CFG2, ShooterCtx(order="advance"), target(), SMG, "normal")
    assert need.need == 3 and need.modifiers == ()


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["1e", "2e", "3e"]),
    st.integers(0, 6),
    st.sampled_from(["none", "soft", "hard"]),
    st.booleans(),
    st.sampled_from(["point_blank", "normal", "long"]),
    st.sampled_from(["fire", "advance"]),
)
def test_it_never_raises_a_hit_chance_with_an_extra_pin_or_worse_cover(
    edition: str, pins: int, cover: str, down: bool, band: str, order: str
) -> None:
    from rules.combat.config import config_for

    cfg = config_for(edition)
    base = to_hit(cfg, ShooterCtx("regular", pins, order), target(cover=cover, down=down), RIFLE, band)
    more_pins = to_hit(cfg, ShooterCtx("regular", pins + 1, order), target(cover=cover, down=down), RIFLE, band)
    worse = to_hit(cfg, ShooterCtx("inexperienced", pins, order), target(cover="hard", down=True), RIFLE, band)
    assert p_hit(cfg, more_pins.need) <= p_hit(cfg, base.need)
    assert p_hit(cfg, worse.need) <= p_hit(cfg, base.need)


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(["1e", "2e", "3e"]),
    st.integers(1, 30),
    st.integers(0, 10),
    st.integers(1, 20),
    st.sampled_from(["inexperienced", "regular", "veteran"]),
    st.sampled_from(["none", "soft", "hard"]),
    st.booleans(),
)
def test_it_returns_pmfs_summing_to_one_for_any_volley(
    edition: str, rifles: int, smgs: int, models: int, quality: str, cover: str, down: bool
) -> None:
    groups = [ShotGroupInput(RIFLE, rifles)] + ([ShotGroupInput(SMG, smgs, "point_blank")] if smgs else [])
    res = shooting(
        edition,
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=groups,
        target=TargetInput("infantry", quality, models, cover, down),
    )
    for key in ("hits", "casualties", "pins"):
        assert total_mass(getattr(res, key).pmf) == 1
    assert max(res.casualties.pmf) <= models
    assert 0 <= res.morale.p_destroyed <= 1


def test_it_halves_he_hits_on_a_down_unit_by_edition() -> None:
    down = target(models=10, down=True)
    two = resolve_he(CFG2, ONE, 5, down, 2, indirect=False)
    three = resolve_he(CFG3, ONE, 5, down, 2, indirect=False)
    assert max(two.hits_pmf) == 2  # rounded down [BS2]
    assert max(three.hits_pmf) == 3  # rounded up [JK3]


def test_it_resolves_an_he_hit_with_one_batch_of_pins() -> None:
    res = resolve_he(CFG2, F(1, 2), 3, target(models=10), 2, indirect=False)
    # 2" HE in 2e: D3 pins, Pen +2 against Regular needs 2+.
    assert res.pins_pmf == {0: F(1, 2), 1: F(1, 6), 2: F(1, 6), 3: F(1, 6)}
    assert res.casualties_pmf[3] == F(1, 2) * F(5, 6) ** 3
    assert total_mass(res.casualties_pmf) == 1
    two_shots = resolve_he(CFG3, F(1, 2), 3, target(models=4), 1, indirect=False, shots=2)
    assert two_shots.pins_pmf == {0: F(1, 4), 1: F(3, 8), 2: F(3, 8)}  # 3e 1" HE: D2, once
    assert max(two_shots.hits_pmf) == 4  # two templates of 3, capped at the unit


def test_it_gives_3e_he_a_cover_save_unless_indirect() -> None:
    hard = target(models=10, cover="hard")
    direct = resolve_he(CFG3, ONE, 1, hard, 2, indirect=False)
    indirect = resolve_he(CFG3, ONE, 1, hard, 2, indirect=True)
    assert direct.casualties_pmf[1] == F(5, 6) * F(1, 2)
    assert indirect.casualties_pmf[1] == F(5, 6)


def test_it_rolls_random_he_hits_in_1e() -> None:
    res = shooting(
        "1e",
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(MEDIUM_MORTAR, 1, zeroed=True)],
        target=TargetInput("infantry", "regular", 10),
    )
    assert max(res.hits.pmf) == 6  # D6 hits for a 2" class weapon
    assert "he_hits_mode" in res.unverified and "he_pins" in res.unverified


def test_it_resolves_a_2e_flamethrower() -> None:
    res = resolve_flamethrower(CFG2, 3, target(models=5, cover="hard", down=True), False, pen=3)
    p = F(2, 3)
    assert res.p_pin == p
    assert res.pins_pmf == {0: F(1, 3), 2: p / 3, 3: p / 3, 4: p / 3}
    assert res.hits_pmf[0] == F(1, 3)
    # Pen +3 against Regular needs 1+, which is 5/6 because a natural 1 fails.
    assert res.casualties_pmf[5] > 0
    assert total_mass(res.casualties_pmf) == 1
    assert all(forced for (_, pins, forced) in res.outcome if pins)


def test_it_ignores_cover_and_down_for_2e_flamers_only() -> None:
    covered = target(models=5, cover="hard", down=True)
    two = to_hit(CFG2, ShooterCtx(), covered, FLAMER_2E, "point_blank")
    three = to_hit(CFG3, ShooterCtx(), covered, FLAMER_3E, "point_blank")
    assert two.need == 2 and three.need == 2
    assert dict(two.modifiers) == {"Point blank": 1}


def test_it_forces_a_morale_check_after_a_flamer_hit_and_pins_the_3e_firer() -> None:
    res = shooting(
        "3e",
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(FLAMER_3E, 1, "point_blank")],
        target=TargetInput("infantry", "veteran", 10),
    )
    p = F(5, 6)  # 4+ in 3e, +2 at point blank, the only band a 6" flamethrower has
    assert res.morale.p_check + res.morale.p_wiped_out == p
    assert res.firer_pins_added == 1
    assert res.save == (None,)


def test_it_triggers_the_morale_check_at_half_strength() -> None:
    res = resolve_volley(CFG2, [ShotGroup(10, 2, 2)], target(models=6))
    from rules.combat.morale import shooting_with_morale

    fate = shooting_with_morale(CFG2, res, target(models=6))
    # Regular, 1 pin after the attack: check at 8, pass 13/18.
    expected = sum((v for c, v in res.casualties_pmf.items() if 3 <= c < 6), F(0)) * (1 - F(26, 36))
    assert fate.p_destroyed_by_check == expected
    assert fate.p_wiped_out == res.casualties_pmf[6]


def test_it_combines_rifles_and_a_flamer_into_one_attack() -> None:
    t = target(models=8)
    rifles = resolve_volley(CFG2, [ShotGroup(5, 3, 4)], t)
    flamer = resolve_flamethrower(CFG2, 3, t, False, pen=3)
    both = combine_results(CFG2, [rifles, flamer], 8)
    assert total_mass(both.casualties_pmf) == 1
    assert mean(both.hits_pmf) == mean(rifles.hits_pmf) + mean(flamer.hits_pmf)
    assert both.p_pin == 1 - (1 - rifles.p_pin) * (1 - flamer.p_pin)


def test_it_uses_1e_to_hit_modifiers() -> None:
    need = to_hit(CFG1, ShooterCtx(), target(down=True), RIFLE, "normal")
    assert need.need == 4
