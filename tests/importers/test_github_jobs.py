"""The staff page's GitHub import runs in the task worker: enqueued, followed on its page, its report shown.

Tasks run at once here (tests/conftest.py) unless a test says otherwise; the last test goes
through the database queue and the worker's own command.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils import timezone

from armybuilder.catalogue.models import Unit
from armybuilder.importers.models import ImportJob
from tests.importers.test_github import archive_server, repository_zip  # noqa: F401 (fixture)
from tests.importers.test_writer import make_chart

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
NOTHING_RUNS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


@pytest.fixture
def staff_client():
    make_chart("v3")
    client = Client()
    client.force_login(get_user_model().objects.create_user(username="quartermaster", password=None, is_staff=True))
    return client


def test_an_htmx_import_answers_with_the_jobs_report(staff_client, archive_server):  # noqa: F811
    archive_server.archives["/muster/testland/zip/main"] = repository_zip()
    response = staff_client.post("/catalogue/import/", {"github": "muster/testland@main"}, headers=HTMX)
    text = response.content.decode()
    assert response.status_code == 200 and "<html" not in text
    assert 'data-status="done"' in text and "hx-trigger" not in text
    assert "Import complete." in text and "Units: 8 (8 created" in text
    job = ImportJob.objects.get()
    assert job.report["catalogues"][0]["changed"] is True and job.requested_by.username == "quartermaster"
    assert Unit.objects.count() == 8


def test_a_waiting_import_polls_and_reloads_without_javascript(staff_client, archive_server):  # noqa: F811
    with override_settings(TASKS=NOTHING_RUNS):
        fragment = staff_client.post(
            "/catalogue/import/", {"github": "muster/testland@main", "dry_run": "on"}, headers=HTMX
        ).content.decode()
        job = ImportJob.objects.get()
        url = f"/catalogue/import/jobs/{job.pk}/"
        assert f'hx-get="{url}" hx-trigger="every 2s"' in fragment
        assert "Importing muster/testland@main in the background." in fragment and "Waiting for the worker" in fragment
        page = staff_client.get(url)
        assert page["Cache-Control"] == "no-store"
        assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in page.content.decode()
        ImportJob.objects.update(status="running", stage="downloading", received=3 * 2**20)
        assert "Downloading the repository · 3.0 MB received" in staff_client.get(url, headers=HTMX).content.decode()
        # A worker that died mid-import: said so, and the page stops polling.
        ImportJob.objects.update(started_at=timezone.now() - timedelta(minutes=16))
        text = staff_client.get(url, headers=HTMX).content.decode()
        assert "The worker stopped during the import." in text and "hx-trigger" not in text
    assert archive_server.requested == []  # nothing ran


def test_a_refused_repository_is_said_in_words(staff_client, archive_server):  # noqa: F811
    response = staff_client.post("/catalogue/import/", {"github": "muster/nowhere"})
    page = staff_client.get(response["Location"]).content.decode()
    assert "not found (check the owner, repository and branch). Nothing was imported." in page
    assert ImportJob.objects.get().status == ImportJob.Status.FAILED
    assert Unit.objects.count() == 0


def test_files_and_a_repository_are_imported_one_at_a_time(staff_client, archive_server):  # noqa: F811
    upload = SimpleUploadedFile("army.cat", b"<catalogue/>")
    response = staff_client.post("/catalogue/import/", {"github": "muster/testland", "files": [upload]})
    assert "Import files and a GitHub repository one at a time." in response.content.decode()
    assert not ImportJob.objects.exists() and archive_server.requested == []


def test_only_staff_see_an_import_job(staff_client, archive_server):  # noqa: F811
    with override_settings(TASKS=NOTHING_RUNS):
        staff_client.post("/catalogue/import/", {"github": "muster/testland"})
    url = f"/catalogue/import/jobs/{ImportJob.objects.get().pk}/"
    player = Client()
    player.force_login(get_user_model().objects.create_user(username="player", password=None))
    assert player.get(url).status_code == 403
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert staff_client.get("/catalogue/import/jobs/00000000-0000-4000-8000-000000000000/").status_code == 404


def test_the_import_page_speaks_french_while_it_waits(staff_client, archive_server):  # noqa: F811
    with override_settings(TASKS=NOTHING_RUNS):
        response = staff_client.post("/catalogue/import/", {"github": "muster/testland"})
    text = staff_client.get(response["Location"], headers={"Accept-Language": "fr"}).content.decode()
    assert "Import de muster/testland en arrière-plan." in text


@pytest.mark.django_db(transaction=True)
def test_the_database_queue_and_its_worker_import_the_repository(archive_server):  # noqa: F811
    from django_tasks_db.models import DBTaskResult

    make_chart("v3")
    archive_server.archives["/muster/testland/zip/HEAD"] = repository_zip()
    client = Client()
    client.force_login(get_user_model().objects.create_user(username="quartermaster", password=None, is_staff=True))
    with override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}):
        url = client.post("/catalogue/import/", {"github": "muster/testland"})["Location"]
        assert ImportJob.objects.get().status == ImportJob.Status.QUEUED
        assert DBTaskResult.objects.get().task_path == "armybuilder.importers.jobs.import_github"
        assert Unit.objects.count() == 0 and archive_server.requested == []

        call_command("db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0)

    assert DBTaskResult.objects.get().status == "SUCCESSFUL"
    assert Unit.objects.count() == 8
    assert "Import complete." in client.get(url).content.decode()
