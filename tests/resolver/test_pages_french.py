"""The calculator pages in French: engine errors rebuilt in French, and French number formats."""

from __future__ import annotations

import html

import pytest

pytestmark = pytest.mark.django_db

FIXED_ON_ADVANCE = "/calc/shooting/?edition=v2&order=advance&g0-weapon=medium-at-gun&g0-models=1"
V02 = (
    "/calc/shooting/?edition=v2&order=fire&firer_quality=regular&firer_pins=0"
    "&g0-weapon=rifle&g0-models=10&g0-range=long"
    "&target_kind=infantry&target_quality=regular&target_models=10&cover=soft&facing=front"
)


@pytest.fixture
def french_gun(charts):
    gun = charts["v2"]["medium-at-gun"]
    gun.name_fr = "Canon antichar moyen"
    gun.save()
    return gun


def text(response) -> str:
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_it_explains_an_engine_error_in_french(fr_client, french_gun):
    content = text(fr_client.get(FIXED_ON_ADVANCE))
    assert "Canon antichar moyen est une arme fixe et ne peut pas tirer avec un ordre Avancer." in content
    assert "cannot fire on an Advance order" not in content


def test_it_explains_an_engine_error_in_french_on_the_anti_tank_page(fr_client, french_gun):
    url = "/calc/anti-tank/?edition=v2&weapon=medium-at-gun&shots=1&order=advance&damage_value=9&facing=front"
    content = text(fr_client.get(url))
    assert '<p class="result-error">Canon antichar moyen est une arme fixe' in content


def test_it_keeps_the_engine_error_in_english_in_english(client, french_gun):
    content = text(client.get(FIXED_ON_ADVANCE))
    assert "Medium AT gun is a fixed weapon and cannot fire on an Advance order" in content


def test_it_keeps_the_api_error_in_english_in_french(fr_client, french_gun):
    body = {
        "edition": "v2",
        "order": "advance",
        "groups": [{"weapon": "medium-at-gun", "models": 1, "range": "normal"}],
        "target": {"kind": "infantry", "quality": "regular", "models": 10, "cover": "soft", "down": False},
    }
    response = fr_client.post("/api/resolve/shooting/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "Medium AT gun is a fixed weapon and cannot fire on an Advance order"


def test_it_writes_percentages_the_french_way(fr_client, charts):
    content = text(fr_client.get(V02))
    assert '<abbr class="stat-value" title="58025/59049">98,3\u00a0%</abbr>' in content
    assert '<abbr class="stat-value" title="5/3">1,67</abbr>' in content
    assert "98.3%" not in content


def test_it_writes_french_percentages_in_the_chart_and_its_table(fr_client, charts):
    content = text(fr_client.get(V02))
    assert "<title>2 pertes: 29,1\u00a0% (1953125/6718464)</title>" in content
    assert ">29,1\u00a0%</text>" in content
    assert "<td>29,1\u00a0%</td>" in content


def test_it_writes_french_percentages_on_the_order_test_page(fr_client, charts):
    url = "/calc/order-test/?edition=v2&quality=regular&pins=3&officer_bonus=1&modifier=0"
    content = text(fr_client.get(url))
    assert '<abbr class="stat-value" title="7/12">58,3\u00a0%</abbr>' in content
    assert '<abbr title="7/12">58,3\u00a0%</abbr>' in content  # the roll's chance
