"""Site-wide pages that belong to no single app."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from armybuilder.reference.models import Edition


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    editions = Edition.objects.all()
    return render(request, "home.html", {"editions": editions})


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness plus a database round trip, for the load balancer and `make run` smoke checks."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


@require_GET
def ping(request: HttpRequest) -> HttpResponse:
    """The trivial view the benchmarks use as their yardstick."""
    return HttpResponse("pong", content_type="text/plain")
