"""The task worker waits out a database outage instead of exiting (``manage.py db_worker``).

django-tasks-db's own worker ended on the first error of an unreachable database, and
``deploy/stack.sh`` never started it again: the red team's 20 s PostgreSQL outage left every PDF
queued after it waiting for ever. Here the worker's first queries fail as they do while
PostgreSQL is down; it must pause, try again, and then run the task waiting in the queue.
"""

from __future__ import annotations

from contextlib import contextmanager
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import InterfaceError, OperationalError
from django.tasks import task
from django_tasks_db.management.commands import db_worker as library_worker

from armybuilder.worker.management.commands import db_worker


@task()
def echo(value: str) -> str:
    return value


def _outage(failures: int):
    """``exclusive_transaction`` (each pass's first query) failing ``failures`` times, then working."""
    real = library_worker.exclusive_transaction
    errors = [
        OperationalError("server closed the connection unexpectedly"),
        InterfaceError("connection already closed"),
    ]
    calls = {"n": 0}

    @contextmanager
    def flaky(using):
        calls["n"] += 1
        if calls["n"] <= failures:
            raise errors[(calls["n"] - 1) % len(errors)]
        with real(using):
            yield

    return flaky


@pytest.mark.django_db(transaction=True)
def test_the_worker_waits_out_an_outage_then_runs_the_waiting_task(settings, caplog):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    echo.enqueue("after the outage")
    pauses: list[float] = []
    with (
        mock.patch.object(library_worker, "exclusive_transaction", _outage(4)),
        mock.patch.object(db_worker.ResilientWorker, "sleep", staticmethod(pauses.append)),
        caplog.at_level("ERROR", logger="armybuilder.worker"),
    ):
        call_command("db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0)
    result = DBTaskResult.objects.get()
    assert result.status == "SUCCESSFUL" and result.return_value == "after the outage"
    assert pauses == [1.0, 2.0, 4.0, 8.0]  # doubling, from RETRY_FIRST
    assert sum("The database is unreachable" in record.getMessage() for record in caplog.records) == 4


@pytest.mark.django_db(transaction=True)
def test_the_pause_never_grows_past_its_bound(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    pauses: list[float] = []
    with (
        mock.patch.object(library_worker, "exclusive_transaction", _outage(9)),
        mock.patch.object(db_worker.ResilientWorker, "sleep", staticmethod(pauses.append)),
    ):
        call_command("db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0)
    assert pauses == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0, 30.0]


def test_another_error_still_ends_the_worker_for_its_supervisor(settings):
    # Not an outage (a bug, a bad setting): the process ends and systemd or deploy/supervise.sh
    # starts it again, rather than looping silently.
    worker = db_worker.ResilientWorker(
        queue_names=["*"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="w",
        excluded_queue_names=[],
    )
    with (
        mock.patch.object(library_worker.Worker, "run", side_effect=RuntimeError("bug")),
        pytest.raises(RuntimeError),
    ):
        worker.run()


def test_manage_py_db_worker_is_musters():
    from django.core.management import get_commands

    assert get_commands()["db_worker"] == "armybuilder.worker"
