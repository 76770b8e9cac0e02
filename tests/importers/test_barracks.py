"""The Barracks parser, on the small files in ``data/barracks``."""

from __future__ import annotations

import pytest

from armydata.barracks import parse_barracks
from armydata.safety import CatalogueImportError
from tests.importers.helpers import read_barracks


@pytest.fixture(scope="module")
def catalogue():
    return parse_barracks(read_barracks())


def _unit(catalogue, name):
    return next(unit for army in catalogue.armies for unit in army.units if unit.name == name)


def test_it_reads_armies_with_their_national_rules(catalogue):
    assert [(a.name, a.national_rules) for a in catalogue.armies] == [
        ("Armies of Testland", ["Dogged"]),
        ("Armies of Emptyland", []),
    ]


def test_it_reports_an_army_without_a_units_file(catalogue):
    assert any("Emptyland" in warning and "no units" in warning for warning in catalogue.report.warnings)


def test_it_makes_one_officer_per_rank_profile(catalogue):
    first = _unit(catalogue, "First Lieutenant")
    assert (first.source_id, first.officer_rank, first.base_cost) == (
        "testland/officer/first-lieutenant",
        "first_lieutenant",
        {"regular": 75, "veteran": 90},
    )


def test_it_turns_attendants_into_the_per_model_cost(catalogue):
    officer = _unit(catalogue, "Second Lieutenant")
    assert (officer.per_model_cost, officer.base_models, officer.max_models) == ({"regular": 10, "veteran": 13}, 1, 3)
    assert officer.options == []


def test_it_counts_the_models_of_a_squad_from_its_composition(catalogue):
    squad = _unit(catalogue, "Rifle Squad")
    assert (squad.base_cost, squad.per_model_cost) == (
        {"inexperienced": 35, "regular": 50},
        {"inexperienced": 7, "regular": 10},
    )
    assert (squad.base_models, squad.max_models) == (5, 10)


def test_it_reads_a_weapon_swap_option(catalogue):
    smg = next(o for o in _unit(catalogue, "Rifle Squad").options if o.name == "SMG (replaces rifle)")
    assert (smg.per_model, smg.max_count, smg.grants_weapon, smg.replaces_weapon) == (False, 2, "SMG", "Rifle")


def test_it_reads_a_whole_unit_upgrade_as_per_model(catalogue):
    grenades = next(o for o in _unit(catalogue, "Rifle Squad").options if o.name == "Anti-tank grenades")
    assert (grenades.per_model, grenades.cost) == (True, {"inexperienced": 2, "regular": 2})


def test_it_keeps_a_negative_option_cost(catalogue):
    recce = _unit(catalogue, "Test Tank").options[0]
    assert recce.cost == {"inexperienced": -25, "regular": -25, "veteran": -25}


def test_it_reads_vehicles(catalogue):
    tank, truck = _unit(catalogue, "Test Tank"), _unit(catalogue, "Truck")
    assert (tank.unit_type, tank.slot, tank.damage_value) == ("vehicle_armoured", "tank", 8)
    assert (truck.unit_type, truck.transport_capacity, truck.damage_value) == ("transport", 12, 6)


def test_it_names_unit_weapons_and_reports_unknown_ones(catalogue):
    assert _unit(catalogue, "Medium Mortar Team").weapons == ["Medium mortar"]
    assert any("plasma-gun" in warning for warning in catalogue.report.warnings)


def test_it_writes_ranges_in_inches(catalogue):
    weapons = {w.name: w for w in catalogue.weapons}
    assert (weapons["Rifle"].range, weapons["Medium mortar"].range) == ('24"', '12-60"')


def test_it_reads_unit_rules_by_name(catalogue):
    assert _unit(catalogue, "Rifle Squad").special_rules == ["Tough Fighters"]
    assert "Dogged" in {rule.name for rule in catalogue.rules}


def test_it_reports_malformed_json_with_its_line():
    files = read_barracks()
    files["core.json"] = b'{\n  "weapons": {,\n}'
    with pytest.raises(CatalogueImportError, match=r"core.json is not valid JSON: .*line 2"):
        parse_barracks(files)


