"""The JSON API of an infantry assault on a vehicle: exact answers and refused input naming the field."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db

URL = "/api/resolve/tank-assault/"


def post(client, body):
    return client.post(URL, data=json.dumps(body), content_type="application/json")


def body(**overrides):
    data = {"edition": "v2", "men": 1, "pen": 2, "vehicle": {"kind": "soft_skin", "damage_value": 6}}
    data.update(overrides)
    return data


def test_a_soft_skin_is_destroyed_by_any_damage(client, charts):
    data = post(client, body()).json()
    assert data["p_knocked_out"] == "1/4" and data["resolution"] == "destroyed_if_damaged"
    assert data["need_to_hit"] == 4 and data["p_hit"] == "1/2"
    assert data["tank_fear"] is None and data["p_assault"] == "1" and data["national_rules"] == []
    assert "pen_given" in data["readings"]


def test_improvised_at_rerolls_an_italian_grenade_pen_roll(client, charts):
    data = post(client, body(army="italy", at_weapons=True)).json()
    assert data["p_knocked_out"] == "3/8" and data["reroll_failed_pen"] is True
    assert data["national_rules"] == [{"rule": "improvised-at", "name": "Improvised AT", "change": "pen"}]
    # Without grenades, or in 3rd edition, no re-roll.
    assert post(client, body(army="italy")).json()["p_knocked_out"] == "1/4"
    assert post(client, body(edition="v3", army="italy", at_weapons=True)).json()["p_knocked_out"] == "1/4"


def test_tank_fear_is_the_chance_the_assault_goes_in(client, charts):
    vehicle = {"kind": "enclosed", "damage_value": 8, "order": "advance"}
    data = post(client, body(pen=3, vehicle=vehicle)).json()
    assert data["p_assault"] == "5/12" and data["tank_fear"]["morale"] == 6
    assert data["p_knocked_out"] == "5/1944" and data["p_knocked_out_overall"] == "25/23328"
    assert data["resolution"] == "superficial_only"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"men": 0}, "men"),
        ({"men": "10"}, "men"),
        ({"pen": 11}, "pen"),
        ({"army": "narnia"}, "army"),
        ({"at_weapons": "yes"}, "at_weapons"),
        ({"vehicle": {"kind": "tank", "damage_value": 9}}, "vehicle.kind"),
        ({"vehicle": {"kind": "enclosed"}}, "vehicle.damage_value"),
        ({"vehicle": {"kind": "enclosed", "damage_value": 9, "order": "run"}}, "vehicle.order"),
        ({"vehicle": {"kind": "enclosed", "damage_value": 9, "speed": 3}}, "vehicle.speed"),
        ({"shots": 3}, "shots"),
    ],
)
def test_it_names_the_bad_field(client, charts, overrides, field):
    response = post(client, body(**overrides))
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_a_run_order_is_refused_in_words(client, charts):
    response = post(client, body(vehicle={"kind": "enclosed", "damage_value": 9, "order": "run"}))
    assert response.json()["error"] == "a vehicle with a Run order cannot be assaulted"


def test_only_post_is_allowed(client, charts):
    assert client.get(URL).status_code == 405
