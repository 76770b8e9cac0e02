"""The staff page's GitHub field in a real browser: the report replaces the form's result in place (htmx)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from armybuilder.catalogue.models import Unit
from tests.importers.test_github import archive_server, repository_zip  # noqa: F401 (fixture)
from tests.importers.test_writer import make_chart


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_staff_import_a_repository_by_name(page, live_server, archive_server):  # noqa: F811
    make_chart("v3")
    archive_server.archives["/muster/testland/zip/main"] = repository_zip()
    staff = get_user_model().objects.create_user(username="quartermaster", password=None, is_staff=True)
    client = Client()
    client.force_login(staff)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])

    page.goto("/catalogue/import/")
    page.evaluate("window.muster_marker = 'same page'")
    page.get_by_label("Or a GitHub repository").fill("muster/testland@main")
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.locator("#import-report")).to_contain_text("Import complete.")
    expect(page.locator("#import-report")).to_contain_text("Units: 8 (8 created")
    # Swapped in place by htmx: the page was not reloaded.
    assert page.evaluate("window.muster_marker") == "same page"
    assert Unit.objects.count() == 8
