"""The events' tasks, run by the task worker (``manage.py db_worker``; see ``jobs``)."""

from __future__ import annotations

from django.tasks import task

from armybuilder.events import jobs


@task
def render_event_lists_pdf(job_id: str) -> str:
    """Make the PDF of every approved list of the job's event."""
    return jobs.run(job_id)
