"""The catalogue API: /api/editions/<edition>/armies/ and .../armies/<army>/units/."""

from __future__ import annotations

import pytest

from tests.catalogue.factories import (
    make_army,
    make_edition,
    make_option,
    make_special_rule,
    make_unit,
    make_weapon,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def v2():
    return make_edition("v2")


@pytest.fixture
def generic(v2):
    return make_army(v2, slug="generic", name="Generic", theatre_selectors=["Normandy"])


def test_it_lists_an_editions_armies(client, v2, generic):
    generic.national_rules.add(make_special_rule(v2, "fire-and-maneuver", name="Fire and Maneuver"))
    response = client.get("/api/editions/v2/armies/")
    assert response.status_code == 200
    assert response.json() == [
        {
            "edition": "v2",
            "slug": "generic",
            "name": "Generic",
            "name_fr": "",
            "description": "",
            "national_rules": ["Fire and Maneuver"],
            "theatre_selectors": ["Normandy"],
            "origin": "builtin",
            "source": "test",
            "units_url": "/api/editions/v2/armies/generic/units/",
        }
    ]


def test_it_leaves_out_hidden_armies_and_other_editions(client, v2, generic):
    make_army(v2, slug="secret", hidden=True)
    make_army(make_edition("v3"), slug="third")
    assert [army["slug"] for army in client.get("/api/editions/v2/armies/").json()] == ["generic"]


def test_it_answers_404_json_for_an_unknown_edition(client):
    response = client.get("/api/editions/v9/armies/")
    assert (response.status_code, response.json()) == (404, {"error": "Unknown edition 'v9'."})


def test_it_answers_404_json_for_an_unknown_army(client, v2):
    response = client.get("/api/editions/v2/armies/nowhere/units/")
    assert (response.status_code, response.json()) == (404, {"error": "Edition 'v2' has no army 'nowhere'."})


def test_it_answers_404_json_for_the_units_of_an_unknown_edition(client):
    assert client.get("/api/editions/v9/armies/generic/units/").status_code == 404


def test_it_only_answers_get(client, v2, generic):
    assert client.post("/api/editions/v2/armies/").status_code == 405


def test_it_describes_a_unit_with_its_costs_weapons_rules_and_options(client, v2, generic):
    rifle, smg = make_weapon(v2, "rifle"), make_weapon(v2, "smg", name="SMG")
    unit = make_unit(
        generic,
        slug="veteran-squad",
        name="Veteran squad",
        cost_veteran=78,
        cost_regular=None,
        per_model_veteran=13,
        base_models=6,
        max_models=12,
    )
    unit.weapons.add(rifle)
    unit.special_rules.add(make_special_rule(v2, "tough-fighters", name="Tough Fighters"))
    make_option(
        unit, slug="nco-smg", name="NCO SMG", cost_veteran=3, group="nco", grants_weapon=smg, replaces_weapon=rifle
    )
    [item] = client.get("/api/editions/v2/armies/generic/units/").json()
    assert (item["cost"], item["per_model_cost"], item["min_models"], item["max_models"]) == (
        {"veteran": 78},
        {"veteran": 13},
        6,
        12,
    )
    assert item["weapon_lines"] == []
    assert (item["weapons"], item["special_rules"]) == (
        [{"slug": "rifle", "name": "Rifle"}],
        [{"slug": "tough-fighters", "name": "Tough Fighters"}],
    )
    assert item["options"] == [
        {
            "slug": "nco-smg",
            "name": "NCO SMG",
            "name_fr": "",
            "per_model": False,
            "all_models": False,
            "cost": {"veteran": 3},
            "max_count": None,
            "group": "nco",
            "excludes": [],
            "adds_models": 0,
            "free_unit": False,
            "free_per_list": None,
            "grants_weapon": {"slug": "smg", "name": "SMG"},
            "replaces_weapon": {"slug": "rifle", "name": "Rifle"},
        }
    ]
    assert item["option_groups"] == []


def test_it_describes_teams_free_units_groups_and_options_offered_at_some_qualities(client, v2, generic):
    unit = make_unit(
        generic,
        slug="panzer",
        name="Panzer",
        cost_regular=0,
        cost_veteran=0,
        option_groups=[{"key": "variant", "label": "Variant", "minimum": 1, "maximum": 1, "per_model": False}],
    )
    make_option(unit, slug="ausf-a", name="Ausf. A", group="variant", cost_regular=120, cost_veteran=None, position=1)
    make_option(unit, slug="lmg-team", name="LMG team", adds_models=2, cost_regular=20, cost_veteran=26, position=2)
    make_option(
        unit, slug="free", name="Free Unit", free_unit=True, free_per_list=1, cost_regular=0, cost_veteran=0, position=3
    )
    [item] = client.get("/api/editions/v2/armies/generic/units/").json()
    assert item["option_groups"] == [
        {"key": "variant", "label": "Variant", "minimum": 1, "maximum": 1, "per_model": False}
    ]
    variant, team, free = item["options"]
    assert (variant["cost"], variant["group"]) == ({"regular": 120}, "variant")
    assert (team["adds_models"], team["cost"]) == (2, {"regular": 20, "veteran": 26})
    assert (free["free_unit"], free["free_per_list"]) == (True, 1)


def test_it_gives_the_armament_in_both_languages_whatever_the_visitors_language(client, v2, generic):
    make_unit(generic, weapons_text="Rifles", weapons_text_fr="Fusils")
    client.cookies["django_language"] = "fr"
    [item] = client.get("/api/editions/v2/armies/generic/units/").json()
    assert (item["weapons_text"], item["weapons_text_fr"]) == ("Rifles", "Fusils")


def test_it_gives_a_vehicles_damage_value_and_a_transports_capacity(client, v2, generic):
    make_unit(generic, unit_type="transport", slot="transport", damage_value=6, transport_capacity=12)
    [item] = client.get("/api/editions/v2/armies/generic/units/").json()
    assert (item["unit_type"], item["slot"], item["damage_value"], item["transport_capacity"]) == (
        "transport",
        "transport",
        6,
        12,
    )


def test_it_gives_an_officer_the_effects_of_his_rank_in_the_edition(client, v2, generic):
    make_unit(generic, unit_type="headquarters", slot="company_commander", officer_rank="captain")
    officer = client.get("/api/editions/v2/armies/generic/units/").json()[0]["officer"]
    assert (officer["label"], officer["effects"]["morale_bonus"], officer["effects"]["command_range"]) == (
        "Captain",
        3,
        12,
    )


def test_it_gives_the_3rd_edition_officer_effects_as_confirmed(client):
    # rules-notes §13 (Nov 2026) confirms the 3rd-edition officers: no "unverified" flag.
    army = make_army(make_edition("v3"), slug="generic")
    make_unit(army, unit_type="headquarters", slot="officer", officer_rank="platoon_commander")
    effects = client.get("/api/editions/v3/armies/generic/units/").json()[0]["officer"]["effects"]
    assert (effects["morale_bonus"], effects["extra_orders"], effects["unverified"]) == (2, 2, False)


def test_it_reports_a_rank_the_edition_does_not_have(client, v2, generic):
    make_unit(generic, unit_type="headquarters", slot="officer", officer_rank="platoon_commander")
    officer = client.get("/api/editions/v2/armies/generic/units/").json()[0]["officer"]
    assert officer["effects"] is None
    assert "not a 2nd-edition rank" in officer["error"]


def test_it_gives_no_officer_block_to_other_units(client, v2, generic):
    make_unit(generic)
    assert client.get("/api/editions/v2/armies/generic/units/").json()[0]["officer"] is None


def test_it_leaves_out_hidden_and_removed_units(client, v2, generic):
    make_unit(generic, slug="kept")
    make_unit(generic, slug="hidden", hidden=True)
    make_unit(generic, slug="removed", removed=True)
    assert [u["slug"] for u in client.get("/api/editions/v2/armies/generic/units/").json()] == ["kept"]


def _fill(army, edition, units):
    rifle, smg = make_weapon(edition, "rifle"), make_weapon(edition, "smg")
    rule = make_special_rule(edition, "team")
    for _ in range(units):
        unit = make_unit(army)
        unit.weapons.add(rifle)
        unit.special_rules.add(rule)
        make_option(unit, grants_weapon=smg, replaces_weapon=rifle)
        make_option(unit)


@pytest.mark.parametrize("units", [2, 10])
def test_it_lists_units_in_a_constant_number_of_queries(client, django_assert_num_queries, v2, generic, units):
    _fill(generic, v2, units)
    # The edition, the army, its units, their options, weapons and special rules, the edition's weapons.
    with django_assert_num_queries(7):
        response = client.get("/api/editions/v2/armies/generic/units/")
    assert len(response.json()) == units


@pytest.mark.parametrize("armies", [2, 10])
def test_it_lists_armies_in_a_constant_number_of_queries(client, django_assert_num_queries, v2, armies):
    rule = make_special_rule(v2, "national")
    for _ in range(armies):
        make_army(v2).national_rules.add(rule)
    # The edition, its armies, their national rules.
    with django_assert_num_queries(3):
        response = client.get("/api/editions/v2/armies/")
    assert len(response.json()) == armies
