"""Order-dice bag odds (spec §2.9).

Every unit puts one die in the bag and dice are drawn blind without replacement [S003, S004, BD], so
the colours of the next draws are hypergeometric.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rules.combat.context import check_int
from rules.combat.dice import PMF
from rules.errors import RulesError


def _check(own: int, enemy: int, draws: int = 0) -> None:
    check_int("own_dice", own, 0, 200)
    check_int("enemy_dice", enemy, 0, 200)
    check_int("draws", draws, 0, own + enemy)
    if own + enemy == 0:
        raise RulesError(
            "own_dice: the bag is empty (own_dice and enemy_dice are both 0)",
            code="empty-bag",
            params={"field": "own_dice"},
        )


def p_next_die(own: int, enemy: int) -> Fraction:
    """P(the next die drawn is one of ours) = own / (own + enemy)."""
    _check(own, enemy)
    return Fraction(own, own + enemy)


def p_at_least_one(own: int, enemy: int, draws: int) -> Fraction:
    """P(at least one of the next ``draws`` dice is ours) = 1 - C(enemy, k) / C(own + enemy, k)."""
    _check(own, enemy, draws)
    return 1 - Fraction(math.comb(enemy, draws), math.comb(own + enemy, draws))


def own_dice_pmf(own: int, enemy: int, draws: int) -> PMF:
    """Distribution of how many of the next ``draws`` dice are ours (hypergeometric)."""
    _check(own, enemy, draws)
    total = math.comb(own + enemy, draws)
    return {
        k: Fraction(math.comb(own, k) * math.comb(enemy, draws - k), total)
        for k in range(max(0, draws - enemy), min(own, draws) + 1)
    }
