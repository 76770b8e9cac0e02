"""Air strikes and artillery barrages at game day: the charts' rolls and the national rules that change them.

Pure functions over exact Fractions. The charts are the reference's (fixtures/src/v2.py "air-strikes" and
"artillery-barrage"): S002/S003 have no such charts, so they follow S000's sheet and are unverified for
2nd edition. The rules that change a roll are Barracks' [BR2]: Air Superiority (United States) lets a
forward air observer call two air strikes a game instead of one; Massed Batteries (Soviet Union) rolls
the barrage's D6+6" radius with two dice and keeps the higher. Air Superiority keeps its two calls in
3rd edition [CD3, unverified], where the chart is S000's own.

A preparatory bombardment (a scenario may call one) rolls one die per enemy unit on its results chart;
Britain's Bombardment [BR2] rolls two per unit and the player keeps the better result. The reference
holds no preparatory bombardment chart, so Muster rolls (or reads) the dice and says which die the
player kept, never what a result does: the player applies it from the book. Without the chart "the
better result" has no direction, so the odds given are direction-neutral: the chance that at least one
of the dice shows a face or beyond (``at_least_odds``), which is also the chance, counted from the other
end, that one shows the mirror face or below.
"""

from __future__ import annotations

from fractions import Fraction

from rules.errors import RulesError

FACES = 6
AIR_STRIKES_PER_GAME = 1  # one call per forward air observer a game [BR2, the rule's own baseline]
AIR_SUPERIORITY_STRIKES = 2  # Air Superiority: twice instead of once [BR2]
BARRAGE_RADIUS_BASE = 6  # the barrage lands on every unit within D6+6" of the aiming point [S000]

# The air strike chart [S000, unverified for 2nd edition]: a D6's faces -> the outcome's key.
AIR_STRIKE_CHART = {1: "rookie", 2: "empty", 3: "empty", 4: "arrives", 5: "arrives", 6: "arrives"}
AIR_OUTCOMES = ("arrives", "empty", "rookie")
# Outcomes that use the call up: a plane came (the skies-empty result keeps it for next turn) [S000].
CALL_USED = frozenset({"arrives", "rookie"})


def best_of(dice: int, faces: int = FACES) -> dict[int, Fraction]:
    """The highest of ``dice`` fair dice, exactly: P(max = k) = (k^n - (k-1)^n) / faces^n."""
    if dice < 1:
        raise RulesError("At least one die is rolled.", code="support", params={"dice": dice})
    total = faces**dice
    return {k: Fraction(k**dice - (k - 1) ** dice, total) for k in range(1, faces + 1)}


def air_strike_result(die: int) -> str:
    if die not in AIR_STRIKE_CHART:
        raise RulesError("A die shows 1 to 6.", code="die", params={"value": die})
    return AIR_STRIKE_CHART[die]


def air_strike_odds() -> dict[str, Fraction]:
    """Each outcome of one air strike roll (one D6 on the chart)."""
    odds = dict.fromkeys(AIR_OUTCOMES, Fraction(0))
    for outcome in AIR_STRIKE_CHART.values():
        odds[outcome] += Fraction(1, FACES)
    return odds


def air_strikes_allowed(air_superiority: bool) -> int:
    return AIR_SUPERIORITY_STRIKES if air_superiority else AIR_STRIKES_PER_GAME


def barrage_dice(massed_batteries: bool) -> int:
    """Dice rolled for the radius: Massed Batteries rolls two and keeps the higher."""
    return 2 if massed_batteries else 1


def barrage_radius(dice: tuple[int, ...] | list[int]) -> int:
    """The radius in inches from the dice rolled (the higher of them, + 6)."""
    if not dice or any(not isinstance(d, int) or not 1 <= d <= FACES for d in dice):
        raise RulesError("A die shows 1 to 6.", code="die", params={"value": list(dice)})
    return max(dice) + BARRAGE_RADIUS_BASE


def barrage_radius_odds(massed_batteries: bool) -> dict[int, Fraction]:
    """The radius in inches -> its chance, exactly (D6+6, or the higher of two D6 + 6)."""
    return {k + BARRAGE_RADIUS_BASE: p for k, p in best_of(barrage_dice(massed_batteries)).items()}


def mean(distribution: dict[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in distribution.items()), Fraction(0))


BOMBARDMENT_DICE = 2  # Bombardment: two dice per enemy unit instead of one [BR2]


def bombard_dice(bombardment: bool) -> int:
    """Dice rolled per enemy unit in a preparatory bombardment: two with Britain's Bombardment."""
    return BOMBARDMENT_DICE if bombardment else 1


def at_least_odds(dice: int, faces: int = FACES) -> dict[int, Fraction]:
    """For k = 2..faces: the chance that at least one of ``dice`` dice shows k or more,
    1 - ((k - 1) / faces)^dice. By symmetry it is also the chance that one shows faces + 1 - k or less,
    so it holds whichever end of a chart is the better one."""
    if dice < 1:
        raise RulesError("At least one die is rolled.", code="support", params={"dice": dice})
    return {k: 1 - Fraction(k - 1, faces) ** dice for k in range(2, faces + 1)}


def check_kept(dice: tuple[int, ...] | list[int], kept: object) -> int:
    """The die the player keeps of a unit's bombardment dice: one of them, or RulesError."""
    if isinstance(kept, bool) or not isinstance(kept, int) or kept not in dice:
        raise RulesError("Keep one of the unit's dice.", code="bombard-keep", params={"value": kept})
    return kept
