"""Army-builder module files (one JSON document, often with no extension) read into the neutral model.

``data/module/TTAMBA-Test`` is written for these tests in the shape of the community's
``TTAMBA-Condensed`` file (which Muster does not ship): each pattern that file uses, once.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from armydata.builder_module import equipment_line, parse_module, sniff_module
from armydata.loader import detect_format, load_paths, parse_any
from armydata.model import ImportedArmy, ImportedCatalogue, ImportedUnit
from armydata.safety import CatalogueImportError

MODULE = Path(__file__).parent / "data" / "module" / "TTAMBA-Test"


def read_module() -> dict[str, bytes]:
    return {MODULE.name: MODULE.read_bytes()}


@pytest.fixture(scope="module")
def catalogue() -> ImportedCatalogue:
    return parse_module(read_module())


def army(catalogue: ImportedCatalogue, name: str) -> ImportedArmy:
    return next(a for a in catalogue.armies if a.name == name)


def unit(catalogue: ImportedCatalogue, nation: str, name: str) -> ImportedUnit:
    return next(u for u in army(catalogue, nation).units if u.name == name)


def option(found: ImportedUnit, name: str):
    return next(o for o in found.options if o.name == name)


# detection, by content


def test_a_file_with_no_extension_is_recognised_by_its_content():
    assert sniff_module("TTAMBA-Test", MODULE.read_bytes())
    assert detect_format(read_module()) == "module"


def test_a_module_under_any_name_is_read_and_other_json_is_not_a_module():
    data = MODULE.read_bytes()
    assert parse_any({"whatever.txt": data}).armies
    assert not sniff_module("armies.json", json.dumps({"germany": {"name": "Germany"}}).encode())
    assert not sniff_module("other", json.dumps({"game": "Chess", "data": {"factions": [], "units": []}}).encode())


def test_a_folder_holding_the_module_reads_it_although_it_has_no_extension(tmp_path):
    (tmp_path / "TTAMBA-Test").write_bytes(MODULE.read_bytes())
    (tmp_path / "LICENSE").write_text("not data")
    assert list(load_paths([str(tmp_path)])) == ["TTAMBA-Test"]


# armies and national rules


def test_each_faction_is_a_third_edition_army_with_its_national_rules_by_name(catalogue):
    assert catalogue.edition == "v3"
    assert [a.name for a in catalogue.armies] == ["Germany", "Soviet Union", "Ireland"]
    germany = army(catalogue, "Germany")
    assert germany.national_rules == ["Quick Orders", "Steady Nerves"]
    rule = next(r for r in catalogue.rules if r.name == "Quick Orders")
    assert rule.description.startswith("Quick Orders - Test nation rule text")


# platoons: one unit per distinct entry


def test_a_unit_listed_the_same_under_two_platoons_is_one_unit_that_may_fill_each(catalogue):
    squads = [u for u in army(catalogue, "Germany").units if u.name.startswith("Heer Rifle Squad")]
    assert len(squads) == 1
    assert squads[0].categories == ["Rifle Platoon", "Recce Platoon"]
    assert squads[0].source_id == "germany/heer-rifle-squad"


def test_entries_of_one_name_that_differ_are_two_units_named_apart_by_platoon(catalogue):
    squads = [u for u in army(catalogue, "Germany").units if u.name.startswith("Grenadier Squad")]
    assert [(u.name, u.base_models, u.base_cost) for u in squads] == [
        ("Grenadier Squad (Rifle Platoon)", 6, {"regular": 66, "veteran": 84}),
        ("Grenadier Squad (Recce Platoon)", 5, {"regular": 55, "veteran": 70}),
    ]
    assert [u.source_id for u in squads] == ["germany/grenadier-squad", "germany/grenadier-squad#2"]


def test_a_unit_open_to_two_nations_is_in_each_army(catalogue):
    assert unit(catalogue, "Germany", "Platoon Commander").categories == ["Rifle Platoon", "Recce Platoon"]
    assert unit(catalogue, "Soviet Union", "Platoon Commander").categories == ["Rifle Platoon"]


def test_a_unit_only_in_a_platoon_muster_lacks_is_skipped_and_reported(catalogue):
    assert all(u.name != "Stuka" for u in army(catalogue, "Germany").units)
    assert ("Germany: Stuka", "only in Air Support, which Muster has no platoon for") in catalogue.report.skipped


def test_separator_lines_are_no_units(catalogue):
    assert all(not set(u.name) <= {"-"} for a in catalogue.armies for u in a.units)


# qualities and prices


def test_the_morale_choices_are_the_qualities_and_their_prices(catalogue):
    squad = unit(catalogue, "Germany", "Heer Rifle Squad")
    assert squad.base_cost == {"inexperienced": 42, "regular": 60, "veteran": 78}
    tank = unit(catalogue, "Germany", "Panzer IV Ausf H Medium Tank")
    assert tank.base_cost == {"regular": 225, "veteran": 270}


def test_a_nations_own_quality_variant_counts_as_that_quality(catalogue):
    guards = unit(catalogue, "Soviet Union", "Guards Squad")
    assert guards.base_cost == {"regular": 60, "veteran": 78}
    assert option(guards, "SMGs").cost == {"regular": 3, "veteran": 3}


def test_a_quality_muster_does_not_know_is_left_out_and_a_unit_with_no_other_is_skipped(catalogue):
    assert all(u.name != "Kelly's Heroes" for u in army(catalogue, "Germany").units)
    assert any("'Hollywood' is none of Muster's" in w for w in catalogue.report.warnings)


def test_extra_men_per_quality_are_the_per_model_price_and_the_largest_size(catalogue):
    squad = unit(catalogue, "Germany", "Heer Rifle Squad")
    assert squad.per_model_cost == {"inexperienced": 7, "regular": 10, "veteran": 13}
    assert (squad.base_models, squad.max_models) == (5, 10)
    assert all(o.name != "Additional Men" for o in squad.options)


def test_an_option_unlocked_per_quality_is_priced_at_those_qualities_only(catalogue):
    squad = unit(catalogue, "Germany", "Heer Rifle Squad")
    # two "Panzerfaust" entries, one unlocked at Regular and one at Veteran, are one option
    panzerfaust = option(squad, "Panzerfaust")
    assert panzerfaust.cost == {"regular": 6, "veteran": 5}
    assert panzerfaust.prices_exact and panzerfaust.max_count == 2
    assert option(squad, "Anti-Tank Grenades").cost == {"regular": 2, "veteran": 2}


def test_an_option_of_another_nation_is_left_out(catalogue):
    assert all(o.name != "Skis" for o in unit(catalogue, "Germany", "Heer Rifle Squad").options)


# options


def test_per_man_swaps_share_the_mens_limit_and_keep_their_own(catalogue):
    squad = unit(catalogue, "Germany", "Heer Rifle Squad")
    smgs, nco = option(squad, "SMGs"), option(squad, "NCO SMG")
    assert (smgs.per_model, smgs.all_models, smgs.per_man_limit, smgs.group) == (True, False, 2, "gun")
    assert (nco.per_man_limit, nco.group) == (1, "gun")
    assert (smgs.grants_weapon, smgs.replaces_weapon) == ("SMG", "Rifle")
    group = next(g for g in squad.option_groups if g.key == "gun")
    assert (group.maximum, group.per_model) == (1, True)


def test_a_team_adds_its_men(catalogue):
    squad = unit(catalogue, "Germany", "Heer Rifle Squad")
    assert option(squad, "LMG Team").adds_models == 2
    assert option(unit(catalogue, "Germany", "MMG Team"), "Add Spotter").adds_models == 1


def test_a_per_model_option_is_a_whole_unit_option_priced_per_man(catalogue):
    grenades = option(unit(catalogue, "Germany", "Heer Rifle Squad"), "Anti-Tank Grenades")
    assert grenades.per_model and grenades.all_models


def test_a_campaign_option_is_kept_and_marked(catalogue):
    squad = unit(catalogue, "Germany", "Heer Rifle Squad")
    assert option(squad, "Rifle Grenade Adaptor [campaign]").cost["regular"] == 20


# keywords, equipment, dice, periods, flags


def test_the_damage_value_is_read_with_and_without_the_space(catalogue):
    assert unit(catalogue, "Germany", "Panzer IV Ausf H Medium Tank").damage_value == 9
    assert unit(catalogue, "Germany", "Opel Blitz Truck").damage_value == 6


def test_vehicles_are_typed_from_their_keywords(catalogue):
    tank = unit(catalogue, "Germany", "Panzer IV Ausf H Medium Tank")
    assert (tank.unit_type, tank.slot) == ("vehicle_armoured", "tank")
    truck = unit(catalogue, "Germany", "Opel Blitz Truck")
    assert (truck.unit_type, truck.transport_capacity) == ("transport", 12)
    assert {"Open Topped", "Transport", "Tow", "Wheeled"} <= set(truck.special_rules)
    kubel = unit(catalogue, "Germany", "Kubelwagen")
    assert kubel.unit_type == "vehicle_soft"


def test_equipment_gives_weapons_with_their_mounts_and_arcs(catalogue):
    tank = unit(catalogue, "Germany", "Panzer IV Ausf H Medium Tank")
    assert [(line.weapon, line.mount, line.arc) for line in tank.weapon_lines] == [
        ("Heavy AT Gun", "turret", "360"),
        ("MMG", "coaxial", "360"),
        ("MMG", "hull", "front"),
    ]
    assert tank.weapons == ["Heavy AT Gun", "MMG"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Turret Mounted Light Howitzer", ("Light Howitzer", "turret", "360", 1)),
        ("Hull Mounted MMG", ("MMG", "hull", "front", 1)),
        ("Pintle Mounted MMG", ("MMG", "pintle", "", 1)),
        ("Casement Medium Howitzer", ("Medium Howitzer", "casemate", "front", 1)),
        ("Hull Mounted F|L Flamethrower (Vehicle)", ("Flamethrower (Vehicle)", "hull", "left", 1)),
        ("Rear Mounted MMGs", ("MMG", "", "rear", 1)),
        ("Twin HMG", ("HMG", "", "", 2)),
        ("SMGs", ("SMG", "", "", 1)),
        ("Turret Mounted Rear Facing MMG", ("MMG", "turret", "rear", 1)),
        ("Hull Mounted Left Facing Infantry Flamethrower", ("Flamethrower", "hull", "left", 1)),
        ("Rear Facing Hull Mounted Twin Medium Mortars", ("Medium Mortar", "hull", "rear", 2)),
        ("Hull Mounted Medium Howitzer Gun", ("Medium Howitzer", "hull", "front", 1)),
        ("Turret Mounted MMG, F|R", ("MMG", "turret", "right", 1)),
        ("Turret Mounted Low Velocity Light AT Gun", ("Light AT Gun", "turret", "360", 1)),
    ],
)
def test_equipment_strings(text, expected):
    line = equipment_line(text)
    assert (line.weapon, line.mount, line.arc, line.count) == expected


@pytest.mark.parametrize("text", ["Gun Shield", "Ivory Handle Pistol Pair", "Command Vehicle", "Light Shell"])
def test_equipment_that_is_no_weapon_gives_no_line(text):
    assert equipment_line(text) is None


def test_a_unit_of_several_weapon_strings_and_repeat_marks_has_a_line_for_each(catalogue):
    barge = unit(catalogue, "Germany", "Landing Barge")
    assert [(line.weapon, line.mount, line.count, line.arc) for line in barge.weapon_lines] == [
        ("MMG", "turret", 2, "360"),  # "Turret Mounted MMG", "x2"
        ("MMG", "turret", 1, "right"),  # "..., F|R; ..., F|L": one string, two mounts
        ("MMG", "turret", 1, "left"),
        ("Medium Mortar", "hull", 2, "rear"),
        ("Medium Howitzer", "hull", 1, "front"),
    ]


def test_a_unit_unlocked_by_another_unit_is_imported_and_the_report_says_it_is_not_checked(catalogue):
    assert unit(catalogue, "Germany", "Landing Barge").base_cost == {"regular": 80}
    assert any("once the list holds another unit" in w for w in catalogue.report.warnings)


def test_the_transport_capacity_is_read_from_the_units_text(catalogue):
    barge = unit(catalogue, "Germany", "Landing Barge")
    assert (barge.unit_type, barge.transport_capacity) == ("transport", 36)


def test_infantry_with_no_small_arms_listed_get_rifles_and_the_report_says_so(catalogue):
    assert unit(catalogue, "Germany", "Heer Rifle Squad").weapons == ["Rifle"]
    assert any("given rifles" in w for w in catalogue.report.warnings)


def test_order_dice_period_and_flags(catalogue):
    assert unit(catalogue, "Germany", "Attached Observer").order_dice == 0
    assert unit(catalogue, "Germany", "Heer Rifle Squad").order_dice == 1
    assert unit(catalogue, "Germany", "Panzer IV Ausf H Medium Tank").periods == "ML"
    assert unit(catalogue, "Germany", "Captain Wolf").periods == "L"
    assert unit(catalogue, "Germany", "Captain Wolf").flags == ["campaign"]
    assert unit(catalogue, "Soviet Union", "Guards Squad").flags == ["experimental"]
    assert unit(catalogue, "Ireland", "Volunteer Section").flags == ["campaign"]  # the nation is campaign
    assert unit(catalogue, "Germany", "Heer Rifle Squad").flags == []


def test_slots_come_from_names_and_platoons(catalogue):
    commander = unit(catalogue, "Germany", "Platoon Commander")
    assert (commander.slot, commander.officer_rank) == ("officer", "platoon_commander")
    assert unit(catalogue, "Germany", "MMG Team").slot == "machine_gun"
    assert unit(catalogue, "Germany", "Captain Wolf").slot == "officer"


# refused files


def _module(**changes) -> bytes:
    data = json.loads(MODULE.read_bytes())
    data["data"].update(changes)
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"game": "Bolt Action", "data": {"factions": [', "TTAMBA-Broken is not valid JSON"),
        (_module(units={"not": "a list"}), "TTAMBA-Broken: data.units is not a list"),
        (_module(factions=[{"name": "Germany"}, {}]), "TTAMBA-Broken: data.factions[1] has no name"),
        (_module(factions=[]), "TTAMBA-Broken: data.factions is not a list of nations"),
    ],
)
def test_a_malformed_module_is_refused_naming_the_file_and_the_problem(data, message):
    with pytest.raises(CatalogueImportError) as refused:
        parse_module({"TTAMBA-Broken": data})
    assert message in refused.value.message


def test_a_unit_with_a_price_that_is_no_number_is_skipped_with_the_reason():
    data = json.loads(MODULE.read_bytes())
    squad = next(u for u in data["data"]["units"] if u["name"] == "MMG Team")
    squad["options"][0]["points"] = "lots"
    catalogue = parse_module({"TTAMBA-Test": json.dumps(data).encode()})
    assert all(u.name != "MMG Team" for u in army(catalogue, "Germany").units)
    assert any("'lots', not a whole number" in reason for _entry, reason in catalogue.report.skipped)


def test_hostile_values_anywhere_in_the_file_give_a_clear_refusal_or_a_skip_never_a_crash():
    """Each value of the test file replaced by an odd one (a bool, a huge number, a list...), 300 times."""
    base = json.loads(MODULE.read_bytes())
    odd = [None, True, -5, 10**12, 2.5, "x", "", [], {}, [1, {"a": 2}], {"all": 3}, "Damage Value: 999+"]

    def paths(node, path=()):
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in children:
            yield (*path, key)
            yield from paths(value, (*path, key))

    every = list(paths(base))
    rng = random.Random(32)
    for _ in range(300):
        data = copy.deepcopy(base)
        path = rng.choice(every)
        holder = data
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = rng.choice(odd)
        try:
            read = parse_module({"TTAMBA-Test": json.dumps(data).encode()})
        except CatalogueImportError as refused:
            assert refused.message.startswith("TTAMBA-Test")  # the refusal names the file
        else:
            assert all(unit.base_cost for army in read.armies for unit in army.units)


def test_options_unavailable_with_each_other_exclude_each_other(catalogue):
    squad = unit(catalogue, "Germany", "Heer Rifle Squad")
    assert option(squad, "LMG").excludes == ["Automatic Rifle"]
    assert option(squad, "Automatic Rifle").excludes == ["LMG"]


def test_a_one_of_choice_among_per_man_swaps_keeps_the_mens_group_and_excludes_each_other(catalogue):
    squad = unit(catalogue, "Germany", "Heer Rifle Squad")
    nco, sword = option(squad, "NCO SMG"), option(squad, "NCO Sword and SMG")
    assert (nco.group, sword.group) == ("gun", "gun")
    assert nco.excludes == ["NCO Sword and SMG"]
    assert sword.excludes == ["NCO SMG"]
