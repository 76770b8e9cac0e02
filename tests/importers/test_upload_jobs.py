"""Uploaded files are imported by the task worker: the request stores them with a job and queues it.

Most tests here queue nothing that runs (Django's dummy backend) and then run the task themselves,
as the worker would, to see the request do no import and the job do all of it; the last one goes
through the database queue and the worker's own command.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils import timezone

from armybuilder.catalogue.models import Army, Unit
from armybuilder.importers.jobs import import_upload
from armybuilder.importers.models import ImportJob, ImportUpload
from tests.importers.test_module import MODULE
from tests.importers.test_module_writer import make_v3_chart

pytestmark = pytest.mark.django_db

URL = "/catalogue/import/"
HTMX = {"HX-Request": "true"}
NOTHING_RUNS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


def make_staff(username: str = "quartermaster") -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_user(username=username, password=None, is_staff=True))
    return client


@pytest.fixture
def staff():
    make_v3_chart()
    return make_staff()


def module_upload(name: str = "TTAMBA-Test", data: bytes | None = None) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, MODULE.read_bytes() if data is None else data)


def malformed_module() -> bytes:
    """A module by its look (the page takes it), whose units the worker cannot read."""
    data = json.loads(MODULE.read_bytes())
    data["data"]["units"] = "none"
    return json.dumps(data).encode()


def run_the_worker(job: ImportJob) -> str:
    """What the worker does with the queued task (the dummy backend only records it)."""
    return import_upload.call(str(job.pk))


def test_a_module_upload_is_queued_and_the_request_imports_nothing(staff):
    with override_settings(TASKS=NOTHING_RUNS):
        fragment = staff.post(URL, {"files": [module_upload()]}, headers=HTMX).content.decode()
    job = ImportJob.objects.get()
    assert (job.status, job.file_names, job.repository) == ("queued", ["TTAMBA-Test"], "")
    assert not Unit.objects.exists() and not Army.objects.filter(origin="module").exists()
    # The bytes wait with the job, exactly as sent.
    assert [(upload.name, bytes(upload.data)) for upload in job.uploads.all()] == [("TTAMBA-Test", MODULE.read_bytes())]
    url = f"/catalogue/import/jobs/{job.pk}/"
    assert f'hx-get="{url}" hx-trigger="every 2s"' in fragment and 'data-status="queued"' in fragment
    assert "Importing 1 uploaded file in the background." in fragment and "TTAMBA-Test" in fragment
    assert "Waiting for the worker" in fragment
    page = staff.get(url).content.decode()
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in page

    assert run_the_worker(job) == "done"

    job.refresh_from_db()
    assert job.status == "done" and job.finished_at is not None
    assert Unit.objects.filter(army__name="Germany", army__origin="module", name="Heer Rifle Squad").exists()
    assert not ImportUpload.objects.exists()  # the database keeps the report, not the upload
    text = staff.get(url, headers=HTMX).content.decode()
    assert 'data-status="done"' in text and "hx-trigger" not in text
    assert "Import complete." in text and "<strong>Germany</strong>: units read:" in text


def test_a_dry_run_upload_checks_in_the_worker_and_writes_nothing(staff):
    with override_settings(TASKS=NOTHING_RUNS):
        response = staff.post(URL, {"files": [module_upload()], "dry_run": "on", "edition": "v3"})
    job = ImportJob.objects.get()
    assert response["Location"] == f"/catalogue/import/jobs/{job.pk}/"
    assert (job.dry_run, job.edition) == (True, "v3")
    run_the_worker(job)
    page = staff.get(response["Location"]).content.decode()
    assert "Dry run: the data was checked and nothing was written." in page
    assert not Unit.objects.exists() and not ImportUpload.objects.exists()


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"army.cat": b"<catalogue"}, "army.cat is not well-formed XML"),
        ({"armies.json": b'{"armies": [', "core.json": b"{}"}, "armies.json is not valid JSON"),
        (
            {"TTAMBA-Test": malformed_module()},
            "TTAMBA-Test: data.units is not a list. Nothing was imported.",
        ),
    ],
)
def test_a_bad_file_found_by_the_worker_fails_the_job_with_its_reason(staff, files, message):
    with override_settings(TASKS=NOTHING_RUNS):
        response = staff.post(URL, {"files": [module_upload(name, data) for name, data in files.items()]})
    job = ImportJob.objects.get()
    assert job.uploads.count() == len(files)  # the page could not tell: the worker reads the files

    assert run_the_worker(job) == "refused"

    job.refresh_from_db()
    assert job.status == "failed" and message.split(". Nothing")[0] in job.error
    assert not ImportUpload.objects.exists()
    page = staff.get(response["Location"])
    text = page.content.decode()
    assert page.status_code == 200 and message in text and "The files were not imported." in text
    assert "<noscript><meta" not in text  # finished: the page stops reloading
    assert not Army.objects.filter(origin="module").exists() and not Unit.objects.exists()


def test_an_unexpected_error_in_the_worker_fails_the_job_and_still_deletes_the_files(staff, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug, not the data")

    monkeypatch.setattr("armybuilder.importers.jobs.import_files", broken)
    with override_settings(TASKS=NOTHING_RUNS):
        response = staff.post(URL, {"files": [module_upload()]})
    job = ImportJob.objects.get()
    with pytest.raises(RuntimeError):
        run_the_worker(job)  # raised again, so the queue records the task as failed too
    job.refresh_from_db()
    assert job.status == "failed" and not ImportUpload.objects.exists()
    text = staff.get(response["Location"]).content.decode()
    assert "The import failed unexpectedly. Nothing was imported." in text


def test_the_files_of_a_job_whose_worker_was_lost_are_deleted_with_the_next_upload(staff):
    with override_settings(TASKS=NOTHING_RUNS):
        staff.post(URL, {"files": [module_upload()]})
        lost = ImportJob.objects.get()
        ImportJob.objects.update(status="running", started_at=timezone.now() - timedelta(minutes=16))
        staff.post(URL, {"files": [module_upload("Next-Module")]})
    assert list(ImportUpload.objects.values_list("job", "name")) == [
        (ImportJob.objects.exclude(pk=lost.pk).get().pk, "Next-Module")
    ]
    text = staff.get(f"/catalogue/import/jobs/{lost.pk}/").content.decode()
    assert "The worker stopped during the import. Nothing was imported; start it again." in text


def test_the_same_files_sent_twice_while_waiting_are_one_job(staff):
    with override_settings(TASKS=NOTHING_RUNS):
        first = staff.post(URL, {"files": [module_upload()]})
        second = staff.post(URL, {"files": [module_upload()]})
        other_options = staff.post(URL, {"files": [module_upload()], "dry_run": "on"})
    assert first["Location"] == second["Location"] != other_options["Location"]
    assert ImportJob.objects.count() == 2 and ImportUpload.objects.count() == 2


def test_one_account_keeps_only_a_few_uploads_waiting(staff):
    with override_settings(TASKS=NOTHING_RUNS):
        for options in ({}, {"dry_run": "on"}, {"edition": "v3"}):  # three jobs: other options, other inputs
            assert staff.post(URL, {"files": [module_upload()], **options}).status_code == 302
        refused = staff.post(URL, {"files": [module_upload("Another")]}, headers=HTMX)
    assert refused.status_code == 429
    assert "You already have 3 PDFs or imports being made" in refused.content.decode()
    assert ImportJob.objects.count() == 3 and not ImportUpload.objects.filter(name="Another").exists()


def test_only_staff_may_upload_or_follow_an_upload(staff):
    with override_settings(TASKS=NOTHING_RUNS):
        url = staff.post(URL, {"files": [module_upload()]})["Location"]
    player = Client()
    player.force_login(get_user_model().objects.create_user(username="player", password=None))
    assert player.post(URL, {"files": [module_upload("Other-Module")]}).status_code == 403
    assert player.get(url).status_code == 403
    anonymous = Client().post(URL, {"files": [module_upload("Other-Module")]})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert ImportJob.objects.count() == 1 and ImportUpload.objects.get().name == "TTAMBA-Test"


def test_the_waiting_upload_speaks_french(staff):
    with override_settings(TASKS=NOTHING_RUNS):
        url = staff.post(URL, {"files": [module_upload()]})["Location"]
    text = staff.get(url, headers={"Accept-Language": "fr"}).content.decode()
    assert "Import de 1 fichier envoyé en arrière-plan." in text


@pytest.mark.django_db(transaction=True)
def test_the_database_queue_and_its_worker_import_the_uploaded_module():
    from django_tasks_db.models import DBTaskResult

    make_v3_chart()
    client = make_staff()
    with override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}):
        url = client.post(URL, {"files": [module_upload()]})["Location"]
        assert ImportJob.objects.get().status == ImportJob.Status.QUEUED
        assert DBTaskResult.objects.get().task_path == "armybuilder.importers.jobs.import_upload"
        assert not Unit.objects.exists() and ImportUpload.objects.count() == 1

        call_command("db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0)

    assert DBTaskResult.objects.get().status == "SUCCESSFUL"
    assert Unit.objects.filter(army__origin="module").exists() and not ImportUpload.objects.exists()
    assert "Import complete." in client.get(url).content.decode()
