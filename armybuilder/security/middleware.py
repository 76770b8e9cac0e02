"""Two middlewares: hostile requests refused at the edge, and rate limits from one table.

``EdgeMiddleware`` runs before any view or CSRF check reads the body: a body larger than the
visitor may send is refused from its ``Content-Length`` (413) before it is read or spooled to
disk, and a path, query or form field holding NUL, another control character or a lone surrogate
is refused with a 400 naming the field (PostgreSQL cannot store NUL, and SQLite would store what
PostgreSQL then refuses on import).

``RateLimitMiddleware`` applies ``LIMITS``, a table keyed by URL name, through django-ratelimit's
counters in the default cache (Redis in production, so every worker and machine shares them),
so no view that other parts of Muster own needs a decorator. With their Redis down or full the
counters are kept in each process instead, so the limits hold, looser by the number of worker
processes (``RateLimitCache`` in ``armybuilder/security/cache.py``), and /healthz/ says so.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from armydata.untrusted import forbidden_character

logger = logging.getLogger(__name__)


def wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", "")


def refusal(request: HttpRequest, status: int, message: str, *, field: str | None = None) -> HttpResponse:
    """A short error in the form the caller reads: JSON for the API, a fragment for htmx, else a page."""
    if wants_json(request):
        return JsonResponse({"error": message, "field": field}, status=status)
    if request.headers.get("HX-Request"):
        # htmx does not swap an error response; static/js/muster.js shows this text instead.
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    html = render_to_string("error.html", {"status": status, "message": message}, request)
    return HttpResponse(html, status=status)


# What the database driver raises while the server is unreachable or the connection was lost.
DATABASE_DOWN = (OperationalError, InterfaceError)


def unavailable(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 503 of a database outage, built without touching the database.

    Not ``refusal``: its page is the site's layout, which shows the signed-in player and so reads
    the session from the database; signed-in players got the 500 page instead. The page
    is rendered without the request (no context processors), in the language already active.
    """
    logger.error("Database unavailable: %s", exception)
    message = _("Muster is briefly unavailable; please try again in a minute.")
    if wants_json(request):
        response: HttpResponse = JsonResponse({"error": message, "field": None}, status=503)
    elif request.headers.get("HX-Request"):
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    else:
        response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = "30"
    return response


