"""The four rules corrections through the JSON API and the shooting page (vectors worked by hand in
tests/rules/combat/test_corrections.py), plus range bands and starting strength at the edge."""

from __future__ import annotations

import json

import pytest

from armybuilder.resolver.adapters import to_rules_weapon

pytestmark = pytest.mark.django_db


def post(client, body, url="/api/resolve/shooting/"):
    return client.post(url, data=json.dumps(body), content_type="application/json")


def body(edition, groups, target, order="fire"):
    return {"edition": edition, "order": order, "firer": {"quality": "regular"}, "groups": groups, "target": target}


def test_the_adapter_marks_the_vehicle_flamethrower_as_vehicle_mounted(charts):
    assert to_rules_weapon(charts["v3"]["vehicle-flamethrower"]).vehicle_mounted
    assert not to_rules_weapon(charts["v3"]["flamethrower"]).vehicle_mounted
    assert to_rules_weapon(charts["v3"]["medium-at-gun"]).anti_tank_gun


def test_a_vehicle_flamethrower_scores_d6_plus_one_hits_on_the_api(client, charts):
    # 3e point blank 2+ (5/6); hits D6+1: E = 5/6 * 9/2 = 15/4; Pen +2 at DV 4: 2+ (5/6): E[cas] = 25/8.
    data = post(
        client,
        body(
            "v3",
            [{"weapon": "vehicle-flamethrower", "models": 1, "range": "point_blank"}],
            {"kind": "infantry", "models": 10},
        ),
    ).json()
    assert data["hits"]["mean"] == "15/4"
    assert data["hits"]["pmf"]["7"] == "5/36"
    assert data["casualties"]["mean"] == "25/8"


def test_an_anti_tank_gun_is_plus_one_to_hit_a_vehicle_on_the_api(client, charts):
    # 3e: 4+ base, +1 -> 3+; P(KO) = 2/3 * 29/144 = 29/216 (see the engine vector).
    data = post(
        client,
        body(
            "v3",
            [{"weapon": "medium-at-gun", "models": 1, "ammo": "ap"}],
            {"kind": "armoured", "damage_value": 9},
        ),
    ).json()
    assert data["need_to_hit"][0]["need"] == 3
    assert ["Anti-tank gun", 1] in data["need_to_hit"][0]["modifiers"]
    assert data["vehicle"]["p_knocked_out"] == "29/216"


def test_two_hits_from_one_unit_pin_a_tank_once_on_the_api(client, charts):
    data = post(
        client,
        body("v2", [{"weapon": "anti-tank-rifle", "models": 2}], {"kind": "armoured", "damage_value": 8}),
    ).json()
    assert data["pins"]["mean"] == "11659/11664"
    assert data["vehicle"]["p_knocked_out"] == "6661/419904"


def test_two_templates_on_a_down_unit_of_two_give_one_hit_on_the_api(client, charts):
    data = post(
        client,
        body(
            "v3",
            [{"weapon": "light-autocannon", "models": 1, "models_under_template": 2}],
            {"kind": "infantry", "models": 2, "down": True},
        ),
    ).json()
    assert data["hits"]["pmf"] == {"0": "1/4", "1": "3/4"}
    assert data["casualties"]["mean"] == "1/3"


@pytest.mark.parametrize(
    ("weapon", "band"),
    [("flamethrower", "normal"), ("flamethrower", "long"), ("panzerfaust", "normal"), ("smg", "normal")],
)
def test_a_band_the_weapon_cannot_reach_is_a_400_naming_the_field(client, charts, weapon, band):
    response = post(
        client,
        body(
            "v2",
            [{"weapon": "rifle", "models": 5}, {"weapon": weapon, "models": 1, "range": band}],
            {"kind": "infantry", "models": 10},
        ),
    )
    assert response.status_code == 400
    assert response.json()["field"] == "groups[1].range"
    assert "cannot fire at" in response.json()["error"]


