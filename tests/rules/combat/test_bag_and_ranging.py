from __future__ import annotations

from fractions import Fraction as F

from rules.combat.api import order_dice, ranging_in
from rules.combat.bag import own_dice_pmf, p_at_least_one
from rules.combat.dice import total_mass


def test_it_resolves_v32_the_order_dice_bag() -> None:
    res = order_dice(own=12, enemy=16, draws=3)
    assert res.p_next == F(3, 7)
    assert res.p_at_least_one == F(97, 117)
    assert total_mass(res.own_dice) == 1
    assert res.own_dice[0] == 1 - F(97, 117)


def test_it_agrees_with_the_hypergeometric_pmf() -> None:
    for k in range(0, 6):
        assert p_at_least_one(5, 4, k) == 1 - own_dice_pmf(5, 4, k).get(0, F(0))


def test_it_resolves_v34_ranging_in() -> None:
    res = ranging_in("2e", turns=6)
    assert res.p_first_hit_by_turn[:5] == (F(1, 6), F(4, 9), F(13, 18), F(49, 54), F(319, 324))
    assert res.p_first_hit_by_turn[5] == 1 - F(10, 648) * F(1, 6)  # still 2+ after turn 5
    assert ranging_in("3e").p_first_hit_by_turn == ranging_in("1e").p_first_hit_by_turn


def test_it_gives_the_ranging_ladder_turn_by_turn() -> None:
    res = ranging_in("3e", turns=6)
    assert res.need_by_turn == (6, 5, 4, 3, 2, 2)
    assert res.p_by_turn == (F(1, 6), F(1, 3), F(1, 2), F(2, 3), F(5, 6), F(5, 6))
    assert res.p_first_hit_by_turn[:5] == (F(1, 6), F(4, 9), F(13, 18), F(49, 54), F(319, 324))
