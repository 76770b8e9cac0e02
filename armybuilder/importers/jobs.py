"""GitHub catalogue imports run by the task worker, not inside the staff page's request.

The page checks the form (the repository's name parses, the edition exists), writes an
``ImportJob`` and enqueues ``tasks.import_github``; the worker downloads the archive, imports it
(one transaction, as the command does) and stores the report on the row for the page to show.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.utils import timezone

from armybuilder.importers.models import ImportJob
from armybuilder.importers.writer import ImportResult, import_files
from armydata.github import fetch_repository
from armydata.safety import CatalogueImportError

logger = logging.getLogger(__name__)

# Download progress is written to the row at most this often (seconds).
PROGRESS_EVERY = 0.5


def enqueue_github_import(repository: str, *, edition: str, dry_run: bool, user) -> ImportJob:
    from armybuilder.importers.tasks import import_github

    ImportJob.objects.expired().delete()
    job = ImportJob.objects.create(repository=repository, edition=edition, dry_run=dry_run, requested_by=user)
    import_github.enqueue(str(job.pk))
    return job


def report_data(result: ImportResult) -> dict:
    """The report as JSON, in the shape the page's report fragment reads."""
    return {
        "dry_run": result.dry_run,
        "catalogues": [
            {
                "title": catalogue.title(),
                "counts": catalogue.counts(),
                "changed": catalogue.changed,
                "skipped": [list(pair) for pair in catalogue.skipped],
                "warnings": list(catalogue.warnings),
                "army_reports": [army.as_json() for army in catalogue.army_reports],
            }
            for catalogue in result.catalogues
        ],
    }


def _update(job: ImportJob, **fields: object) -> None:
    ImportJob.objects.filter(pk=job.pk).update(**fields)
    for name, value in fields.items():
        setattr(job, name, value)


def run(job_id: str) -> str:
    job = ImportJob.objects.filter(pk=job_id).first()
    if job is None:
        return "gone"
    if job.status != ImportJob.Status.QUEUED:
        return job.status
    _update(job, status=ImportJob.Status.RUNNING, stage="downloading", started_at=timezone.now())
    last = 0.0

    def downloading(received: int, expected: int | None) -> None:
        nonlocal last
        if time.monotonic() - last >= PROGRESS_EVERY:
            last = time.monotonic()
            _update(job, received=received)

    try:
        repository, files = fetch_repository(
            job.repository,
            url_template=settings.CATALOGUE_GITHUB_ARCHIVE_URL,
            allow_loopback_http=settings.CATALOGUE_GITHUB_ALLOW_LOOPBACK_HTTP,
            progress=downloading,
        )
        _update(job, stage="importing", received=sum(len(data) for data in files.values()), commit=repository.commit)
        result = import_files(files, edition=job.edition or None, dry_run=job.dry_run)
    except CatalogueImportError as exc:
        _update(job, status=ImportJob.Status.FAILED, error=exc.message, finished_at=timezone.now())
        return "refused"
    except Exception:
        logger.exception("GitHub import job %s failed", job.pk)
        _update(job, status=ImportJob.Status.FAILED, error="", finished_at=timezone.now())
        raise
    _update(job, status=ImportJob.Status.DONE, stage="done", report=report_data(result), finished_at=timezone.now())
    return "done"
