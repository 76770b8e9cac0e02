"""The task worker, as Muster runs it: django-tasks-db's ``db_worker`` that outlives a database outage.

This app has no models; it is listed before ``django_tasks_db`` in ``INSTALLED_APPS`` so that
``manage.py db_worker`` (systemd's unit, ``deploy/stack.sh``, ``scripts/run_dev.sh``, the tests)
is the command in ``management/commands/db_worker.py``.
"""
