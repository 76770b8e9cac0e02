"""Small-arms and heavy-weapon volleys: Poisson-binomial hits and casualties (spec §2.3).

Each die is independent, so a shot's casualty chance is hit x damage x (1 - save) and a volley is a
Poisson-binomial over its dice. A volley also records the joint outcome (casualties, pins added, forced
morale check) that the morale module needs, because pins and casualties are not independent.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.combat.config import RulesConfig
from rules.combat.context import TargetCtx
from rules.combat.damage import p_damage, p_save
from rules.combat.dice import (
    ONE,
    PMF,
    ZERO,
    binomial,
    cap,
    combine,
    convolve,
    mean,
    mixture,
    point,
    poisson_binomial,
)
from rules.combat.to_hit import p_hit

# Joint outcome of one attack: (casualties, pins added to the target, forced morale check) -> P.
Outcome = dict[tuple[int, int, bool], Fraction]


@dataclass(frozen=True)
class ShotGroup:
    """Identical dice: ``dice`` is a count or its distribution (for "D6"-shot weapons)."""

    dice: int | Mapping[int, Fraction]
    need_hit: int
    need_dmg: int
    need_save: int | None = None
    kind: str = "kinetic"


@dataclass(frozen=True)
class VolleyResult:
    """Distributions for one attack on one unit. ``outcome`` is the joint used by morale checks."""

    hits_pmf: PMF
    casualties_pmf: PMF
    pins_pmf: PMF
    outcome: Outcome = field(repr=False)
    p_exceptional: Fraction | None = None
    firer_pins: int = 0

    @property
    def p_pin(self) -> Fraction:
        """P(the target takes at least one pin)."""
        return ONE - self.pins_pmf.get(0, ZERO)

    @property
    def e_hits(self) -> Fraction:
        return mean(self.hits_pmf)

    @property
    def e_casualties(self) -> Fraction:
        return mean(self.casualties_pmf)


def casualty_chance(cfg: RulesConfig, group: ShotGroup) -> tuple[Fraction, Fraction]:
    """(p_hit, r) for one die of ``group``: r = hit x damage x (1 - save) (§2.2)."""
    ph = p_hit(cfg, group.need_hit)
    return ph, ph * p_damage(cfg, group.need_dmg) * (ONE - p_save(cfg, group.need_save))


def exceptional_chance(cfg: RulesConfig, group: ShotGroup, target: TargetCtx) -> Fraction:
    """P(one die causes exceptional damage): a hit, a natural 6 that damages, then another 6 (§5).

    1e/2e only [S004, DOL, BAA]; it lets the firer pick the casualty, so it only matters for units of men.
    """
    if not cfg.exceptional_damage or target.kind not in ("infantry", "artillery") or group.need_dmg > 6:
        return ZERO
    return p_hit(cfg, group.need_hit) * Fraction(1, 36)


def _dice_dist(group: ShotGroup) -> PMF:
    return point(group.dice) if isinstance(group.dice, int) else dict(group.dice)


def _count_pmf(dice: Mapping[int, Fraction], q: Fraction) -> PMF:
    """Successes among a random number of dice, each succeeding with chance q."""
    return mixture((w, binomial(n, q)) for n, w in dice.items())


def _none_chance(dice: Mapping[int, Fraction], q: Fraction) -> Fraction:
    """P(no success) = E[(1 - q)^N]."""
    return sum((w * (ONE - q) ** n for n, w in dice.items()), ZERO)


def resolve_volley(cfg: RulesConfig, groups: Sequence[ShotGroup], target: TargetCtx) -> VolleyResult:
    """Hits, casualties (capped at the target's models) and pins for a non-HE, non-flamer volley.

    A firing unit places exactly one pin if it scores at least one hit, however many [S004, DOL, S000].
    """
    fixed_hits: list[Fraction] = []
    fixed_cas: list[Fraction] = []
    hits = point(0)
    cas = point(0)
    p_no_hit = ONE
    p_no_exc = ONE
    for group in groups:
        ph, r = casualty_chance(cfg, group)
        exc = exceptional_chance(cfg, group, target)
        dice = _dice_dist(group)
        if isinstance(group.dice, int):
            fixed_hits.extend([ph] * group.dice)
            fixed_cas.extend([r] * group.dice)
        else:
            hits = convolve(hits, _count_pmf(dice, ph))
            cas = convolve(cas, _count_pmf(dice, r))
        p_no_hit *= _none_chance(dice, ph)
        p_no_exc *= _none_chance(dice, exc)
    hits = convolve(hits, poisson_binomial(fixed_hits))
    cas = cap(convolve(cas, poisson_binomial(fixed_cas)), target.models)
    men = target.kind in ("infantry", "artillery")
    return _from_marginals(hits, cas, p_no_hit, ONE - p_no_exc if cfg.exceptional_damage and men else None)


def _from_marginals(hits: PMF, cas: PMF, p_no_hit: Fraction, p_exc: Fraction | None) -> VolleyResult:
    # No hit implies no casualty, so the joint follows from the casualty PMF and P(no hit).
    outcome: Outcome = {}
    for c, v in cas.items():
        if c:
            outcome[(c, 1, False)] = v
    if p_no_hit:
        outcome[(0, 0, False)] = p_no_hit
    if cas.get(0, ZERO) - p_no_hit:
        outcome[(0, 1, False)] = cas.get(0, ZERO) - p_no_hit
    return VolleyResult(
        hits_pmf=hits,
        casualties_pmf=cas,
        pins_pmf=pins_marginal(outcome),
        outcome=outcome,
        p_exceptional=p_exc,
    )


def pins_marginal(outcome: Outcome) -> PMF:
    """The pins-added PMF of a joint outcome."""
    out: PMF = {}
    for (_, pins, _), v in outcome.items():
        out[pins] = out.get(pins, ZERO) + v
    return dict(sorted(out.items()))


def casualties_marginal(outcome: Outcome) -> PMF:
    """The casualties PMF of a joint outcome."""
    out: PMF = {}
    for (c, _, _), v in outcome.items():
        out[c] = out.get(c, ZERO) + v
    return dict(sorted(out.items()))


def _as_counts(outcome: Outcome) -> tuple[dict[tuple[int, int, bool], int], int]:
    """Integer weights over the joint's least common denominator: merging two joints then multiplies
    integers, not Fractions (each Fraction product reduces by a gcd)."""
    den = 1
    for v in outcome.values():
        den = math.lcm(den, v.denominator)
    return {key: v.numerator * (den // v.denominator) for key, v in outcome.items() if v}, den


def combine_results(
    cfg: RulesConfig,
    parts: Iterable[VolleyResult],
    models: int,
    pins_mode: str | None = None,
    pin_cap: int | None = None,
) -> VolleyResult:
    """Merge independent attacks on the same unit (e.g. a squad's rifles plus its flamethrower).

    Casualties add and are capped at ``models``. Pins from the parts are combined by
    ``cfg.mixed_fire_pins`` ("max": one batch per firing unit, the larger; "sum": every part pins) [R].

    ``pin_cap`` bounds the joint outcome: pins at or above it are folded onto it there, because the
    morale module cannot tell them apart (``morale.pins_that_matter``); without it the joint grows
    with every part's pins. The pins distribution itself stays exact: the parts are independent, so
    it is their marginals added (or the larger) directly.
    """
    mode = pins_mode or cfg.mixed_fire_pins
    parts = list(parts)
    if len(parts) == 1 and pin_cap is None:
        return parts[0]
    first = parts[0]
    counts, den = _as_counts(_fold_outcome(first.outcome, pin_cap))
    hits, pins, p_exc, firer_pins = first.hits_pmf, first.pins_pmf, first.p_exceptional, first.firer_pins
    for part in parts[1:]:
        second, second_den = _as_counts(_fold_outcome(part.outcome, pin_cap))
        counts = _merge(counts, second, models, mode, pin_cap)
        den *= second_den
        hits = convolve(hits, part.hits_pmf)
        pins = combine(pins, part.pins_pmf, max) if mode == "max" else convolve(pins, part.pins_pmf)
        if part.p_exceptional is not None:
            p_exc = part.p_exceptional if p_exc is None else ONE - (ONE - p_exc) * (ONE - part.p_exceptional)
        firer_pins += part.firer_pins
    outcome: Outcome = {key: Fraction(v, den) for key, v in counts.items() if v}
    return VolleyResult(
        hits_pmf=hits,
        casualties_pmf=casualties_marginal(outcome),
        pins_pmf=pins,
        outcome=outcome,
        p_exceptional=p_exc,
        firer_pins=firer_pins,
    )


def _merge(
    first: Mapping[tuple[int, int, bool], int],
    second: Mapping[tuple[int, int, bool], int],
    models: int,
    mode: str,
    pin_cap: int | None,
) -> dict[tuple[int, int, bool], int]:
    """Two independent joints (integer weights) merged: casualties added and capped at ``models``,
    pins added or the larger (capped at ``pin_cap``), forced checks or-ed.

    For each pair of (pins, forced) slices the casualties are a convolution, done as one product of
    two big integers that pack each slice's weights (Kronecker substitution): exact, and far
    cheaper than multiplying every pair of entries (a seven-group volley at 50 men made 1.3
    million products per merge).
    """
    slices_a = _slices(first, models)
    slices_b = _slices(second, models)
    width = max(v for v in first.values()).bit_length() + max(v for v in second.values()).bit_length()
    width += (models + 1).bit_length() + 1
    size = (width + 7) // 8
    packed_a = {key: _pack(vector, size) for key, vector in slices_a.items()}
    packed_b = {key: _pack(vector, size) for key, vector in slices_b.items()}
    merged: dict[tuple[int, bool], list[int]] = {}
    for (p1, f1), a in packed_a.items():
        for (p2, f2), b in packed_b.items():
            pins = max(p1, p2) if mode == "max" else p1 + p2
            if pin_cap is not None:
                pins = min(pins, pin_cap)
            product = _unpack(a * b, size, 2 * models + 1)
            target = merged.setdefault((pins, f1 or f2), [0] * (models + 1))
            for c, v in enumerate(product):
                if v:
                    target[min(c, models)] += v
    return {(c, pins, forced): v for (pins, forced), vector in merged.items() for c, v in enumerate(vector) if v}


def _slices(counts: Mapping[tuple[int, int, bool], int], models: int) -> dict[tuple[int, bool], list[int]]:
    out: dict[tuple[int, bool], list[int]] = {}
    for (c, pins, forced), v in counts.items():
        out.setdefault((pins, forced), [0] * (models + 1))[c] += v
    return out


def _pack(vector: list[int], size: int) -> int:
    return int.from_bytes(b"".join(v.to_bytes(size, "little") for v in vector), "little")


def _unpack(number: int, size: int, length: int) -> list[int]:
    data = number.to_bytes(size * length, "little")
    return [int.from_bytes(data[i * size : (i + 1) * size], "little") for i in range(length)]


def _fold_outcome(outcome: Outcome, pin_cap: int | None) -> Outcome:
    if pin_cap is None:
        return outcome
    out: Outcome = {}
    for (c, pins, forced), v in outcome.items():
        key = (c, min(pins, pin_cap), forced)
        out[key] = out.get(key, ZERO) + v
    return out


def mix_results(parts: Iterable[tuple[Fraction, VolleyResult]]) -> VolleyResult:
    """Weighted mixture of attack results (e.g. over a random number of shots); weights sum to 1."""
    parts = [(w, r) for w, r in parts if w]
    outcome: Outcome = {}
    for w, r in parts:
        for key, v in r.outcome.items():
            outcome[key] = outcome.get(key, ZERO) + w * v
    excs = [r.p_exceptional for _, r in parts]
    p_exc = None if any(e is None for e in excs) else sum((w * r.p_exceptional for w, r in parts), ZERO)
    return VolleyResult(
        hits_pmf=mixture((w, r.hits_pmf) for w, r in parts),
        casualties_pmf=casualties_marginal(outcome),
        # From the parts' own pins, not the joint, whose pins may be folded (``combine_results``).
        pins_pmf=mixture((w, r.pins_pmf) for w, r in parts),
        outcome=outcome,
        p_exceptional=p_exc,
        firer_pins=max((r.firer_pins for _, r in parts), default=0),
    )
