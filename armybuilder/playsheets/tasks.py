"""The playsheets' tasks, run by the task worker (``manage.py db_worker``; see ``jobs``)."""

from __future__ import annotations

from django.tasks import task

from armybuilder.playsheets import jobs


@task
def render_list_pdf(job_id: str) -> str:
    """Make a big list's PDF for its ``PdfJob`` (the job row says which list, options and parts)."""
    return jobs.run(job_id)
