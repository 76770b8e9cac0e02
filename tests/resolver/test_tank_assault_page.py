"""The anti-tank page's infantry assault on a vehicle, through the test client (no JavaScript needed)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.utils import translation

pytestmark = pytest.mark.django_db

BASE = (
    "/calc/anti-tank/?mode=assault&edition={edition}&men={men}&quality=regular&pins=0&officer_bonus=0"
    "&pen={pen}&vehicle={vehicle}&damage_value={dv}&vehicle_order={order}&target_quality=regular&target_pins=0"
)


def url(edition="v2", men=1, pen=2, vehicle="soft_skin", dv=6, order="other", extra=""):
    return BASE.format(edition=edition, men=men, pen=pen, vehicle=vehicle, dv=dv, order=order) + extra


def exact(content: bytes, label: str) -> Fraction:
    """The exact fraction of the stat labelled ``label`` (from the "Exact fractions" table)."""
    text = content.decode()
    m = re.search(r"<th scope=\"row\">" + re.escape(label) + r"</th><td><code>([^<]+)</code>", text)
    assert m, f"no stat {label!r}"
    return Fraction(m.group(1))


def test_the_mode_link_opens_the_assault_form_with_a_default_scenario(client, charts):
    page = client.get("/calc/anti-tank/")
    assert b'href="/calc/anti-tank/?mode=assault' in page.content
    response = client.get("/calc/anti-tank/?mode=assault")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="men"' in body and 'name="pen"' in body and 'name="at_weapons"' in body
    assert 'type="hidden" name="mode" value="assault"' in body
    # The default: no anti-tank weapons against an enclosed vehicle, so the Tank Fear test shows.
    assert "Tank Fear order test" in body
    assert "Muster&#x27;s readings [R]" in body or "Muster's readings [R]" in body
    assert "One attack per man" in body and "not in Muster" in body


def test_a_soft_skin_is_destroyed_by_any_damage(client, charts):
    # One man, hit on 4+ (1/2), Pen +2 against 6+: a 4, 5 or 6 damages (1/2): 1/4.
    response = client.get(url(men=1, pen=2, vehicle="soft_skin", dv=6))
    assert exact(response.content, "Knocked out") == Fraction(1, 4)
    # Two men: 1 - (3/4)^2.
    response = client.get(url(men=2, pen=2, vehicle="soft_skin", dv=6))
    assert exact(response.content, "Knocked out") == Fraction(7, 16)


def test_an_advance_order_needs_a_six(client, charts):
    response = client.get(url(men=1, pen=2, vehicle="open_topped", dv=7, order="advance"))
    # 1/6 to hit, then 5 or 6 to damage 7+ with Pen +2 (1/3).
    assert exact(response.content, "Knocked out") == Fraction(1, 18)
    assert b"6+" in response.content


def test_a_run_order_cannot_be_assaulted(client, charts):
    response = client.get(url(order="run"))
    assert response.status_code == 200
    assert b"A vehicle with a Run order cannot be assaulted." in response.content
    assert b'class="stat-value"' not in response.content


def test_tank_fear_is_the_order_test_at_minus_three(client, charts):
    # Regular (9) - 3 = 6: 15/36 to pass; enclosed without AT weapons.
    response = client.get(url(men=1, pen=3, vehicle="enclosed", dv=8, order="advance"))
    assert exact(response.content, "Assault goes in (Tank Fear test passed)") == Fraction(5, 12)
    # Superficial only (2nd edition: D6-3 on the table): KO only through On Fire, 1/6 x 1/3 x 1/6 x 10/36.
    assert exact(response.content, "Knocked out if the assault goes in") == Fraction(5, 1944)
    assert exact(response.content, "Knocked out (Tank Fear test included)") == Fraction(5, 12) * Fraction(5, 1944)
    # With AT grenades there is no test.
    response = client.get(url(men=1, pen=3, vehicle="enclosed", dv=8, order="advance", extra="&at_weapons=on"))
    assert b"Tank Fear order test" not in response.content


def test_improvised_at_rerolls_the_grenades_failed_pen_roll(client, charts):
    common = {"men": 1, "pen": 2, "vehicle": "soft_skin", "dv": 6}
    plain = client.get(url(**common, extra="&at_weapons=on"))
    italian = client.get(url(**common, extra="&at_weapons=on&army=italy"))
    # 1/2 to hit; a damage chance of 1/2 becomes 1 - (1/2)^2 = 3/4 with the re-roll.
    assert exact(plain.content, "Knocked out") == Fraction(1, 4)
    assert exact(italian.content, "Knocked out") == Fraction(3, 8)
    assert b"Re-roll: Improvised AT" in italian.content
    assert b"Re-roll: Improvised AT" not in plain.content
    # Without grenades the rule does not act, and the page says why.
    no_grenades = client.get(url(**common, extra="&army=italy"))
    assert exact(no_grenades.content, "Knocked out") == Fraction(1, 4)
    assert b"Improvised AT acts with AT grenades" in no_grenades.content
    # 3rd edition: Improvised AT is not modelled.
    third = client.get(url(edition="v3", **common, extra="&at_weapons=on&army=italy"))
    assert exact(third.content, "Knocked out") == Fraction(1, 4)
    assert b"not modelled for this edition" in third.content


def test_htmx_gets_the_result_fragment(client, charts):
    response = client.get(url(), headers={"HX-Request": "true", "HX-Target": "result"})
    assert response.content.lstrip().startswith(b'<section id="result"')
    assert b"assault-readings" in response.content and b"Knocked out" in response.content
    response = client.get(url(), headers={"HX-Request": "true", "HX-Target": "resolver"})
    assert response.content.lstrip().startswith(b'<div id="resolver"')
    assert b'name="mode" value="assault"' in response.content


def test_bad_input_is_refused_next_to_its_field(client, charts):
    response = client.get(url(extra="&pen=x"))
    assert response.status_code == 200
    assert b"A whole number." in response.content
    response = client.get(url(men=0))
    assert b"At least 1." in response.content


def test_it_speaks_french(client, charts):
    with translation.override("fr"):
        response = client.get(url(extra="&at_weapons=on&army=italy"), headers={"Accept-Language": "fr"})
    body = response.content.decode()
    assert "Assaut d&#x27;infanterie contre un véhicule" in body or "Assaut d'infanterie contre un véhicule" in body
    assert "Relance : Antichar improvisé" in body
    assert "Lectures de Muster [R]" in body
