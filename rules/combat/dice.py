"""Exact dice primitives: per-die success chances, named dice distributions and PMF algebra.

A PMF is a ``dict[int, Fraction]`` whose values sum to exactly 1. Engine PMFs are sparse (no zero
entries); the API layer fills gaps for display. Convolutions run on integer counts over a common
denominator and only build Fractions at the end, which keeps 60-die volleys in the millisecond range.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from functools import lru_cache

from rules.errors import RulesError

PMF = dict[int, Fraction]

ZERO = Fraction(0)
ONE = Fraction(1)
SIXTH = Fraction(1, 6)


def p_at_least(n: int, nat1_always_fails: bool = True) -> Fraction:
    """P(one D6 scores ``n`` or more).

    A natural 1 always fails when ``nat1_always_fails`` (to hit, to damage and saves [PS2, S000]), so
    the best chance is 5/6. There is no 7+ mechanism here: damage, saves and Pen rolls that need more
    than 6 simply fail [S004, BAA canHarmTarget].
    """
    if n <= 1:
        return Fraction(5, 6) if nat1_always_fails else ONE
    if n >= 7:
        return ZERO
    return Fraction(7 - n, 6)


_GRADED = {7: Fraction(1, 12), 8: Fraction(1, 18), 9: Fraction(1, 36)}


def p_hit(need: int, seven_plus: str = "six_then_six", nat1_always_fails: bool = True) -> Fraction:
    """P(one to-hit die succeeds) when the modified score needed is ``need``.

    Needs above 6 follow ``seven_plus``: "six_then_six" (a 6 then a further 6, 1/36 whatever the need
    [S004, BAA]), "graded" (the Warhammer Fantasy 6-then-4+/5+/6 table, for comparison only [WHFB]) or
    "impossible".
    """
    if need <= 6:
        return p_at_least(need, nat1_always_fails)
    if seven_plus == "six_then_six":
        return Fraction(1, 36)
    if seven_plus == "graded":
        return _GRADED.get(need, ZERO)
    if seven_plus == "impossible":
        return ZERO
    raise RulesError(
        f"seven_plus: unknown rule {seven_plus!r}",
        code="unknown-value",
        params={"field": "seven_plus", "value": seven_plus, "choices": "six_then_six, graded, impossible"},
    )


# --- named dice -------------------------------------------------------------------------------

_DICE_RE = re.compile(r"^(?:(\d+)|(\d*)D(\d+)([+-]\d+)?)$")


@lru_cache(maxsize=256)
def _parse_dice(spec: str) -> tuple[tuple[int, Fraction], ...]:
    match = _DICE_RE.match(spec.replace(" ", "").upper())
    if match is None:
        raise RulesError(
            f"dice: cannot read {spec!r} (expected e.g. 1, 4, D3, D6+1, 2D6)",
            code="dice-unreadable",
            params={"field": "dice", "value": spec},
        )
    fixed, count, sides, plus = match.groups()
    if fixed is not None:
        return ((int(fixed), ONE),)
    n_dice = int(count) if count else 1
    n_sides = int(sides)
    if n_dice < 1 or n_dice > 6 or n_sides not in (2, 3, 6):
        raise RulesError(
            f"dice: unsupported dice {spec!r}", code="dice-unsupported", params={"field": "dice", "value": spec}
        )
    if n_sides == 6:
        one = dict.fromkeys(range(1, 7), SIXTH)
    elif n_sides == 3:
        # D3 is a D6 halved, rounding up [TR1/TR2]: uniform on 1..3.
        one = {face: Fraction(1, 3) for face in range(1, 4)}
    else:
        # D2: 1-3 -> 1, 4-6 -> 2 [TR2, JK3].
        one = {1: Fraction(1, 2), 2: Fraction(1, 2)}
    total = convolve_power(one, n_dice)
    offset = int(plus) if plus else 0
    return tuple(sorted((k + offset, v) for k, v in total.items()))


def dice_pmf(spec: str) -> PMF:
    """The PMF of a dice expression such as "1", "4", "D2", "D3", "D6", "D3+1", "D6+1", "2D6", "3D6"."""
    return dict(_parse_dice(spec))


def two_d6_at_most(m: int) -> Fraction:
    """T(m) = P(2D6 <= m), the pass chance of a morale test at modified morale ``m`` (§2.7)."""
    if m < 2:
        return ZERO
    if m >= 12:
        return ONE
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= m)
    return Fraction(ways, 36)


# --- PMF algebra --------------------------------------------------------------------------------


def point(k: int = 0) -> PMF:
    """A certain outcome ``k``."""
    return {k: ONE}


def _clean(pmf: Mapping[int, Fraction]) -> PMF:
    return {k: v for k, v in sorted(pmf.items()) if v}


def _to_counts(pmf: Mapping[int, Fraction]) -> tuple[dict[int, int], int]:
    """Integer weights over the least common denominator of the PMF."""
    den = 1
    for v in pmf.values():
        den = math.lcm(den, v.denominator)
    return {k: v.numerator * (den // v.denominator) for k, v in pmf.items() if v}, den


def _from_counts(counts: Mapping[int, int], den: int) -> PMF:
    return {k: Fraction(c, den) for k, c in sorted(counts.items()) if c}


def to_counts(pmf: Mapping[int, Fraction]) -> tuple[dict[int, int], int]:
    """``pmf`` as integer weights over its least common denominator: sums and products of many
    distributions then multiply integers, not Fractions (each Fraction operation reduces by a gcd)."""
    return _to_counts(pmf)


def from_counts(counts: Mapping[int, int], den: int) -> PMF:
    """The PMF of integer weights over ``den`` (zero entries dropped, sorted)."""
    return _from_counts(counts, den)


def combine_counts(a: Mapping[int, int], b: Mapping[int, int], op: Callable[[int, int], int]) -> dict[int, int]:
    """``combine`` on integer weights: the weights of op(X, Y), over the product of the denominators."""
    out: dict[int, int] = {}
    for i, wi in a.items():
        for j, wj in b.items():
            key = op(i, j)
            out[key] = out.get(key, 0) + wi * wj
    return out


def binomial(n: int, q: Fraction) -> PMF:
    """Binomial(n, q) computed as exact integer counts over q.denominator**n."""
    if n < 0:
        raise RulesError(f"dice: negative number of dice {n}", code="negative", params={"field": "dice", "value": n})
    num, den = q.numerator, q.denominator
    miss = den - num
    total = den**n
    return _from_counts({k: math.comb(n, k) * num**k * miss ** (n - k) for k in range(n + 1)}, total)


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> PMF:
    """Distribution of X + Y for independent X ~ a and Y ~ b."""
    ca, da = _to_counts(a)
    cb, db = _to_counts(b)
    out: dict[int, int] = {}
    for i, wi in ca.items():
        for j, wj in cb.items():
            out[i + j] = out.get(i + j, 0) + wi * wj
    return _from_counts(out, da * db)


def convolve_power(pmf: Mapping[int, Fraction], n: int) -> PMF:
    """Sum of ``n`` independent copies of ``pmf`` (n = 0 gives the point mass at 0)."""
    result = point(0)
    base = dict(pmf)
    while n > 0:
        if n & 1:
            result = convolve(result, base)
        n >>= 1
        if n:
            base = convolve(base, base)
    return result


def poisson_binomial(qs: Iterable[Fraction]) -> PMF:
    """Number of successes among independent trials with chances ``qs``.

    Identical chances are grouped into one binomial each (spec §2.3), then the groups are convolved.
    """
    groups: dict[Fraction, int] = {}
    for q in qs:
        groups[q] = groups.get(q, 0) + 1
    result = point(0)
    for q, n in groups.items():
        result = convolve(result, binomial(n, q))
    return result


def cap(pmf: Mapping[int, Fraction], m: int) -> PMF:
    """Fold all mass at or above ``m`` onto ``m`` (a unit cannot lose more models than it has)."""
    out: PMF = {}
    for k, v in pmf.items():
        key = min(k, m)
        out[key] = out.get(key, ZERO) + v
    return _clean(out)


def mean(pmf: Mapping[int, Fraction]) -> Fraction:
    """Expected value of a PMF."""
    return sum((k * v for k, v in pmf.items()), ZERO)


def tail(pmf: Mapping[int, Fraction], k: int) -> Fraction:
    """P(X >= k)."""
    return sum((v for key, v in pmf.items() if key >= k), ZERO)


def total_mass(pmf: Mapping[int, Fraction]) -> Fraction:
    """Sum of the probabilities (exactly 1 for a valid PMF)."""
    return sum(pmf.values(), ZERO)


def mixture(parts: Iterable[tuple[Fraction, Mapping[int, Fraction]]]) -> PMF:
    """Weighted mixture sum_i w_i * pmf_i (the weights must sum to 1 for a PMF result)."""
    out: PMF = {}
    for weight, pmf in parts:
        if not weight:
            continue
        for k, v in pmf.items():
            out[k] = out.get(k, ZERO) + weight * v
    return _clean(out)


def push(pmf: Mapping[int, Fraction], f: Callable[[int], int]) -> PMF:
    """Distribution of f(X) for X ~ pmf."""
    out: PMF = {}
    for k, v in pmf.items():
        key = f(k)
        out[key] = out.get(key, ZERO) + v
    return _clean(out)


def combine(a: Mapping[int, Fraction], b: Mapping[int, Fraction], op: Callable[[int, int], int]) -> PMF:
    """Distribution of op(X, Y) for independent X ~ a, Y ~ b (e.g. max of two pin batches)."""
    out: PMF = {}
    for i, wi in a.items():
        for j, wj in b.items():
            key = op(i, j)
            out[key] = out.get(key, ZERO) + wi * wj
    return _clean(out)


def dense(pmf: Mapping[int, Fraction]) -> PMF:
    """The PMF with explicit zero entries from 0 (or its minimum) to its maximum, for display."""
    if not pmf:
        return {}
    lo = min(0, min(pmf))
    return {k: pmf.get(k, ZERO) for k in range(lo, max(pmf) + 1)}


def clear_caches() -> None:
    """Drop this module's memo tables (used by the benchmark for honest timings)."""
    _parse_dice.cache_clear()
