"""A PDF made by the task worker (``playsheets.jobs``): its progress, then its bytes, kept a day.

The row is what the web process reads: the status page polls it, the download serves its bytes.
A list's PDF belongs to the list, so it is exactly as private as the list (the views look the list
up through ``lists.access`` first), and it goes when the list goes. An edition's quick-reference
sheet (no list) is the same for everyone. Its id is a random UUID, never a count.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from armybuilder.jobs import Job, JobQuerySet
from armybuilder.lists.models import ArmyList
from armybuilder.reference.models import Edition

# A finished PDF is kept this long for its download; a new request after that makes it again
# (from the cache when the list has not changed).
JOB_KEEP = timedelta(hours=24)
# A job running longer than this lost its worker (killed, machine restarted): shown as failed.
JOB_STALE = timedelta(minutes=10)
# A job still waiting after this says the worker may not be running.
JOB_SLOW_START = timedelta(minutes=1)
# The largest PDF kept: a 100-unit print PDF is about 1 MB; anything far larger is refused.
MAX_PDF_BYTES = 20 * 1024 * 1024


class PdfJob(Job):
    KEEP = JOB_KEEP
    STALE = JOB_STALE

    # The stages a render goes through, in order, with how far along each one is (percent).
    STAGES = {
        "queued": (0, _("Waiting for the worker")),
        "reading": (10, _("Reading the list")),
        "layout": (30, _("Laying out the pages")),
        "fitting": (60, _("Fitting the parts to their pages")),
        "writing": (85, _("Writing the PDF")),
        "done": (100, _("Ready")),
    }

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # A list's PDF, or (no list) the edition's quick-reference sheet.
    army_list = models.ForeignKey(ArmyList, null=True, blank=True, on_delete=models.CASCADE, related_name="pdf_jobs")
    edition = models.ForeignKey(Edition, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    lang = models.CharField(max_length=8)
    paper = models.CharField(max_length=10)
    parts = models.CharField(max_length=100)
    filename = models.CharField(max_length=200)
    stage = models.CharField(max_length=10, default="queued")
    error = models.CharField(max_length=20, blank=True)  # "render" or "size": see error_message
    pdf = models.BinaryField(null=True, blank=True)

    objects = JobQuerySet.as_manager()

    def __str__(self) -> str:
        return f"{self.filename} ({self.status})"

    @property
    def part_list(self) -> tuple[str, ...]:
        return tuple(self.parts.split("+")) if self.parts else ()

    @property
    def slow_to_start(self) -> bool:
        return self.status == self.Status.QUEUED and timezone.now() - self.created_at > JOB_SLOW_START

    @property
    def error_message(self) -> str:
        """What went wrong, in words (``error`` holds a code, written by the worker in no language)."""
        if self.is_stale:
            return str(_("The worker stopped while making this PDF. Ask for it again."))
        if self.error == "size":
            return str(
                _("The PDF is larger than %(size)s MB, more than Muster keeps.") % {"size": MAX_PDF_BYTES // 2**20}
            )
        return str(_("The PDF could not be made. Ask for it again; if it fails again, print fewer parts."))

    @property
    def percent(self) -> int:
        return self.STAGES.get(self.stage, (0, ""))[0]

    @property
    def stage_label(self) -> str:
        return str(self.STAGES.get(self.stage, (0, self.get_status_display()))[1])
