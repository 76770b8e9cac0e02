"""National rules applied before the exact engine: exact vectors worked out by hand."""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import pytest

from rules.combat import national
from rules.combat.api import ShotGroupInput, TargetInput, anti_tank, order_test, shooting
from rules.combat.vehicles import penetration_counts
from rules.combat.weapons import Weapon

from .builders import LMG, MEDIUM_AT_GUN, MMG, RIFLE, SMG

BAR = Weapon("Automatic rifle", "automatic-rifle", 30, shots="2")
COAX_MMG = Weapon("Medium machine gun", "mmg", 36, shots="5")


def _fire(edition: str, army: str, weapon: Weapon, models: int, *, order: str = "fire", quality="regular", gyro=False):
    adj = national.adjust_group(edition, army, weapon, quality=quality, order=order, gyro=gyro)
    group = ShotGroupInput(adj.weapon, models, "normal", steady_on_move=adj.steady_on_move)
    target = TargetInput(kind="infantry", quality="regular", models=10)
    return adj, shooting(edition, order=order, firer_quality=quality, firer_pins=0, groups=[group], target=target)


def _binomial(n: int, p: F) -> dict[int, F]:
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def test_extra_shot_adds_one_to_any_dice_expression():
    assert [national.extra_shot(s) for s in ("4", "5", "D6", "D6+1", "2D6")] == ["5", "6", "D6+1", "D6+2", "2D6+1"]


def test_a_german_mmg_rolls_six_dice_and_hits_as_a_binomial_of_six():
    adj, res = _fire("v2", "germany", MMG, 1)
    assert adj.weapon.shots == "6"
    assert [(a.change, a.slug) for a in adj.applied] == [("shot", "hitler-s-buzzsaw")]
    assert res.groups[0].dice.pmf == {6: 1}
    # 2nd edition: 3+ to hit a regular unit in the open at normal range.
    assert res.hits.pmf == _binomial(6, F(2, 3))
    assert res.hits.mean == 4


def test_buzzsaw_holds_in_third_edition_and_leaves_other_weapons_and_armies_alone():
    adj, res = _fire("v3", "germany", LMG, 1)
    assert adj.weapon.shots == "5" and res.groups[0].dice.pmf == {5: 1}
    for weapon in (RIFLE, SMG, MEDIUM_AT_GUN):
        assert national.adjust_group("v2", "germany", weapon).weapon == weapon
    assert national.adjust_group("v2", "us", MMG).weapon == MMG
    assert national.adjust_group("v2", "", MMG).applied == ()


def test_fire_and_manoeuvre_removes_the_moving_penalty_for_rifles_and_bars_only():
    adj, res = _fire("v2", "us", RIFLE, 5, order="advance")
    assert adj.steady_on_move and [a.name for a in adj.applied] == ["Fire and Manoeuvre"]
    assert res.need_to_hit[0].need == 3 and res.need_to_hit[0].modifiers == ()
    assert res.hits.pmf == _binomial(5, F(2, 3))
    # Without the rule: 4+ (the -1 for moving), a binomial of five halves.
    _adj, plain = _fire("v2", "germany", RIFLE, 5, order="advance")
    assert plain.need_to_hit[0].need == 4 and plain.hits.pmf == _binomial(5, F(1, 2))
    adj, res = _fire("v2", "us", BAR, 1, order="advance")
    assert adj.steady_on_move and res.hits.pmf == _binomial(2, F(2, 3))
    assert not national.adjust_group("v2", "us", LMG, order="advance").steady_on_move
    # On a Fire order there is nothing to ignore, so nothing is said to be applied.
    assert national.adjust_group("v2", "us", RIFLE, order="fire").applied == ()
    # 3rd edition changed the rule to extra dice (national.bonus_dice): no longer a moving rule.
    assert national.adjust_group("v3", "us", RIFLE, order="advance").applied == ()


