"""The PDF of every approved list of an event, made by the task worker (``manage.py db_worker``).

Each list is printed as it was sealed, not as it is now: its sealed export is read into memory
(``lists.snapshot``, the player's own units included, nothing written) and laid out with the
playsheets' roster (``list_context`` and the same print template). The
rosters' pages are then written as one PDF. The job row's ``rendered`` count is updated
between lists, outside those transactions, so the status page shows it moving.
"""

from __future__ import annotations

from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.tasks import task
from django.utils import translation
from django.utils.translation import gettext

from armybuilder import jobs
from armybuilder.events.models import Event, ListsPdfJob, Stage, StageSubmission, Submission
from armybuilder.http import build_stamp
from armybuilder.lists.exchange import ListImportError
from armybuilder.playsheets import pdf
from armybuilder.playsheets.context import list_context
from armybuilder.playsheets.models import MAX_PDF_BYTES
from armybuilder.reference.version import data_version


@task
def render_event_lists_pdf(job_id: str) -> str:
    """Make the PDF of every approved list of the job's event."""
    return jobs.run(ListsPdfJob, job_id, _make)


def _approved(event: Event):
    return (
        Submission.objects.filter(entrant__event=event, status=Submission.Status.APPROVED)
        .select_related("entrant__user")
        .order_by(Coalesce("entrant__user__username", "entrant__walk_in_name"), "pk")
    )


def _approved_stage_lists(event: Event) -> list[StageSubmission]:
    """An escalation event's approved lists, stage by stage (each player's list of stage 1, then 2...)."""
    return list(
        StageSubmission.objects.filter(stage__event=event, status=Submission.Status.APPROVED)
        .select_related("entrant__user", "stage")
        .order_by("stage__number", Coalesce("entrant__user__username", "entrant__walk_in_name"), "pk")
    )


def _printed(event: Event) -> list:
    """The sealed lists the PDF prints: per stage in an escalation event, else each player's one."""
    if Stage.objects.filter(event=event).exists():
        return _approved_stage_lists(event)
    return list(_approved(event))


def enqueue(event: Event, *, lang: str, paper: str, request: HttpRequest | None = None) -> ListsPdfJob:
    """The job for the event's lists as approved now: a live one for the same lists and options, else a new one.

    The key names each approved list as sealed (its submission and hash), the options, the build and
    the rules data, so a kept PDF is reused only while it still shows what a new one would.
    """
    if Stage.objects.filter(event=event).exists():
        sealed = [("stage", s.stage.number, s.pk, s.hash) for s in _approved_stage_lists(event)]
    else:
        sealed = list(_approved(event).values_list("pk", "hash"))
    key = jobs.input_key("event-lists", event.pk, lang, paper, sealed, build_stamp(), data_version().stamp)
    return jobs.enqueue(
        ListsPdfJob, render_event_lists_pdf, input_key=key, request=request, event=event, lang=lang, paper=paper
    )


def _roster(submission: Submission | StageSubmission, *, paper: str):
    """The laid-out roster of the list as sealed (read in memory, own units included); None if
    its units are no longer in the data. A stage's list is titled with its stage."""
    title = f"{submission.entrant.name}: {submission.list_name}"
    if isinstance(submission, StageSubmission):
        label = gettext("Stage %(n)s (%(points)s points)")
        title = f"{label % {'n': submission.stage.number, 'points': submission.stage.points_limit}} · {title}"
    try:
        sealed = submission.sealed_list(name=title)
    except ListImportError:
        return None
    html = pdf.render_html(pdf.LIST_TEMPLATE, list_context(sealed, paper=paper, parts=("roster",)))
    return pdf.fitted(html, pdf.font_config())


def _make(job: ListsPdfJob) -> dict:
    event = Event.objects.get(pk=job.event_id)
    submissions = _printed(event)
    jobs.update(job, total=len(submissions))
    with translation.override(job.lang):
        documents = []
        skipped = 0
        for index, submission in enumerate(submissions, start=1):
            document = _roster(submission, paper=job.paper)
            if document is None:
                skipped += 1
            else:
                documents.append(document)
            jobs.update(job, rendered=index, skipped=skipped)
        if documents:
            data = documents[0].copy([page for document in documents for page in document.pages]).write_pdf()
        else:
            context = {"event": event, "paper": job.paper, "doc_title": event.name, "doc_subtitle": ""}
            data = pdf.html_to_pdf(pdf.render_html("events/no_lists_document.html", context))
    if len(data) > MAX_PDF_BYTES * 5:
        raise jobs.JobRefused()
    return {"pdf": data}
