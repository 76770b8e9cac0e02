"""An infantry assault on a vehicle on a phone (390x844): htmx updates the odds in place as the form changes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.resolver import factories as resolver_factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_italian_grenade_assault_rerolls_on_a_phone(new_browser_context):
    resolver_factories.make_chart("v2")
    page = new_browser_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto("/calc/anti-tank/")
    page.get_by_role("link", name="Infantry assault on a vehicle").click()
    page.wait_for_url("**mode=assault**")
    result = page.locator("#result")
    expect(result).to_contain_text("Tank Fear order test")
    page.evaluate("window.__marker = 'same page'")

    # A soft-skin (6+) that has not moved; ten men with AT grenades and Italy's rules.
    page.select_option("#id_edition", "v2")
    expect(page.locator("#id_men")).to_be_visible()
    page.evaluate("window.__marker = 'same page'")
    page.select_option("#id_vehicle", "soft_skin")
    page.select_option("#id_damage_value", "6")
    page.check("#id_at_weapons")
    expect(result).not_to_contain_text("Tank Fear order test")
    page.select_option("#id_army", "italy")

    expect(result).to_contain_text("Re-roll: Improvised AT")
    # One man: 1/2 to hit, then 3/4 to damage with the re-roll.
    page.fill("#id_men", "1")
    expect(result.locator("code", has_text="3/8").first).to_be_attached()
    assert page.evaluate("window.__marker") == "same page"
    assert "army=italy" in page.url and "mode=assault" in page.url

    # A Run order is refused next to its field, and the form stays.
    page.select_option("#id_vehicle_order", "run")
    expect(page.locator("#id_vehicle_order-errors")).to_contain_text("cannot be assaulted")
    # Nothing overflows the phone's width.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
