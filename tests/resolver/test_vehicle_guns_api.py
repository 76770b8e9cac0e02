"""A vehicle's guns fire on an Advance order; only a towed gun is held by Fixed (2nd edition and before).

The charts give "Team, Fixed" to the crewed gun a towed unit fields, and a tank's gun of that class shares
the row; the firer says whether it is a vehicle (``firer.vehicle``; a gyro-stabilised gun is always a
vehicle's). Exact values worked out by hand: a 2nd-edition to-hit roll needs 3+ (a 1 always fails), and
one shot at a vehicle either misses, leaving it as it was, or hits with the same chances whatever the
roll to hit needed.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

pytestmark = pytest.mark.django_db

URL = "/api/resolve/shooting/"

# The issue's own request: a US veteran tank, gyro-stabilised, firing its medium AT gun on the move.
GYRO_TANK = {
    "edition": "v2",
    "order": "advance",
    "firer": {"quality": "veteran", "pins": 0, "army": "us", "gyro": True},
    "groups": [{"weapon": "medium-at-gun", "models": 1, "range": "normal"}],
    "target": {"kind": "armoured", "quality": "regular", "damage_value": 9},
}


def post(client, body, url=URL):
    return client.post(url, data=json.dumps(body), content_type="application/json")


def with_firer(body, order="advance", **firer):
    return {**body, "order": order, "firer": {"quality": "veteran", "pins": 0, **firer}}


def test_a_gyro_stabilised_tank_gun_fires_on_advance_without_the_minus_one(client, charts):
    response = post(client, GYRO_TANK)
    assert response.status_code == 200, response.json()
    data = response.json()
    assert data["need_to_hit"][0] == {"need": 3, "modifiers": [], "p": "2/3"}
    assert data["national_rules"] == [
        {"rule": "gyro-stabilisers", "name": "Gyro-Stabilisers", "change": "moving", "group": 0}
    ]
    # No -1 and no Anti-tank Gun bonus in 2nd edition: the same odds as standing still on a Fire order.
    still = post(client, with_firer(GYRO_TANK, order="fire", vehicle=True)).json()
    assert data["vehicle"] == still["vehicle"]


def test_a_tank_gun_on_advance_takes_the_minus_one_for_moving(client, charts):
    data = post(client, with_firer(GYRO_TANK, vehicle=True)).json()
    assert data["need_to_hit"][0] == {"need": 4, "modifiers": [["Fire on the move", -1]], "p": "1/2"}
    still = post(client, with_firer(GYRO_TANK, order="fire", vehicle=True)).json()
    # One shot: every outcome but "nothing happened" scales with the chance to hit, 1/2 against 2/3.
    moving, standing = Fraction(data["vehicle"]["p_knocked_out"]), Fraction(still["vehicle"]["p_knocked_out"])
    assert standing > 0
    assert moving == standing * Fraction(3, 4)


def test_gyro_stabilisers_do_not_act_for_a_regular_crew(client, charts):
    data = post(client, {**GYRO_TANK, "firer": {**GYRO_TANK["firer"], "quality": "regular"}}).json()
    assert data["need_to_hit"][0] == {"need": 4, "modifiers": [["Fire on the move", -1]], "p": "1/2"}
    assert data["national_rules"] == []


def test_a_towed_gun_stays_fixed_on_advance_in_2nd_edition(client, charts):
    response = post(client, with_firer(GYRO_TANK))
    assert response.status_code == 400
    assert response.json()["error"].endswith("a fixed weapon and cannot fire on an Advance order")
    assert response.json()["field"] == "groups[0].order"
    said_no = post(client, with_firer(GYRO_TANK, vehicle=False))
    assert said_no.status_code == 400


def test_a_towed_gun_pivots_and_fires_at_minus_one_in_3rd_edition(client, charts):
    body = {**with_firer(GYRO_TANK), "edition": "v3"}
    data = post(client, body).json()
    # 3rd edition: 4+ to hit, -1 for moving; no Anti-tank Gun +1 on an Advance order.
    assert data["need_to_hit"][0] == {"need": 5, "modifiers": [["Fire on the move", -1]], "p": "1/3"}
    assert (
        post(client, {**body, "firer": {**body["firer"], "vehicle": True}}).json()["need_to_hit"] == data["need_to_hit"]
    )


def test_the_vehicle_field_must_be_a_boolean(client, charts):
    response = post(client, with_firer(GYRO_TANK, vehicle="yes"))
    assert response.status_code == 400
    assert response.json()["field"] == "firer.vehicle"


def test_the_anti_tank_calculator_takes_the_firer_vehicle_too(client, charts):
    body = {
        "edition": "v2",
        "weapon": "medium-at-gun",
        "order": "advance",
        "firer": {"quality": "regular", "pins": 0},
        "target": {"damage_value": 9},
    }
    assert post(client, body, "/api/resolve/anti-tank/").status_code == 400
    response = post(client, {**body, "firer": {**body["firer"], "vehicle": True}}, "/api/resolve/anti-tank/")
    assert response.status_code == 200, response.json()
    assert response.json()["need_to_hit"]["need"] == 4
    assert response.json()["p_hit"] == "1/2"
