from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.combat.dice import (
    binomial,
    cap,
    convolve,
    dice_pmf,
    mean,
    p_at_least,
    p_hit,
    poisson_binomial,
    total_mass,
    two_d6_at_most,
)
from rules.combat.volley import ShotGroup, resolve_volley

from .builders import CFG3, target


def test_it_gives_the_v01_per_die_hit_chances() -> None:
    # V01: six-then-six for any need of 7 or more.
    expected = {1: F(5, 6), 2: F(5, 6), 3: F(2, 3), 4: F(1, 2), 5: F(1, 3), 6: F(1, 6)}
    for need, p in expected.items():
        assert p_hit(need) == p
    for need in (7, 8, 9, 10, 12):
        assert p_hit(need) == F(1, 36)


def test_it_gives_the_v01_graded_and_impossible_alternatives() -> None:
    assert [p_hit(n, "graded") for n in (7, 8, 9, 10, 11)] == [F(1, 12), F(1, 18), F(1, 36), 0, 0]
    assert p_hit(7, "impossible") == 0
    assert p_hit(6, "graded") == F(1, 6)


def test_it_matches_a_two_die_enumeration_for_need_nine() -> None:
    # A 6, then a further 6: count over both dice.
    wins = sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a == 6 and b == 6)
    assert F(wins, 36) == p_hit(9) == F(1, 36)


def test_it_fails_natural_ones_and_has_no_seven_plus_for_damage() -> None:
    assert p_at_least(0) == F(5, 6)
    assert p_at_least(0, nat1_always_fails=False) == 1
    assert p_at_least(7) == 0
    assert p_at_least(9) == 0


def test_it_counts_two_d6_totals() -> None:
    expected = [1, 3, 6, 10, 15, 21, 26, 30, 33, 35]
    assert [two_d6_at_most(m) for m in range(2, 12)] == [F(n, 36) for n in expected]
    assert two_d6_at_most(1) == 0
    assert two_d6_at_most(12) == 1


def test_it_reads_dice_expressions() -> None:
    assert dice_pmf("D2") == {1: F(1, 2), 2: F(1, 2)}
    assert dice_pmf("D3+1") == {2: F(1, 3), 3: F(1, 3), 4: F(1, 3)}
    assert dice_pmf("D6+1") == {k: F(1, 6) for k in range(2, 8)}
    assert dice_pmf("4") == {4: 1}
    two = dice_pmf("2D6")
    assert two[7] == F(1, 6) and two[2] == F(1, 36) and total_mass(two) == 1
    assert total_mass(dice_pmf("3D6")) == 1 and min(dice_pmf("3D6")) == 3


def test_it_brute_forces_a_three_shot_hit_damage_save_chain() -> None:
    # Three different shots (hit 3+/dmg 4+/save 5+, hit 4+/dmg 3+/save 4+, hit 2+/dmg 5+/no save).
    # Every one of the 6^9 dice outcomes is counted: each shot's 216 outcomes are enumerated and the
    # three shots combined by multiplying outcome counts.
    shots = [(3, 4, 5), (4, 3, 4), (2, 5, 7)]

    def casualty(h: int, d: int, s: int, need: tuple[int, int, int]) -> int:
        nh, nd, ns = need
        hit = h != 1 and h >= nh
        dmg = d != 1 and d >= nd
        saved = s != 1 and s >= ns
        return int(hit and dmg and not saved)

    per_shot = [
        Counter(casualty(h, d, s, need) for h, d, s in itertools.product(range(1, 7), repeat=3)) for need in shots
    ]
    counts: Counter[int] = Counter()
    for outcome in itertools.product(*(c.items() for c in per_shot)):
        ways = 1
        for _, n in outcome:
            ways *= n
        counts[sum(k for k, _ in outcome)] += ways
    assert sum(counts.values()) == 6**9
    brute = {k: F(n, 6**9) for k, n in counts.items() if n}

    groups = [ShotGroup(1, nh, nd, ns if ns <= 6 else None) for nh, nd, ns in shots]
    # 3e config: saves are part of the chain.
    result = resolve_volley(CFG3, groups, target(models=10))
    assert result.casualties_pmf == brute


def test_it_groups_identical_shots_into_a_binomial() -> None:
    assert poisson_binomial([F(1, 6)] * 10) == binomial(10, F(1, 6))
    assert mean(binomial(12, F(1, 3))) == 4


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.fractions(min_value=0, max_value=1, max_denominator=36),
        min_size=0,
        max_size=12,
    ),
    st.integers(min_value=0, max_value=8),
)
def test_it_keeps_pmfs_summing_to_one_and_cap_keeps_the_mass(qs: list[F], m: int) -> None:
    pmf = poisson_binomial(qs)
    assert total_mass(pmf) == 1
    capped = cap(pmf, m)
    assert total_mass(capped) == 1
    assert max(capped) <= m
    assert all(v > 0 for v in capped.values())
    assert mean(pmf) == sum(qs, F(0))


@settings(max_examples=30, deadline=None)
@given(
    st.dictionaries(st.integers(0, 5), st.integers(1, 9), min_size=1, max_size=4),
    st.dictionaries(st.integers(0, 5), st.integers(1, 9), min_size=1, max_size=4),
)
def test_it_convolves_to_a_pmf_with_additive_means(a: dict[int, int], b: dict[int, int]) -> None:
    pa = {k: F(v, sum(a.values())) for k, v in a.items()}
    pb = {k: F(v, sum(b.values())) for k, v in b.items()}
    out = convolve(pa, pb)
    assert total_mass(out) == 1
    assert mean(out) == mean(pa) + mean(pb)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=-3, max_value=12), st.sampled_from(["six_then_six", "graded", "impossible"]))
def test_it_never_raises_a_hit_chance_when_the_need_goes_up(need: int, rule: str) -> None:
    assert p_hit(need + 1, rule) <= p_hit(need, rule)
    assert p_at_least(need + 1) <= p_at_least(need)
