"""In a real browser: a list's print PDF is queued, its page follows the worker, then offers the download."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from armybuilder.playsheets.models import PdfJob
from tests.playsheets.factories import alice_with_a_list, make_playsheet_list, make_rules_edition


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_job_page_follows_the_worker_and_offers_the_download(
    django_db_setup, live_server, browser_context, page, settings
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}  # a real queue, no worker yet
    army_list = alice_with_a_list(browser_context, live_server)

    page.goto(f"/lists/{army_list.pk}/print/")
    page.click("#download-pdf")  # the print PDF, cards included: queued
    page.wait_for_url("**/pdf/*/")
    status = page.locator("#pdf-job")
    expect(status).to_have_attribute("data-status", "queued")
    expect(status).to_contain_text("Waiting for the worker")
    page.evaluate("window.muster_marker = 'same page'")

    # The worker process's code, here: it takes the task and makes the PDF; htmx sees it done.
    call_command("db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0)
    expect(status).to_have_attribute("data-status", "done")
    assert page.evaluate("window.muster_marker") == "same page"  # polled in place, not reloaded

    with page.expect_download() as download_info:
        page.click("#pdf-job-download")
    download = download_info.value
    assert download.suggested_filename == "sisu-company-print-en-a4.pdf"
    with open(download.path(), "rb") as file:
        assert file.read().startswith(b"%PDF-")
    assert PdfJob.objects.get().status == PdfJob.Status.DONE


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_without_javascript_the_job_page_reloads_itself_until_done(
    django_db_setup, live_server, new_browser_context, settings
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    make_rules_edition()
    army_list = make_playsheet_list(None)
    page = new_browser_context(java_script_enabled=False).new_page()
    page.goto(f"/s/{army_list.share_token}/cards.pdf")
    page.wait_for_url("**/pdf/*/")
    expect(page.locator("#pdf-job")).to_have_attribute("data-status", "queued")
    call_command("db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0)
    # The meta refresh reloads the page: the download link appears.
    expect(page.locator("#pdf-job-download")).to_be_visible()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_quick_reference_sheet_follows_the_worker_with_htmx(django_db_setup, live_server, page, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    edition = make_rules_edition()
    page.goto(f"/reference/{edition.slug}/sheet.pdf?lang=en&paper=a4")
    page.wait_for_url("**/sheet/*/")
    status = page.locator("#pdf-job")
    expect(status).to_have_attribute("data-status", "queued")
    expect(page.locator("h1")).to_contain_text("Quick reference")
    page.evaluate("window.muster_marker = 'same page'")
    call_command("db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0)
    expect(status).to_have_attribute("data-status", "done", timeout=30_000)
    assert page.evaluate("window.muster_marker") == "same page"  # polled in place, not reloaded
    with page.expect_download() as download_info:
        page.click("#pdf-job-download")
    assert download_info.value.suggested_filename == f"muster-{edition.slug}-quick-reference-en-a4.pdf"
