"""In a real browser set offline: the service worker serves the reference and my list's pages and cards,
says plainly when a page needs the server, and forgets my pages when I log out."""

from __future__ import annotations

import pytest

from tests.conftest import wait_until
from tests.playsheets.factories import alice_with_a_list

CONTROLLED = "navigator.serviceWorker.controller !== null"


def _kept(page, path: str) -> None:
    # The worker stores a copy after answering; wait until it is there before going offline.
    wait_until(page, "p => caches.match(p).then(r => !!r)", path)


def _under_the_worker(page) -> None:
    # The first load installs the worker; from the reload on it answers the page's requests.
    page.goto("/reference/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    wait_until(page, CONTROLLED)


def _forgotten(page, user) -> None:
    # The worker drops the user's cache of pages (named after the user's id) when the session ends.
    wait_until(page, "u => caches.keys().then(k => !k.some(n => n.endsWith('-pages-' + u)))", str(user.pk))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_opens_the_reference_and_my_lists_cards_offline(django_db_setup, live_server, browser_context, page):
    army_list = alice_with_a_list(browser_context, live_server)
    _under_the_worker(page)
    for path in ("/reference/", "/reference/v3/", f"/lists/{army_list.pk}/"):
        page.goto(path)
        _kept(page, path)
    page.evaluate("p => fetch(p).then(r => r.status)", f"/lists/{army_list.pk}/cards.pdf")
    _kept(page, f"/lists/{army_list.pk}/cards.pdf")

    browser_context.set_offline(True)
    page.goto("/reference/v3/")
    assert page.locator("#offline-title").count() == 0
    assert page.locator("a:has-text('Orders')").count() > 0
    page.goto(f"/lists/{army_list.pk}/")
    assert page.locator("text=Sisu Company").count() > 0
    start = page.evaluate(
        "p => fetch(p).then(r => r.arrayBuffer()).then(b => String.fromCharCode(...new Uint8Array(b.slice(0, 5))))",
        f"/lists/{army_list.pk}/cards.pdf",
    )
    assert start == "%PDF-"
    page.goto("/games/")
    assert page.locator("#offline-title").inner_text() == "You are offline"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_forgets_my_lists_when_i_log_out(django_db_setup, live_server, browser_context, page):
    army_list = _keep_my_list(live_server, browser_context, page)

    page.click("button:has-text('Log out')")
    # The home page exactly: "**/" also matches the list's own address, before the log-out has landed.
    page.wait_for_url(f"{live_server.url}/")
    _forgotten(page, army_list.owner)
    browser_context.set_offline(True)
    page.goto(f"/lists/{army_list.pk}/")
    assert page.locator("#offline-title").count() == 1
    assert page.locator("text=Sisu Company").count() == 0


def _keep_my_list(live_server, browser_context, page):
    army_list = alice_with_a_list(browser_context, live_server)
    _under_the_worker(page)
    page.goto(f"/lists/{army_list.pk}/")
    _kept(page, f"/lists/{army_list.pk}/")
    return army_list


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_expired_session_opens_none_of_my_pages_offline(django_db_setup, live_server, browser_context, page):
    # The session expired without a logout, and the builder still opened offline.
    army_list = _keep_my_list(live_server, browser_context, page)
    browser_context.clear_cookies()  # the browser lets the session cookie, and its companion, expire
    browser_context.set_offline(True)
    page.goto(f"/lists/{army_list.pk}/")
    assert page.locator("#offline-title").count() == 1
    assert page.locator("text=Sisu Company").count() == 0


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_session_ended_elsewhere_is_noticed_at_the_next_response(django_db_setup, live_server, browser_context, page):
    from django.contrib.sessions.models import Session

    army_list = _keep_my_list(live_server, browser_context, page)
    Session.objects.all().delete()  # ended on another device, or cleared by the server
    page.evaluate("fetch('/ping/').then(r => r.status)")  # any response at all, no page load
    _forgotten(page, army_list.owner)
    browser_context.set_offline(True)
    page.goto(f"/lists/{army_list.pk}/")
    assert page.locator("#offline-title").count() == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_page_opened_from_the_cache_plays_offline_and_comes_back_by_itself(django_db_setup, live_server, page):
    # A page the worker opened from its cache (the network failed) is offline whatever navigator.onLine
    # says: a dead Wi-Fi says online, and so may a browser's emulated network for a new document.
    _under_the_worker(page)
    _kept(page, "/reference/")
    page.context.set_offline(True)
    page.reload()
    assert page.evaluate("document.documentElement.hasAttribute('data-served-offline')")
    wait_until(page, "document.documentElement.classList.contains('offline')")
    assert page.evaluate("window.MusterNetwork.offline()")
    assert page.locator("#offline-banner").is_visible()
    # The network back: the page finds out by itself (the browser's event, or its /ping/ answered)
    # and tells the page's scripts once it holds itself online.
    page.evaluate("window.heard = []; addEventListener('muster:online', () => heard.push(MusterNetwork.offline()))")
    page.context.set_offline(False)
    wait_until(page, "!document.documentElement.classList.contains('offline')", timeout=30)
    assert page.evaluate("window.heard") == [False]
    assert page.locator("#offline-banner").count() == 0
