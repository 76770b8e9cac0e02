"""The base of the rows that follow work done by the task worker (a PDF, a catalogue import).

The web process only reads these rows: the status pages poll them. A job's life (waiting, running,
done or failed, and "running for too long means its worker is gone") is the same whatever the work,
so it lives once, here; each job model says how long its rows are kept and when a run is stale.
"""

from __future__ import annotations

from datetime import timedelta
from typing import ClassVar

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class JobQuerySet(models.QuerySet):
    def expired(self) -> JobQuerySet:
        """Rows older than their model keeps them."""
        return self.filter(created_at__lt=timezone.now() - self.model.KEEP)


class Job(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for the worker")
        RUNNING = "running", _("Being made")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    # Set by each job model: how long a row is kept, and how long a run may take before it counts as lost.
    KEEP: ClassVar[timedelta]
    STALE: ClassVar[timedelta]

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
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
