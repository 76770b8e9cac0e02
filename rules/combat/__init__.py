"""Exact-probability combat resolver for Bolt Action editions 1 to 3.

Plain Python with exact ``fractions.Fraction`` arithmetic and no randomness. The Django views call
``rules.combat.api``; the other modules hold the formulas of the resolver specification.
"""

from __future__ import annotations


def clear_caches() -> None:
    """Empty every memo table in the package (the benchmark calls this between timed runs)."""
    from rules.combat import cq, dice, vehicles

    cq.clear_caches()
    dice.clear_caches()
    vehicles.clear_caches()