def test_gyro_stabilisers_need_a_veteran_crew_a_gyro_gun_and_never_a_machine_gun():
    gun = Weapon("Medium anti-tank gun", "medium-at-gun", 60, pen=5, he_size=1)  # a tank's gun: not fixed
    adj, res = _fire("v2", "us", gun, 1, order="advance", quality="veteran", gyro=True)
    assert adj.steady_on_move and res.need_to_hit[0].need == 3
    assert res.hits.pmf == {0: F(1, 3), 1: F(2, 3)}
    assert not national.adjust_group("v2", "us", gun, quality="regular", order="advance", gyro=True).steady_on_move
    assert not national.adjust_group("v2", "us", gun, quality="veteran", order="advance", gyro=False).steady_on_move
    assert not national.adjust_group("v2", "us", COAX_MMG, quality="veteran", order="advance", gyro=True).applied


def test_army_for_rules_reads_the_rule_slugs_a_list_army_carries():
    assert national.army_for_rules("v2", {"blitzkrieg", "hitler-s-buzzsaw"}) == "germany"
    assert national.army_for_rules("v2", {"gyro-stabilisers"}) == "us"
    assert national.army_for_rules("v2", {"banzai-charge"}) == "imperial-japan"
    assert national.army_for_rules("v2", {"forward-artillery-doctrine"}) == ""  # shown only
    # Game day's Defensive Strategy, and the bonus (it acts per unit, rules.combat.unit_rules), make the
    # army Italy's; on the shooting page only the effects it asks for count.
    assert national.army_for_rules("v2", {"defensive-strategy"}) == "italy"
    assert national.army_for_rules("v2", {"defensive-strategy"}, frozenset({"d2_pins", "reroll_pen"})) == ""
    assert national.army_for_rules("v2", {"forward-artillery-doctrine", "cedere-obbedire-combattere"}) == "italy"
    assert national.modelled_armies("v2") == ("germany", "great-britain", "italy", "us")
    assert national.modelled_armies("v2", frozenset({"morale_reroll"})) == ("soviet-union",)


def test_card_shots():
    assert national.card_shots("v2", "germany", "mmg", "5")[0] == "6"
    assert national.card_shots("v2", "germany", "rifle", "1") == ("1", ())
    assert national.card_shots("v2", "us", "mmg", "5") == ("5", ())


def test_every_modelled_rule_has_a_source_and_unverified_rules_are_marked():
    assert all(r.source for r in national.RULES)
    assert {r.slug for r in national.RULES if not r.verified} <= {
        "gyro-stabilisers",
        "fire-and-manoeuvre",
        "air-superiority",
        "modern-communications",
        "the-great-patriotic-war",
        "death-before-dishonour",
        "banzai-charge",
    }
    with pytest.raises(Exception, match="edition"):
        national.rules_of("v9", "germany")


def test_the_great_patriotic_war_takes_a_failed_check_twice():
    target = TargetInput(kind="infantry", quality="regular", models=2)
    group = ShotGroupInput(RIFLE, 1, "normal")
    plain = shooting("v2", order="fire", firer_quality="regular", firer_pins=0, groups=[group], target=target)
    applied = national.rerolls_failed_morale("v2", "soviet-union", "infantry")
    assert applied is not None and applied.name == "The Great Patriotic War"
    soviet = shooting(
        "v2",
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[group],
        target=TargetInput(kind="infantry", quality="regular", models=2, reroll_failed_morale=True),
    )
    # One man down of two forces the check with the pin just taken: morale 9 - 1, 2D6 over 8 fails 10/36.
    one_down = plain.casualties.pmf[1]
    assert plain.morale.p_destroyed_by_check == one_down * F(5, 18)
    assert soviet.morale.p_destroyed_by_check == one_down * F(5, 18) ** 2
    assert soviet.morale.p_wiped_out == plain.morale.p_wiped_out
    assert national.rerolls_failed_morale("v2", "soviet-union", "armoured") is None
    assert national.rerolls_failed_morale("v2", "germany", "infantry") is None
    assert national.rerolls_failed_morale("v3", "soviet-union", "infantry") is None  # not sourced for 3rd


