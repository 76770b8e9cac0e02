"""A second author's 3rd-edition data (NewRecruit style): ``data/bs3`` reproduces, one unit each, the
patterns community files use for choices inside units, and a game system that names its edition
"3ed" and keeps unit types in profiles rather than categories.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from armydata.battlescribe import _Profile, _profile_kinds, edition_of, parse_battlescribe
from armydata.model import ImportedCatalogue, ImportedOption, ImportedOptionGroup, ImportedUnit
from armydata.safety import CatalogueImportError
from tests.importers.helpers import only_unit

BS3 = Path(__file__).parent / "data" / "bs3"


def read_bs3() -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(BS3.iterdir()) if path.suffix in (".gst", ".cat")}


@pytest.fixture(scope="module")
def catalogue() -> ImportedCatalogue:
    return parse_battlescribe(read_bs3())


def option(unit: ImportedUnit, name: str) -> ImportedOption:
    matches = [o for o in unit.options if o.name == name]
    assert len(matches) == 1, [o.name for o in unit.options]
    return matches[0]


def group(unit: ImportedUnit, key: str) -> ImportedOptionGroup:
    return next(g for g in unit.option_groups if g.key == key)


# editions


@pytest.mark.parametrize(
    ("name", "edition"),
    [
        ("Bolt Action 3ed", "v3"),
        ("Bolt Action Third Edition", "v3"),
        ("Bolt Action: 3rd Ed.", "v3"),
        ("Bolt Action v3", "v3"),
        ("Bolt Action (3rd edition)", "v3"),
        ("Bolt Action 2.0", "v2"),
        ("Bolt Action 2nd Edition", "v2"),
        ("Bolt Action 2", "v2"),
        ("Bolt Action", None),
        ("Bolt Action 2ed, v3 data", None),
    ],
)
def test_the_edition_is_read_from_the_game_systems_name_in_its_usual_spellings(name, edition):
    assert edition_of(name) == edition


def test_a_game_system_named_bolt_action_3ed_is_third_edition(catalogue):
    assert catalogue.edition == "v3"


def test_a_name_without_an_edition_is_refused_with_the_flag_to_use():
    files = read_bs3()
    files["bs3.gst"] = files["bs3.gst"].replace(b'name="Bolt Action 3ed"', b'name="Bolt Action"')
    with pytest.raises(CatalogueImportError, match="--edition v2 or --edition v3"):
        parse_battlescribe(files)
    assert parse_battlescribe(files, edition="v3").edition == "v3"


# units reached through the force entry, types from profiles


def test_units_reached_only_through_the_force_entrys_links_are_imported(catalogue):
    names = [unit.name for unit in catalogue.armies[0].units]
    assert names == [
        "Grenadier Squad",
        "Medium Mortar Team",
        "Panzer III",
        "Sd.Kfz. 251",
        "PaK 40",
        "Pioneer Squad",
        "Heavy Artillery",
        "Platoon Commander",
        "People's Militia",
    ]


@pytest.mark.parametrize(
    ("name", "unit_type", "slot", "source"),
    [
        ("Panzer III", "vehicle_armoured", "tank", "profiles"),
        ("Sd.Kfz. 251", "transport", "transport", "profiles"),
        ("PaK 40", "artillery", "artillery", "profiles"),
        ("Medium Mortar Team", "team", "mortar", "profiles"),
        ("Grenadier Squad", "infantry", "infantry", "name"),
        ("Heavy Artillery", "artillery", "artillery", "categories"),
    ],
)
def test_a_unit_without_categories_takes_its_type_from_its_profiles_else_its_name(
    catalogue, name, unit_type, slot, source
):
    unit = only_unit(catalogue, name)
    assert (unit.unit_type, unit.slot, unit.type_source) == (unit_type, slot, source)


def test_the_guessed_types_are_reported(catalogue):
    warnings = catalogue.report.warnings
    assert any("Panzer III" in w and "its profiles say vehicle armoured (guessed)" in w for w in warnings)
    assert any("PaK 40" in w and "its profiles say artillery (guessed)" in w for w in warnings)
    assert any("Medium Mortar Team" in w and "its profiles say team (guessed)" in w for w in warnings)
    assert any("Grenadier Squad" in w and "its name says infantry (guessed)" in w for w in warnings)


# choices inside units


def test_each_man_may_swap_his_rifle_inside_the_model_group(catalogue):
    squad = only_unit(catalogue, "Grenadier Squad")
    smg = option(squad, "Grenadier: SMG")
    assert (smg.per_model, smg.all_models, smg.max_count) == (True, False, None)
    assert smg.cost == {"inexperienced": 4, "regular": 4, "veteran": 4}
    assert (smg.grants_weapon, smg.replaces_weapon) == ("SMG", "Rifle")
    assert group(squad, smg.group) == ImportedOptionGroup(smg.group, "Weapon", 0, 1, per_model=True)


def test_the_ncos_own_swap_is_one_choice_apart_from_the_mens(catalogue):
    squad = only_unit(catalogue, "Grenadier Squad")
    nco = option(squad, "NCO: SMG")
    assert (nco.per_model, nco.max_count, nco.cost["regular"]) == (False, 1, 3)
    assert nco.source_id != option(squad, "Grenadier: SMG").source_id


def test_a_light_machine_gun_team_inside_a_squad_adds_its_two_men(catalogue):
    team = option(only_unit(catalogue, "Grenadier Squad"), "Light Machine Gun Team")
    assert (team.adds_models, team.grants_weapon, team.max_count, team.per_model) == (2, "LMG", 1, False)
    assert team.cost == {"inexperienced": 25, "regular": 25, "veteran": 25}


def test_a_shared_upgrades_group_of_at_most_two(catalogue):
    squad = only_unit(catalogue, "Grenadier Squad")
    assert group(squad, "Upgrades") == ImportedOptionGroup("Upgrades", "Upgrades", 0, 2)
    members = [o.name for o in squad.options if o.group == "Upgrades"]
    assert members == ["Anti-tank grenades", "Panzerfaust", "Camouflage cloaks"]
    assert (option(squad, "Panzerfaust").max_count, option(squad, "Panzerfaust").cost["regular"]) == (3, 5)


def test_grenades_priced_per_model_and_taken_once_are_a_whole_unit_choice(catalogue):
    grenades = option(only_unit(catalogue, "Grenadier Squad"), "Anti-tank grenades")
    assert (grenades.all_models, grenades.per_model, grenades.cost["regular"]) == (True, True, 2)


def test_the_largest_size_counts_only_the_squads_own_men(catalogue):
    squad = only_unit(catalogue, "Grenadier Squad")
    assert (squad.base_models, squad.max_models) == (5, 10)
    assert squad.per_model_cost == {"inexperienced": 7, "regular": 10, "veteran": 13}


def test_a_spotter_is_an_option_that_adds_a_man_not_a_larger_size(catalogue):
    mortar = only_unit(catalogue, "Medium Mortar Team")
    assert (mortar.base_models, mortar.max_models, mortar.per_model_cost) == (3, 3, {})
    spotter = option(mortar, "Spotter")
    assert (spotter.adds_models, spotter.cost["regular"], spotter.max_count) == (1, 10, 1)


def test_a_nested_unit_is_a_team_the_squad_may_add(catalogue):
    flame = option(only_unit(catalogue, "Pioneer Squad"), "Flamethrower Team (2 men)")
    assert (flame.adds_models, flame.grants_weapon, flame.cost) == (2, "Flamethrower", {"regular": 50, "veteran": 50})
    assert not any("Flamethrower" in entry for entry, _ in catalogue.report.skipped)


def test_a_variant_group_carries_the_quality_and_the_price(catalogue):
    tank = only_unit(catalogue, "Panzer III")
    assert tank.base_cost == {"inexperienced": 0, "regular": 0, "veteran": 0}
    assert group(tank, "Variant") == ImportedOptionGroup("Variant", "Variant", 1, 1)
    assert option(tank, "Ausf. H").cost == {"regular": 180, "veteran": 216}
    assert option(tank, "Ausf. N").cost == {"inexperienced": 150, "regular": 190}
    assert {o.group for o in tank.options} == {"Variant"}


def test_a_vehicles_pintle_weapon_is_an_option(catalogue):
    hmg = option(only_unit(catalogue, "Sd.Kfz. 251"), "Pintle-mounted HMG")
    assert (hmg.grants_weapon, hmg.cost) == ("HMG", {"inexperienced": 20, "regular": 20})


def test_a_cap_on_the_units_models_as_a_whole_bounds_its_largest_size(catalogue):
    gun = only_unit(catalogue, "Heavy Artillery")
    assert (gun.base_models, gun.max_models, gun.base_cost, gun.per_model_cost) == (
        4,
        6,
        {"regular": 120},
        {"regular": 5},
    )


def test_the_same_swap_for_the_attendant_of_each_quality_is_one_per_man_option(catalogue):
    officer = only_unit(catalogue, "Platoon Commander")
    assert (officer.base_models, officer.max_models) == (1, 3)
    assert officer.per_model_cost == {"inexperienced": 7, "regular": 10, "veteran": 13}
    smg = option(officer, "SMG")
    assert (smg.per_model, smg.max_count, smg.cost) == (True, None, {"inexperienced": 3, "regular": 3, "veteran": 3})
    assert group(officer, smg.group) == ImportedOptionGroup(smg.group, "Weapon", 0, 1, per_model=True)


def test_a_rating_inside_an_option_follows_the_units_quality(catalogue):
    officer = only_unit(catalogue, "Platoon Commander")
    assert [o.name for o in officer.options] == ["SMG", "Medic"]
    medic = option(officer, "Medic")
    assert (medic.cost, medic.adds_models) == ({"inexperienced": 21, "regular": 30, "veteran": 39}, 1)


def test_a_swap_whose_maximum_grows_with_the_men_is_per_man(catalogue):
    smg = option(only_unit(catalogue, "Pioneer Squad"), "Replace rifle with SMG")
    assert (smg.per_model, smg.all_models, smg.max_count, smg.grants_weapon) == (True, False, None, "SMG")
    assert smg.cost == {"regular": 4, "veteran": 4}


def test_a_group_whose_maximum_grows_with_the_men_is_a_choice_per_man(catalogue):
    militia = only_unit(catalogue, "People's Militia")
    assert group(militia, "Weapons") == ImportedOptionGroup("Weapons", "Weapons", 0, 1, per_model=True)
    rifle, pistol = option(militia, "Rifle"), option(militia, "Pistol")
    assert (rifle.per_model, rifle.max_count, rifle.cost, rifle.group) == (True, None, {"inexperienced": 2}, "Weapons")
    assert (pistol.per_model, pistol.max_count, pistol.cost, pistol.group) == (
        True,
        None,
        {"inexperienced": 1},
        "Weapons",
    )


@pytest.mark.parametrize(
    ("type_name", "characteristics", "rules", "kinds"),
    [
        ("Vehicle", (), (), ["Vehicle"]),
        ("Unit", (("Unit Type", "Tank destroyer"),), (), ["Tank"]),
        ("Unit", (("Type", "Armoured car"),), (), ["Armoured car"]),
        ("Unit", (("Composition / Type", "1 half-track"),), (), ["Transport"]),
        ("Vehicle", (("Transport", "10 men"),), (), ["Transport", "Vehicle"]),
        ("Unit", (("Type", "Infantry"),), (), ["Infantry"]),
        ("Unit", (("Crew", "3"),), ("Gun Shield", "Team"), ["Artillery"]),
        ("Unit", (("Crew", "3"),), ("Team",), []),
        ("Unit", (("Notes", "a tank in the background"),), (), []),
    ],
)
def test_what_a_units_profiles_say_it_is(type_name, characteristics, rules, kinds):
    profile = _Profile("p", "Profile", type_name, characteristics)
    assert _profile_kinds([profile], list(rules)) == kinds


def test_an_upgrade_nothing_caps_is_taken_by_as_many_men_as_want_it(catalogue):
    molotov = option(only_unit(catalogue, "People's Militia"), "Molotov cocktail")
    assert (molotov.per_model, molotov.all_models, molotov.max_count, molotov.cost) == (
        True,
        False,
        None,
        {"inexperienced": 1},
    )
