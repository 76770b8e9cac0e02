"""The BattleScribe parser, one construct per catalogue file in ``data/battlescribe``."""

from __future__ import annotations

import pytest

from armydata.battlescribe import parse_battlescribe
from armydata.safety import CatalogueImportError
from tests.importers.helpers import only_unit, parse_catalogue, read_battlescribe


def _option(unit, name):
    return next(option for option in unit.options if option.name == name)


# costs and links


def test_it_reads_points_by_cost_type_id_not_by_cost_name():
    unit = only_unit(parse_catalogue("costs.cat"), "Field Gun")
    assert unit.base_cost == {"regular": 45}


def test_it_lets_an_entry_link_reprice_its_target():
    unit = only_unit(parse_catalogue("links.cat"), "Regular Trooper")
    assert unit.base_cost == {"regular": 15}


def test_it_takes_the_category_from_the_link():
    unit = only_unit(parse_catalogue("links.cat"), "Regular Trooper")
    assert (unit.unit_type, unit.slot) == ("infantry", "infantry")


def test_it_follows_links_through_links_into_the_game_system():
    unit = only_unit(parse_catalogue("links.cat"), "Regular Scout")
    assert unit.base_cost == {"regular": 14}
    assert unit.weapons == ["Rifle"]


def test_it_resolves_a_shared_group_of_the_game_system():
    unit = only_unit(parse_catalogue("shared_groups.cat"), "Regular Officer")
    smg = _option(unit, "SMG")
    assert unit.weapons == ["Pistol"]
    assert (smg.cost, smg.grants_weapon, smg.replaces_weapon, smg.group) == ({"regular": 3}, "SMG", "Pistol", "Sidearm")


def test_it_resolves_a_shared_group_of_the_catalogue():
    unit = only_unit(parse_catalogue("shared_groups.cat"), "Regular Officer")
    assert _option(unit, "Binoculars").cost == {"regular": 5}


# quality


def test_it_prices_each_quality_from_a_rating_group():
    unit = only_unit(parse_catalogue("rating.cat"), "Second Lieutenant")
    assert unit.base_cost == {"inexperienced": 35, "regular": 50, "veteran": 65}


def test_it_prices_extra_men_by_the_quality_their_hiding_conditions_leave_visible():
    unit = only_unit(parse_catalogue("rating.cat"), "Second Lieutenant")
    assert unit.per_model_cost == {"inexperienced": 7, "regular": 10, "veteran": 13}
    assert (unit.base_models, unit.max_models) == (1, 3)


def test_it_prices_quality_set_by_modifiers_with_conditions():
    unit = only_unit(parse_catalogue("modifiers.cat", system="system_v3.gst"), "Rifle Squad")
    assert unit.base_cost == {"inexperienced": 35, "regular": 50, "veteran": 65}
    assert unit.per_model_cost == {"inexperienced": 7, "regular": 10, "veteran": 13}


def test_it_detects_the_edition_from_the_game_system():
    assert parse_catalogue("modifiers.cat", system="system_v3.gst").edition == "v3"
    assert parse_catalogue("rating.cat").edition == "v2"


# per-model costs and constraints


def test_it_prices_a_repeat_modifier_per_model():
    horses = _option(only_unit(parse_catalogue("repeats.cat"), "Regular Cavalry Squad"), "Horses")
    assert (horses.per_model, horses.cost) == (True, {"regular": 3})


def test_it_prices_an_upgrade_that_raises_every_model_per_model():
    unit = only_unit(parse_catalogue("grenades.cat"), "Veteran Grenadiers")
    grenades = _option(unit, "Anti-tank grenades")
    assert (grenades.per_model, grenades.cost) == (True, {"veteran": 2})
    assert unit.base_cost == {"veteran": 65}


def test_it_fills_a_group_minimum_with_the_default_entry():
    unit = only_unit(parse_catalogue("constraints.cat"), "Regular Section")
    assert (unit.base_cost, unit.per_model_cost) == ({"regular": 50}, {"regular": 10})
    assert (unit.base_models, unit.min_models, unit.max_models) == (5, 5, 10)


