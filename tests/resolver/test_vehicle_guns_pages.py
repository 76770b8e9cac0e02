"""The shooting and anti-tank pages: "The firer is a vehicle" lets a Fixed gun fire on an Advance order,
at the -1 for moving; a list's unit ticks it from its unit type, and game day's "odds now" from the kind
of unit it froze. Without the box a towed gun stays fixed in 2nd edition."""

from __future__ import annotations

import pytest

from tests.lists.factories import make_user
from tests.resolver.factories import make_entry, make_list, make_unit

pytestmark = pytest.mark.django_db

ADVANCE = (
    "/calc/shooting/?edition=v2&order=advance&firer_quality=regular&firer_pins=0"
    "&g0-weapon=medium-at-gun&g0-models=1&g0-range=normal&target_kind=armoured&damage_value=9&facing=front"
    "&target_quality=regular&cover=none"
)
ANTI_TANK = (
    "/calc/anti-tank/?edition=v2&weapon=medium-at-gun&shots=1&range=normal&order=advance"
    "&firer_quality=regular&firer_pins=0&damage_value=9&facing=front&target_quality=regular&target_pins=0"
    "&cover=none"
)
FIXED = "Medium AT gun is a fixed weapon and cannot fire on an Advance order"


def test_a_towed_gun_cannot_fire_on_advance_and_a_vehicle_gun_can(client, charts):
    towed = client.get(ADVANCE).text
    assert FIXED in towed
    tank = client.get(f"{ADVANCE}&firer_vehicle=on").text
    assert FIXED not in tank
    assert 'id="id_firer_vehicle" checked' in tank
    assert "Fire on the move" in tank and "Knocked out" in tank


def test_the_anti_tank_page_has_the_vehicle_box_too(client, charts):
    assert FIXED in client.get(ANTI_TANK).text
    tank = client.get(f"{ANTI_TANK}&firer_vehicle=on").text
    assert FIXED not in tank and "Fire on the move" in tank and "Knocked out" in tank


def test_a_gyro_stabilised_gun_is_a_vehicle_gun(client, charts):
    html = client.get(f"{ADVANCE}&army=us&gyro=on").text.replace("firer_quality=regular", "")
    assert FIXED not in html


def test_a_tank_from_a_list_is_a_vehicle_and_a_gun_team_is_not(client, charts):
    edition = charts["v2"]["rifle"].edition
    gun = charts["v2"]["medium-at-gun"]
    alice = make_user("alice")
    army_list = make_list(owner=alice)
    tank = make_entry(army_list, make_unit(edition, weapons=(gun,), unit_type="vehicle_armoured"), models_count=1)
    crew = make_unit(edition, weapons=(gun,), unit_type="artillery", base_models=3, max_models=3)
    towed = make_entry(army_list, crew, models_count=3)
    client.force_login(alice)
    html = client.get(f"/calc/shooting/?from_entry={tank.pk}&order=advance").text
    assert 'id="id_firer_vehicle" checked' in html and FIXED not in html
    html = client.get(f"/calc/shooting/?from_entry={towed.pk}&order=advance").text
    assert 'id="id_firer_vehicle" checked' not in html and FIXED in html


def test_the_box_is_labelled_in_french(client, charts):
    html = client.get(ADVANCE, headers={"Accept-Language": "fr"}).text
    assert "Le tireur est un véhicule" in html


def test_game_day_odds_now_says_a_vehicle_fires_from_the_kind_it_froze():
    from armybuilder.resolver.national_rules import odds_query

    assert odds_query({"kind": "armoured", "army": "us", "gyro": True}) == {
        "firer_vehicle": "on",
        "army": "us",
        "gyro": "on",
    }
    assert odds_query({"kind": "soft_skin"}) == {"firer_vehicle": "on"}
    assert odds_query({"kind": "artillery"}) == {}
    assert odds_query({}) == {}
