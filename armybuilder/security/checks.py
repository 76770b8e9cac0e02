"""``manage.py check --deploy`` warnings for settings that work in development but not in production."""

from __future__ import annotations

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.mail, deploy=True)
def check_mail(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """Password reset needs real mail: the console backend or an SMTP server on localhost loses it."""
    if settings.DEBUG:
        return []
    mailer = settings.MAILERS.get("default", {})
    backend = mailer.get("BACKEND", "")
    options = mailer.get("OPTIONS", {})
    if backend.endswith(("console.EmailBackend", "locmem.EmailBackend", "dummy.EmailBackend")) or (
        backend.endswith("smtp.EmailBackend") and options.get("host", "localhost") in ("localhost", "127.0.0.1")
    ):
        return [
            checks.Warning(
                "Outgoing mail uses the default settings, so password-reset mail will not reach anyone.",
                hint="Set EMAIL_HOST, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD and DEFAULT_FROM_EMAIL (docs/deploy.md).",
                id="muster.W001",
            )
        ]
    if settings.DEFAULT_FROM_EMAIL.endswith("@localhost"):
        return [
            checks.Warning(
                "DEFAULT_FROM_EMAIL is muster@localhost; mail from it is likely to be refused as spam.",
                hint="Set DEFAULT_FROM_EMAIL to an address of your domain.",
                id="muster.W002",
            )
        ]
    return []


@checks.register(checks.Tags.caches, deploy=True)
def check_shared_cache(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """Rate limits count in the default cache: per process unless it is shared."""
    if settings.DEBUG or "redis" in settings.CACHES["default"]["BACKEND"].lower():
        return []
    return [
        checks.Warning(
            "The default cache is not shared, so each worker counts rate limits on its own.",
            hint="Set REDIS_URL (e.g. redis://127.0.0.1:6379/0); see docs/deploy.md.",
            id="muster.W003",
        )
    ]


@checks.register(checks.Tags.security, deploy=True)
def check_trusted_proxies(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """The rate limits count per visitor only if the proxy's forwarded address is believed."""
    from armybuilder.security.client import parse_proxies

    try:
        parse_proxies(settings.TRUSTED_PROXIES)
    except ValueError as exc:
        return [
            checks.Error(
                f"TRUSTED_PROXIES holds an entry that is not an address or network: {exc}.",
                hint="A comma-separated list such as 127.0.0.1,::1 or 10.0.0.0/24.",
                id="muster.E010",
            )
        ]
    if settings.DEBUG or settings.TRUSTED_PROXIES:
        return []
    return [
        checks.Warning(
            "TRUSTED_PROXIES is empty: behind nginx every visitor has the proxy's address, so one "
            "visitor's failed logins lock everyone out.",
            hint="Set TRUSTED_PROXIES to the proxy's address (127.0.0.1,::1 for nginx on the same machine); "
            "see docs/deploy.md.",
            id="muster.W010",
        )
    ]


@checks.register(deploy=True)
def check_task_queue(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """Seconds of work belong in the worker: a backend that runs tasks in the request undoes that."""
    backend = settings.TASKS.get("default", {}).get("BACKEND", "")
    if settings.DEBUG or backend == "django_tasks_db.DatabaseBackend":
        return []
    return [
        checks.Warning(
            f"TASKS_BACKEND is {backend!r}: PDFs and GitHub imports would run inside requests "
            "(or never, with the dummy backend), holding a gunicorn worker for seconds.",
            hint="Leave TASKS_BACKEND unset (django_tasks_db.DatabaseBackend) and run muster-worker.service; "
            "see docs/deploy.md.",
            id="muster.W020",
        )
    ]