def test_it_prices_a_model_with_a_special_weapon_as_the_difference_from_a_plain_model():
    lmg = _option(only_unit(parse_catalogue("constraints.cat"), "Regular Section"), "Soldier with LMG")
    assert (lmg.cost, lmg.max_count) == ({"regular": 20}, 1)
    assert (lmg.grants_weapon, lmg.replaces_weapon) == ("LMG", "Rifle")


def test_a_group_of_the_units_men_sets_no_shared_limit_on_its_options():
    # "Members" (5 to 10) counts the men, which the unit's size already bounds.
    unit = only_unit(parse_catalogue("constraints.cat"), "Regular Section")
    assert (_option(unit, "Soldier with LMG").group, unit.option_groups) == ("", [])


# profiles


def test_it_reads_weapon_profiles_inline_and_linked():
    unit = only_unit(parse_catalogue("profiles.cat"), "Veteran Medium Tank")
    assert unit.weapons == ["Medium AT gun", "LMG"]


def test_it_keeps_the_weapon_characteristics_as_written():
    weapons = {w.name: w for w in parse_catalogue("profiles.cat").weapons}
    gun = weapons["Medium AT gun"]
    assert (gun.range, gun.shots, gun.pen) == ('60"', "1", "+5")
    assert gun.special_rules == ["Team", 'HE (2")', "Fixed"]


def test_it_reads_damage_value_and_armour_from_a_vehicle_profile():
    unit = only_unit(parse_catalogue("profiles.cat"), "Veteran Medium Tank")
    assert (unit.unit_type, unit.slot, unit.damage_value) == ("vehicle_armoured", "tank", 9)


def test_it_reads_transport_capacity():
    unit = only_unit(parse_catalogue("profiles.cat"), "Regular Truck")
    assert (unit.unit_type, unit.transport_capacity, unit.damage_value) == ("transport", 12, 6)


def test_it_takes_a_team_size_from_its_crew_rule():
    unit = only_unit(parse_catalogue("profiles.cat"), "Regular Medium Mortar Team")
    assert (unit.base_models, unit.slot) == (3, "mortar")
    assert unit.special_rules == ["Crew (3)", "Team Weapon"]


# hidden entries and tolerated extras


def test_it_keeps_a_hidden_entry_as_hidden_and_reports_it():
    catalogue = parse_catalogue("hidden.cat")
    assert only_unit(catalogue, "Regular Secret Squad").hidden is True
    assert any("Secret Squad" in warning for warning in catalogue.report.warnings)


def test_it_counts_an_entry_shown_by_a_roster_condition_as_visible():
    assert only_unit(parse_catalogue("hidden.cat"), "Regular Theatre Squad").hidden is False


def test_it_tolerates_newrecruit_attributes():
    catalogue = parse_catalogue("newrecruit.cat")
    unit = only_unit(catalogue, "Regular Squad")
    assert (unit.base_cost, unit.base_models, unit.max_models) == ({"regular": 50}, 5, 10)
    assert catalogue.report.warnings == []


# army-level content


def test_it_reads_national_rules_and_theatre_selectors():
    army = parse_catalogue("army.cat").armies[0]
    assert army.national_rules == ["Stubborn Defenders"]
    assert army.theatre_selectors == ["Generic Reinforced Platoon", "1940: Test Campaign"]


def test_it_reports_a_utility_entry_as_skipped():
    report = parse_catalogue("army.cat").report
    assert [entry for entry, _ in report.skipped] == ["Points Adjuster (u-adjuster)"]


def test_it_imports_each_rank_inside_a_wrapper_entry_as_an_officer():
    catalogue = parse_catalogue("army.cat")
    captain = only_unit(catalogue, "Kaptein (Captain)")
    assert (captain.slot, captain.officer_rank, captain.base_cost) == ("officer", "captain", {"regular": 110})
    assert only_unit(catalogue, "Fenrik (Second Lieutenant)").officer_rank == "second_lieutenant"


