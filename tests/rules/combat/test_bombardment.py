"""A preparatory bombardment's dice: one per enemy unit, two with Britain's Bombardment (the better kept).

The reference holds no preparatory bombardment chart, so the only odds Muster gives are direction-neutral:
the chance that at least one of the dice shows a face or more (the same, counted from the other end, as
the chance one shows the mirror face or less)."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import pytest

from rules.combat import support
from rules.errors import RulesError


def test_bombardment_rolls_two_dice_a_unit_and_a_plain_bombardment_one():
    assert support.bombard_dice(bombardment=True) == 2
    assert support.bombard_dice(bombardment=False) == 1


def test_at_least_one_of_two_dice_by_hand():
    # 1 - ((k - 1)/6)^2: 6+ is 1 - 25/36 = 11/36; 2+ is 1 - 1/36 = 35/36.
    assert support.at_least_odds(2) == {2: F(35, 36), 3: F(32, 36), 4: F(27, 36), 5: F(20, 36), 6: F(11, 36)}
    # One die: (7 - k)/6.
    assert support.at_least_odds(1) == {2: F(5, 6), 3: F(4, 6), 4: F(3, 6), 5: F(2, 6), 6: F(1, 6)}


@pytest.mark.parametrize("n", [1, 2, 3])
def test_at_least_odds_match_enumeration_from_both_ends(n):
    rolls = list(product(range(1, 7), repeat=n))
    for k, p in support.at_least_odds(n).items():
        high = sum(1 for r in rolls if max(r) >= k)
        low = sum(1 for r in rolls if min(r) <= 7 - k)  # the mirror face, counted from the other end
        assert p == F(high, len(rolls)) == F(low, len(rolls))


def test_the_kept_die_is_one_of_the_units_dice():
    assert support.check_kept([2, 5], 5) == 5
    assert support.check_kept([4, 4], 4) == 4
    for bad in (3, True, "5", None):
        with pytest.raises(RulesError) as err:
            support.check_kept([2, 5], bad)
        assert err.value.code == "bombard-keep"
    with pytest.raises(RulesError):
        support.at_least_odds(0)
