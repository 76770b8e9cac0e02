"""A PDF not already kept is made by the task worker: the request enqueues, a status page follows, a download.

Most tests queue tasks without running them (Django's dummy backend, the ``worker`` fixture) and
then run what is queued, as the worker does, through the task itself; the worker's own path (the
database backend and ``manage.py db_worker``) is tested at the end. With the immediate backend of
development the job is made inside the request, which then serves the file at once.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from armybuilder.playsheets.models import PdfJob
from tests.lists.factories import make_user
from tests.playsheets.factories import make_playsheet_list

pytestmark = pytest.mark.django_db

JOB_URL = re.compile(r"^/(?:lists/\d+|s/[\w-]+)/pdf/([0-9a-f-]{36})/$")


class Worker:
    """The queue as the worker sees it: tasks wait until ``work()`` runs them (in this process)."""

    def work(self) -> None:
        from armybuilder.playsheets.jobs import render_pdf

        for pk in (
            PdfJob.objects.filter(status=PdfJob.Status.QUEUED).order_by("created_at").values_list("pk", flat=True)
        ):
            render_pdf.call(str(pk))


@pytest.fixture
def small_threshold(settings):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}  # nothing runs by itself
    return Worker()


def job_url(response) -> str:
    assert response.status_code == 302, response.status_code
    url = response["Location"]
    assert JOB_URL.match(url), url
    return url


def test_a_big_lists_cards_go_to_the_worker_and_come_back_as_a_download(
    alice_client, army_list, small_threshold, read_pdf
):
    url = job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=en"))
    job = PdfJob.objects.get()
    assert url == f"/lists/{army_list.pk}/pdf/{job.pk}/"
    assert job.status == PdfJob.Status.QUEUED and job.owner == f"user:{army_list.owner_id}"
    small_threshold.work()
    job.refresh_from_db()
    assert job.status == PdfJob.Status.DONE and job.stage == "done"

    page = alice_client.get(url)
    assert page.status_code == 200 and page["Cache-Control"] == "no-store"
    html = page.content.decode()
    assert "Your PDF is ready." in html
    assert f'href="{url}file.pdf?download=1"' in html
    assert "hx-trigger" not in html and 'http-equiv="refresh"' not in html  # finished: no more polling

    download = alice_client.get(f"{url}file.pdf?download=1")
    assert download["Content-Disposition"] == 'attachment; filename="sisu-company-cards-en-a4.pdf"'
    pdf = read_pdf(download)
    assert 'Medium anti-tank gun 60" 1 +5 / HE (1") Team' in pdf.text
    inline = alice_client.get(f"{url}file.pdf")
    assert inline["Content-Disposition"].startswith("inline;") and inline.content == download.content


def test_every_pdf_not_kept_goes_to_the_worker_whatever_its_parts(alice_client, army_list, small_threshold):
    job_url(alice_client.get(f"/lists/{army_list.pk}/print.pdf?parts=roster&parts=cards"))
    job_url(alice_client.get(f"/lists/{army_list.pk}/print.pdf?parts=roster&parts=summary"))
    job_url(alice_client.get(f"/lists/{army_list.pk}/roster.pdf"))
    assert PdfJob.objects.count() == 3
    small_threshold.work()
    # Made once: each is now served at once, without a new job.
    for url in ("print.pdf?parts=roster&parts=cards", "print.pdf?parts=roster&parts=summary", "roster.pdf"):
        response = alice_client.get(f"/lists/{army_list.pk}/{url}")
        assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    assert PdfJob.objects.count() == 3


def test_with_a_backend_that_runs_tasks_at_once_the_request_serves_the_file(alice_client, army_list):
    # Development's immediate backend (tests/conftest.py): the job is done when the request looks again.
    response = alice_client.get(f"/lists/{army_list.pk}/cards.pdf")
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    assert PdfJob.objects.get().is_done


def test_a_pdf_made_once_is_served_at_once_while_the_list_is_unchanged(alice_client, army_list, small_threshold):
    job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf"))
    small_threshold.work()
    again = alice_client.get(f"/lists/{army_list.pk}/cards.pdf")
    assert again.status_code == 200 and again.content == bytes(PdfJob.objects.get().pdf)
    # A changed list is made again.
    army_list.name = "Sisu Battalion"
    army_list.save()
    job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf"))
    assert PdfJob.objects.count() == 2


def test_a_share_link_follows_its_job_and_nobody_else_sees_it(alice_client, army_list, small_threshold):
    client = Client()  # a visitor with the link, not signed in (alice_client is the ``client`` fixture)
    shared = f"/s/{army_list.share_token}/"
    url = job_url(client.get(f"{shared}cards.pdf"))
    job = PdfJob.objects.get()
    assert url == f"{shared}pdf/{job.pk}/"
    small_threshold.work()
    page = client.get(url)
    assert page.status_code == 200 and page["X-Robots-Tag"] == "noindex"
    assert client.get(f"{url}file.pdf").content.startswith(b"%PDF-")
    # The owner sees it under the list too.
    assert alice_client.get(f"/lists/{army_list.pk}/pdf/{job.pk}/").status_code == 200

    # Anonymous without the link, another user, a wrong link, another list's address: 404 each time.
    owned = f"/lists/{army_list.pk}/pdf/{job.pk}/"
    assert client.get(owned).status_code == 404
    assert client.get(f"{owned}file.pdf").status_code == 404
    bob = make_user("bob")
    client.force_login(bob)
    assert client.get(owned).status_code == 404
    assert client.get(f"{owned}file.pdf").status_code == 404
    assert client.get(f"/s/not-the-link/pdf/{job.pk}/").status_code == 404
    bobs_list = make_playsheet_list(bob, name="Bob's")
    assert client.get(f"/lists/{bobs_list.pk}/pdf/{job.pk}/").status_code == 404
    assert client.get(f"/lists/{bobs_list.pk}/pdf/{job.pk}/file.pdf").status_code == 404
    assert client.get(f"/s/{bobs_list.share_token}/pdf/{job.pk}/").status_code == 404


def test_a_failed_render_is_said_in_words(alice_client, army_list, small_threshold, monkeypatch):
    from armybuilder.playsheets import pdf

    def broken(*args, **kwargs):
        raise RuntimeError("WeasyPrint fell over")

    monkeypatch.setattr(pdf, "render_pdf", broken)
    url = job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf"))
    with pytest.raises(RuntimeError):
        small_threshold.work()
    job = PdfJob.objects.get()
    assert job.status == PdfJob.Status.FAILED and job.error == "render"
    html = alice_client.get(url).content.decode()
    assert "The PDF could not be made." in html and "WeasyPrint" not in html
    assert 'data-status="failed"' in html
    # No file to download: back to the status page.
    assert alice_client.get(f"{url}file.pdf")["Location"] == url
    # Asking again makes a new job (a failed one is not reused).
    monkeypatch.undo()
    job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf"))
    small_threshold.work()
    assert PdfJob.objects.filter(status=PdfJob.Status.DONE).count() == 1


def test_a_job_whose_worker_died_is_shown_failed_and_replaced(alice_client, army_list, small_threshold):
    url = job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf"))
    job = PdfJob.objects.get()
    assert job.status == PdfJob.Status.QUEUED
    # Asked again while it waits: the same job.
    assert job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf")) == url
    PdfJob.objects.filter(pk=job.pk).update(
        status=PdfJob.Status.RUNNING, stage="layout", started_at=timezone.now() - timedelta(minutes=11)
    )
    html = alice_client.get(url).content.decode()
    assert "The worker stopped while making this PDF." in html
    assert job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf")) != url


def test_a_waiting_job_polls_with_htmx_and_without_javascript(alice_client, army_list, small_threshold):
    url = job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf"))
    html = alice_client.get(url).content.decode()
    assert f'hx-get="{url}" hx-trigger="every 2s"' in html
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in html
    assert "Waiting for the worker" in html and 'value="0"' in html
    assert "No worker has taken it up yet" not in html
    PdfJob.objects.update(created_at=timezone.now() - timedelta(minutes=2))
    assert "No worker has taken it up yet" in alice_client.get(url).content.decode()
    PdfJob.objects.update(status=PdfJob.Status.RUNNING, stage="fitting", started_at=timezone.now())
    fragment = alice_client.get(url, headers={"HX-Request": "true"})
    text = fragment.content.decode()
    assert text.lstrip().startswith('<section id="pdf-job"') and "<html" not in text
    assert "Fitting the parts to their pages" in text and 'value="60"' in text


def test_the_status_page_speaks_french(alice_client, army_list, small_threshold):
    url = job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=fr"))
    small_threshold.work()
    html = alice_client.get(url, headers={"Accept-Language": "fr"}).content.decode()
    assert "Votre PDF est prêt." in html


def test_jobs_are_kept_a_day(alice_client, army_list, small_threshold):
    job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=en"))
    old = PdfJob.objects.get()
    PdfJob.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert alice_client.get(f"/lists/{army_list.pk}/pdf/{old.pk}/").status_code == 200  # until the next job
    job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=fr"))
    assert not PdfJob.objects.filter(pk=old.pk).exists()
    assert alice_client.get(f"/lists/{army_list.pk}/pdf/{old.pk}/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_database_queue_and_its_worker_make_the_pdf(alice_client, army_list, small_threshold, settings, read_pdf):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    url = job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=en"))
    job = PdfJob.objects.get()
    assert job.status == PdfJob.Status.QUEUED
    task = DBTaskResult.objects.get()
    assert task.task_path == "armybuilder.playsheets.jobs.render_pdf" and task.args_kwargs["args"] == [str(job.pk)]
    assert "Waiting for the worker" in alice_client.get(url).content.decode()

    # The worker process's own code: take the waiting task, run it, stop when the queue is empty.
    call_command("db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0)

    task.refresh_from_db()
    assert task.status == "SUCCESSFUL" and task.return_value == "done"
    assert task.worker_ids  # claimed by the worker, not run in the request
    html = alice_client.get(url).content.decode()
    assert "Your PDF is ready." in html
    assert "Medium Tank" in read_pdf(alice_client.get(f"{url}file.pdf")).text


@pytest.mark.django_db(transaction=True)
def test_the_queues_finished_tasks_are_forgotten_after_a_day(alice_client, army_list, small_threshold, settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=en"))
    call_command("db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0)
    DBTaskResult.objects.update(finished_at=timezone.now() - timedelta(hours=25))
    job_url(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=fr"))
    assert list(DBTaskResult.objects.values_list("status", flat=True)) == ["READY"]  # only the new one


def test_the_deploy_check_warns_when_tasks_would_run_inside_requests(settings):
    from armybuilder.security.checks import check_task_queue

    settings.DEBUG = False
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    assert [message.id for message in check_task_queue(None)] == ["muster.W020"]
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    assert check_task_queue(None) == []