def test_a_banzai_charge_passes_its_order_test_without_a_roll():
    odds = order_test("v2", quality="regular", pins=3)
    assert odds.p_pass == F(15, 36)  # 9 - 3: 2D6 at most 6
    assert national.banzai("v2", "imperial-japan", charging=False) is None
    assert national.banzai("v2", "italy", charging=True) is None
    applied = national.banzai("v2", "imperial-japan", charging=True)
    assert applied is not None and applied.change == "order"
    passed = national.auto_pass(odds)
    assert (passed.p_pass, passed.p_fail, passed.p_fubar, passed.p_double_one) == (1, 0, 0, None)


def test_the_docs_list_every_rule_the_data_holds():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "national-rules.md").read_text(encoding="utf-8")
    missing = {r.name for r in national.RULES if r.name not in doc and r.name.replace("Its", "It's") not in doc}
    assert not missing
    for r in national.RULES:
        if r.effect and r.edition == "2e":
            assert f"`{r.slug}`) | **modelled**" in doc


def test_large_squads_pin_d2_when_fourteen_men_fire():
    assert national.large_squad("v2", "italy", 13) is None
    assert national.large_squad("v2", "germany", 20) is None
    applied = national.large_squad("v2", "italy", 14)
    assert applied is not None and applied.change == "pins"
    target = TargetInput(kind="infantry", quality="regular", models=10)
    kwargs = {"order": "fire", "firer_quality": "regular", "firer_pins": 0, "target": target}
    group = [ShotGroupInput(RIFLE, 14, "normal")]
    plain = shooting("v2", groups=group, **kwargs)
    italian = shooting("v2", groups=group, d2_pins=True, **kwargs)
    # 14 dice at 3+: no hit at all is (1/3)^14; otherwise one pin, or with Large Squads one or two evenly.
    miss = F(1, 3) ** 14
    assert plain.pins.pmf == {0: miss, 1: 1 - miss}
    assert italian.pins.pmf == {0: miss, 1: (1 - miss) / 2, 2: (1 - miss) / 2}
    assert italian.casualties.pmf == plain.casualties.pmf and italian.hits.pmf == plain.hits.pmf


def test_the_anti_tank_calculator_takes_the_moving_rules_too():
    gun = Weapon("Medium anti-tank gun", "medium-at-gun", 60, pen=5, he_size=1)
    adj = national.adjust_group("v2", "us", gun, quality="veteran", order="advance", gyro=True)
    kwargs = {"weapon": gun, "damage_value": 9, "order": "advance", "firer_quality": "veteran"}
    steady = anti_tank("v2", steady_on_move=adj.steady_on_move, **kwargs)
    plain = anti_tank("v2", **kwargs)
    assert (steady.p_hit, plain.p_hit) == (F(2, 3), F(1, 2))  # 3+, and 4+ with the -1 for moving


def test_death_before_dishonour_makes_a_japanese_target_fanatic():
    assert national.fanatic_target("v2", "imperial-japan", "soft_skin") is None
    third = national.fanatic_target("v3", "imperial-japan", "infantry")  # FLG3: still Fanatics
    assert third is not None and not next(r for r in national.rules_of("v3", "imperial-japan") if r.effect).verified
    applied = national.fanatic_target("v2", "imperial-japan", "infantry")
    assert applied is not None and applied.name == "Death Before Dishonour"
    kwargs = {"order": "fire", "firer_quality": "regular", "firer_pins": 0, "groups": [ShotGroupInput(RIFLE, 1)]}
    # Four men with 2 pins: a rifle hit adds the third; one man down of four leaves the half that checks.
    plain = shooting("v2", target=TargetInput(models=4, starting_models=6, pins=2), **kwargs)
    fanatic = shooting("v2", target=TargetInput(models=4, starting_models=6, pins=2, fanatic=True), **kwargs)
    one_down = plain.casualties.pmf[1]
    # Plain: morale 9 - 3 pins, 2D6 over 6 fails 21/36. Fanatics ignore the pins: 9, over 9 fails 6/36.
    assert plain.morale.p_destroyed_by_check == one_down * F(21, 36)
    assert fanatic.morale.p_destroyed_by_check == one_down * F(6, 36)
    # Pins that reach the unit's morale rout it, unless it is Fanatic with two or more men left.
    routed = shooting("v2", target=TargetInput(models=4, pins=8), **kwargs)
    held = shooting("v2", target=TargetInput(models=4, pins=8, fanatic=True), **kwargs)
    assert routed.morale.p_pin_rout == plain.p_pin and held.morale.p_pin_rout == 0


