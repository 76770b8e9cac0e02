"""The tank-assault JSON API with Japan's rules: the Banzai Charge passes the Tank Fear test; the unit's morale
check if a vehicle assaults it [R], passed by Death Before Dishonour."""

from __future__ import annotations

import pytest

from tests.resolver.test_tank_assault_api import body, post

pytestmark = pytest.mark.django_db

ENCLOSED = {"men": 10, "vehicle": {"kind": "enclosed", "damage_value": 7}}


def test_the_banzai_charge_passes_the_tank_fear_test(client, charts):
    plain = post(client, body(**ENCLOSED)).json()
    assert plain["p_assault"] == "5/12" and plain["tank_fear_passed"] is False  # 2D6 at most 6: 15/36
    japan = post(client, body(**ENCLOSED, army="imperial-japan", banzai=True)).json()
    assert japan["p_assault"] == "1" and japan["tank_fear_passed"] is True
    assert japan["p_knocked_out_overall"] == japan["p_knocked_out"] == plain["p_knocked_out"]
    assert japan["national_rules"] == [{"rule": "banzai-charge", "name": "Banzai Charge", "change": "order"}]
    # Without the box, without Japan, or in 3rd edition: the test is rolled.
    cases = [
        {"army": "imperial-japan"},
        {"banzai": True},
        {"army": "imperial-japan", "banzai": True, "edition": "v3"},
    ]
    for overrides in cases:
        data = post(client, body(**ENCLOSED, **overrides)).json()
        assert data["p_assault"] == "5/12" and data["national_rules"] == []
    assert post(client, body(**ENCLOSED, banzai="yes")).status_code == 400


def test_the_vehicle_assault_morale_check(client, charts):
    plain = post(client, body(**ENCLOSED, pins=2)).json()
    assert plain["vehicle_assault"] == {"morale": 7, "p_pass": "7/12", "rule": None}  # 2D6 at most 7: 21/36
    assert "vehicle_assault_check" in plain["readings"]
    japan = post(client, body(**ENCLOSED, pins=2, army="imperial-japan")).json()
    assert japan["vehicle_assault"] == {"morale": 7, "p_pass": "1", "rule": "death-before-dishonour"}
