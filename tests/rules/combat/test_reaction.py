"""Reaction fire before an assault, and Blood Curdling Charge switching it off. Vectors worked by hand.

The defenders shoot at the assaulting unit before it moves in; the attackers' casualties thin the fight,
their pin and morale check (after losing half) may stop it (rules/combat/cq.py).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction as F

import pytest

from rules.combat import api as engine
from rules.combat import cq, national
from rules.combat.config import FIRST, SECOND, THIRD
from rules.combat.context import TargetCtx
from rules.combat.morale import shooting_with_morale
from rules.combat.volley import ShotGroup, resolve_volley
from rules.errors import RulesError


def fight(att: dict, dfd: dict, reaction: dict | None, edition: str = "v2"):
    return engine.close_quarters(edition, attacker=att, defender=dfd, reaction=reaction)


def test_one_shot_thins_three_attackers_by_hand():
    # 2e, open ground: the attacker strikes first. One shot hits on 3+ (2/3) and damages a Regular on 4+
    # (1/2): a casualty 1/3. Three men beat one with 14/15 (test_tough_as_boots); two men with 6/7: 3/4 the
    # man dies at once, else (1/4) he kills one (1/2, he wins) or not, then a simultaneous round from (2, 1)
    # gives (3/4)/(7/8) = 6/7. Losing one of three is not half, so no morale check.
    res = fight({"models": 3}, {"models": 1}, {"shots": 1, "to_hit": 3})
    assert res.p_attacker_wins == F(2, 3) * F(14, 15) + F(1, 3) * F(6, 7) == F(286, 315)
    assert res.p_defender_wins == F(29, 315) and res.p_both_destroyed == 0
    rx = res.reaction
    assert rx.casualties.pmf == {0: F(2, 3), 1: F(1, 3)} and rx.p_pin == F(2, 3)
    assert (rx.p_wiped_out, rx.p_check, rx.p_broken, rx.p_assault) == (0, 0, 0, 1)
    assert (rx.need_to_hit.need, rx.need_to_hit.p, rx.need_to_damage.need, rx.need_to_damage.p) == (
        3,
        F(2, 3),
        4,
        F(1, 2),
    )


def test_losing_half_forces_a_morale_check_that_can_stop_the_assault():
    # Two Regulars charge one; one shot at 2+ (5/6) damages on 4+: a casualty 5/12. One man left of two is
    # half: he checks with the fire's pin, morale 9 - 1 = 8, passing 26/36 = 13/18, else the unit is gone.
    # The fights: 2 v 1 (chance 1/6 + 5/12 = 7/12) wins 6/7; 1 v 1 (5/12 x 13/18 = 65/216): the attacker
    # kills on 1/2; else the man strikes back, 1/2 he wins, else a simultaneous 1 v 1 ends a third each
    # way, so 7/12 to the attacker, 1/12 both destroyed.
    res = fight({"models": 2}, {"models": 1}, {"shots": 1, "to_hit": 2})
    rx = res.reaction
    assert rx.p_check == F(5, 12) and rx.p_broken == F(5, 12) * F(5, 18) == F(25, 216)
    assert rx.p_assault == F(191, 216) and rx.p_pin == F(5, 6)
    assert res.p_attacker_wins == F(7, 12) * F(6, 7) + F(65, 216) * F(7, 12) == F(1751, 2592)
    assert res.p_both_destroyed == F(65, 216) * F(1, 12) == F(65, 2592)
    assert res.p_defender_wins == F(97, 324)
    assert res.p_attacker_wins + res.p_defender_wins + res.p_both_destroyed == 1


def test_a_unit_wiped_out_or_routed_by_its_pins_never_fights():
    # One Regular charges; a shot at 2+ (5/6) damages him on 4+ (1/2): 5/12 he dies before he gets there.
    wiped = fight({"models": 1}, {"models": 1}, {"shots": 1, "to_hit": 2})
    assert wiped.reaction.p_wiped_out == F(5, 12)
    # With 8 pins a Regular (morale 9) is destroyed by the pin any hit adds: 5/6; the rest fight 2 v 1.
    routed = fight({"models": 2}, {"models": 1}, {"shots": 1, "to_hit": 2, "attacker_pins": 8})
    assert routed.reaction.p_broken == F(5, 6) and routed.reaction.p_check == 0
    assert routed.p_attacker_wins == F(1, 6) * F(6, 7) == F(1, 7)
    # A stopped assault lasts no round: the average counts it as 0.
    plain = fight({"models": 2}, {"models": 1}, None)
    assert routed.expected_rounds == F(1, 6) * plain.expected_rounds


def test_blood_curdling_charge_switches_the_reaction_off():
    reaction = {"shots": 1, "to_hit": 3}
    plain = fight({"models": 3}, {"models": 1}, None)
    british = fight({"models": 3, "blood_curdling_charge": True}, {"models": 1}, reaction)
    assert british.p_attacker_wins == plain.p_attacker_wins == F(14, 15)
    assert british.reaction is None and british.no_reaction == "blood-curdling-charge"
    # Not for Inexperienced attackers, and not in 3rd edition (no source gives the rule there).
    green = fight({"models": 3, "quality": "inexperienced", "blood_curdling_charge": True}, {"models": 1}, reaction)
    assert green.reaction is not None and green.no_reaction == ""
    third = fight({"models": 3, "blood_curdling_charge": True}, {"models": 1}, reaction, "v3")
    assert third.reaction is not None and third.no_reaction == ""
    assert national.blood_curdling_charge("v2", True, "veteran").slug == "blood-curdling-charge"
    assert national.blood_curdling_charge("v2", False, "veteran") is None
    assert national.blood_curdling_charge("v2", True, "inexperienced") is None


@pytest.mark.parametrize("cfg", [FIRST, SECOND, THIRD], ids=["1e", "2e", "3e"])
@pytest.mark.parametrize(
    ("att", "dfd", "reaction"),
    [
        (cq.CQSide(7, tough_fighters=True, assault_weapons=2), cq.CQSide(5), cq.Reaction(5, 3, 1)),
        (cq.CQSide(6, "veteran", assault_weapons=6), cq.CQSide(6, defensive_position=True), cq.Reaction(8, 4)),
        (cq.CQSide(4, "inexperienced"), cq.CQSide(8, "veteran", tough_fighters=True), cq.Reaction(6, 2, 2)),
    ],
)
def test_the_fight_is_the_mixture_of_plain_fights_over_the_fire(cfg, att, dfd, reaction):
    """The forward chain agrees with the backward recursion of a plain fight at every strength, and the
    fire's own outcome with the shooting engine's morale after shooting."""
    res = cq.close_quarters_after_reaction(cfg, att, dfd, reaction)
    rx, fights = cq.reaction_fire(cfg, att, reaction)
    plain = {
        n: cq.close_quarters(cfg, dataclasses.replace(att, models=n, assault_weapons=min(att.assault_weapons, n)), dfd)
        for n in fights
    }
    assert res.p_attacker_wins == sum(p * plain[n].p_attacker_wins for n, p in fights.items())
    assert res.p_both_destroyed == sum(p * plain[n].p_both_destroyed for n, p in fights.items())
    assert res.expected_rounds == sum(p * plain[n].expected_rounds for n, p in fights.items())
    assert res.p_defender_wins == rx.p_wiped_out + rx.p_broken + sum(
        p * plain[n].p_defender_wins for n, p in fights.items()
    )
    target = TargetCtx(kind="infantry", quality=att.quality, models=att.models, pins=reaction.attacker_pins)
    volley = resolve_volley(cfg, [ShotGroup(reaction.shots, reaction.need_hit, target.dv)], target)
    assert rx.p_wiped_out + rx.p_broken == shooting_with_morale(cfg, volley, target).p_destroyed
    assert rx.p_assault == 1 - rx.p_wiped_out - rx.p_broken


def test_the_morale_check_comes_when_half_the_men_who_charged_are_down():
    # Four men: losing one leaves three (no check), losing two leaves half (a check). Counted from the men
    # who charge, "half of the starting strength" and "half of the men it had" are the same test.
    res = fight({"models": 4}, {"models": 2}, {"shots": 2, "to_hit": 2})
    assert res.reaction.p_check == res.reaction.casualties.pmf[2] == F(5, 12) ** 2


@pytest.mark.parametrize(
    ("reaction", "field"),
    [
        ({"shots": 0, "to_hit": 3}, "reaction.shots"),
        ({"shots": 101, "to_hit": 3}, "reaction.shots"),
        ({"shots": 3, "to_hit": 1}, "reaction.to_hit"),
        ({"shots": 3, "to_hit": 8}, "reaction.to_hit"),
        ({"shots": 3}, "reaction.to_hit"),
        ({"shots": 3, "to_hit": 3, "attacker_pins": -1}, "reaction.attacker_pins"),
        ({"shots": 3, "to_hit": 3, "cover": "soft"}, "reaction.cover"),
        ([3, 3], "reaction"),
    ],
)
def test_a_bad_reaction_names_its_field(reaction, field):
    with pytest.raises(RulesError) as caught:
        fight({"models": 3}, {"models": 1}, reaction)
    assert caught.value.params["field"] == field


def test_only_the_attacker_carries_blood_curdling_charge():
    with pytest.raises(RulesError) as caught:
        fight({"models": 3}, {"models": 1, "blood_curdling_charge": True}, None)
    assert caught.value.params["field"] == "defender.blood_curdling_charge"