class EdgeMiddleware:
    """Refuses oversized bodies and forbidden characters; a database that is down gets a 503 page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self._refuse(request)
        return response if response is not None else self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_DOWN):
            return None
        return unavailable(request, exception)

    def _refuse(self, request: HttpRequest) -> HttpResponse | None:
        length = request.META.get("CONTENT_LENGTH") or "0"
        # Anyone sends at most REQUEST_BODY_MAX_BYTES (the list import takes 1 MB, a form a few kB);
        # staff upload catalogue archives. The user is looked up (a session read) only for a body
        # too large for anyone else.
        limit = settings.REQUEST_BODY_MAX_BYTES
        size = int(length) if length.isdigit() else settings.STAFF_REQUEST_BODY_MAX_BYTES + 1
        if size > limit and getattr(request.user, "is_staff", False):
            limit = settings.STAFF_REQUEST_BODY_MAX_BYTES
        if size > limit:
            message = _("The request is larger than %(size)s MB, the most Muster accepts.") % {
                "size": limit // (1024 * 1024)
            }
            return refusal(request, 413, message, field="body")
        fields: list[tuple[str, str]] = [("path", request.path_info)]
        fields += [(key, value) for key, values in request.GET.lists() for value in [key, *values]]
        return self._check(request, fields)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> HttpResponse | None:
        # Form fields, once the CSRF check has parsed them: a multipart body of a csrf_exempt view
        # (the catalogue upload) is left for the view, which must install its upload handlers first.
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return None
        form_encoded = request.content_type == "application/x-www-form-urlencoded"
        multipart = request.content_type == "multipart/form-data"
        if not (form_encoded or (multipart and not getattr(view_func, "csrf_exempt", False))):
            return None
        fields = [(key, value) for key, values in request.POST.lists() for value in [key, *values]]
        return self._check(request, fields)

    def _check(self, request: HttpRequest, fields: list[tuple[str, str]]) -> HttpResponse | None:
        for field, value in fields:
            problem = forbidden_character(value)
            if problem is not None:
                shown = field if forbidden_character(field) is None else "?"
                message = _("The field “%(field)s” contains a character Muster does not accept (%(code)s).") % {
                    "field": shown,
                    "code": problem.split("(")[-1].rstrip(")"),
                }
                return refusal(request, 400, message, field=shown)
        return None


@dataclass(frozen=True)
class Limit:
    """``rate`` requests ("10/m", "100/h") per ``key``: "ip", "user_or_ip" or "post:<field>"."""

    rate: str
    key: str = "ip"
    methods: tuple[str, ...] = ("POST",)


_PDF = (Limit("12/m", "user_or_ip", ("GET",)), Limit("120/h", "user_or_ip", ("GET",)))
_RESOLVER = (Limit("60/m", "ip"), Limit("600/h", "ip"))

# Why these numbers: a person signs in a few times a day, and a club night behind one address
# (one NAT) still stays well below them; a script guessing passwords or rendering PDFs in a
# loop meets them within a minute. The resolver API is the cheapest to send (each accepted request
# stays under a second of CPU: tests/resolver/test_cost_bounds.py), PDFs the costliest in memory.
# "ip" is the visitor's address behind the proxy (armybuilder/security/client.py).
LIMITS: dict[str, tuple[Limit, ...]] = {
    "login": (Limit("10/m"), Limit("50/h"), Limit("20/h", "post:username")),
    "admin:login": (Limit("10/m"), Limit("50/h"), Limit("20/h", "post:username")),
    "signup": (Limit("5/m"), Limit("20/h")),
    "password_reset": (Limit("5/m"), Limit("20/h"), Limit("5/h", "post:email")),
    "ab-list-import": (Limit("20/m", "user_or_ip"), Limit("200/h", "user_or_ip")),
    "imp-roster-import": (Limit("20/m", "user_or_ip"), Limit("200/h", "user_or_ip")),
    "imp-catalogue-import": (Limit("10/m", "user_or_ip"),),
    "ps-reference-sheet": _PDF,
    # The organiser's PDF of an event's lists: a render of every list, under the PDFs' limits.
    "events-lists-pdf": (Limit("12/m", "user_or_ip"), Limit("120/h", "user_or_ip")),
    # Every list PDF, by owner and by share link (playsheets.urls: "ps-<kind>-pdf", "ps-shared-<kind>-pdf").
    **{f"ps-{who}{kind}-pdf": _PDF for who in ("", "shared-") for kind in ("roster", "cards", "playsheet", "print")},
    **{
        f"api-resolve-{name}": _RESOLVER
        for name in ("shooting", "anti-tank", "order-test", "close-quarters", "order-dice", "ranging-in")
    },
}


def over_limit(request: HttpRequest, group: str, limits: Iterable[Limit]) -> HttpResponse | None:
    """Count ``request`` against each of ``limits`` (counters ``<group>:<row>``); a 429 refusal saying
    how long to wait once any of them is spent, else None. Views that share one budget (a game's
    actions and undos) call it with one group; the middleware calls it with the URL's name."""
    wait = 0
    for index, limit in enumerate(limits):
        if request.method not in limit.methods:
            continue
        # Each limit counts every request it sees.
        usage = get_usage(
            request,
            group=f"{group}:{index}",
            key=limit.key,
            rate=limit.rate,
            method=list(limit.methods),
            increment=True,
        )
        if usage is not None and usage["should_limit"]:
            wait = max(wait, usage["time_left"], 1)
    if not wait:
        return None
    message = _("Too many requests: please wait %(seconds)s seconds and try again.") % {"seconds": wait}
    response = refusal(request, 429, message)
    response["Retry-After"] = str(wait)
    return response


class RateLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> HttpResponse | None:
        match = request.resolver_match
        limits = LIMITS.get(match.view_name) if match is not None else None
        if not limits or not getattr(settings, "RATELIMIT_ENABLE", True):
            return None
        return over_limit(request, match.view_name, limits)
