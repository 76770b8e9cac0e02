"""The staff upload page ``/catalogue/import/``, through the client.

The page checks the upload and hands the files to the task worker; tasks run at once here
(tests/conftest.py), so a POST comes back with the finished job (htmx) or redirects to its page.
The tests of the queue itself (nothing imported before the worker runs) are in
``test_upload_jobs.py``.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from armybuilder.catalogue.models import Army, Unit
from armybuilder.importers.models import ImportJob, ImportUpload
from armydata import safety
from tests.importers.helpers import read_battlescribe
from tests.importers.test_writer import make_chart

pytestmark = pytest.mark.django_db

URL = "/catalogue/import/"
HX = {"HX-Request": "true"}


def make_user(username: str, **kwargs):
    # No password: the tests log in with force_login, and hashing one is slow.
    return get_user_model().objects.create_user(username=username, password=None, **kwargs)


def uploads(*names: str, **extra: bytes) -> list[SimpleUploadedFile]:
    files = read_battlescribe(*names)
    files.update(extra)
    return [SimpleUploadedFile(name, data) for name, data in files.items()]


@pytest.fixture
def staff(client):
    make_chart()
    client.force_login(make_user("quartermaster", is_staff=True))
    return client


# who may use it


def test_it_sends_anonymous_visitors_to_the_login_page(client):
    response = client.get(URL)
    assert (response.status_code, response["Location"]) == (302, "/accounts/login/?next=/catalogue/import/")


def test_it_forbids_signed_in_users_who_are_not_staff(client):
    client.force_login(make_user("private"))
    assert client.get(URL).status_code == 403


def test_it_forbids_an_upload_by_a_user_who_is_not_staff(client):
    make_chart()
    client.force_login(make_user("private"))
    response = client.post(URL, {"files": uploads("rating.cat")})
    assert (response.status_code, Army.objects.count()) == (403, 0)
    assert not ImportJob.objects.exists() and not ImportUpload.objects.exists()


def test_it_shows_the_form_to_staff(staff):
    response = staff.get(URL)
    assert response.status_code == 200
    assert b'type="file" name="files"' in response.content


# CSRF


def test_it_refuses_a_post_without_a_csrf_token():
    make_chart()
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("quartermaster", is_staff=True))
    response = client.post(URL, {"files": uploads("rating.cat")})
    assert (response.status_code, Army.objects.count()) == (403, 0)
    assert not ImportJob.objects.exists()


def test_it_accepts_a_post_with_the_csrf_token_of_the_page():
    make_chart()
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("quartermaster", is_staff=True))
    token = client.get(URL).context["csrf_token"]
    response = client.post(URL, {"files": uploads("rating.cat"), "csrfmiddlewaretoken": str(token)})
    job = ImportJob.objects.get()
    assert (response.status_code, response["Location"]) == (302, f"/catalogue/import/jobs/{job.pk}/")
    assert Army.objects.count() == 1


# the report


def test_it_imports_several_files_and_shows_the_report_on_the_jobs_page(staff):
    response = staff.post(URL, {"files": uploads("rating.cat", "army.cat")})
    job = ImportJob.objects.get()
    assert response["Location"] == f"/catalogue/import/jobs/{job.pk}/"
    assert (job.status, job.repository, job.file_names) == ("done", "", ["army.cat", "rating.cat", "system.gst"])
    assert job.requested_by.username == "quartermaster"
    page = staff.get(response["Location"]).content.decode()
    assert "Import complete." in page
    assert "Units: 4 (4 created, 0 updated, 0 unchanged)" in page


def test_it_shows_the_skipped_entries_and_why(staff):
    response = staff.post(URL, {"files": uploads("army.cat")}, follow=True)
    assert b"<strong>Points Adjuster (u-adjuster)</strong>: utility entry" in response.content


def test_it_writes_nothing_on_a_dry_run(staff):
    response = staff.post(URL, {"files": uploads("rating.cat"), "dry_run": "on"}, follow=True)
    assert b"Dry run: the data was checked and nothing was written." in response.content
    assert b"Units: 1 (1 created" in response.content
    assert Unit.objects.count() == 0
    assert ImportJob.objects.get().dry_run is True


def test_it_imports_into_the_edition_chosen(staff):
    system = read_battlescribe()["system.gst"].replace(b"Bolt Action 2nd Edition (test)", b"Skirmish")
    response = staff.post(URL, {"files": uploads("rating.cat", **{"system.gst": system}), "edition": "v2"}, follow=True)
    assert (response.status_code, Army.objects.get().edition.slug) == (200, "v2")
    assert ImportJob.objects.get().edition == "v2"


def test_it_renders_only_the_report_for_htmx(staff):
    response = staff.post(URL, {"files": uploads("rating.cat")}, headers=HX)
    assert response.content.startswith(b'\n<section id="import-report"')
    assert b"<html" not in response.content
    assert b'data-status="done"' in response.content and b"hx-trigger" not in response.content
    assert b"Units: 1 (1 created" in response.content


def test_the_uploaded_files_are_deleted_once_imported(staff):
    staff.post(URL, {"files": uploads("rating.cat")})
    assert ImportJob.objects.get().is_done
    assert not ImportUpload.objects.exists()


def test_an_upload_is_not_listed_as_a_known_sources_last_import(staff):
    staff.post(URL, {"files": uploads("rating.cat")})
    assert not ImportJob.objects.latest_per_repository()
    assert "Never imported here" in staff.get(URL).content.decode()


# refused files: those the page can tell at once are refused next to the form, and nothing is queued


def test_it_shows_why_a_file_was_refused_and_writes_nothing(staff):
    response = staff.post(
        URL,
        {"files": [SimpleUploadedFile("orphan.cat", read_battlescribe("bad/orphan.cat")["orphan.cat"])]},
        follow=True,
    )
    assert b"needs game system sys-nowhere, which was not given. Nothing was imported." in response.content
    assert Army.objects.count() == 0
    assert ImportJob.objects.get().status == ImportJob.Status.FAILED and not ImportUpload.objects.exists()


def test_it_shows_a_malformed_file_in_the_htmx_report(staff):
    response = staff.post(URL, {"files": uploads(**{"broken.cat": b"<catalogue"})}, headers=HX)
    assert b"broken.cat is not well-formed XML" in response.content
    assert b'data-status="failed"' in response.content and b"hx-trigger" not in response.content
    assert Army.objects.count() == 0
    assert not ImportUpload.objects.exists()


def test_it_refuses_a_file_type_it_does_not_import(staff):
    response = staff.post(URL, {"files": [SimpleUploadedFile("notes.txt", b"hello")]})
    assert b"notes.txt is not a catalogue file" in response.content
    assert not ImportJob.objects.exists()


def test_it_stops_receiving_a_file_over_20_mb(staff):
    huge = SimpleUploadedFile("huge.cat", bytes(safety.MAX_FILE_BYTES + 1))
    response = staff.post(URL, {"files": [*uploads("rating.cat"), huge]})
    assert b"huge.cat is larger than 20 MB, the limit per file. Nothing was imported." in response.content
    assert Army.objects.count() == 0
    assert not ImportJob.objects.exists()


def test_it_refuses_a_request_larger_than_the_page_accepts(staff, monkeypatch):
    monkeypatch.setattr("armybuilder.importers.views.MAX_REQUEST_BYTES", 1024 * 1024)
    response = staff.post(URL, {"files": uploads("rating.cat", **{"big.cat": bytes(1100 * 1024)})})
    assert b"The upload is larger than 1 MB in total; send fewer files at once." in response.content
    assert Army.objects.count() == 0
    assert not ImportJob.objects.exists()


def test_it_refuses_more_files_than_it_takes_at_once(staff, monkeypatch):
    monkeypatch.setattr("armybuilder.importers.views.MAX_UPLOAD_FILES", 2)
    response = staff.post(URL, {"files": uploads("rating.cat", "army.cat")})
    assert b"At most 2 files at once." in response.content
    assert not ImportJob.objects.exists()


def test_importing_the_same_data_again_says_nothing_changed(staff):
    first = staff.post(URL, {"files": uploads("rating.cat")}, follow=True)
    assert "Nothing changed" not in first.content.decode()
    second = staff.post(URL, {"files": uploads("rating.cat")}, follow=True)
    assert "Nothing changed: the data is the same as at the last import." in second.content.decode()
    assert ImportJob.objects.count() == 2  # a finished import is never handed back: each upload runs
