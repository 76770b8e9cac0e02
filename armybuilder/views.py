"""Site-wide pages that belong to no single app."""

from __future__ import annotations

import logging
import sys

from django.core.cache import caches
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from armybuilder.reference.models import Edition
from armybuilder.security.cache import ResilientRedisCache
from armybuilder.security.middleware import DATABASE_DOWN, refusal, unavailable

logger = logging.getLogger(__name__)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    editions = Edition.objects.all()
    return render(request, "home.html", {"editions": editions})


def _cache_state() -> str:
    cache = caches["default"]
    if not isinstance(cache, ResilientRedisCache):
        return "local"  # a per-process cache (no REDIS_URL) cannot fail
    return "ok" if cache.available() else "degraded"


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness, a database round trip and the cache, for the load balancer and monitors.

    503 while the database is unreachable (nothing works without it). A Redis that is down or full
    is reported as ``"cache": "degraded"`` with a 200: Muster keeps answering without it (no kept
    pages, rate limits not counted), so the server must stay in the pool, but someone should look.
    """
    cache_state = _cache_state()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as exc:
        logger.error("Health check: the database is unreachable: %s", exc)
        response = JsonResponse({"status": "unavailable", "database": "unreachable", "cache": cache_state}, status=503)
        response["Retry-After"] = "10"
        return response
    status = "degraded" if cache_state == "degraded" else "ok"
    return JsonResponse({"status": status, "database": "ok", "cache": cache_state})


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a form sent without a valid token gets Muster's page, not Django's.

    The usual honest cause is a page left open past a login or logout elsewhere (the token
    changed) or cookies blocked; the reason itself is logged by Django, not shown.
    """
    message = _(
        "This form could not be accepted: its security token is missing or out of date (the page may "
        "have been open a long time, or cookies are blocked). Reload the page and send it again."
    )
    return refusal(request, 403, message)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: Muster's 500 page, or the 503 page when the error is a database outage.

    An outage met outside a view (a middleware reading the session, e.g. the per-account rate
    limits, or saving it) never reaches ``EdgeMiddleware.process_exception``; Django calls this
    handler inside its ``except`` block, so the exception is at hand. Both pages are rendered
    without the request, as Django's own handler does, so they cannot fail on the database.
    """
    exception = sys.exception()
    if isinstance(exception, DATABASE_DOWN):
        return unavailable(request, exception)
    return HttpResponseServerError(render_to_string("500.html"))


@require_safe
def ping(request: HttpRequest) -> HttpResponse:
    """The trivial view the benchmarks use as their yardstick."""
    return HttpResponse("pong", content_type="text/plain")
