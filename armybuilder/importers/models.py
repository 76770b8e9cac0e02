"""A catalogue import run by the task worker (``importers.jobs``): its progress, then its report.

Downloading a repository, or importing a whole uploaded module, takes seconds to a minute: the
staff page enqueues it and follows this row instead of holding a request (and a gunicorn worker)
that long. An upload's files wait for the worker beside the row (``ImportUpload``) and are deleted
as soon as the import ends, whatever its outcome.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from armybuilder.jobs import Job, JobQuerySet
from armydata.sources import KnownSource, repository_name

# A finished import's report is kept this long; a job running longer than JOB_STALE lost its worker.
JOB_KEEP = timedelta(days=7)
JOB_STALE = timedelta(minutes=15)


class ImportJobQuerySet(JobQuerySet):
    def imports(self) -> ImportJobQuerySet:
        """Finished imports that wrote to the catalogue (dry runs and failures left out)."""
        return self.filter(status=Job.Status.DONE, dry_run=False)

    def of_repositories(self) -> ImportJobQuerySet:
        """Imports of a GitHub repository (uploaded files left out)."""
        return self.exclude(repository="")

    def expired(self) -> ImportJobQuerySet:
        """Old rows, except each repository's last import: the sources list shows its date and report."""
        keep = [job.pk for job in self.model.objects.latest_per_repository().values()]
        return super().expired().exclude(pk__in=keep)

    def latest_per_repository(self) -> dict[str, ImportJob]:
        """The last finished import of each repository, by ``OWNER/REPO`` in lower case (any ref)."""
        # Names first, then only the rows wanted: a report may be large, and most rows are not wanted.
        wanted: dict[str, object] = {}
        for pk, repository in (
            self.imports().of_repositories().order_by("-finished_at", "-created_at").values_list("pk", "repository")
        ):
            wanted.setdefault(repository_name(repository), pk)
        rows = self.model.objects.in_bulk(list(wanted.values()))
        return {name: rows[pk] for name, pk in wanted.items()}

    def last_import_of(self, source: KnownSource) -> ImportJob | None:
        return self.latest_per_repository().get(repository_name(source.repository))


class ImportJob(Job):
    KEEP = JOB_KEEP
    STALE = JOB_STALE
    REUSE_DONE = False  # importing again is how staff pick up a repository's new commits

    STAGES = {
        "queued": _("Waiting for the worker"),
        "downloading": _("Downloading the repository"),
        "importing": _("Importing the catalogues"),
        "done": _("Ready"),
    }

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    # ``OWNER/REPO[@REF]`` of a GitHub import; blank for uploaded files, whose names are kept instead
    # (the files themselves are not: see ``ImportUpload``).
    repository = models.CharField(max_length=200, blank=True)
    file_names = models.JSONField(default=list, blank=True)
    edition = models.CharField(max_length=20, blank=True)
    dry_run = models.BooleanField(default=False)
    stage = models.CharField(max_length=12, default="queued")
    received = models.PositiveBigIntegerField(default=0)  # bytes of the archive so far
    # The commit the archive held (GitHub writes it in the zip), so staff see which version was imported.
    commit = models.CharField(max_length=40, blank=True)
    # What the page shows when done: {"dry_run": bool, "catalogues": [{"title", "counts", "changed",
    # "skipped": [[entry, reason]], "warnings", "army_reports": [{"name", "read", "imported", "options",
    # "guessed": [text], "dropped": [[entry, reason]]}]}]}, the shape of ``writer.ImportResult``.
    report = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)

    objects = ImportJobQuerySet.as_manager()

    def __str__(self) -> str:
        return f"{self.repository or ', '.join(self.file_names)} ({self.status})"

    @property
    def is_upload(self) -> bool:
        return not self.repository

    @property
    def stage_label(self) -> str:
        return str(self.STAGES.get(self.stage, self.get_status_display()))

    @property
    def short_commit(self) -> str:
        return self.commit[:7]

    @property
    def received_megabytes(self) -> str:
        return f"{self.received / 2**20:.1f}"


class ImportUpload(models.Model):
    """One uploaded file waiting for its import job's worker; deleted when the job ends.

    Bounded by the page: at most ``MAX_UPLOAD_FILES`` files of ``MAX_FILE_BYTES`` each, and
    ``MAX_REQUEST_BYTES`` in all, per job.
    """

    job = models.ForeignKey(ImportJob, on_delete=models.CASCADE, related_name="uploads")
    name = models.CharField(max_length=255)  # Django cuts an upload's name to 255 characters
    data = models.BinaryField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["job", "name"], name="import_upload_unique_name")]

    def __str__(self) -> str:
        return self.name