ATR = Weapon("Anti-tank rifle", "anti-tank-rifle", 36, pen=2, team=True)


def test_improvised_at_rerolls_a_failed_pen_roll_for_pen_below_three_at_vehicles_only():
    # Pen +2 at DV 7: a 1, 2, 3 or 4 fails, a 5 is superficial, a 6 full. Re-rolling the four failures:
    # none 4 x 4, superficial 1 x 6 + 4 x 1, full the same, out of 36.
    assert penetration_counts(7, 2) == (4, 1, 1, 0)
    assert penetration_counts(7, 2, reroll_failed=True) == (16, 10, 10, 0)
    adj = national.adjust_group("v2", "italy", ATR, at_vehicle=True)
    assert adj.reroll_failed_pen and [(a.change, a.name) for a in adj.applied] == [("pen", "Improvised AT")]
    assert not national.adjust_group("v2", "italy", ATR, at_vehicle=False).reroll_failed_pen
    assert not national.adjust_group("v2", "italy", MEDIUM_AT_GUN, at_vehicle=True).reroll_failed_pen  # Pen +5
    assert not national.adjust_group("v2", "italy", RIFLE, at_vehicle=True).applied  # no Pen at all
    assert not national.adjust_group("v2", "germany", ATR, at_vehicle=True).reroll_failed_pen
    assert not national.adjust_group("v3", "italy", ATR, at_vehicle=True).reroll_failed_pen  # not sourced for 3rd

    kwargs = {"weapon": ATR, "damage_value": 7, "firer_quality": "regular"}
    plain = anti_tank("v2", **kwargs)
    national_at = anti_tank("v2", reroll_failed_pen=True, **kwargs)
    assert national_at.categories == {"none": F(16, 36), "superficial": F(10, 36), "full": F(10, 36), "massive": 0}
    # One hit, 2nd edition: the hit's pin and the result's. Superficial (D6-3 on the full table) knocks
    # out only on a 6 (On Fire, then morale 9 - 2 pins fails 15/36); full knocks out on 4-6 and On Fire.
    k_superficial = F(1, 6) * F(15, 36)
    k_full = F(3, 6) + F(1, 6) * F(15, 36)
    ph = plain.p_hit
    assert national_at.p_hit == ph
    assert plain.p_knocked_out == ph * (F(1, 6) * k_superficial + F(1, 6) * k_full)
    assert national_at.p_knocked_out == ph * (F(10, 36) * k_superficial + F(10, 36) * k_full)


def test_improvised_at_acts_in_the_shooting_odds_at_an_armoured_target():
    target = TargetInput(kind="armoured", quality="regular", models=1, damage_value=7)
    prepared = national.prepare_shooting(
        "v2", "italy", "", [ShotGroupInput(ATR, 1)], target, quality="regular", order="fire"
    )
    assert prepared.groups[0].reroll_failed_pen and prepared.per_group[0][0].slug == "improvised-at"
    kwargs = {"order": "fire", "firer_quality": "regular", "firer_pins": 0, "target": target}
    plain = shooting("v2", groups=[ShotGroupInput(ATR, 1)], **kwargs)
    italian = shooting("v2", groups=prepared.groups, **kwargs)
    assert italian.vehicle.categories_per_hit[0]["none"] == F(16, 36)
    # Only the damage rolls that failed change: the knock-out chance scales by (10/36) / (1/6).
    assert italian.vehicle.p_knocked_out == plain.vehicle.p_knocked_out * F(5, 3)
    men = TargetInput(kind="infantry", quality="regular", models=5)
    on_men = national.prepare_shooting(
        "v2", "italy", "", [ShotGroupInput(ATR, 1)], men, quality="regular", order="fire"
    )
    assert not on_men.groups[0].reroll_failed_pen and on_men.per_group == ((),)