def test_it_needs_core_json():
    files = {name: data for name, data in read_barracks().items() if name != "core.json"}
    with pytest.raises(CatalogueImportError, match="core.json was not given"):
        parse_barracks(files)


def test_it_skips_a_unit_with_a_broken_cost_and_says_why():
    files = read_barracks()
    files["units/testland.json"] = files["units/testland.json"].replace(b'"regular": 39', b'"regular": "lots"')
    report = parse_barracks(files).report
    assert report.skipped == [
        (
            "units/testland.json: 'Truck'",
            "units/testland.json: 'Truck' (Truck): the regular cost 'lots' is not a whole number",
        )
    ]


def _with_tank_swap():
    """The test data with a flamethrower tank variant and both flamethrowers in the chart."""
    import json

    files = dict(read_barracks())
    core_name = next(name for name in files if name.endswith("core.json"))
    units_name = next(name for name in files if name.endswith("testland.json"))
    core = json.loads(files[core_name])
    for key, kind, rules in (("vehicle-flamethrower", "vehicle", []), ("infantry-flamethrower", "infantry", ["Team"])):
        core["weapons"][key] = {
            "type": f"Flamethrower ({kind})",
            "range": "6",
            "shots": "D6",
            "pen": "+3",
            "rules": [*rules, "Flamethrower"],
            "heavy": True,
        }
    units = json.loads(files[units_name])
    tank = units["vehicles"]["Tanks"][0]
    tank["weapons"]["keys"] = ["lmg", "vehicle-flamethrower"]
    tank["options"].append({"name": "Crocodile variant - replace the LMG with a flamethrower", "cost": {"regular": 20}})
    files[core_name] = json.dumps(core).encode()
    files[units_name] = json.dumps(units).encode()
    return parse_barracks(files)


def test_a_units_own_armament_leaves_out_what_its_options_add(catalogue):
    # Barracks lists every weapon a unit may carry; the squad's SMGs come only with the option.
    assert _unit(catalogue, "Rifle Squad").weapons == ["Rifle"]


def test_replace_with_adds_the_new_weapon_in_the_vehicles_version():
    tank = _unit(_with_tank_swap(), "Test Tank")
    swap = next(option for option in tank.options if option.name.startswith("Crocodile"))
    assert (swap.grants_weapon, swap.replaces_weapon) == ("Flamethrower (vehicle)", "LMG")
    assert tank.weapons == ["LMG"]


def _exclusive_catalogue():
    """The test armies and chart, with the units of ``data/barracks_exclusive`` (options naming others)."""
    from tests.importers.helpers import BARRACKS

    files = dict(read_barracks())
    units = BARRACKS.parent / "barracks_exclusive" / "units" / "testland.json"
    files["units/testland.json"] = units.read_bytes()
    return parse_barracks(files)


def test_an_option_that_names_another_in_if_no_excludes_it():
    catalogue = _exclusive_catalogue()
    squad = _unit(catalogue, "Grenadier Squad")
    options = {option.name: option for option in squad.options}
    # "if no Panzerfausts taken": the plural names the squad's "Panzerfaust" option.
    assert options["Anti-tank grenades (if no Panzerfausts taken)"].excludes == ["Panzerfaust"]
    assert options["Panzerfaust"].excludes == []
    # "instead of a rifle" names the squad's own weapon, no option: nothing excluded, no warning.
    assert options["SMG (instead of a rifle)"].excludes == []
    # A condition naming no option of the unit is reported, not guessed.
    assert options["Flares (if no rockets taken)"].excludes == []
    assert any("'rockets', which is none of the unit's options" in w for w in catalogue.report.warnings)


