"""In a real browser: staff upload a module, the worker imports it, and the page follows the job."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings
from playwright.sync_api import expect

from armybuilder.catalogue.models import Unit
from armybuilder.importers.models import ImportUpload
from tests.conftest import log_in
from tests.importers.test_module import MODULE
from tests.importers.test_module_writer import make_v3_chart


@pytest.fixture
def a_real_queue():
    """The database queue, with no worker until the test runs one (``settings`` is not Django's here)."""
    with override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}):
        yield


def run_the_worker() -> None:
    """The worker process's code, here: it takes the queued task and imports the files."""
    call_command("db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_uploaded_module_is_imported_by_the_worker_and_the_report_fills_in(
    django_db_setup, live_server, browser_context, page, a_real_queue
):
    make_v3_chart()
    log_in(browser_context, live_server, get_user_model().objects.create_user("quartermaster", is_staff=True))

    page.goto("/catalogue/import/")
    page.evaluate("window.muster_marker = 'same page'")
    page.set_input_files("#id_files", str(MODULE))
    page.get_by_role("button", name="Import", exact=True).click()
    report = page.locator("#import-report")
    expect(report).to_have_attribute("data-status", "queued", timeout=30_000)
    expect(report).to_contain_text("Importing 1 uploaded file in the background.")
    expect(report).to_contain_text("TTAMBA-Test")
    assert not Unit.objects.exists()  # the request imported nothing

    run_the_worker()
    expect(report).to_have_attribute("data-status", "done", timeout=30_000)
    expect(report).to_contain_text("Import complete.")
    expect(report.locator(".import-armies")).to_contain_text("Germany")
    assert page.evaluate("window.muster_marker") == "same page"  # sent and polled in place, never reloaded
    assert Unit.objects.filter(army__origin="module").exists() and not ImportUpload.objects.exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_without_javascript_the_upload_goes_to_the_jobs_page_which_reloads_until_done(
    django_db_setup, live_server, new_browser_context, a_real_queue
):
    make_v3_chart()
    context = new_browser_context(java_script_enabled=False)
    log_in(context, live_server, get_user_model().objects.create_user("quartermaster", is_staff=True))
    page = context.new_page()

    page.goto("/catalogue/import/")
    page.set_input_files("#id_files", str(MODULE))
    page.get_by_role("button", name="Import", exact=True).click()
    page.wait_for_url("**/catalogue/import/jobs/*/")
    expect(page.locator("#import-report")).to_have_attribute("data-status", "queued")
    run_the_worker()
    # The meta refresh reloads the page until the report is in.
    expect(page.locator("#import-report")).to_have_attribute("data-status", "done", timeout=30_000)
    expect(page.locator("#import-report")).to_contain_text("Import complete.")
