"""The order test page applies Vengeance when ticked, and says so (in French too)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.resolver.test_national_pages import _exact

pytestmark = pytest.mark.django_db

URL = "/calc/order-test/?edition=v2&quality=regular&pins=1&officer_bonus=0&modifier=0"


def test_vengeance_on_the_order_test_page(client, charts):
    html = client.get(URL + "&vengeance=on").text
    assert _exact(html, "Order given") == Fraction(7, 9)  # (26/36 + 30/36) / 2
    assert "a pin is lost before the test: Vengeance" in html
    plain = client.get(URL).text
    assert _exact(plain, "Order given") == Fraction(26, 36) and "Vengeance:" not in plain
    french = client.get(URL + "&vengeance=on", headers={"Accept-Language": "fr"}).text
    assert "un marqueur est perdu avant le test : Vengeance" in french
