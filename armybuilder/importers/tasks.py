"""The importers' tasks, run by the task worker (``manage.py db_worker``; see ``jobs``)."""

from __future__ import annotations

from django.tasks import task

from armybuilder.importers import jobs


@task
def import_github(job_id: str) -> str:
    """Download and import the repository its ``ImportJob`` names; the report goes on the row."""
    return jobs.run(job_id)
