"""Tough as Boots (a British list's chosen characteristic, 2nd edition): one more close-quarters die per
three men fighting, for Regular and Veteran men. Vectors by hand."""

from __future__ import annotations

from fractions import Fraction as F

from rules.combat import api as engine
from rules.combat import national


def fight(att: dict, dfd: dict, edition: str = "v2"):
    return engine.close_quarters(edition, attacker=att, defender=dfd)


def test_three_regulars_against_one_man_by_hand():
    # 2e, in the open: the attacker strikes first, then fights on simultaneously. Damage on 4+ (1/2).
    # Plain, 3 dice: the man dies with 7/8; else he strikes back (1 die): 1/16 he wins, 1/16 a draw,
    # and a simultaneous round from (3, 1) gives the attacker (7/8)/(15/16) = 14/15: 7/8 + 1/16 x 14/15.
    plain = fight({"models": 3, "quality": "regular"}, {"models": 1, "quality": "regular"})
    assert plain.p_attacker_wins == F(7, 8) + F(1, 16) * F(14, 15) == F(14, 15)
    # Tough as Boots, 3 + 1 dice: 15/16 at once; a draw 1/32, then (15/16)/(31/32) = 30/31.
    boots = fight({"models": 3, "quality": "regular", "tough_as_boots": True}, {"models": 1, "quality": "regular"})
    assert boots.p_attacker_wins == F(15, 16) + F(1, 32) * F(30, 31) == F(30, 31)
    assert boots.p_defender_wins == F(1, 32) + F(1, 32) * F(1, 31) == F(1, 31)
    assert boots.attacker_dice == {"plain": 4, "tough": 0}


def test_the_bonus_counts_the_men_fighting_and_a_tough_fighters_unit_rolls_its_own_dice():
    six = {"models": 6, "quality": "veteran", "tough_as_boots": True}
    assert fight(six, {"models": 2}).attacker_dice == {"plain": 8, "tough": 0}
    assert fight({**six, "models": 5}, {"models": 2}).attacker_dice == {"plain": 6, "tough": 0}
    assert fight({**six, "tough_fighters": True}, {"models": 2}).attacker_dice == {"plain": 0, "tough": 8}


def test_not_for_inexperienced_men_nor_in_third_edition():
    base = {"models": 6, "quality": "inexperienced"}
    assert fight({**base, "tough_as_boots": True}, {"models": 4}) == fight(base, {"models": 4})
    regular = {"models": 6, "quality": "regular"}
    assert fight({**regular, "tough_as_boots": True}, {"models": 4}, "v3") == fight(regular, {"models": 4}, "v3")
    assert national.tough_as_boots("v2", True, "regular").slug == "tough-as-boots"
    assert national.tough_as_boots("v2", False, "regular") is None
    assert national.tough_as_boots("v3", True, "veteran") is None
