"""Every PDF not already kept is made by the task worker, never inside the request.

A print PDF takes from half a second (a one-unit roster) to seconds (the quick reference, about
6 s on one core; a 100-unit list's cards, 4 s: docs/deploy.md); a request that waits for it holds
a gunicorn worker the whole time, and an anonymous visitor can ask for new variants at will. So a
PDF kept in the cache for the list (or edition) as it is now is served at once, and any other is
made by ``render_pdf`` in the worker process (``manage.py db_worker``): the request only writes a
``PdfJob`` row through the job pipeline (``armybuilder.jobs``: the same input is one job, per-owner
cap and per-client limits) and answers with the job's status page, which then offers the file.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.http import HttpRequest
from django.tasks import task

from armybuilder import jobs
from armybuilder.lists.models import ArmyList
from armybuilder.playsheets import pdf
from armybuilder.playsheets.models import MAX_PDF_BYTES, PdfJob
from armybuilder.reference.models import Edition


@task
def render_pdf(job_id: str) -> str:
    """Make the PDF its ``PdfJob`` names (a list's parts, or an edition's quick reference)."""
    return jobs.run(PdfJob, job_id, _make, claim_fields={"stage": "reading"}, failure_fields={"error": "render"})


def _make(job: PdfJob) -> dict:
    progress = lambda stage: jobs.update(job, stage=stage)  # noqa: E731
    if job.army_list_id is None:
        progress("layout")
        data = pdf.reference_sheet_pdf(job.edition, lang=job.lang, paper=job.paper)
    else:
        army_list = ArmyList.objects.select_related("army", "edition").get(pk=job.army_list_id)
        data = pdf.list_pdf(army_list, lang=job.lang, paper=job.paper, parts=job.part_list, progress=progress)
    if len(data) > MAX_PDF_BYTES:
        raise jobs.JobRefused(error="size")
    return {"stage": "done", "pdf": data}


def enqueue_list_pdf(
    army_list: ArmyList,
    *,
    key: str,
    lang: str,
    paper: str,
    parts: Sequence[str],
    filename: str,
    request: HttpRequest,
) -> PdfJob:
    """The job making this list's PDF: a live one for the same list, options and file, else a new one.

    ``key`` is the PDF's cache key (``pdf.list_cache_key``: the list's revision, options, build, data).
    """
    return jobs.enqueue(
        PdfJob,
        render_pdf,
        input_key=jobs.input_key("list", army_list.pk, key, filename),
        request=request,
        army_list=army_list,
        lang=lang,
        paper=paper,
        parts="+".join(parts),
        filename=filename,
    )


def enqueue_reference_sheet(edition: Edition, *, lang: str, paper: str, filename: str, request: HttpRequest) -> PdfJob:
    """The job making the edition's quick-reference sheet: one for everybody per language, paper and version."""
    return jobs.enqueue(
        PdfJob,
        render_pdf,
        input_key=jobs.input_key("sheet", pdf.sheet_cache_key(edition, lang, paper)),
        request=request,
        edition=edition,
        lang=lang,
        paper=paper,
        parts="reference",
        filename=filename,
    )
