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


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_on_a_shared_event_page_the_language_menu_goes_through_its_own_page(new_browser_context, live_server):
    """An anonymous visitor's event page carries no CSRF token: choosing a language there opens the
    language page (which has one), where one tap switches and brings the visitor back."""
    from tests.events.factories import make_event

    event = make_event(published=True, name="Hall night")
    page = new_browser_context().new_page()
    page.goto(f"/events/{event.slug}/standings/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.select_option("#lang-select", "fr")  # the menu's own script sends the form on a choice
    expect(page.get_by_role("button", name="Français")).to_be_focused(timeout=30_000)
    assert page.url.startswith(f"{live_server.url}/language/?")
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live_server.url}/events/{event.slug}/standings/", timeout=30_000)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", name="Classement")).to_be_visible()
