"""In Chromium: no page breaks its CSP, and a failed htmx action says so and keeps the input."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import log_in
from tests.security.pages import load_data, page_urls

# Injected by Playwright (not subject to the page's CSP): every violation is kept for the test.
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sample || ""));
});
"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_no_page_type_logs_a_csp_violation(page, live_server, alice):
    army_list = load_data(alice)
    client = log_in(page.context, live_server, alice)
    start = ["/", f"/lists/{army_list.pk}/", f"/s/{army_list.share_token}/", f"/lists/{army_list.pk}/print/"]
    urls = page_urls(client.get, start + ["/lists/new/", "/lists/import/", "/calc/shooting/"], limit=30)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.add_init_script(LISTEN)
    for url in urls:
        page.goto(url)
        page.wait_for_load_state("load")
        violations = page.evaluate("window.__violations")
        assert violations == [], (url, violations)
    assert not [m for m in console if "Content Security Policy" in m], console
    # htmx itself ran under the policy: a swap happens on the builder.
    page.goto(f"/lists/{army_list.pk}/")
    page.fill("#new-platoon-name", "Recce")
    page.click("#new-platoon-submit")
    expect(page.locator("#roster h2", has_text="Recce")).to_be_visible()
    assert page.evaluate("window.__violations") == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_failed_htmx_action_shows_a_message_and_keeps_the_input(page, live_server, alice, army_list):
    log_in(page.context, live_server, alice)
    page.goto(f"/lists/{army_list.pk}/")
    notice = page.locator("#htmx-error")
    expect(notice).to_be_hidden()
    name = page.locator("#new-platoon-name")

    page.route("**/platoons/add/", lambda route: route.fulfill(status=500, body="<h1>Server Error</h1>"))
    name.fill("2nd Platoon")
    page.click("#new-platoon-submit")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Something went wrong and the change was not saved")
    expect(name).to_have_value("2nd Platoon")

    page.unroute("**/platoons/add/")
    page.route(
        "**/platoons/add/",
        lambda route: route.fulfill(
            status=429,
            body="Too many requests: please wait 42 seconds and try again.",
            headers={"Content-Type": "text/plain; charset=utf-8", "Retry-After": "42"},
        ),
    )
    page.click("#new-platoon-submit")
    expect(notice).to_contain_text("please wait 42 seconds")

    page.unroute("**/platoons/add/")
    page.route("**/platoons/add/", lambda route: route.fulfill(status=503, body="busy"))
    page.click("#new-platoon-submit")
    expect(notice).to_contain_text("Muster is busy or briefly unavailable")

    page.unroute("**/platoons/add/")
    page.route("**/platoons/add/", lambda route: route.abort("internetdisconnected"))
    page.click("#new-platoon-submit")
    expect(notice).to_contain_text("Muster could not be reached")
    expect(name).to_have_value("2nd Platoon")

    page.click("[data-dismiss-error]")
    expect(notice).to_be_hidden()

    # Back online, the same input goes through and the notice stays away.
    page.unroute("**/platoons/add/")
    page.click("#new-platoon-submit")
    expect(page.locator("#roster h2", has_text="2nd Platoon")).to_be_visible()
    expect(notice).to_be_hidden()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_notice_is_translated(new_browser_context, live_server, alice, army_list):
    context = new_browser_context(locale="fr-FR", extra_http_headers={"Accept-Language": "fr"})
    page = context.new_page()
    log_in(context, live_server, alice)
    page.goto(f"/lists/{army_list.pk}/")
    page.route("**/platoons/add/", lambda route: route.abort("internetdisconnected"))
    page.click("#new-platoon-submit")
    expect(page.locator("#htmx-error")).to_contain_text("Muster est injoignable")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_language_menu_still_switches_at_once(page, live_server):
    page.goto("/")
    page.select_option("#lang-select", "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
