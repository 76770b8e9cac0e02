"""Catalogue imports run by the task worker, not inside the staff page's request.

The page checks the form (the repository's name parses, the files are of a kind it imports and
within its limits, the edition exists), writes an ``ImportJob`` and enqueues ``import_github`` or
``import_upload`` (through ``armybuilder.jobs``); the worker downloads the archive or reads the
uploaded files kept with the job, imports them (one transaction, as the command does) and stores
the report on the row for the page to show. Uploaded files are deleted when the import ends.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.http import HttpRequest
from django.tasks import task

from armybuilder import jobs
from armybuilder.importers.models import ImportJob, ImportUpload
from armybuilder.importers.writer import ImportResult, SourceCredit, import_files
from armydata.github import Repository, fetch_repository
from armydata.safety import CatalogueImportError
from armydata.sources import KNOWN_SOURCES, repository_name

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


@task
def import_upload(job_id: str) -> str:
    """Import the files uploaded with its ``ImportJob``; the report goes on the row, the files are deleted."""
    return jobs.run(
        ImportJob, job_id, _import_uploaded, claim_fields={"stage": "importing"}, failure_fields={"error": ""}
    )


def enqueue_upload_import(files: dict[str, bytes], *, edition: str, dry_run: bool, request: HttpRequest) -> ImportJob:
    """A new import of ``{name: bytes}``, or the one already waiting or running for the same files and options.

    Admitted under the queue's per-owner cap (else ``jobs.Refused``): the files wait in the
    database until the worker reads them, so no one account keeps more than a few uploads there.
    """
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(hashlib.sha256(name.encode()).digest() + hashlib.sha256(files[name]).digest())

    forget_lost_uploads()

    def keep_files(job: ImportJob) -> None:
        # One row per file: no single statement carries the whole upload.
        for name, data in files.items():
            ImportUpload.objects.create(job=job, name=name, data=data)

    return jobs.enqueue(
        ImportJob,
        import_upload,
        input_key=jobs.input_key("upload", digest.hexdigest(), edition, dry_run),
        request=request,
        attach=keep_files,
        file_names=sorted(files),
        edition=edition,
        dry_run=dry_run,
        requested_by=request.user,
    )


def forget_lost_uploads() -> int:
    """Delete files no worker will read: those of jobs over (the worker deletes its own) or lost with their worker."""
    waiting = ImportJob.objects.in_progress().values("pk")
    deleted, _ = ImportUpload.objects.exclude(job__in=waiting).delete()
    return deleted


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
        result = import_files(
            files, edition=job.edition or None, dry_run=job.dry_run, credit=repository_credit(repository)
        )
    except CatalogueImportError as exc:
        raise jobs.JobRefused(error=exc.message) from exc
    return {"stage": "done", "report": report_data(result)}


def repository_credit(repository: Repository) -> SourceCredit:
    """Who a repository's data is from: a known source's title and author, or the repository's name."""
    name = f"{repository.owner}/{repository.repo}"
    known = next((s for s in KNOWN_SOURCES if repository_name(s.repository) == name.lower()), None)
    url = f"https://github.com/{name}"
    if known is not None:
        return SourceCredit(name=known.title, author=known.author, url=url)
    return SourceCredit(name=name, author=repository.owner, url=url)


def _import_uploaded(job: ImportJob) -> dict:
    try:
        files = {upload.name: bytes(upload.data) for upload in job.uploads.all()}
        jobs.update(job, received=sum(len(data) for data in files.values()))
        result = import_files(files, edition=job.edition or None, dry_run=job.dry_run)
    except CatalogueImportError as exc:
        raise jobs.JobRefused(error=exc.message) from exc
    finally:
        # Whatever the outcome: the database keeps the report, never the uploads.
        job.uploads.all().delete()
    return {"stage": "done", "report": report_data(result)}