def test_a_missing_range_defaults_to_a_band_the_weapon_has(client, charts):
    flamer = post(client, body("v3", [{"weapon": "flamethrower", "models": 1}], {"kind": "infantry", "models": 10}))
    assert flamer.status_code == 200
    assert ["Point blank", 2] in flamer.json()["need_to_hit"][0]["modifiers"]
    at = post(
        client,
        {"edition": "v2", "weapon": "panzerfaust", "range": "normal", "target": {"damage_value": 9}},
        "/api/resolve/anti-tank/",
    )
    assert at.status_code == 400 and at.json()["field"] == "range"


def test_starting_models_drive_the_half_strength_check(client, charts):
    # 2e, 10 rifles (r = 1/3) at 6 Regulars of 10: a check on 1 to 5 casualties = 53504/59049.
    target = {"kind": "infantry", "models": 6, "starting_models": 10, "cover": "none"}
    data = post(client, body("v2", [{"weapon": "rifle", "models": 10, "range": "normal"}], target)).json()
    assert data["morale"]["p_check"] == "53504/59049"
    del target["starting_models"]
    data = post(client, body("v2", [{"weapon": "rifle", "models": 10, "range": "normal"}], target)).json()
    assert data["morale"]["p_check"] == "4096/6561"  # 36864/59049 reduced
    target["starting_models"] = 5
    response = post(client, body("v2", [{"weapon": "rifle", "models": 10, "range": "normal"}], target))
    assert response.status_code == 400 and response.json()["field"] == "target.starting_models"


def test_the_shooting_page_shows_the_vehicle_flamethrower_odds(client, charts):
    url = (
        "/calc/shooting/?edition=v3&order=fire&firer_quality=regular&firer_pins=0"
        "&g0-weapon=vehicle-flamethrower&g0-models=1&g0-range=point_blank"
        "&target_kind=infantry&target_quality=regular&target_models=10&cover=none&facing=front"
    )
    content = client.get(url).content.decode()
    assert 'title="25/8"' in content  # casualties (average), exact
    assert 'title="15/4"' in content  # hits (average)
    assert "D6+1 hits when it hits" in content


def test_the_shooting_page_shows_the_anti_tank_gun_bonus(client, charts):
    url = (
        "/calc/shooting/?edition=v3&order=fire&firer_quality=regular&firer_pins=0"
        "&g0-weapon=medium-at-gun&g0-models=1&g0-range=normal&g0-ammo=ap"
        "&target_kind=armoured&target_quality=regular&target_models=1&damage_value=9&cover=none&facing=front"
    )
    content = client.get(url).content.decode()
    assert "Anti-tank gun" in content
    assert 'title="29/216"' in content  # knocked out, exact


def test_the_shooting_page_refuses_a_flamethrower_beyond_point_blank_next_to_the_field(client, charts):
    url = (
        "/calc/shooting/?edition=v3&g0-weapon=flamethrower&g0-models=1&g0-range=long"
        "&target_kind=infantry&target_models=10"
    )
    content = client.get(url).content.decode()
    assert 'id="id_g0-range_error"' in content
    assert "Only point blank for this weapon." in content
    assert 'data-no-long="1"' in content  # the stylesheet hides the impossible bands


def test_the_shooting_page_takes_the_starting_strength(client, charts):
    url = (
        "/calc/shooting/?edition=v2&g0-weapon=rifle&g0-models=10&g0-range=normal"
        "&target_kind=infantry&target_quality=regular&target_models=6&target_starting=10&cover=none"
    )
    assert 'title="53504/59049"' in client.get(url).content.decode()
    bad = client.get(url.replace("target_starting=10", "target_starting=4")).content.decode()
    assert "At least the 6 models it has now." in bad


def test_the_anti_tank_page_starts_from_a_band_its_weapon_has_and_refuses_another(client, charts):
    assert 'class="errorlist"' not in client.get("/calc/anti-tank/?edition=v3").content.decode()
    url = "/calc/anti-tank/?edition=v3&weapon=panzerfaust&shots=1&range=normal&damage_value=9&facing=front"
    content = client.get(url).content.decode()
    assert 'id="id_range_error"' in content
    assert "Only point blank, long for this weapon." in content
