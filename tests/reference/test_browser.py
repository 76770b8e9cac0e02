"""The reference in a real browser: live search, the edition switcher and the language switcher."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.reference.factories import make_two_editions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _database_before_browser(django_db_setup):
    """Create the test database before Playwright starts its event loop in this thread."""


@pytest.fixture
def ref(browser_context):
    # After browser_context, which allows the ORM next to Playwright's event loop.
    return make_two_editions()


def test_it_narrows_the_weapons_chart_as_you_type_without_a_reload(page, ref):
    page.goto("/reference/v2/weapons/")
    expect(page.locator("tr[data-weapon]")).to_have_count(5)
    # A full page load would wipe this marker; an htmx swap keeps it.
    page.evaluate("window.musterMarker = 'still here'")

    page.get_by_label("Name").press_sequentially("mmg", delay=30)

    expect(page.locator("tr[data-weapon]")).to_have_count(1)
    expect(page.locator('tr[data-weapon="mmg"]')).to_be_visible()
    assert page.evaluate("window.musterMarker") == "still here"
    assert "q=mmg" in page.url


def test_it_shows_the_empty_state_and_resets(page, ref):
    page.goto("/reference/v2/weapons/")
    page.get_by_label("Name").press_sequentially("zeppelin", delay=30)
    expect(page.get_by_text("No weapon matches")).to_be_visible()
    page.wait_for_load_state("networkidle")  # the filter's last answer is in before the reset

    page.get_by_role("link", name="Reset the filters").click()

    expect(page.locator("tr[data-weapon]")).to_have_count(5)


def test_it_switches_edition_and_stays_on_the_same_topic(page, ref):
    page.goto("/reference/v2/orders/")

    page.get_by_role("navigation", name="Edition").get_by_role("link", name="3rd edition").click()

    expect(page).to_have_url(page.url.split("/reference/")[0] + "/reference/v3/orders/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Orders and FUBAR")
    expect(page.get_by_text("Remove D6 pins")).to_be_visible()


def test_it_switches_to_french_with_the_language_switcher(page, ref):
    page.goto("/reference/v2/orders/")
    # The second visit is served from the page kept for this data version, with this visitor's
    # CSRF token and address filled in: the switch must post with one and return to the other.
    page.goto("/reference/v2/orders/?from=forum")
    expect(page.get_by_role("heading", level=2, name="Orders")).to_be_visible()

    with page.expect_navigation():
        page.get_by_label("Language").select_option("fr")

    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ordres et FUBAR")
    expect(page.get_by_role("heading", level=2, name="Ordres")).to_be_visible()
    assert page.url.endswith("/reference/v2/orders/?from=forum")
