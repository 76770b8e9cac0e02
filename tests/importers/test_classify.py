"""The classifier both importers share: categories first, then the name; characters and settings apart."""

from __future__ import annotations

import pytest

from armydata.classify import classify, is_setting, weapon_mount
from armydata.unit_kinds import damage_text, kinds_named, transport_text


@pytest.mark.parametrize(
    ("categories", "name", "expected"),
    [
        (["Infantry Squad", "National Character"], "Commissar", ("headquarters", "character")),
        (["Headquarters", "infantry"], "Chaplain", ("headquarters", "character")),
        (["Infantry Squads and Teams", "infantry"], "Politruk", ("headquarters", "character")),
        (["Headquarters", "infantry"], "Second Lieutenant", ("headquarters", "officer")),
        (["Headquarters", "infantry"], "Medic", ("headquarters", "medic")),
        (["Headquarters", "infantry"], "Artillery Forward Observer", ("headquarters", "forward_observer")),
        (["Infantry Squads and Teams", "infantry"], "Rifle Section", ("infantry", "infantry")),
        (["Infantry Squads and Teams", "infantry"], "Sniper Team", ("team", "sniper")),
        (["Infantry Squads and Teams", "infantry"], "Light Mortar Team", ("team", "light_mortar")),
        (["Infantry Squads and Teams", "infantry"], "Medium Mortar Team", ("team", "mortar")),
        (["Infantry Squads and Teams", "infantry"], "PIAT Team", ("team", "anti_tank")),
        (["Anti-Tank Guns", "artillery"], "6 pdr", ("artillery", "anti_tank_gun")),
        (["Platoon Commander"], "Lieutenant", ("headquarters", "officer")),
        (["Machine Gun Team"], "MG 42 Team", ("team", "machine_gun")),
        (["Infantry Squad"], "Grenadier Squad", ("infantry", "infantry")),
    ],
)
def test_it_classifies_from_categories_then_name(categories, name, expected):
    result = classify(categories, name)
    assert (result.unit_type, result.slot) == expected


@pytest.mark.parametrize(
    ("categories", "damage", "transport", "expected"),
    [
        (["Tanks", "vehicles"], "8+", None, ("vehicle_armoured", "tank")),
        (["Armoured Cars", "vehicles"], "7+", None, ("vehicle_armoured", "armoured_car")),
        (["Transports and Tows", "vehicles"], "6+", "12", ("transport", "transport")),
        (["Tanks"], "6+ (soft skin)", None, ("vehicle_soft", "tank")),
        ([], "7+", "10", ("transport", "transport")),
    ],
)
def test_it_classifies_vehicles_by_category_and_damage_value(categories, damage, transport, expected):
    result = classify(categories, "Vehicle", damage=damage, transport=transport)
    assert (result.unit_type, result.slot) == expected


def test_an_officer_rank_comes_from_the_name():
    assert classify(["Headquarters"], "Captain (Kaptein)").officer_rank == "captain"


def test_nothing_to_go_on_is_a_guess():
    assert classify([], "Something").guessed


@pytest.mark.parametrize("name", ["Configuration", "Game Options", "roster settings", "Army Configuration"])
def test_roster_settings_are_recognised(name):
    assert is_setting(name)


@pytest.mark.parametrize("name", ["Rifle Squad", "Configuration Squad", "Commando"])
def test_units_are_not_settings(name):
    assert not is_setting(name)


@pytest.mark.parametrize(
    ("categories", "name", "damage", "expected"),
    [
        (["Self-Propelled Artillery", "vehicles"], "M7 Priest", "8+", ("vehicle_armoured", "tank")),
        (["Headquarters", "infantry"], "Field Ambulance", "6+", ("vehicle_soft", "other")),
        (["Infantry Squads and Teams", "infantry"], "Light Machine Gun Squad", None, ("infantry", "infantry")),
        (["Infantry Squads and Teams", "infantry"], "Guastatori Destruction Group", None, ("infantry", "infantry")),
    ],
)
def test_names_that_look_like_something_else_are_classified_by_what_they_are(categories, name, damage, expected):
    result = classify(categories, name, damage=damage)
    assert (result.unit_type, result.slot) == expected


