"""``manage.py db_worker``: django-tasks-db's worker, which waits out a database outage.

django-tasks-db's worker lets any database error other than a locked SQLite end the process: in
a 20 s PostgreSQL outage it exited and, under ``deploy/stack.sh``, never came back, so every PDF
queued afterwards waited for ever. This worker catches the errors of an unreachable database
(``OperationalError``, ``InterfaceError``), closes its connections, and tries again after a
pause that doubles from ``RETRY_FIRST`` up to ``RETRY_MAX`` seconds; once a query succeeds again
the pause starts over. A task cut off by the outage stays claimed and is shown as failed once its
job is old (the job pages say so), as when a worker dies. Supervisors restart it as well
(systemd's ``Restart=always``, ``deploy/supervise.sh``) for any other exit.
"""

from __future__ import annotations

import contextlib
import logging
import time

from django.db import InterfaceError, OperationalError, connections
from django_tasks_db.management.commands import db_worker

logger = logging.getLogger("armybuilder.worker")

RETRY_FIRST = 1.0
RETRY_MAX = 30.0
# A run this long without an outage counts as recovered: the next pause starts at RETRY_FIRST.
HEALTHY_AFTER = 60.0
DATABASE_DOWN = (OperationalError, InterfaceError)


class ResilientWorker(db_worker.Worker):
    sleep = staticmethod(time.sleep)  # the tests replace it to count the pauses

    def run(self) -> None:
        pause = RETRY_FIRST
        while self.running:
            started = time.monotonic()
            try:
                super().run()
                return  # --batch or --max-tasks: the worker is done
            except DATABASE_DOWN as exc:
                if time.monotonic() - started > HEALTHY_AFTER:
                    pause = RETRY_FIRST
                logger.error("The database is unreachable (%s); the worker tries again in %.0f s", exc, pause)
                self._drop_connections()
                self.sleep(pause)
                pause = min(pause * 2, RETRY_MAX)

    @staticmethod
    def _drop_connections() -> None:
        # A broken connection is replaced at the next query only once it is closed.
        for connection in connections.all(initialized_only=True):
            with contextlib.suppress(*DATABASE_DOWN):
                connection.close()


class Command(db_worker.Command):
    help = "Run the task worker (django-tasks-db's), waiting out a database outage instead of exiting"

    def handle(self, *args, **options) -> None:
        # django-tasks-db builds its Worker by name inside handle(): run it with this one.
        original = db_worker.Worker
        db_worker.Worker = ResilientWorker
        try:
            super().handle(*args, **options)
        finally:
            db_worker.Worker = original
