"""The known sources on the staff page in a real browser: "Import this source" imports it in place (htmx)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from armybuilder.catalogue.models import Unit
from tests.importers.test_github import archive_server  # noqa: F401 (fixture)
from tests.importers.test_sources import COMMIT, SOVIET_ARCHIVE, nr3_zip
from tests.importers.test_writer import make_chart


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_staff_import_a_known_source_in_one_step_then_re_import_it(page, live_server, archive_server):  # noqa: F811
    make_chart("v3")
    archive_server.archives[SOVIET_ARCHIVE] = nr3_zip()
    staff = get_user_model().objects.create_user(username="quartermaster", password=None, is_staff=True)
    client = Client()
    client.force_login(staff)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page.set_viewport_size({"width": 390, "height": 844})

    page.goto("/catalogue/import/")
    page.evaluate("window.muster_marker = 'same page'")
    card = page.locator("#source-jelle-kuipers-nrdata")
    expect(card).to_contain_text("Never imported here")
    card.get_by_role("button", name="Import this source: Bolt Action: Third Edition (NewRecruit data)").click()
    report = page.locator("#import-report")
    expect(report).to_contain_text("Import complete.", timeout=30_000)
    expect(report).to_contain_text("units read: 8 · imported: 8 · options: 2 · guessed: 0 · dropped: 0")
    # The card was refreshed in place: its last update and a re-import button.
    expect(card).to_contain_text(COMMIT[:7])
    expect(card.get_by_role("button", name="Re-import: Bolt Action: Third Edition (NewRecruit data)")).to_be_visible()
    assert page.evaluate("window.muster_marker") == "same page"
    assert Unit.objects.count() == 8

    # Re-importing the same data changes nothing, and the keyboard reaches the button.
    card.get_by_role("button", name="Re-import: Bolt Action: Third Edition (NewRecruit data)").focus()
    page.keyboard.press("Enter")
    expect(report).to_contain_text("Nothing changed: the data is the same as at the last import.", timeout=30_000)
    assert Unit.objects.count() == 8
    # Nothing on the phone layout is wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
