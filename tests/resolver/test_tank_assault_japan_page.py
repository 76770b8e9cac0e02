"""The anti-tank page's infantry assault with Japan's national rules: the Banzai Charge box passes the Tank
Fear test; the unit's morale check when a vehicle assaults it, passed by Death Before Dishonour."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.utils import translation

from tests.resolver.test_tank_assault_page import exact, url

pytestmark = pytest.mark.django_db

ENCLOSED = {"men": 10, "pen": 2, "vehicle": "enclosed", "dv": 7}


def test_the_banzai_charge_box_passes_the_tank_fear_test(client, charts):
    page = client.get(url(**ENCLOSED)).content.decode()
    assert 'name="banzai"' in page and "Imperial Japan (Banzai Charge, Death Before Dishonour)" in page
    plain = exact(page.encode(), "Assault goes in (Tank Fear test passed)")
    assert plain == Fraction(15, 36)
    japan = client.get(url(**ENCLOSED, extra="&army=imperial-japan&banzai=on")).content
    assert exact(japan, "Assault goes in (Tank Fear test passed)") == 1
    assert exact(japan, "Knocked out (Tank Fear test included)") == exact(japan, "Knocked out if the assault goes in")
    assert b"Order test passed: Banzai Charge" in japan and b"passed without a roll" in japan
    # The box without Japan's rules, or in 3rd edition, changes nothing and the page says why.
    other = client.get(url(**ENCLOSED, extra="&banzai=on")).content
    assert exact(other, "Assault goes in (Tank Fear test passed)") == Fraction(15, 36)
    assert b"Banzai Charge acts for Japanese infantry" in other
    third = client.get(url(edition="v3", **ENCLOSED, extra="&army=imperial-japan&banzai=on")).content
    assert exact(third, "Assault goes in (Tank Fear test passed)") == Fraction(15, 36)
    assert b"Banzai Charge is not modelled for this edition" in third
    # Japan's rules without the box (not at the closest visible enemy): the test is rolled.
    unticked = client.get(url(**ENCLOSED, extra="&army=imperial-japan")).content
    assert exact(unticked, "Assault goes in (Tank Fear test passed)") == Fraction(15, 36)


def test_a_vehicle_assaulting_the_unit_forces_a_morale_check(client, charts):
    label = "Morale check passed if a vehicle assaults this unit"
    regular = client.get(url(**ENCLOSED)).content
    assert exact(regular, label) == Fraction(5, 6)  # 2D6 at most 9
    assert b"failing: see your rulebook [R]" in regular and b"Vehicle assaults infantry" in regular
    pinned = client.get(url(**ENCLOSED, extra="&pins=2")).content
    assert exact(pinned, label) == Fraction(21, 36)  # 9 - 2: 2D6 at most 7
    japan = client.get(url(**ENCLOSED, extra="&army=imperial-japan"))
    assert exact(japan.content, label) == 1
    assert b"passed without a roll: Death Before Dishonour" in japan.content
    third = client.get(url(edition="v3", **ENCLOSED, extra="&army=imperial-japan")).content
    assert exact(third, label) == Fraction(5, 6)


def test_it_speaks_french(client, charts):
    with translation.override("fr"):
        response = client.get(
            url(**ENCLOSED, extra="&army=imperial-japan&banzai=on"), headers={"Accept-Language": "fr"}
        )
    body = response.content.decode()
    assert "Test d&#x27;ordre réussi : Charge banzaï" in body or "Test d'ordre réussi : Charge banzaï" in body
    assert "Un véhicule donne l" in body and "Test de moral réussi si un véhicule" in body
    assert "Plutôt la mort que le déshonneur" in body
