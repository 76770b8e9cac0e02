"""The close-quarters fight walked in integers (``cq._chain``) gives exactly the Fractions of the
memoised recursion it replaced, which spent 1.23 s of CPU on a 1st-edition 50-against-50 request.

``_recursive`` below is that recursion, kept as the reference: the chance of each outcome from a
later round at (a, d), weighed over the round's draws, over Fractions.
"""

from __future__ import annotations

import itertools
import time
from fractions import Fraction

import pytest

from rules.combat import cq
from rules.combat.config import config_for

EDITIONS = ("v1", "v2", "v3")
KINDS = (None, "attacker_first", "simultaneous", "defender_first")


def _recursive(cfg, att: cq.CQSide, dfd: cq.CQSide, first_round=None) -> cq.CQResult:
    first, later = cq._kinds(cfg, dfd, first_round)
    arms_a, arms_d = cq._arms(cfg, att, dfd.quality), cq._arms(cfg, dfd, att.quality)
    memo: dict[tuple[int, int], tuple[Fraction, Fraction, Fraction, Fraction]] = {}

    def value(a: int, d: int):
        if (a, d) not in memo:
            rnd = cq._round(later, arms_a, arms_d, a, d)
            denom = rnd.total - rnd.draws[0]
            w = [Fraction(rnd.att), Fraction(rnd.dfd), Fraction(rnd.both), Fraction(rnd.total)]
            for k in range(1, len(rnd.draws)):
                if rnd.draws[k]:
                    w = [x + rnd.draws[k] * y for x, y in zip(w, value(a - k, d - k), strict=True)]
            memo[(a, d)] = tuple(x / denom for x in w)
        return memo[(a, d)]

    rnd = cq._round(first, arms_a, arms_d, att.models, dfd.models)
    w = [Fraction(rnd.att), Fraction(rnd.dfd), Fraction(rnd.both), Fraction(0)]
    for k, count in enumerate(rnd.draws):
        if count:
            w = [x + count * y for x, y in zip(w, value(att.models - k, dfd.models - k), strict=True)]
    return cq.CQResult(w[0] / rnd.total, w[1] / rnd.total, w[2] / rnd.total, 1 + w[3] / rnd.total, first)


def _sides():
    for a, d in [(1, 1), (1, 5), (5, 1), (3, 4), (6, 6), (10, 7), (2, 12), (12, 12)]:
        for quality_a, quality_d in [("inexperienced", "veteran"), ("regular", "regular"), ("veteran", "regular")]:
            for tough_a, tough_d in [(False, False), (True, False), (True, True)]:
                for aw in {0, a // 2, a}:
                    yield (
                        cq.CQSide(a, quality_a, tough_a, assault_weapons=aw),
                        cq.CQSide(d, quality_d, tough_d, defensive_position=(a + d) % 2 == 0),
                    )


CASES = list(_sides())


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_integer_chain_gives_the_recursions_exact_fractions(edition):
    cfg = config_for(edition)
    compared = 0
    for (att, dfd), kind in itertools.product(CASES, KINDS):
        expected = _recursive(cfg, att, dfd, kind)
        cq.clear_caches()
        got = cq.close_quarters(cfg, att, dfd, kind)
        assert got == expected, (edition, att, dfd, kind)
        assert got.p_attacker_wins + got.p_defender_wins + got.p_both_destroyed == 1
        compared += 1
    assert compared == len(CASES) * len(KINDS) > 700


@pytest.mark.parametrize("edition", EDITIONS)
def test_fifty_against_fifty_tough_fighters_match_and_take_a_fraction_of_a_second(edition):
    cfg = config_for(edition)
    att, dfd = cq.CQSide(50, "veteran", True), cq.CQSide(50, "veteran", True, defensive_position=True)
    cq.clear_caches()
    start = time.process_time()
    got = cq.close_quarters(cfg, att, dfd)
    seconds = time.process_time() - start
    assert got == _recursive(cfg, att, dfd)
    # A request runs up to three rule readings (the unverified switches): each well under a third.
    assert seconds < 0.3, seconds