@pytest.mark.parametrize(
    ("name", "rank"),
    [
        ("First (Senior) Lieutenant", "first_lieutenant"),
        ("Second (Rikugun Shoi) Lieutenant", "second_lieutenant"),
        ("Løytnant (First Lieutenant)", "first_lieutenant"),
        ("Lieutenant", "second_lieutenant"),
        ("Major (Major)", "major"),
    ],
)
def test_officer_ranks_read_through_bracketed_local_ranks(name, rank):
    assert classify(["Headquarters"], name).officer_rank == rank


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Turret-mounted medium AT gun", ("turret", "", False)),
        ("Turret-mounted medium AT gun and co-axial MMG", ("turret", "", True)),
        ("Co-axial MMG", ("coaxial", "", True)),
        ("Hull-mounted forward facing MMG", ("hull", "front", False)),
        ("Pintle-mounted MMG (360°)", ("pintle", "360", False)),
        ("Pintle-mounted MMG (Rear Arc)", ("pintle", "rear", False)),
        ("Platform-mounted light autocannon with 360° arc of fire", ("platform", "360", False)),
        ("Rifle", ("", "", False)),
    ],
)
def test_a_weapon_entrys_name_gives_its_mount_and_arc(name, expected):
    assert weapon_mount(name) == expected


@pytest.mark.parametrize(
    ("text", "damage", "transport"),
    [
        ("10+ (heavy tank)", "10+ (heavy tank)", None),
        ("6+ (soft-skin) Transport up to 3 men Tow Light howitzer", "6+ (soft-skin)", "3"),
        ("7+ (armoured carrier) Transport Up to 12 men Tow Any howitzer", "7+ (armoured carrier)", "12"),
        ("3+ (literally soft-skinned) Tow Any gun or howitzer", "3+ (literally soft-skinned)", None),
        ("Damage Value: 9+", "9+", None),
        ("Damage Value:9+", "9+", None),
        ("1 NCO and 4 men; add up to 5 men", None, None),
        ("2-man team", None, None),
        ("Pen +2", None, None),
        ("99+ (fortress)", None, None),
    ],
)
def test_a_type_text_states_a_damage_value_and_the_men_carried(text, damage, transport):
    assert (damage_text(text), transport_text(text)) == (damage, transport)


def test_an_armoured_carrier_is_not_an_armoured_car():
    assert kinds_named(["7+ (armoured carrier) Transport Up to 12 men"]) == ["Transport"]
    assert kinds_named(["Heavy armoured car"]) == ["Armoured car"]


@pytest.mark.parametrize(
    ("categories", "damage", "transport", "expected"),
    [
        (["Armour"], "6+ (soft-skin)", None, ("vehicle_soft", "tank")),
        (["Armour"], "10+ (heavy tank)", None, ("vehicle_armoured", "tank")),
        (["Artillery"], "7+ (armoured carrier)", "12", ("transport", "transport")),
        (["Artillery"], "7+", None, ("artillery", "artillery")),
        ([], "6+ (soft-skin)", None, ("vehicle_soft", "tank")),
    ],
)
def test_a_damage_value_and_the_men_carried_decide_the_vehicle_kind(categories, damage, transport, expected):
    result = classify(categories, "Vehicle", damage=damage, transport=transport)
    assert (result.unit_type, result.slot) == expected


@pytest.mark.parametrize(
    ("categories", "name", "kind"),
    [
        # The Soviet 3rd-edition data files squads under both; the squad category decides.
        (["Infantry Squads", "Machine Gun Team"], "Guard Squad", ("infantry", "infantry")),
        (["Infantry Squads", "Machine Gun Team"], "Submachine Gun Squad", ("infantry", "infantry")),
        (["Engineer Squad"], "Sapper Squad", ("infantry", "infantry")),
        # A team filed first under its own category stays a team; "Squads and Teams" only narrows.
        (["Machine Gun Team", "Infantry Squads"], "Maxim MMG Team", ("team", "machine_gun")),
        (["Infantry Squads and Teams"], "Sniper team", ("team", "sniper")),
    ],
)
def test_a_category_naming_squads_makes_a_squad(categories, name, kind):
    result = classify(categories, name)
    assert (result.unit_type, result.slot) == kind


def test_the_datas_commisar_spelling_is_a_national_character():
    result = classify(["Headquarters Units"], "Commisar")
    assert (result.unit_type, result.slot, result.character) == ("headquarters", "character", True)
