"""In Debian's Chromium: Muster is installable, and the header's menu works with fingers and keys."""

from __future__ import annotations

import tempfile

import pytest
from playwright.sync_api import expect

from tests.conftest import CHROMIUM_ARGS, PHONE_CONTEXT, chromium_path, wait_until


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_chromium_finds_no_installability_error(_playwright_browser, live_server):
    # Chromium never offers to install from an incognito profile, which is what a plain new context
    # is: the check needs a profile on disk.
    with tempfile.TemporaryDirectory() as profile:
        context = _playwright_browser.browser_type.launch_persistent_context(
            profile, executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS, base_url=live_server.url
        )
        try:
            page = context.new_page()
            page.goto("/")
            devtools = context.new_cdp_session(page)
            manifest = devtools.send("Page.getAppManifest")
            assert manifest["url"].endswith("/manifest.webmanifest") and manifest["errors"] == []
            errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
            assert errors == []
        finally:
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_phone_menu_opens_closes_and_keeps_focus(new_browser_context, live_server):
    context = new_browser_context(**PHONE_CONTEXT)
    page = context.new_page()
    page.goto("/lists/")
    menu = page.locator("details[data-nav-menu]")
    events = page.locator(".nav-menu-items a[href='/events/']")
    # Closed, the menu's items are out of sight; the bar keeps the lists (marked current) and the odds.
    expect(events).to_be_hidden()
    expect(page.locator(".site-nav > a[href='/lists/']")).to_have_attribute("aria-current", "page")
    expect(page.locator(".site-nav > a[href='/calc/']")).to_be_visible()
    # With the keyboard: Tab to "Menu", Enter opens it, Escape closes it and leaves the focus on "Menu".
    page.locator(".nav-menu > summary").focus()
    page.keyboard.press("Enter")
    expect(events).to_be_visible()
    box = events.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.keyboard.press("Escape")
    expect(events).to_be_hidden()
    wait_until(page, "() => document.activeElement && document.activeElement.tagName === 'SUMMARY'")
    # With a finger: a tap opens it, a tap on the page closes it, a tap on an item follows the link.
    page.locator(".nav-menu > summary").tap()
    expect(events).to_be_visible()
    page.touchscreen.tap(20, 780)  # below the opened menu
    expect(menu).not_to_have_attribute("open", "")
    page.locator(".nav-menu > summary").tap()
    events.tap()
    expect(page).to_have_url(f"{live_server.url}/events/")
    expect(page.locator(".nav-menu-items a[href='/events/']")).to_have_attribute("aria-current", "page")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_on_a_wide_screen_every_item_stands_in_the_bar(new_browser_context, live_server):
    context = new_browser_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto("/")
    expect(page.locator(".nav-menu > summary")).to_be_hidden()
    for href in ("/lists/", "/calc/", "/reference/", "/events/", "/accounts/login/"):
        expect(page.locator(f".site-nav a[href='{href}']")).to_be_visible()


HEADER_LINKS = """() => [...document.querySelectorAll('.site-nav > a')]
  .map((a) => [a.textContent.trim(), a.scrollWidth > a.clientWidth + 1])"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_phone_bar_reads_whole_in_every_language(new_browser_context, live_server):
    # The bar's links give way with an ellipsis rather than push "Menu" off the screen; each
    # language's words are chosen short enough that none is cut.
    context = new_browser_context(**PHONE_CONTEXT)
    page = context.new_page()
    for language in ("en", "fr", "de", "pl", "es", "it"):
        context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page.goto("/reference/")
        links = page.evaluate(HEADER_LINKS)
        assert [name for name, cut in links if cut] == [], (language, links)
        box = page.locator("details[data-nav-menu] > summary").bounding_box()
        assert box["x"] + box["width"] <= PHONE_CONTEXT["viewport"]["width"], (language, box)