def test_not_one_step_back_re_takes_a_failed_order_test_for_a_man():
    odds = order_test("v2", quality="regular", pins=3)  # morale 9 - 3: 2D6 at most 6 passes 15/36
    assert (odds.p_pass, odds.p_fail, odds.p_fubar) == (F(15, 36), F(21, 36), F(1, 36))
    assert national.not_one_step_back("v2", "soviet-union", near_commissar=False) is None
    assert national.not_one_step_back("v2", "germany", near_commissar=True) is None
    assert national.not_one_step_back("v2", "soviet-union", near_commissar=True, men=2) is None
    assert national.not_one_step_back("v3", "soviet-union", near_commissar=True) is None  # not sourced for 3rd
    applied = national.not_one_step_back("v2", "soviet-union", near_commissar=True, men=3)
    assert applied is not None and applied.name == "Not One Step Back!"
    again = national.commissar_reroll(odds)
    # Pass at once, or fail (FUBAR too) and pass the second go: 15/36 + 21/36 x 15/36.
    assert again.p_pass == F(15, 36) + F(21, 36) * F(15, 36) == F(855, 1296)
    assert again.p_fail == F(21, 36) ** 2 and again.p_pass + again.p_fail == 1
    assert again.p_fubar == F(21, 36) * F(1, 36)
    assert again.p_fubar_friendly_fire + again.p_fubar_panic == again.p_fubar
    assert again.p_fail_not_fubar == F(21, 36) * F(20, 36)
    assert again.p_double_one == F(1, 36) + F(21, 36) * F(1, 36)
    assert again.p_man_removed == F(21, 36)


def test_tiger_fear_is_one_more_pin_on_the_order_test_in_2nd_edition_only():
    assert national.tiger_fear("v2", "germany", near_tiger=False) is None
    assert national.tiger_fear("v3", "germany", near_tiger=True) is None  # gone in 3rd edition [WGG3]
    applied = national.tiger_fear("v2", "germany", near_tiger=True)
    assert applied is not None and applied.name == "Tiger Fear"
    # An unpinned Regular tests at 9 - 1: 8 or less on 2D6 is 26/36; with two pins, 7 or less, 21/36.
    assert order_test("v2", quality="regular", pins=0 + 1).p_pass == F(26, 36)
    assert order_test("v2", quality="regular", pins=2 + 1).p_pass == F(15, 36)


def test_avanti_savoia_is_two_points_of_morale_either_way_at_three_units_apart():
    assert national.avanti_savoia("v2", "italy", 2, 0) == (0, None)
    assert national.avanti_savoia("v2", "italy", 3, 0)[0] == -2
    assert national.avanti_savoia("v2", "italy", 1, 4)[0] == 2
    assert national.avanti_savoia("v2", "germany", 3, 0) == (0, None)
    assert national.avanti_savoia("v3", "italy", 3, 0) == (0, None)
    # A Regular with one pin, three units behind: 9 - 1 - 2 = 6 or less, 15/36 (26/36 without).
    assert order_test("v2", quality="regular", pins=1, modifier=-2).p_pass == F(15, 36)


def test_initiative_training_makes_the_lost_nco_penalty_one_in_six_in_2nd_and_none_in_3rd():
    assert national.nco_lost("v2", "us") == (1, None)
    p2, applied = national.nco_lost("v2", "germany")
    assert p2 == F(1, 6) and applied is not None and applied.name == "Initiative Training"
    assert national.nco_lost("v3", "germany")[0] == 0
    assert national.nco_lost("v3", "germany", "inexperienced") == (1, None)  # Regulars and Veterans only
    # Regular, one pin: 8 or less (26/36) with its NCO, 7 or less (21/36) without.
    kept, lost = order_test("v2", quality="regular", pins=1), order_test("v2", quality="regular", pins=1, modifier=-1)
    mixed = national.mix_order_odds(kept, lost, p2)
    assert mixed.p_pass == F(5, 6) * F(26, 36) + F(1, 6) * F(21, 36) == F(151, 216)
    assert mixed.p_pass + mixed.p_fail == 1 and mixed.p_fubar == F(1, 36)
    assert national.mix_order_odds(kept, lost, F(0)) == kept and national.mix_order_odds(kept, lost, F(1)) == lost


