"""Site-wide pages that belong to no single app."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from armybuilder.reference.models import Edition

logger = logging.getLogger(__name__)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    editions = Edition.objects.all()
    return render(request, "home.html", {"editions": editions})


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness plus a database round trip, for the load balancer: 503 while the database is unreachable."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as exc:
        logger.error("Health check: the database is unreachable: %s", exc)
        response = JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
        response["Retry-After"] = "10"
        return response
    return JsonResponse({"status": "ok", "database": "ok"})


@require_GET
def ping(request: HttpRequest) -> HttpResponse:
    """The trivial view the benchmarks use as their yardstick."""
    return HttpResponse("pong", content_type="text/plain")
