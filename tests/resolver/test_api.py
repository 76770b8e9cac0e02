"""The calculator's JSON API: exact values against resolver-spec vectors, and every kind of bad input."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

pytestmark = pytest.mark.django_db


def post(client, url, body):
    return client.post(url, data=json.dumps(body), content_type="application/json")


def shooting_body(**overrides):
    body = {
        "edition": "v2",
        "order": "fire",
        "firer": {"quality": "regular", "pins": 0},
        "groups": [{"weapon": "rifle", "models": 10, "range": "long"}],
        "target": {"kind": "infantry", "quality": "regular", "models": 10, "cover": "soft", "down": False},
    }
    body.update(overrides)
    return body


def test_it_pins_with_the_v02_probability(client, charts):
    data = post(client, "/api/resolve/shooting/", shooting_body()).json()
    assert data["p_pin"] == "58025/59049"


def test_it_returns_the_v02_casualties(client, charts):
    data = post(client, "/api/resolve/shooting/", shooting_body()).json()
    assert data["casualties"]["mean"] == "5/3"
    assert data["casualties"]["pmf"]["0"] == "9765625/60466176"
    assert data["hits"]["mean"] == "10/3"


def test_it_reports_the_need_to_hit_per_group(client, charts):
    data = post(client, "/api/resolve/shooting/", shooting_body()).json()
    assert data["need_to_hit"][0]["need"] == 5
    assert data["need_to_hit"][0]["modifiers"] == [["Long range", -1], ["Soft cover", -1]]


def test_it_raises_the_pin_rate_in_v3(client, charts):
    data = post(client, "/api/resolve/shooting/", shooting_body(edition="v3")).json()
    assert data["p_pin"] == "1023/1024"
    assert data["casualties"]["mean"] == "5/3"


def test_it_caps_mixed_groups_at_the_target_size(client, charts):
    body = shooting_body(
        groups=[
            {"weapon": "rifle", "models": 7, "range": "normal"},
            {"weapon": "lmg", "models": 1, "range": "normal"},
        ],
        target={"kind": "infantry", "quality": "inexperienced", "models": 8, "cover": "none"},
    )
    data = post(client, "/api/resolve/shooting/", body).json()
    assert data["casualties"]["mean"] == "1888026412/387420489"
    assert data["p_pin"] == "177146/177147"


def test_it_knocks_out_a_medium_tank_with_the_v21_chance(client, charts):
    body = shooting_body(
        groups=[{"weapon": "panzerfaust", "models": 1, "range": "long"}],
        target={"kind": "armoured", "quality": "regular", "damage_value": 9, "facing": "front"},
    )
    data = post(client, "/api/resolve/shooting/", body).json()
    assert data["vehicle"]["p_knocked_out"] == "10693/62208"
    assert data["vehicle"]["categories"] == {"none": "2/3", "superficial": "1/12", "full": "1/6", "massive": "1/12"}


def test_it_gives_a_soft_skin_its_destruction_chance(client, charts):
    body = shooting_body(
        groups=[{"weapon": "rifle", "models": 1, "range": "normal"}],
        target={"kind": "soft_skin", "quality": "regular"},
    )
    data = post(client, "/api/resolve/shooting/", body).json()
    assert data["p_destroyed"] == "1/9"  # 3+ to hit, then a 6 to damage


def test_it_resolves_anti_tank_shots_with_the_v22_chance(client, charts):
    body = {
        "edition": "v3",
        "weapon": "panzerfaust",
        "shots": 1,
        "range": "point_blank",
        "target": {"damage_value": 9, "facing": "front"},
    }
    data = post(client, "/api/resolve/anti-tank/", body).json()
    assert data["p_knocked_out"] == "53465/186624"


def test_it_resolves_the_v15_order_test(client, charts):
    body = {"edition": "v2", "quality": "regular", "pins": 3, "officer_bonus": 1, "modifier": 0}
    data = post(client, "/api/resolve/order-test/", body).json()
    assert (data["morale"], data["p_pass"], data["p_fubar"]) == (7, "7/12", "1/36")
    assert data["p_fail"] == "5/12"


def test_it_clamps_the_order_test_morale(client, charts):
    body = {"edition": "v2", "quality": "veteran", "pins": 0, "officer_bonus": 4, "modifier": 3}
    data = post(client, "/api/resolve/order-test/", body).json()
    assert data["morale"] == 10
    assert "morale_cap" in data["unverified"]


def test_it_resolves_the_v28_close_quarters(client, charts):
    body = {
        "edition": "v3",
        "attacker": {"models": 10, "quality": "regular", "tough_fighters": False},
        "defender": {"models": 6, "quality": "regular", "tough_fighters": False, "defensive_position": False},
    }
    data = post(client, "/api/resolve/close-quarters/", body).json()
    assert data["p_attacker_wins"] == "72004385583047/80912084100705"
    assert data["p_defender_wins"] == "8907698517658/80912084100705"
    assert data["p_both_destroyed"] == "0"


def test_it_strikes_first_as_the_v2_attacker(client, charts):
    body = {"edition": "v2", "attacker": {"models": 10, "quality": "regular"}, "defender": {"models": 6}}
    data = post(client, "/api/resolve/close-quarters/", body).json()
    assert data["p_attacker_wins"] == "36196195992342212621/37118580405366620160"
    assert "expected_rounds" in data


@pytest.mark.parametrize(
    "url",
    ["/api/resolve/shooting/", "/api/resolve/anti-tank/", "/api/resolve/order-test/", "/api/resolve/close-quarters/"],
)
def test_it_only_allows_post(client, charts, url):
    response = client.get(url)
    assert response.status_code == 405
    assert response["Allow"] == "POST"


def test_it_needs_no_csrf_token(charts):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = post(strict, "/api/resolve/order-test/", {"edition": "v2", "quality": "regular", "pins": 1})
    assert response.status_code == 200


def test_it_rejects_malformed_json(client, charts):
    response = client.post("/api/resolve/shooting/", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "body"


def test_it_rejects_a_body_that_is_not_an_object(client, charts):
    response = post(client, "/api/resolve/shooting/", [1, 2])
    assert response.status_code == 400
    assert response.json()["field"] == "body"


SHOOTING_400 = [
    ({"edition": "v9"}, "edition"),
    ({"edition": 2}, "edition"),
    ({"order": "charge"}, "order"),
    ({"firer": {"quality": "elite"}}, "firer.quality"),
    ({"firer": {"pins": "2"}}, "firer.pins"),
    ({"groups": []}, "groups"),
    ({"groups": "rifle"}, "groups"),
    ({"groups": [{"weapon": "laser", "models": 1}]}, "groups[0].weapon"),
    ({"groups": [{"weapon": 7, "models": 1}]}, "groups[0].weapon"),
    ({"groups": [{"weapon": "rifle", "models": -1}]}, "groups[0].models"),
    ({"groups": [{"weapon": "rifle", "models": "10"}]}, "groups[0].models"),
    ({"groups": [{"weapon": "rifle", "models": 51}]}, "groups[0].models"),
    ({"groups": [{"weapon": "rifle", "models": 30}, {"weapon": "smg", "models": 30}]}, "groups"),
    ({"groups": [{"weapon": "rifle", "models": 5, "range": "far"}]}, "groups[0].range"),
    ({"groups": [{"weapon": "rifle"}]}, "groups[0].models"),
    ({"groups": [{"weapon": "rifle", "models": 5, "ammo": "he"}]}, "groups[0].ammo"),
    ({"groups": [{"weapon": "rifle", "models": 5, "ammo": "sabot"}]}, "groups[0].ammo"),
    ({"groups": [{"weapon": "rifle", "models": 5, "indirect": True}]}, "groups[0].indirect"),
    (
        {"groups": [{"weapon": "light-mortar", "models": 1, "models_under_template": -1}]},
        "groups[0].models_under_template",
    ),
    ({"groups": [{"weapon": "light-mortar", "models": 1, "ranging_attempt": 6}]}, "groups[0].ranging_attempt"),
    ({"groups": [{"weapon": "light-mortar", "models": 1, "zeroed": "yes"}]}, "groups[0].zeroed"),
    ({"groups": [{"weapon": "rifle", "models": 5, "burst": 2}]}, "groups[0].burst"),
    ({"target": {"kind": "tank"}}, "target.kind"),
    ({"target": {"kind": "infantry", "models": 51}}, "target.models"),
    ({"target": {"kind": "infantry", "models": 0}}, "target.models"),
    ({"target": {"kind": "infantry"}}, "target.models"),
    ({"target": {"kind": "infantry", "models": 5, "down": "yes"}}, "target.down"),
    ({"target": {"kind": "infantry", "models": 5, "cover": "bunker"}}, "target.cover"),
    ({"target": {"kind": "armoured"}}, "target.damage_value"),
    ({"target": {"kind": "armoured", "damage_value": 9.5}}, "target.damage_value"),
    ({"target": {"kind": "armoured", "damage_value": 9, "facing": "under"}}, "target.facing"),
    ({"target": None}, "target"),
    ({"colour": "red"}, "colour"),
]


@pytest.mark.parametrize(("overrides", "field"), SHOOTING_400)
def test_it_names_the_bad_shooting_field(client, charts, overrides, field):
    response = post(client, "/api/resolve/shooting/", shooting_body(**overrides))
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_it_rejects_a_weapon_from_another_edition(client, charts):
    from tests.resolver.factories import make_edition, make_weapon

    make_weapon(make_edition("v3"), "bazooka", pen=5)
    body = shooting_body(groups=[{"weapon": "bazooka", "models": 1}])
    response = post(client, "/api/resolve/shooting/", body)
    assert response.status_code == 400
    assert response.json()["field"] == "groups[0].weapon"


def test_it_refuses_fixed_weapons_on_advance_in_v2(client, charts):
    body = shooting_body(order="advance", groups=[{"weapon": "medium-at-gun", "models": 1}])
    response = post(client, "/api/resolve/shooting/", body)
    assert response.status_code == 400
    assert response.json()["field"].startswith("groups[0]")


def test_it_resolves_fifty_panzerfausts_at_a_vehicle(client, charts):
    body = shooting_body(
        edition="v3",
        groups=[{"weapon": "panzerfaust", "models": 50}],
        target={"kind": "armoured", "damage_value": 9},
    )
    response = post(client, "/api/resolve/shooting/", body)
    assert response.status_code == 200
    pins = response.json()["pins"]["pmf"]
    assert sum((Fraction(v) for v in pins.values()), Fraction(0)) == 1


def test_it_allows_as_many_shots_at_a_vehicle_as_models_a_side(client, charts):
    body = shooting_body(
        groups=[{"weapon": "panzerfaust", "models": 30}, {"weapon": "panzerfaust", "models": 21, "range": "long"}],
        target={"kind": "armoured", "damage_value": 9},
    )
    response = post(client, "/api/resolve/shooting/", body)
    assert response.status_code == 400
    assert response.json()["field"] == "groups"
    at = post(
        client,
        "/api/resolve/anti-tank/",
        {"edition": "v2", "weapon": "panzerfaust", "shots": 50, "target": {"damage_value": 9}},
    )
    assert at.status_code == 200
    too_many = {"edition": "v2", "weapon": "panzerfaust", "shots": 51, "target": {"damage_value": 9}}
    assert post(client, "/api/resolve/anti-tank/", too_many).json()["field"] == "shots"


ORDER_400 = [
    ({"quality": "elite"}, "quality"),
    ({"quality": None}, "quality"),
    ({"pins": -1}, "pins"),
    ({"pins": "3"}, "pins"),
    ({"officer_bonus": 5}, "officer_bonus"),
    ({"officer_bonus": True}, "officer_bonus"),
    ({"modifier": 1.5}, "modifier"),
    ({"edition": "v7"}, "edition"),
]


@pytest.mark.parametrize(("overrides", "field"), ORDER_400)
def test_it_names_the_bad_order_test_field(client, charts, overrides, field):
    body = {"edition": "v2", "quality": "regular", "pins": 1, **overrides}
    response = post(client, "/api/resolve/order-test/", body)
    assert response.status_code == 400
    assert response.json()["field"] == field


CQ_400 = [
    ({"attacker": {"models": 51}}, "attacker.models"),
    ({"attacker": {"models": -2}}, "attacker.models"),
    ({"attacker": {"models": 5, "quality": "elite"}}, "attacker.quality"),
    ({"attacker": {"models": 5, "tough_fighters": 1}}, "attacker.tough_fighters"),
    ({"attacker": {"models": 5, "defensive_position": True}}, "attacker.defensive_position"),
    ({"defender": {"models": 5, "defensive_position": "yes"}}, "defender.defensive_position"),
    ({"defender": []}, "defender"),
    ({"edition": None}, "edition"),
]


@pytest.mark.parametrize(("overrides", "field"), CQ_400)
def test_it_names_the_bad_close_quarters_field(client, charts, overrides, field):
    body = {"edition": "v3", "attacker": {"models": 5}, "defender": {"models": 5}, **overrides}
    response = post(client, "/api/resolve/close-quarters/", body)
    assert response.status_code == 400
    assert response.json()["field"] == field


ANTI_TANK_400 = [
    ({"weapon": "laser"}, "weapon"),
    ({"shots": 0}, "shots"),
    ({"shots": 51}, "shots"),
    ({"target": {"damage_value": "9"}}, "target.damage_value"),
    ({"target": {}}, "target.damage_value"),
    ({"range": "orbit"}, "range"),
]


@pytest.mark.parametrize(("overrides", "field"), ANTI_TANK_400)
def test_it_names_the_bad_anti_tank_field(client, charts, overrides, field):
    body = {"edition": "v2", "weapon": "panzerfaust", "target": {"damage_value": 9}, **overrides}
    response = post(client, "/api/resolve/anti-tank/", body)
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_it_fires_he_with_a_template_count_and_indirect_fire(client, charts):
    group = {"weapon": "light-mortar", "models": 1, "models_under_template": 3, "ranging_attempt": 2}
    body = shooting_body(edition="v3", groups=[group], target={"kind": "infantry", "models": 10, "cover": "none"})
    data = post(client, "/api/resolve/shooting/", body).json()
    assert data["groups"][0] == {
        "weapon": "light-mortar",
        "kind": "he",
        "dice": {"pmf": {"1": "1"}, "mean": "1"},
        "indirect": True,
        "template": 3,
    }
    assert data["need_to_hit"][0]["need"] == 5
    # HE 1" (Pen +1) against Regulars: 3+ to damage, no save against indirect fire; 1/3 x 3 x 2/3.
    assert data["casualties"]["mean"] == "2/3"


def test_it_loads_ap_or_he_as_asked(client, charts):
    target = {"kind": "infantry", "models": 10, "cover": "none"}
    he = post(
        client,
        "/api/resolve/shooting/",
        shooting_body(edition="v3", groups=[{"weapon": "medium-at-gun", "models": 1}], target=target),
    ).json()
    ap = post(
        client,
        "/api/resolve/shooting/",
        shooting_body(edition="v3", groups=[{"weapon": "medium-at-gun", "models": 1, "ammo": "ap"}], target=target),
    ).json()
    assert he["groups"][0]["kind"] == "he"
    assert ap["groups"][0]["kind"] == "kinetic"
    assert ap["casualties"]["mean"] == "5/12"  # 4+ to hit, Pen +5 against Regulars: 2+ to damage


def test_it_takes_the_vehicle_traits_for_anti_tank_fire(client, charts):
    base = {"edition": "v2", "weapon": "panzerfaust", "range": "long", "target": {"damage_value": 9}}
    plain = post(client, "/api/resolve/anti-tank/", base).json()
    assert plain["p_knocked_out"] == "10693/62208"
    flamer = post(client, "/api/resolve/anti-tank/", {**base, "target": {"damage_value": 9, "carries_flamer": True}})
    assert flamer.status_code == 200
    assert Fraction(flamer.json()["p_knocked_out"]) > Fraction(plain["p_knocked_out"])
    bad = post(client, "/api/resolve/anti-tank/", {**base, "target": {"damage_value": 9, "slow": "yes"}})
    assert bad.json()["field"] == "target.slow"


def test_it_gives_order_dice_odds(client):
    data = post(client, "/api/resolve/order-dice/", {"own": 12, "enemy": 16, "draws": 3}).json()
    assert data["p_next"] == "3/7"
    assert data["p_at_least_one"] == "97/117"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"own": 0, "enemy": 0}, "own"),
        ({"own": 2, "enemy": 2, "draws": 5}, "draws"),
        ({"own": -1, "enemy": 2}, "own"),
        ({"own": 2}, "enemy"),
        ({"own": 2, "enemy": 2, "colour": "red"}, "colour"),
    ],
)
def test_it_names_the_bad_order_dice_field(client, body, field):
    response = post(client, "/api/resolve/order-dice/", body)
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_it_gives_the_ranging_in_ladder(client, charts):
    data = post(client, "/api/resolve/ranging-in/", {"edition": "v2", "turns": 5}).json()
    assert data["p_first_hit_by_turn"] == ["1/6", "4/9", "13/18", "49/54", "319/324"]
    assert data["need_by_turn"] == [6, 5, 4, 3, 2]
    assert post(client, "/api/resolve/ranging-in/", {"edition": "v2", "turns": 0}).json()["field"] == "turns"