def test_modern_communications_drop_the_minus_one_for_coming_from_reserve():
    assert national.from_reserve("v2", "germany") == (-1, None)
    modifier, applied = national.from_reserve("v2", "us")
    assert modifier == 0 and applied is not None and applied.name == "Modern Communications"
    assert national.from_reserve("v3", "us")[0] == 0  # CD3 gives it the same effect (unverified)
    # An unpinned Regular from reserve: 9 - 1, 8 or less (26/36); a US one tests on its 9 (30/36).
    assert order_test("v2", quality="regular", pins=0, modifier=-1).p_pass == F(26, 36)
    assert order_test("v2", quality="regular", pins=0).p_pass == F(30, 36)


def test_imported_armies_name_the_rules_in_their_own_words():
    # A BattleScribe import makes a rule row from the source's name: "Hitler's Buzz-Saw" becomes
    # "hitlers-buzz-saw", "Fire & Maneuver" "fire-maneuver" (armybuilder.importers.names._unique_slug).
    assert national.rule_key("hitlers-buzz-saw") == national.rule_key("hitler-s-buzzsaw")
    assert national.rule_key("fire-maneuver") == national.rule_key("fire-and-manoeuvre")
    assert national.rule_key("gyro-stabilizers") == national.rule_key("gyro-stabilisers")
    assert national.rule_key("gyokusai") == national.rule_key("death-before-dishonour")
    assert national.rule_key("great-patriotic-war") == national.rule_key("the-great-patriotic-war")
    assert national.army_for_rules("v3", {"hitlers-buzz-saw", "blitzkrieg"}) == "germany"
    assert national.army_for_rules("v3", {"gyro-stabilizers"}) == "us"
    assert national.army_for_rules("v3", {"gyokusai"}) == "imperial-japan"
    assert national.rule_in("v2", ("not-one-step-back",), "commissar") is not None
    assert national.rule_key("hitlers-buzz-saw") != national.rule_key("blitzkrieg")


def test_rapid_fire_and_3rd_edition_fire_and_manoeuvre_add_a_die_per_three_riflemen():
    rifles = [ShotGroupInput(RIFLE, 7), ShotGroupInput(LMG, 1)]
    dice, applied = national.bonus_dice("v2", "great-britain", rifles, "regular")
    assert dice == 2 and applied is not None and applied.name == "Rapid Fire"
    assert national.bonus_dice("v2", "great-britain", rifles, "inexperienced") == (0, None)  # Regulars, Veterans
    assert national.bonus_dice("v3", "us", [ShotGroupInput(RIFLE, 4)], "inexperienced")[0] == 1  # CD3's example
    assert national.bonus_dice("v2", "us", rifles, "regular") == (0, None)  # 2nd edition: the moving rule
    assert national.bonus_dice("v2", "germany", rifles, "regular") == (0, None)
    target = TargetInput(kind="infantry", quality="regular", models=10)
    prepared = national.prepare_shooting("v2", "great-britain", "", rifles, target, quality="regular", order="fire")
    assert [g.extra_dice for g in prepared.groups] == [2, 0]
    assert [a.change for a in prepared.per_group[0]] == ["dice"] and prepared.per_group[1] == ()
    res = shooting("v2", order="fire", firer_quality="regular", firer_pins=0, groups=prepared.groups, target=target)
    # Nine rifle dice and four LMG dice, all at 3+: the hits are a binomial of thirteen.
    assert res.hits.pmf == _binomial(13, F(2, 3))


def test_up_and_at_em_passes_an_assault_order_for_regulars_and_veterans():
    assert national.up_and_at_em("v2", "great-britain", assaulting=True, quality="inexperienced") is None
    assert national.up_and_at_em("v2", "great-britain", assaulting=False, quality="regular") is None
    assert national.up_and_at_em("v2", "germany", assaulting=True, quality="regular") is None
    applied = national.up_and_at_em("v2", "great-britain", assaulting=True, quality="veteran")
    assert applied is not None and applied.name == "Up and 'at 'em"
    passed = national.auto_pass(order_test("v2", quality="veteran", pins=4))
    assert (passed.p_pass, passed.p_fubar) == (1, 0)
