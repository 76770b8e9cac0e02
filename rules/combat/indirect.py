"""Ranging in with indirect fire (spec §2.9).

The first attempt needs a 6; each later turn with a Fire order at a target that has not moved needs
5+, 4+, 3+ and then 2+ [JK3, BS2, S000].
"""

from __future__ import annotations

from fractions import Fraction

from rules.combat.context import check_int
from rules.combat.dice import ONE, p_at_least
from rules.combat.to_hit import ranging_need


def p_first_hit_by_turn(turns: int, nat1_always_fails: bool = True) -> list[Fraction]:
    """P(the first hit has landed by turn t) for t = 1..turns: 1 - prod_{j<=t} (1 - p(need_j))."""
    check_int("turns", turns, 1, 20)
    out: list[Fraction] = []
    miss_all = ONE
    for t in range(1, turns + 1):
        miss_all *= ONE - p_at_least(ranging_need(t), nat1_always_fails)
        out.append(ONE - miss_all)
    return out
