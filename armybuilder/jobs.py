"""The one pipeline of work done by the task worker (a PDF, a catalogue import): enqueue, claim, update, run.

Each kind of job is a model built on ``Job`` (``PdfJob``, ``ListsPdfJob``, ``ImportJob``) and a
work function in its app's ``jobs`` module, next to the one-line task that hands the job's id to
``run``. The web process writes the row and enqueues the task (``enqueue``); the status pages
poll the row; the worker claims it, does the work and writes the result on it (``run``).

One source of truth for a job's state: the row's ``status``. The task queue keeps a status of its
own (django-tasks-db's ``DBTaskResult``), but nothing reads it: it belongs to one backend (the
immediate backend of development and tests keeps none), it is pruned on its own schedule, and it
cannot say "claimed by exactly one delivery". The row can: ``claim`` moves it from queued to running
in one conditional UPDATE, so a task delivered twice (a worker restarted between running it and
recording it) runs the work once; the second delivery finds no queued row and returns.

Fairness of the shared queue (one worker serves every visitor):

- **The same input is one job.** Each job carries an ``input_key`` naming everything its result
  depends on; a live job for the same key (waiting, running, or done and kept, where the kind's
  result is a pure function of the key) is reused instead of queueing another.
- **A cap per owner.** An owner (a signed-in player, else a client address) has at most
  ``OWNER_LIVE_MAX`` jobs waiting or running, across every kind; one more is refused with a 429
  that says why (``Refused``).
- **Round robin.** Each owner's next job is queued at a lower priority than those it already has
  waiting (the worker takes the highest priority first, then the oldest), so a visitor's first job
  goes ahead of everyone's second: another player's job waits for the job in hand and at most one
  queued job per other owner, however many that owner sent.
- **New work is rate limited per client** (``RENDER_LIMITS``), on top of the URL's own limits:
  only requests that would queue new work count, never a PDF served from the cache or a reused job.

Finished jobs of every kind, and the queue's finished task rows, are deleted once older than a
day (``prune``, run by each new job).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any, ClassVar

from django.apps import apps
from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

logger = logging.getLogger(__name__)

# At most this many jobs per owner are waiting or running at once (every kind together).
OWNER_LIVE_MAX = 3
# Finished tasks of the queue are kept as long as the longest-kept job.
TASKS_KEEP = timedelta(hours=24)


class JobQuerySet(models.QuerySet):
    def expired(self) -> JobQuerySet:
        """Rows older than their model keeps them."""
        return self.filter(created_at__lt=timezone.now() - self.model.KEEP)

    def in_progress(self) -> JobQuerySet:
        """Waiting, or running and not yet given up for lost (see ``Job.is_stale``)."""
        running = Q(status=Job.Status.RUNNING, started_at__gte=timezone.now() - self.model.STALE)
        return self.filter(Q(status=Job.Status.QUEUED) | running)

    def live(self, *, reuse_done: bool) -> JobQuerySet:
        """Jobs a new request for the same input may take over: in progress, or (``reuse_done``) done and kept."""
        now = timezone.now()
        live = Q(status=Job.Status.QUEUED) | Q(status=Job.Status.RUNNING, started_at__gte=now - self.model.STALE)
        if reuse_done:
            live |= Q(status=Job.Status.DONE, created_at__gte=now - self.model.KEEP)
        return self.filter(live)


class Job(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", gettext_lazy("Waiting for the worker")
        RUNNING = "running", gettext_lazy("Being made")
        DONE = "done", gettext_lazy("Ready")
        FAILED = "failed", gettext_lazy("Failed")

    # Set by each job model: how long a row is kept, and how long a run may take before it counts as lost.
    KEEP: ClassVar[timedelta]
    STALE: ClassVar[timedelta]
    # Whether a done job is handed to a later request for the same input (its result depends on nothing else).
    REUSE_DONE: ClassVar[bool] = True

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    # Who asked ("user:<id>" or "ip:<address>"): the per-owner cap and the round robin count by it.
    owner = models.CharField(max_length=100, blank=True, db_index=True)
    # Everything the result depends on: a live job with the same key is reused (see the module docstring).
    input_key = models.CharField(max_length=300, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at"]

    @property
    def is_done(self) -> bool:
        return self.status == self.Status.DONE

    @property
    def is_stale(self) -> bool:
        """Running far longer than the work takes: its worker is gone (killed, machine restarted)."""
        started = self.started_at or self.created_at
        return self.status == self.Status.RUNNING and timezone.now() - started > self.STALE

    @property
    def is_failed(self) -> bool:
        return self.status == self.Status.FAILED or self.is_stale

    @property
    def is_finished(self) -> bool:
        return self.is_done or self.is_failed


def job_models() -> list[type[Job]]:
    """Every kind of job installed (each app's concrete ``Job`` models)."""
    return [model for model in apps.get_models() if issubclass(model, Job)]


# -- Enqueue ----------------------------------------------------------------------------------------


class Refused(Exception):
    """A request for new work the queue does not take now; ``response`` says why (429, in words)."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__(response.status_code)
        self.response = response


def input_key(*parts: object) -> str:
    """A job's input key from what its result depends on (hashed: any length, one fixed-size column)."""
    return hashlib.sha256("\x1f".join(str(part) for part in parts).encode()).hexdigest()


def owner_of(request: HttpRequest) -> str:
    """The signed-in player, else the client's address (the one the rate limits count)."""
    from armybuilder.security.client import client_ip

    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"ip:{client_ip(request)}"


def owner_in_progress(owner: str) -> int:
    """How many of the owner's jobs, of every kind, are waiting or running."""
    return sum(model.objects.in_progress().filter(owner=owner).count() for model in job_models())


def _render_limits():
    from armybuilder.security.middleware import Limit

    # A visitor starts at most this much new work: a few PDFs a minute is a player printing; more is a script.
    return (Limit("6/m", "user_or_ip", ("GET", "POST")), Limit("40/h", "user_or_ip", ("GET", "POST")))


def _admit(request: HttpRequest | None, owner: str) -> int:
    """How many jobs the owner has in progress; ``Refused`` when it may not queue more work now."""
    in_progress = owner_in_progress(owner) if owner else 0
    if request is None:
        return in_progress
    from armybuilder.security.middleware import over_limit, refusal

    if getattr(settings, "RATELIMIT_ENABLE", True):
        limited = over_limit(request, "jobs-new-work", _render_limits())
        if limited is not None:
            raise Refused(limited)
    if in_progress >= OWNER_LIVE_MAX:
        message = _(
            "You already have %(count)s PDFs or imports being made: wait until one of them is ready, then ask again."
        ) % {"count": OWNER_LIVE_MAX}
        response = refusal(request, 429, message)
        response["Retry-After"] = "10"
        raise Refused(response)
    return in_progress


def enqueue[J: Job](
    model: type[J],
    task: Any,
    *,
    input_key: str,
    request: HttpRequest | None = None,
    owner: str = "",
    attach: Callable[[J], None] | None = None,
    **fields: Any,
) -> J:
    """The job for ``input_key``: a live one already there, else a new one, queued for ``task``.

    With ``request``, the owner is the request's (``owner_of``) and new work is admitted only under
    the per-client limits and the per-owner cap (else ``Refused``). ``fields`` are the new row's.
    ``attach`` stores inputs kept beside the new row (an upload's files): it runs in the row's own
    transaction, before the task is queued, so a worker never finds a job without them.
    Requests run in autocommit, so the row is committed before the task is written; inside a
    transaction the database backend writes the task in it too, committed together.
    """
    prune()
    existing = model.objects.live(reuse_done=model.REUSE_DONE).filter(input_key=input_key).first()
    if existing is not None and not existing.is_stale:
        return existing
    if request is not None:
        owner = owner_of(request)
    # Round robin: behind every job the owner already has waiting or running.
    priority = -min(_admit(request, owner), 100)
    with transaction.atomic():
        job = model.objects.create(input_key=input_key, owner=owner, **fields)
        if attach is not None:
            attach(job)
    if priority and task.get_backend().supports_priority:
        task = task.using(priority=priority)
    task.enqueue(str(job.pk))
    job.refresh_from_db()  # the immediate backend (development, tests) ran it inside enqueue
    return job


def prune() -> None:
    """Forget every kind's jobs older than it keeps them, and the queue's finished tasks as old."""
    from django_tasks_db.models import DBTaskResult

    for model in job_models():
        model.objects.expired().delete()
    DBTaskResult.objects.finished().filter(finished_at__lt=timezone.now() - TASKS_KEEP).delete()


# -- Claim, update, run (the worker's side) ---------------------------------------------------------


def claim[J: Job](model: type[J], job_id: str, **fields: Any) -> J | None:
    """Take the waiting job for this delivery: one conditional UPDATE, so exactly one delivery wins.

    ``fields`` are set with the claim (a first stage to show). None when the job is gone (pruned,
    its list deleted) or another delivery already took it.
    """
    claimed = model.objects.filter(pk=job_id, status=Job.Status.QUEUED).update(
        status=Job.Status.RUNNING, started_at=timezone.now(), **fields
    )
    if claimed != 1:
        return None
    return model.objects.get(pk=job_id)


def update(job: Job, **fields: Any) -> None:
    """One UPDATE of the named columns (the status page reads them while the work goes on)."""
    type(job).objects.filter(pk=job.pk).update(**fields)
    for name, value in fields.items():
        setattr(job, name, value)


class JobRefused(Exception):
    """The work ends without a result for a reason the page tells in words (``fields`` say which)."""

    def __init__(self, **fields: Any) -> None:
        super().__init__(fields)
        self.fields = fields


def run[J: Job](
    model: type[J],
    job_id: str,
    work: Callable[[J], dict[str, Any]],
    *,
    claim_fields: dict[str, Any] | None = None,
    failure_fields: dict[str, Any] | None = None,
) -> str:
    """Claim the job, do ``work`` (which returns the columns of its result) and record how it ended.

    What happened, in a word, is the task's return value: "done", "refused", or "skipped" when
    this delivery did not get the job. ``JobRefused`` ends the job failed with its fields; any
    other exception fails it with ``failure_fields``, is logged and raised again (the queue then
    records the task as failed too).
    """
    job = claim(model, job_id, **(claim_fields or {}))
    if job is None:
        return "skipped"
    try:
        result = work(job)
    except JobRefused as refused:
        update(job, status=Job.Status.FAILED, finished_at=timezone.now(), **refused.fields)
        return "refused"
    except Exception:
        logger.exception("%s %s failed", model.__name__, job.pk)
        update(job, status=Job.Status.FAILED, finished_at=timezone.now(), **(failure_fields or {}))
        raise
    update(job, status=Job.Status.DONE, finished_at=timezone.now(), **result)
    return "done"


# -- A job's pages: its status page, which follows it, and its result -------------------------------

# How often a status page asks again while its job is not finished (htmx, or a meta refresh).
POLL_SECONDS = 2


def status_page(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """The job's page, or only its ``job-status`` fragment for htmx's poll; never kept, as it changes every poll."""
    name = f"{template}#job-status" if getattr(request, "htmx", False) else template
    response = render(request, name, {**context, "poll_seconds": POLL_SECONDS})
    response["Cache-Control"] = "no-store"
    return response


def job_paths(
    route: str,
    status_view: Callable[..., HttpResponse],
    file_view: Callable[..., HttpResponse],
    *,
    name: str,
) -> list[URLPattern]:
    """A PDF job's two addresses under ``route``: its status page (``<job>/``, named ``name``) and its file
    (``<job>/file.pdf``, named ``name-file``)."""
    return [
        path(f"{route}<uuid:job>/", status_view, name=name),
        path(f"{route}<uuid:job>/file.pdf", file_view, name=f"{name}-file"),
    ]
