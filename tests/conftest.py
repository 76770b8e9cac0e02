"""Shared test fixtures: fast password hashing, a logged-in client, and a real browser.

Browser tests drive the Chromium of Debian's `chromium` package through Playwright, launched
by executable path (no browser download), against pytest-django's live server.
"""

from __future__ import annotations

import os
import shutil

import pytest

# Playwright's sync API runs an event loop in the test thread; the ORM calls that tests make
# there (factories, assertions) are still synchronous and safe, so Django is told to allow them.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


# A phone the size of the common ones, for the browser tests that check the small-screen layouts.
PHONE = {"width": 390, "height": 844}
PHONE_CONTEXT = {"viewport": PHONE, "is_mobile": True, "has_touch": True}


@pytest.fixture(autouse=True)
def _fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_caches():
    # Each test starts with empty caches: rate-limit counters, kept PDFs and pages of an earlier
    # test (whose rows were rolled back, their ids reused) must not count or stand in for this one's.
    from django.conf import settings

    if settings.configured:
        from django.core.cache import caches

        for cache in caches.all():
            cache.clear()


@pytest.fixture(autouse=True)
def _rate_limit_clock_stands_still(monkeypatch):
    # Rate limits count in fixed windows of the clock (a minute, an hour: django-ratelimit). A test
    # that sends the sixth request of a "5 a minute" limit must not see its count start again
    # because a busy machine took it across a window's end: the limits' clock stands still in a
    # test, in the middle of an hour. Only django-ratelimit's own reference to ``time`` is replaced.
    import time
    import types

    import django_ratelimit.core

    now = int(time.time()) // 3600 * 3600 + 1800
    monkeypatch.setattr(django_ratelimit.core, "time", types.SimpleNamespace(time=lambda: now))


@pytest.fixture(autouse=True)
def _no_rate_limits():
    # Tests make more requests of one kind than a visitor may in a minute (PDFs, logins): the
    # limits are off here and tested on their own, switched back on, in tests/security/. Read
    # from Django's own settings, not the ``settings`` fixture, which the parser-only tests of
    # tests/importers replace with a plain namespace.
    from django.conf import settings
    from django.test import override_settings

    if not settings.configured:
        yield
        return
    with override_settings(RATELIMIT_ENABLE=False):
        yield


@pytest.fixture(autouse=True)
def _tasks_run_at_once():
    # Tasks run inside the request that enqueues them (Django's immediate backend), so a view test
    # sees the whole flow; the worker's own path (the database backend) is tested on its own, in
    # tests/playsheets/test_pdf_jobs.py, with the setting switched back.
    from django.conf import settings
    from django.test import override_settings

    if not settings.configured:
        yield
        return
    with override_settings(TASKS={"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}):
        yield


@pytest.fixture
def alice(db):
    """A registered user; the factory is imported here because Django is not set up yet at collection."""
    from tests.lists.factories import make_user

    return make_user("alice")


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


@pytest.fixture
def fr_client(client):
    """A visitor whose language cookie asks for French."""
    client.cookies["django_language"] = "fr"
    return client


def reload(client, url, response, **headers):
    """Ask for ``url`` again as a browser holding ``response`` in its cache would (If-None-Match)."""
    return client.get(url, headers={"If-None-Match": response["ETag"], **headers})


def assert_french_is_fetched_anew(client, url: str, french_text: str) -> None:
    """A page kept in English is not a 304 once the visitor switches to French (the ETag varies with
    the language): the French page comes in full, and is then kept in its turn."""
    english = client.get(url)
    client.cookies["django_language"] = "fr"
    french = reload(client, url, english)
    assert french.status_code == 200
    assert french_text in french.content.decode()
    assert reload(client, url, french).status_code == 304


@pytest.fixture(autouse=True)
def _default_language():
    # A request in French leaves French active in this thread (the test client runs views here):
    # each test starts in the default language, whatever ran before it.
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(path):
        # A missing browser is a broken environment, not a reason to skip: fail loudly.
        raise RuntimeError("Debian's chromium is required for browser tests: apt-get install -y chromium")
    return path


@pytest.fixture(scope="session")
def _playwright_browser(django_db_setup, django_db_blocker):
    # The test database must exist before Playwright starts its event loop in this thread:
    # Django refuses synchronous database set-up inside a running loop.
    from playwright.sync_api import expect, sync_playwright

    # Every expect() waits up to 20 s (Playwright's default is 5 s): on a loaded 2-core machine a
    # swap or a navigation can take longer, and one test failed intermittently so. A condition met
    # sooner returns at once, so a passing run is no slower.
    expect.set_options(timeout=20_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def browser_context(_playwright_browser, live_server):
    context = _playwright_browser.new_context(base_url=live_server.url, viewport={"width": 1200, "height": 900})
    context.set_default_timeout(15_000)
    yield context
    context.close()


@pytest.fixture
def page(browser_context):
    page = browser_context.new_page()
    yield page
    page.close()


@pytest.fixture
def new_browser_context(_playwright_browser, live_server):
    """A factory for extra, independent contexts (a second user, a logged-out visitor)."""
    contexts = []

    def make(**kwargs):
        context = _playwright_browser.new_context(base_url=live_server.url, **kwargs)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def wait_until(page, expression: str, arg=None, timeout: float = 30.0) -> None:
    """Poll a page expression from the test, through DevTools, until it is truthy.

    Playwright's ``wait_for_function`` polls inside the page with ``new Function``, which the strict
    CSP (no 'unsafe-eval') refuses whenever the first check is not already true. The default wait
    is generous (30 s): a passing check returns at once, and CI shares its cores (a 10 s wait once
    ran out there while the phone's queue was still being sent).
    """
    import time

    from playwright.sync_api import Error

    deadline = time.monotonic() + timeout
    while True:
        try:
            if page.evaluate(expression, arg):
                return
        except Error:
            pass  # the page is navigating: its next document answers the next poll
        if time.monotonic() > deadline:
            raise AssertionError(f"Still false after {timeout} s: {expression}")
        time.sleep(0.05)


def log_in(context, live_server, user):
    """Hand a browser context a session of ``user`` (the login form has tests of its own).

    Returns the test client holding the same session, for tests that also fetch pages server-side."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    return client


def pytest_addoption(parser):
    parser.addoption(
        "--update-query-counts",
        action="store_true",
        help="write the main pages' query counts to tests/query_counts/ (see tests/test_query_counts.py)",
    )
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="run only the tests that use the database (CI's second run, against PostgreSQL)",
    )


# What pytest-django gives a test that may touch the database; a test with none of them is refused
# any query, so it cannot tell SQLite from PostgreSQL.
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback", "live_server"}
)


def uses_the_database(item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ()))
    )


def pytest_collection_modifyitems(config, items):
    # CI runs the whole suite on SQLite, then again on PostgreSQL. The second run leaves out the
    # tests that never reach a database (the rules engine, parsers, templates' static checks): they
    # ran in the first, and a second run of them against PostgreSQL would only repeat it.
    if not config.getoption("--database-tests-only"):
        return
    kept = [item for item in items if uses_the_database(item)]
    left_out = [item for item in items if not uses_the_database(item)]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept
