"""Site-wide pages that belong to no single app.

The home page, the health checks and error pages, the service worker with its offline page (it
keeps pages of every app), and "About the data" (every army Muster offers, where its figures
come from, under which licence).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError, connection
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from armybuilder.catalogue.imported import imported_weapons_by_army
from armybuilder.catalogue.models import Army, Origin
from armybuilder.reference.models import Edition
from armybuilder.security.cache import ResilientRedisCache
from armybuilder.security.middleware import DATABASE_DOWN, refusal, unavailable

logger = logging.getLogger(__name__)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    editions = Edition.objects.all()
    return render(request, "home.html", {"editions": editions})


def _store_state(alias: str) -> str:
    cache = caches[alias]
    if not isinstance(cache, ResilientRedisCache):
        return "local"  # a per-process cache (no REDIS_URL) cannot fail
    return "ok" if cache.available() else "degraded"


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness, a database round trip, the cache and the rate-limit store, for load balancers and monitors.

    503 while the database is unreachable (nothing works without it). A Redis that is down or full
    (the cache's, or the rate-limit counters') makes ``"status": "degraded"`` and names the part in
    ``"failed"``, with a 200: Muster keeps answering without it (no kept pages; the rate limits
    counted in each process, looser), so the server must stay in the pool, but someone should look.
    """
    parts = {"cache": _store_state("default")}
    # The counters' store is reported apart only when it is one (RATELIMIT_REDIS_URL, or the
    # cache's Redis reached through its own alias).
    if settings.RATELIMIT_USE_CACHE != "default":
        parts["ratelimit"] = _store_state(settings.RATELIMIT_USE_CACHE)
    failed = [name for name, state in parts.items() if state == "degraded"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as exc:
        logger.error("Health check: the database is unreachable: %s", exc)
        body = {"status": "unavailable", "database": "unreachable", **parts, "failed": ["database", *failed]}
        response = JsonResponse(body, status=503)
        response["Retry-After"] = "10"
        return response
    if failed:
        logger.error("Health check: degraded (%s)", ", ".join(failed))
    return JsonResponse({"status": "degraded" if failed else "ok", "database": "ok", **parts, "failed": failed})


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
def language(request: HttpRequest) -> HttpResponse:
    """The language menu of a page without a CSRF token (an anonymous visitor's event page, shared
    by every phone in the hall): this page has the token, and one tap on a language switches it.
    The choice is still made by a POST to Django's ``set_language``, never by a link."""
    next_url = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    codes = [code for code, _name in settings.LANGUAGES]
    wanted = request.GET.get("language") if request.GET.get("language") in codes else get_language()
    # The language asked for first, ready for Enter; then the others in the site's order.
    choices = sorted(codes, key=lambda code: code != wanted)
    return render(request, "site/language.html", {"next": next_url, "choices": choices, "wanted": wanted})


@require_safe
def ping(request: HttpRequest) -> HttpResponse:
    """The trivial view the benchmarks use as their yardstick."""
    return HttpResponse("pong", content_type="text/plain")


# --- offline -------------------------------------------------------------------------------------

SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "site" / "sw.js"


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site root so its scope is the whole site."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript; charset=utf-8")
    # Browsers check for a new worker on navigation; never let a proxy keep an old one.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when the network is gone and nothing is cached for the URL."""
    return render(request, "site/offline.html")


# --- about the data ------------------------------------------------------------------------------

BARRACKS_LICENCE = Path(settings.BASE_DIR) / "fixtures" / "LICENSE-barracks.md"


def licence_of(army: Army) -> str:
    """The licence of an army's figures, from where they came (the data keeps its source on every army)."""
    if "barracks" in army.source.lower():
        return _("MIT (Barracks, © 2023 Francois Laubscher)")
    if army.origin == Origin.BATTLESCRIBE:
        return _("As the BattleScribe data repository it was imported from states")
    if army.origin == Origin.BARRACKS:
        return _("MIT (Barracks data, imported)")
    if army.origin == Origin.MODULE:
        return _("None stated: an army-builder module imported by this site's staff for their own use")
    return _("Muster's own compilation (points as the source says)")


@require_safe
def about_data(request: HttpRequest) -> HttpResponse:
    """Every army Muster offers, where its figures come from, under which licence."""
    armies = (
        Army.objects.select_related("edition")
        .prefetch_related("national_rules")
        .annotate(unit_count=Count("units", filter=Q(units__removed=False, units__hidden=False)))
        .order_by("edition__number", "origin", "name")
    )
    rows = [(army, licence_of(army)) for army in armies]
    licence_text = BARRACKS_LICENCE.read_text(encoding="utf-8") if BARRACKS_LICENCE.exists() else ""
    context = {
        "rows": rows,
        "barracks_licence": licence_text,
        # Weapons the rulebook chart lacks, under the imported army that brought them.
        "imported_weapons": imported_weapons_by_army([army for army, _licence in rows]),
    }
    return render(request, "site/about_data.html", context)