@pytest.fixture(scope="module")
def options_catalogue():
    """``data/barracks_options``: a free gun, a pistol-only soldier, pintle mounts, alternatives."""
    from tests.importers.helpers import BARRACKS

    folder = BARRACKS.parent / "barracks_options"
    return parse_barracks({path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*.json")})


def _options(unit):
    return {option.name: option for option in unit.options}


def test_free_unit_makes_the_unit_free_once_per_list_at_the_qualities_it_lists(options_catalogue):
    free = _options(_unit(options_catalogue, "Field Gun"))["Free Unit"]
    assert (free.free_unit, free.free_per_list, free.cost) == (True, 1, {"inexperienced": 0, "regular": 0})
    others = [o for u in options_catalogue.armies[0].units for o in u.options if o.name != "Free Unit"]
    assert not any(option.free_unit or option.free_per_list for option in others)


def test_a_pistol_only_soldier_or_a_spotter_is_an_option_adding_a_model(options_catalogue):
    section = _unit(options_catalogue, "Line Section")
    # The first "Additional soldier" is the per-model price; the pistol-only man is one more model.
    assert (section.base_models, section.max_models, section.per_model_cost) == (5, 9, {"regular": 10})
    pistol = _options(section)["Additional soldier (pistol only)"]
    assert (pistol.adds_models, pistol.max_count, pistol.cost, pistol.grants_weapon) == (1, 1, {"regular": 7}, None)
    assert _options(_unit(options_catalogue, "Field Gun"))["Spotter"].adds_models == 1


def test_one_pintle_mount_takes_one_weapon(options_catalogue):
    jeep = _options(_unit(options_catalogue, "Jeep"))
    assert jeep["Pintle-mounted MMG"].group and jeep["Pintle-mounted MMG"].group == jeep["Pintle-mounted HMG"].group
    # Pintle mounts on different arcs are different mounts: both may be taken.
    track = _options(_unit(options_catalogue, "Half-Track"))
    assert (track["Pintle-mounted MMG (left arc)"].group, track["Pintle-mounted MMG (right arc)"].group) == ("", "")


def test_options_replacing_the_same_weapon_are_alternatives(options_catalogue):
    tankette = _options(_unit(options_catalogue, "Tankette"))
    assert tankette["Replace MMG with HMG"].group == tankette["Replace MMG with 2 MMGs"].group != ""
    assert (tankette["Replace MMG with HMG"].grants_weapon, tankette["Replace MMG with HMG"].replaces_weapon) == (
        "HMG",
        "MMG",
    )


def test_option_names_spell_out_the_chart_s_abbreviations(options_catalogue):
    track = _options(_unit(options_catalogue, "Half-Track"))
    assert track["Forward facing light anti-tank gun (37mm PaK 36)"].grants_weapon == "Light AT gun"
    autocannon = track["Pintle-mounted light autocannon (KwK 38) with 360° arc of fire"]
    assert autocannon.grants_weapon == "Light automatic cannon"


def test_the_own_armament_is_what_the_unit_carries_before_any_option(options_catalogue):
    # A jeep with no armament of its own carries nothing until a pintle weapon is bought.
    assert _unit(options_catalogue, "Jeep").weapons == []
    # "Pistol or none" with a "Pistol" option: the pistol is the option's.
    assert _unit(options_catalogue, "Chaplain").weapons == []
    # An armament text naming the weapon keeps it, though an option adds another one.
    assert _unit(options_catalogue, "Field Gun").weapons == ["Light automatic cannon"]
    # A vehicle carries what its text mounts, not its other variants' weapons.
    assert _unit(options_catalogue, "Half-Track").weapons == ["MMG"]
    assert _unit(options_catalogue, "Tankette").weapons == ["MMG"]
    assert _unit(options_catalogue, "Line Section").weapons == ["Pistol", "Rifle"]


def test_armament_facts_keep_what_the_parser_reads_and_no_sentence(options_catalogue):
    from armydata.barracks import armament_facts

    chart = options_catalogue.weapons
    assert armament_facts("Pistol or none as depicted on the models.", chart) == "Pistol or none"
    assert armament_facts("NCO with pistol, soldiers with rifles", chart) == "Pistol, Rifle"
    assert armament_facts("Sniper has a rifle and assistant has a pistol, scoped", chart) == "Rifle, Pistol"
    assert armament_facts("Gewehr 43 semi-automatic sniper rifle and pistols", chart) == "Sniper rifle, Pistol"
    assert armament_facts("Sharpened bamboo spears", chart) == ""
