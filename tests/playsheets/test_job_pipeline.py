"""The one job pipeline (armybuilder/jobs.py) as visitors meet it through the PDFs.

The queue is Django's dummy backend here (nothing runs by itself); ``work()`` then runs what is
queued through the task, as the worker does. Each refusal is a 429 that says why.
"""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from armybuilder import jobs
from armybuilder.events.models import ListsPdfJob
from armybuilder.importers.models import ImportJob
from armybuilder.playsheets import pdf
from armybuilder.playsheets.jobs import render_pdf
from armybuilder.playsheets.models import PdfJob
from tests.events.factories import make_event
from tests.playsheets.factories import make_playsheet_list

pytestmark = pytest.mark.django_db

DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


@pytest.fixture
def queue(settings):
    settings.TASKS = DUMMY


def work() -> None:
    for pk in PdfJob.objects.filter(status=PdfJob.Status.QUEUED).order_by("created_at").values_list("pk", flat=True):
        render_pdf.call(str(pk))


def visitor(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def status_url(response) -> str:
    assert response.status_code == 302, response.status_code
    assert re.match(
        r"^/(s/[\w-]+|lists/\d+|reference/[\w-]+/sheet)/pdf/|^/reference/[\w-]+/sheet/", response["Location"]
    )
    return response["Location"]


# -- The request answers at once; the worker makes the file ---------------------------------------


def test_an_anonymous_quick_reference_print_is_made_by_the_worker_and_then_downloads(edition, queue, read_pdf):
    army_list = make_playsheet_list(None)
    client = visitor("203.0.113.7")
    # A first request warms the process (imports, URLs, templates), as a long-running worker is.
    status_url(client.get(f"/s/{make_playsheet_list(None, name='Warm').share_token}/roster.pdf"))
    PdfJob.objects.all().delete()
    url = f"/s/{army_list.share_token}/print.pdf?lang=en&paper=letter&parts=reference"
    started = time.process_time()
    response = client.get(url)
    spent = time.process_time() - started
    page_url = status_url(response)
    # The request only wrote a row and queued a task: far from the render's seconds.
    assert spent < 1.0, spent
    job = PdfJob.objects.get()
    assert job.status == PdfJob.Status.QUEUED and job.owner == "ip:203.0.113.7"
    waiting = client.get(page_url).content.decode()
    assert "Waiting for the worker" in waiting and '<meta http-equiv="refresh" content="2">' in waiting

    work()

    ready = client.get(page_url).content.decode()
    assert "Your PDF is ready." in ready and 'http-equiv="refresh"' not in ready
    document = read_pdf(client.get(f"{page_url}file.pdf?download=1"))
    assert "quick reference" in document.lower and "Bolt Action" in document.text
    assert document.page_size() == (612, 792)  # US Letter
    # The same request again: the kept PDF, at once, the same bytes.
    again = client.get(url)
    assert again.status_code == 200 and again.content == document.content


def test_the_quick_reference_sheet_itself_is_made_by_the_worker(edition, queue, read_pdf):
    client = visitor("203.0.113.8")
    page_url = status_url(client.get(f"/reference/{edition.slug}/sheet.pdf?lang=fr&paper=a4"))
    assert page_url.startswith(f"/reference/{edition.slug}/sheet/")
    assert "Muster is making this PDF in the background" in client.get(page_url).content.decode()
    assert client.get(f"{page_url}file.pdf")["Location"] == page_url  # not made yet: back to the page
    work()
    document = read_pdf(client.get(f"{page_url}file.pdf"))
    assert "Aide-mémoire" in document.text or "aide-mémoire" in document.lower
    assert read_pdf(client.get(f"/reference/{edition.slug}/sheet.pdf?lang=fr&paper=a4")).content == document.content


def test_the_reference_part_is_rendered_once_per_edition_language_and_paper(edition, queue, monkeypatch, read_pdf):
    sheets = []
    render = pdf.render_pdf

    def counting(template_name, context):
        if template_name == pdf.SHEET_TEMPLATE:
            sheets.append(context["paper"])
        return render(template_name, context)

    monkeypatch.setattr(pdf, "render_pdf", counting)
    first, second = make_playsheet_list(None, name="First"), make_playsheet_list(None, name="Second")
    client = visitor("203.0.113.9")
    for army_list in (first, second):
        status_url(client.get(f"/s/{army_list.share_token}/print.pdf?lang=en&paper=a4&parts=roster&parts=reference"))
    status_url(client.get(f"/reference/{edition.slug}/sheet.pdf?lang=en&paper=a4"))
    work()
    assert sheets == ["A4"]  # one render for two lists and the sheet itself
    for army_list, name in ((first, "First"), (second, "Second")):
        document = read_pdf(
            client.get(f"/s/{army_list.share_token}/print.pdf?lang=en&paper=a4&parts=roster&parts=reference")
        )
        assert name in document.text and "quick reference" in document.lower
    # Another paper is another sheet.
    status_url(client.get(f"/s/{first.share_token}/print.pdf?lang=en&paper=letter&parts=reference"))
    work()
    assert sheets == ["A4", "letter"]


def test_the_kept_reference_cannot_go_stale(edition):
    key = pdf.sheet_cache_key(edition, "en", "a4")
    from armybuilder.http import build_stamp
    from armybuilder.reference.version import data_version

    # Its key names the rules data's version and the build: new data or a new release is a new key.
    assert data_version().stamp in key and build_stamp() in key


# -- The same input is one job ---------------------------------------------------------------------


def test_the_same_pdf_asked_twice_by_two_visitors_is_one_job(edition, queue):
    army_list = make_playsheet_list(None)
    url = f"/s/{army_list.share_token}/roster.pdf?lang=en&paper=a4"
    first = status_url(visitor("203.0.113.10").get(url))
    second = status_url(visitor("203.0.113.11").get(url))
    assert first == second and PdfJob.objects.count() == 1
    # Another language is another input.
    assert status_url(visitor("203.0.113.10").get(url.replace("lang=en", "lang=fr"))) != first


# -- Claimed once ----------------------------------------------------------------------------------


def test_a_job_is_claimed_by_one_delivery_only(edition, queue):
    army_list = make_playsheet_list(None)
    status_url(visitor("203.0.113.12").get(f"/s/{army_list.share_token}/roster.pdf"))
    job = PdfJob.objects.get()
    assert jobs.claim(PdfJob, str(job.pk)) is not None
    assert jobs.claim(PdfJob, str(job.pk)) is None  # the second delivery finds it taken


def test_a_task_delivered_twice_does_the_work_once(edition, queue, monkeypatch):
    army_list = make_playsheet_list(None)
    status_url(visitor("203.0.113.13").get(f"/s/{army_list.share_token}/roster.pdf"))
    job = PdfJob.objects.get()
    renders = []
    list_pdf = pdf.list_pdf
    monkeypatch.setattr(pdf, "list_pdf", lambda *args, **kwargs: renders.append(1) or list_pdf(*args, **kwargs))
    assert render_pdf.call(str(job.pk)) == "done"
    assert render_pdf.call(str(job.pk)) == "skipped"
    assert len(renders) == 1


# -- Fair shares of the queue ----------------------------------------------------------------------


def test_an_owner_has_at_most_three_jobs_waiting_and_is_told_why(edition, queue):
    lists = [make_playsheet_list(None, name=f"List {n}") for n in range(5)]
    flooder = visitor("203.0.113.20")
    for army_list in lists[:3]:
        status_url(flooder.get(f"/s/{army_list.share_token}/roster.pdf"))
    refused = flooder.get(f"/s/{lists[3].share_token}/roster.pdf")
    assert refused.status_code == 429 and refused["Retry-After"]
    assert "You already have 3 PDFs or imports being made" in refused.content.decode()
    in_french = flooder.get(f"/s/{lists[3].share_token}/roster.pdf", headers={"Accept-Language": "fr"})
    assert in_french.status_code == 429 and "Vous avez déjà 3 PDF" in in_french.content.decode()
    # A job the flooder already has is still handed back, and another visitor is not held up.
    status_url(flooder.get(f"/s/{lists[0].share_token}/roster.pdf"))
    status_url(visitor("203.0.113.21").get(f"/s/{lists[4].share_token}/roster.pdf"))
    # Once the worker has made them, the flooder may ask again.
    work()
    status_url(flooder.get(f"/s/{lists[3].share_token}/cards.pdf"))


def test_a_flood_cannot_push_another_owners_job_behind_it(edition, settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    lists = [make_playsheet_list(None, name=f"List {n}") for n in range(4)]
    flooder = visitor("203.0.113.30")
    for army_list in lists[:3]:
        status_url(flooder.get(f"/s/{army_list.share_token}/roster.pdf"))
    status_url(visitor("203.0.113.31").get(f"/s/{lists[3].share_token}/roster.pdf"))
    # The worker takes the ready tasks in the queue's own order (highest priority first, then the
    # oldest): the other visitor's first job comes second, not fourth.
    taken = [PdfJob.objects.get(pk=task.args_kwargs["args"][0]).owner for task in DBTaskResult.objects.ready()]
    assert taken == ["ip:203.0.113.30", "ip:203.0.113.31", "ip:203.0.113.30", "ip:203.0.113.30"]


def test_new_renders_are_limited_per_client_and_kept_pdfs_are_not_counted(edition, queue, settings):
    settings.RATELIMIT_ENABLE = True
    lists = [make_playsheet_list(None, name=f"List {n}") for n in range(7)]
    client = visitor("203.0.113.40")
    for army_list in lists[:6]:
        status_url(client.get(f"/s/{army_list.share_token}/roster.pdf"))
        work()  # each made before the next: the per-owner cap is not what stops this visitor
        # Served from what is kept: not a new render, not counted.
        assert client.get(f"/s/{army_list.share_token}/roster.pdf").status_code == 200
    refused = client.get(f"/s/{lists[6].share_token}/roster.pdf")
    assert refused.status_code == 429 and "Too many requests" in refused.content.decode()
    # Another address still may.
    status_url(visitor("203.0.113.41").get(f"/s/{lists[6].share_token}/roster.pdf"))


# -- Pruning ---------------------------------------------------------------------------------------


def test_a_new_job_prunes_the_old_jobs_of_every_kind_and_the_queues_finished_tasks(edition, queue, alice):
    from django_tasks_db.models import DBTaskResult

    army_list = make_playsheet_list(None)
    old_pdf = PdfJob.objects.create(army_list=army_list, lang="en", paper="a4", parts="roster", filename="x.pdf")
    old_lists = ListsPdfJob.objects.create(event=make_event(alice), lang="en", paper="a4")
    old_import = ImportJob.objects.create(repository="a/b")
    fresh_import = ImportJob.objects.create(repository="c/d")
    day_ago = timezone.now() - timedelta(hours=25)
    for model, job in ((PdfJob, old_pdf), (ListsPdfJob, old_lists)):
        model.objects.filter(pk=job.pk).update(created_at=day_ago)
    # Each kind keeps its rows as long as it says: an import's report a week.
    ImportJob.objects.filter(pk=old_import.pk).update(created_at=timezone.now() - timedelta(days=8))
    ImportJob.objects.filter(pk=fresh_import.pk).update(created_at=day_ago)
    task = DBTaskResult.objects.create(
        task_path="x.y",
        args_kwargs={"args": [], "kwargs": {}},
        status="SUCCESSFUL",
        backend_name="default",
        run_after=day_ago,
        finished_at=day_ago,
    )

    status_url(visitor("203.0.113.50").get(f"/s/{army_list.share_token}/roster.pdf"))

    assert not PdfJob.objects.filter(pk=old_pdf.pk).exists()
    assert not ListsPdfJob.objects.filter(pk=old_lists.pk).exists()
    assert not ImportJob.objects.filter(pk=old_import.pk).exists()
    assert ImportJob.objects.filter(pk=fresh_import.pk).exists()
    assert not DBTaskResult.objects.filter(pk=task.pk).exists()
    cache.clear()
