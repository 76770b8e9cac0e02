"""The language switch in a real browser: a German-speaking browser gets German, switches, keeps it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_browser_in_german_gets_german_and_a_switch_to_polish_is_kept(new_browser_context, live_server):
    context = new_browser_context(locale="de-DE", extra_http_headers={"Accept-Language": "de-DE,de;q=0.9"})
    page = context.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#lang-select option:checked")).to_have_text("Deutsch")
    expect(page.get_by_role("link", name="Regelreferenz").first).to_be_visible()
    page.select_option("#lang-select", "pl")
    expect(page.locator("html")).to_have_attribute("lang", "pl", timeout=30_000)
    page.goto("/reference/")  # the browser still asks for German; the choice wins
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator("#lang-select option:checked")).to_have_text("Polski")