def test_it_takes_the_slot_from_the_name_when_the_category_is_generic():
    unit = only_unit(parse_catalogue("army.cat"), "Medium Machine Gun Team")
    assert (unit.unit_type, unit.slot) == ("team", "machine_gun")


def test_it_collects_rules_with_their_text():
    rules = {rule.name: rule for rule in parse_catalogue("army.cat").rules}
    assert rules["Team Weapon"].description == "Needs two crew."
    assert "Stubborn Defenders" in rules


def test_it_reports_an_unsupported_element_by_entry():
    warnings = parse_catalogue("unsupported.cat").report.warnings
    assert any("Regular Odd Squad" in w and "<associations>" in w for w in warnings)


def test_it_reports_an_unsupported_top_level_element():
    warnings = parse_catalogue("unsupported.cat").report.warnings
    assert "unsupported.cat: <selectionEntryLinks> at the top level is not supported; ignored" in warnings


def test_it_reports_a_cost_modifier_that_depends_on_the_roster():
    catalogue = parse_catalogue("unsupported.cat")
    assert only_unit(catalogue, "Regular Odd Squad").base_cost == {"regular": 30}
    assert any("outside the unit" in w for w in catalogue.report.warnings)


def test_it_reports_a_link_to_nothing_as_skipped():
    report = parse_catalogue("bad/missing_target.cat").report
    assert report.skipped == [("Ghost Squad (l-ghost)", "missing_target.cat: link target s-ghost not found")]


def test_it_counts_what_it_read():
    report = parse_catalogue("links.cat").report
    # 5 entries and groups in the game system, 7 entries and links in the catalogue.
    assert (report.units, report.entries_read) == (2, 12)


# refused input


def test_it_refuses_a_catalogue_without_its_game_system():
    with pytest.raises(CatalogueImportError, match="needs game system sys-nowhere, which was not given"):
        parse_catalogue("bad/orphan.cat")


def test_it_refuses_a_cost_type_the_game_system_does_not_define():
    with pytest.raises(CatalogueImportError, match="cost type 'gold'"):
        parse_catalogue("bad/unknown_cost.cat")


def test_it_names_the_cycle_of_entry_links():
    with pytest.raises(CatalogueImportError, match="cycle: Alpha -> Bravo -> Alpha"):
        parse_catalogue("bad/cycle.cat")


def test_it_reports_malformed_xml_with_its_line():
    files = read_battlescribe()
    files["broken.cat"] = b'<?xml version="1.0"?>\n<catalogue id="x">\n  <selectionEntries>\n</catalogue>\n'
    with pytest.raises(CatalogueImportError, match=r"broken.cat is not well-formed XML: .*line 4"):
        parse_battlescribe(files)


def test_it_refuses_entity_expansion():
    entities = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
    laughs = f'<?xml version="1.0"?><!DOCTYPE c [<!ENTITY lol0 "lol">{entities}]><catalogue>&lol9;</catalogue>'
    with pytest.raises(CatalogueImportError, match="entity declarations are not allowed"):
        parse_battlescribe({**read_battlescribe(), "laughs.cat": laughs.encode()})


def test_it_refuses_external_entities():
    xxe = b'<?xml version="1.0"?>\n<!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<catalogue>&x;</catalogue>'
    with pytest.raises(CatalogueImportError, match="entity declarations are not allowed"):
        parse_battlescribe({**read_battlescribe(), "xxe.cat": xxe})


def test_it_refuses_a_game_system_that_is_not_bolt_action():
    files = read_battlescribe("rating.cat")
    files["system.gst"] = files["system.gst"].replace(b"Bolt Action 2nd Edition (test)", b"Space Battles")
    with pytest.raises(CatalogueImportError, match="not recognisable as Bolt Action"):
        parse_battlescribe(files)
