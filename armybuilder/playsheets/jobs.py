"""Big lists' heavy PDFs, made by the task worker instead of inside the request.

The unit cards of a list at the 100-unit cap take seconds of CPU (docs/deploy.md): a request
that waits for them holds a gunicorn worker the whole time. So a list with more than
``settings.PDF_QUEUE_UNITS`` units has its cards (alone or in a print PDF) made by
``tasks.render_list_pdf`` in the worker process (``manage.py db_worker``); the request only
writes a ``PdfJob`` row and enqueues the task. The visitor follows the job on its status page and
downloads the bytes the worker stored on the row. A PDF already kept in the cache for the list as
it is now is served at once, whatever the list's size, and smaller lists render inline as before.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.conf import settings
from django.utils import timezone

from armybuilder.lists.models import ArmyList
from armybuilder.playsheets import pdf
from armybuilder.playsheets.models import JOB_KEEP, MAX_PDF_BYTES, PdfJob

logger = logging.getLogger(__name__)

# The part that makes a PDF slow: one card per unit, each laid out on its own.
HEAVY_PART = "cards"


def needs_worker(army_list: ArmyList, parts: Sequence[str]) -> bool:
    """Whether this PDF is made by the worker: the cards of a list above the threshold."""
    return HEAVY_PART in parts and army_list.entries.count() > settings.PDF_QUEUE_UNITS


def prune() -> None:
    """Forget jobs older than a day, and the queue's finished tasks as old (two indexed deletes)."""
    from django_tasks_db.models import DBTaskResult

    PdfJob.objects.expired().delete()
    DBTaskResult.objects.finished().filter(finished_at__lt=timezone.now() - JOB_KEEP).delete()


def enqueue_list_pdf(army_list: ArmyList, *, lang: str, paper: str, parts: Sequence[str], filename: str) -> PdfJob:
    """The job making this PDF: one already waiting, running or done for the same list and options,
    else a new one, enqueued. Requests run in autocommit, so the row is committed before the task
    is written; inside a transaction the database backend writes the task in it too, committed together.
    """
    from armybuilder.playsheets.tasks import render_list_pdf

    prune()
    key = pdf.list_cache_key(army_list, lang=lang, paper=paper, parts=parts)
    existing = PdfJob.objects.live().filter(army_list=army_list, key=key).first()
    if existing is not None and not existing.is_stale:
        return existing
    job = PdfJob.objects.create(
        army_list=army_list, key=key, lang=lang, paper=paper, parts="+".join(parts), filename=filename
    )
    render_list_pdf.enqueue(str(job.pk))
    return job


def _update(job: PdfJob, **fields: object) -> None:
    # One UPDATE of the named columns: the status page reads them while the render goes on.
    PdfJob.objects.filter(pk=job.pk).update(**fields)
    for name, value in fields.items():
        setattr(job, name, value)


def run(job_id: str) -> str:
    """Make the job's PDF and store it on the row; what happened, in a word, for the task's result."""
    job = PdfJob.objects.select_related("army_list").filter(pk=job_id).first()
    if job is None:
        return "gone"  # pruned, or its list deleted, before the worker reached it
    if job.status != PdfJob.Status.QUEUED:
        return job.status  # a second delivery of the same task: the first one ran it
    _update(job, status=PdfJob.Status.RUNNING, stage="reading", started_at=timezone.now())
    try:
        data = pdf.list_pdf(
            job.army_list,
            lang=job.lang,
            paper=job.paper,
            parts=job.part_list,
            progress=lambda stage: _update(job, stage=stage),
        )
    except Exception:
        logger.exception("PDF job %s failed", job.pk)
        _update(
            job,
            status=PdfJob.Status.FAILED,
            error="render",
            finished_at=timezone.now(),
        )
        raise
    if len(data) > MAX_PDF_BYTES:
        _update(
            job,
            status=PdfJob.Status.FAILED,
            error="size",
            finished_at=timezone.now(),
        )
        return "too large"
    _update(job, status=PdfJob.Status.DONE, stage="done", pdf=data, finished_at=timezone.now())
    return "done"
