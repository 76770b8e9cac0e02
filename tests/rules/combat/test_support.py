"""Air strikes and barrages: the chart odds, by hand, and the two national rules that change a roll."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import pytest

from rules.combat import support
from rules.errors import RulesError


def test_the_best_of_two_dice_by_hand():
    # max(a, b) = k: (k, k) once, and (k, j < k) or (j < k, k): 2(k - 1) more, so (2k - 1)/36.
    assert support.best_of(2) == {1: F(1, 36), 2: F(3, 36), 3: F(5, 36), 4: F(7, 36), 5: F(9, 36), 6: F(11, 36)}
    assert support.best_of(1) == dict.fromkeys(range(1, 7), F(1, 6))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_best_of_n_dice_matches_enumeration(n):
    counts = dict.fromkeys(range(1, 7), 0)
    for faces in product(range(1, 7), repeat=n):
        counts[max(faces)] += 1
    assert support.best_of(n) == {k: F(c, 6**n) for k, c in counts.items()}
    assert sum(support.best_of(n).values()) == 1


def test_no_dice_is_refused():
    with pytest.raises(RulesError):
        support.best_of(0)


def test_massed_batteries_radius_odds():
    plain = support.barrage_radius_odds(massed_batteries=False)
    massed = support.barrage_radius_odds(massed_batteries=True)
    assert plain == dict.fromkeys(range(7, 13), F(1, 6))
    assert massed[12] == F(11, 36) and massed[7] == F(1, 36)
    assert support.mean(plain) == F(19, 2)  # 3.5 + 6
    assert support.mean(massed) == F(161, 36) + 6  # E[max of 2D6] = 161/36
    assert support.barrage_radius([2, 5]) == 11
    assert support.barrage_radius([4]) == 10
    with pytest.raises(RulesError):
        support.barrage_radius([7, 1])


def test_the_air_strike_chart_odds():
    assert support.air_strike_odds() == {"arrives": F(1, 2), "empty": F(1, 3), "rookie": F(1, 6)}
    assert [support.air_strike_result(d) for d in range(1, 7)] == [
        "rookie",
        "empty",
        "empty",
        "arrives",
        "arrives",
        "arrives",
    ]
    assert support.air_strikes_allowed(air_superiority=True) == 2
    assert support.air_strikes_allowed(air_superiority=False) == 1
    with pytest.raises(RulesError):
        support.air_strike_result(0)
