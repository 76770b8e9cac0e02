"""GitHub catalogue imports run by the task worker, not inside the staff page's request.

The page checks the form (the repository's name parses, the edition exists), writes an
``ImportJob`` and enqueues ``import_github`` (through ``armybuilder.jobs``); the worker downloads
the archive, imports it (one transaction, as the command does) and stores the report on the row
for the page to show.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.tasks import task

from armybuilder import jobs
from armybuilder.importers.models import ImportJob
from armybuilder.importers.writer import ImportResult, import_files
from armydata.github import fetch_repository
from armydata.safety import CatalogueImportError

# Download progress is written to the row at most this often (seconds).
PROGRESS_EVERY = 0.5


@task
def import_github(job_id: str) -> str:
    """Download and import the repository its ``ImportJob`` names; the report goes on the row."""
    return jobs.run(ImportJob, job_id, _make, claim_fields={"stage": "downloading"}, failure_fields={"error": ""})


def enqueue_github_import(repository: str, *, edition: str, dry_run: bool, user) -> ImportJob:
    """A new import, or the one already waiting or running for the same repository and options.

    A finished import is never reused: importing again is how staff pick up the repository's new commits.
    """
    return jobs.enqueue(
        ImportJob,
        import_github,
        input_key=jobs.input_key("github", repository, edition, dry_run),
        owner=f"user:{user.pk}",
        repository=repository,
        edition=edition,
        dry_run=dry_run,
        requested_by=user,
    )


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


def _make(job: ImportJob) -> dict:
    last = 0.0

    def downloading(received: int, expected: int | None) -> None:
        nonlocal last
        if time.monotonic() - last >= PROGRESS_EVERY:
            last = time.monotonic()
            jobs.update(job, received=received)

    try:
        repository, files = fetch_repository(
            job.repository,
            url_template=settings.CATALOGUE_GITHUB_ARCHIVE_URL,
            allow_loopback_http=settings.CATALOGUE_GITHUB_ALLOW_LOOPBACK_HTTP,
            progress=downloading,
        )
        jobs.update(
            job, stage="importing", received=sum(len(data) for data in files.values()), commit=repository.commit
        )
        result = import_files(files, edition=job.edition or None, dry_run=job.dry_run)
    except CatalogueImportError as exc:
        raise jobs.JobRefused(error=exc.message) from exc
    return {"stage": "done", "report": report_data(result)}
