"""The PDF of every approved list of an event, made by the task worker (``manage.py db_worker``).

Each list is printed as it was sealed, not as it is now: its sealed export is read into memory
(``lists.snapshot``, the player's own units included, nothing written) and laid out with the
playsheets' roster (``list_context`` and the same print template). The
rosters' pages are then written as one PDF. The job row's ``rendered`` count is updated
between lists, outside those transactions, so the status page shows it moving.
"""

from __future__ import annotations

import logging

from django.utils import timezone, translation

from armybuilder.events.models import Event, ListsPdfJob, Submission
from armybuilder.lists.exchange import ListImportError
from armybuilder.playsheets import pdf
from armybuilder.playsheets.context import list_context
from armybuilder.playsheets.models import MAX_PDF_BYTES

logger = logging.getLogger(__name__)


def enqueue(event: Event, *, lang: str, paper: str) -> ListsPdfJob:
    from armybuilder.events.tasks import render_event_lists_pdf

    ListsPdfJob.objects.expired().delete()
    job = ListsPdfJob.objects.create(event=event, lang=lang, paper=paper)
    render_event_lists_pdf.enqueue(str(job.pk))
    return job


def _update(job: ListsPdfJob, **fields: object) -> None:
    ListsPdfJob.objects.filter(pk=job.pk).update(**fields)
    for name, value in fields.items():
        setattr(job, name, value)


def _roster(submission: Submission, *, paper: str):
    """The laid-out roster of the list as sealed (read in memory, own units included); None if
    its units are no longer in the data."""
    try:
        sealed = submission.sealed_list(name=f"{submission.entrant.name}: {submission.list_name}")
    except ListImportError:
        return None
    html = pdf.render_html(pdf.LIST_TEMPLATE, list_context(sealed, paper=paper, parts=("roster",)))
    return pdf.fitted(html, pdf.font_config())


def run(job_id: str) -> str:
    job = ListsPdfJob.objects.select_related("event").filter(pk=job_id).first()
    if job is None:
        return "gone"
    if job.status != ListsPdfJob.Status.QUEUED:
        return job.status
    submissions = list(
        Submission.objects.filter(entrant__event=job.event, status=Submission.Status.APPROVED)
        .select_related("entrant__user")
        .order_by("entrant__user__username")
    )
    _update(job, status=ListsPdfJob.Status.RUNNING, started_at=timezone.now(), total=len(submissions))
    try:
        with translation.override(job.lang):
            documents = []
            skipped = 0
            for index, submission in enumerate(submissions, start=1):
                document = _roster(submission, paper=job.paper)
                if document is None:
                    skipped += 1
                else:
                    documents.append(document)
                _update(job, rendered=index, skipped=skipped)
            if documents:
                data = documents[0].copy([page for document in documents for page in document.pages]).write_pdf()
            else:
                context = {"event": job.event, "paper": job.paper, "doc_title": job.event.name, "doc_subtitle": ""}
                data = pdf.html_to_pdf(pdf.render_html("events/no_lists_document.html", context))
    except Exception:
        logger.exception("Event lists PDF job %s failed", job.pk)
        _update(job, status=ListsPdfJob.Status.FAILED, finished_at=timezone.now())
        raise
    if len(data) > MAX_PDF_BYTES * 5:
        _update(job, status=ListsPdfJob.Status.FAILED, finished_at=timezone.now())
        return "too large"
    _update(job, status=ListsPdfJob.Status.DONE, pdf=data, finished_at=timezone.now())
    return "done"
