"""On a phone, the close quarters page works out the reaction fire in place, and Blood Curdling Charge
switches it off, through htmx (no page load)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import PHONE_CONTEXT
from tests.resolver.factories import make_chart

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_reaction_fire_and_blood_curdling_charge_on_a_phone(new_browser_context):
    make_chart("v2")
    page = new_browser_context(**PHONE_CONTEXT).new_page()
    page.goto("/calc/close-quarters/?edition=v2&attacker_models=3&defender_models=1")
    result = page.locator("#result")
    expect(result).to_contain_text("Attacker wins")
    expect(result).not_to_contain_text("Assault goes in")
    page.evaluate("window.__marker = 'same page'")

    page.fill("#id_reaction_shots", "1")
    expect(result).to_contain_text("Assault goes in")
    expect(result).to_contain_text("Reaction fire [R]")
    # 2/3 x 14/15 + 1/3 x 6/7 (tests/rules/combat/test_reaction.py), with its exact fraction in the table.
    expect(result.locator("details.exact")).to_contain_text("286/315")

    page.check("#id_attacker_blood")
    expect(result).to_contain_text("No reaction fire: Blood Curdling Charge")
    expect(result).not_to_contain_text("Assault goes in")
    expect(result.locator("details.exact")).to_contain_text("14/15")
    assert page.evaluate("window.__marker") == "same page"
    assert "attacker_blood=on" in page.url and "reaction_shots=1" in page.url
    # The box fits the phone's width.
    box = page.locator("#id_attacker_blood").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
