"""An event's version: what its public pages and its API are validated with, so a repeat poll is a 304.

Hundreds of phones poll the standings and the round pages during an event. The version is read
from the data in one query, never kept as a counter a write could forget: the event's own stamp,
and the count and latest stamp of its rounds, pairings, results, entrants, submissions, bonus and
penalty points, teams and team pairings, and the game-day games played from its pairings (a game's
end proposes its result on the round page).
A row added or deleted moves a count, one changed moves a stamp (``auto_now``, and the swap of two
players moves its pairings' stamps by hand, as ``bulk_update`` does not).

Pages are validated per visitor (``armybuilder.http.etag_for``: the signed-in user, the language,
the path, htmx), so an organiser's page and a player's never share an ETag. Django's ``condition``
answers the 304. While flash messages wait, no ETag is given (the page will show them once).

Two things make a hall of phones cheap, and neither needs a write to remember anything:

* **An anonymous visitor's page is shared.** It carries no CSRF token (an anonymous visitor has
  nothing to send from these pages; the language menu goes through its own page), so it is the
  same bytes for every anonymous visitor of the same language, and says so: ``X-Accel-Expires``
  lets the nginx in front keep it for ``SHARED_SECONDS`` and answer every phone from that copy
  (``deploy/nginx/muster-locations.conf``; a signed-in visitor's request never reaches that copy).
  A phone then sees the event at most that much later than it is.
* **What every viewer sees alike is built once per version** (``by_version``): the round's games
  and the standings' table are kept in the cache under the version itself, so a result moves the
  version and the next page builds them again; nothing is ever deleted from the cache by hand.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, OuterRef, Subquery, Sum
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.dateparse import parse_datetime
from django.utils.translation import get_language
from django.views.decorators.http import condition

from armybuilder.events.models import (
    Adjustment,
    Entrant,
    Event,
    Pairing,
    Result,
    Round,
    StageSubmission,
    Submission,
    Team,
    TeamMatch,
)
from armybuilder.http import build_stamp, etag_for, messages_waiting

# How long nginx may answer anonymous visitors from one copy of an event page: a phone polling every
# 20 s sees a result at most a second later, and the app renders each page at most once a second.
SHARED_SECONDS = 1
# How long a fragment built for one version stays in the cache: a version lasts until the next
# write, so this only bounds the memory of versions nobody asks for any more.
FRAGMENT_SECONDS = 15 * 60


@dataclass(frozen=True)
class EventVersion:
    stamp: str
    modified: datetime


def _of_event(queryset, path: str, expression) -> Subquery:
    rows = queryset.filter(**{path: OuterRef("pk")}).order_by().values(path)
    return Subquery(rows.annotate(value=expression).values("value")[:1])


PARTS = {
    "round_count": (Round.objects, "event", Count("pk")),
    "round_stamp": (Round.objects, "event", Max("updated_at")),
    "pairing_count": (Pairing.objects, "round__event", Count("pk")),
    "pairing_stamp": (Pairing.objects, "round__event", Max("updated_at")),
    "game_stamp": (Pairing.objects, "round__event", Max("game__updated_at")),
    "result_count": (Result.objects, "pairing__round__event", Count("pk")),
    "result_stamp": (Result.objects, "pairing__round__event", Max("updated_at")),
    "entrant_count": (Entrant.objects, "event", Count("pk")),
    "entrant_ids": (Entrant.objects, "event", Sum("pk")),
    "entrant_stamp": (Entrant.objects, "event", Max("updated_at")),
    "submission_count": (Submission.objects, "entrant__event", Count("pk")),
    "submission_stamp": (Submission.objects, "entrant__event", Max("updated_at")),
    # Bonus and penalty points move the standings: one removed moves the count and the sum of ids.
    "adjustment_count": (Adjustment.objects, "entrant__event", Count("pk")),
    "adjustment_ids": (Adjustment.objects, "entrant__event", Sum("pk")),
    "adjustment_stamp": (Adjustment.objects, "entrant__event", Max("updated_at")),
    # An escalation event's lists, one per stage (the stages themselves move the event's stamp).
    "stage_list_count": (StageSubmission.objects, "entrant__event", Count("pk")),
    "stage_list_stamp": (StageSubmission.objects, "entrant__event", Max("updated_at")),
    # A team event's teams (a captain handed on) and team pairings (a captain's line-up set).
    "team_count": (Team.objects, "event", Count("pk")),
    "team_stamp": (Team.objects, "event", Max("updated_at")),
    "team_match_count": (TeamMatch.objects, "round__event", Count("pk")),
    "team_match_stamp": (TeamMatch.objects, "round__event", Max("updated_at")),
}


# The slug's place in the version's statement, built once per process (see ``_version_statement``).
_SLUG = "\x00the event's slug"


@functools.cache
def _version_statement(published_only: bool) -> tuple[str, tuple, int]:
    """The version's one statement as SQL and parameters, with the slug's index among them.

    Building the statement's 21 subqueries through the ORM costs about 10 ms of CPU, for every
    poll; the statement itself never changes, only the slug does. So it is built once, for a
    stand-in slug, and run with the visitor's.
    """
    annotations = {name: _of_event(qs, path, expr) for name, (qs, path, expr) in PARTS.items()}
    events = Event.objects.filter(published=True) if published_only else Event.objects.all()
    query = events.filter(slug=_SLUG).annotate(**annotations).values("updated_at", *PARTS).query
    sql, params = query.sql_with_params()
    return sql, tuple(params), params.index(_SLUG)


def _as_datetime(value: datetime | str | None) -> datetime | None:
    """A stamp as the database gave it: SQLite's as text (naive, in UTC), PostgreSQL's as datetime."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value


def event_version(slug: str, *, published_only: bool = False) -> EventVersion | None:
    """The event's version, in one query; None when no event has this slug (or, with
    ``published_only``, no published one: the API knows no draft)."""
    sql, params, at = _version_statement(published_only)
    with connection.cursor() as cursor:
        cursor.execute(sql, (*params[:at], slug, *params[at + 1 :]))
        row = cursor.fetchone()
        names = [column[0] for column in cursor.description]
    if row is None:
        return None
    values = dict(zip(names, row, strict=True))
    text = "|".join(str(values[key]) for key in ("updated_at", *PARTS))
    stamps = [_as_datetime(values[key]) for key in values if key == "updated_at" or key.endswith("_stamp")]
    return EventVersion(
        stamp=hashlib.blake2b(text.encode(), digest_size=12).hexdigest(),
        modified=max(stamp for stamp in stamps if stamp is not None),
    )


def _version(request: HttpRequest, slug: str, *, published_only: bool = False) -> EventVersion | None:
    """Read once per request: ``condition`` asks for the ETag and the date separately."""
    known = request.__dict__.setdefault("event_versions", {})
    if (slug, published_only) not in known:
        known[slug, published_only] = event_version(slug, published_only=published_only)
    return known[slug, published_only]


def by_version[T](request: HttpRequest, slug: str, name: str, make: Callable[[], T]) -> T:
    """What ``make`` builds, kept under the event's version (and the language and the release).

    ``make`` must build only what the version covers and what every viewer named by ``name`` sees
    alike. The version is read before ``make`` reads the event, so a write landing in between can
    only put newer data under the older version (built again once asked for), never older data
    under the newer one.
    """
    version = _version(request, slug)
    if version is None:
        return make()
    key = f"events:{slug}:{name}:{version.stamp}:{get_language()}:{build_stamp()}"
    value = cache.get(key)
    if value is None:
        value = make()
        cache.set(key, value, FRAGMENT_SECONDS)
    return value


def is_shared(request: HttpRequest) -> bool:
    """An anonymous visitor's event page: the same bytes for every anonymous visitor."""
    return not request.user.is_authenticated


def _page_etag(request: HttpRequest, slug: str, *args: object, **kwargs: object) -> str | None:
    if messages_waiting(request):
        return None
    version = _version(request, slug)
    if version is None:
        return None
    # A shared page holds no CSRF token, so its tag is not the visitor's either.
    return etag_for(request, version.stamp, per_visitor=not is_shared(request))


def _api_etag(request: HttpRequest, slug: str, *args: object, **kwargs: object) -> str | None:
    version = _version(request, slug, published_only=True)
    return etag_for(request, version.stamp, per_visitor=False) if version is not None else None


def _api_modified(request: HttpRequest, slug: str, *args: object, **kwargs: object) -> datetime | None:
    version = _version(request, slug, published_only=True)
    return version.modified if version is not None else None


def _tagged_after_rendering(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The page's ETag worked out again once it is rendered: a first visit's page sets the CSRF
    secret the visitor sends from then on, and the ETag must be the one their next poll matches."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args: object, **kwargs: object) -> HttpResponse:
        shows_messages = messages_waiting(request)  # shown once: such a page is never validated
        # Read by base.html: a shared page renders no CSRF token (and so sets no CSRF cookie).
        request.shared_page = is_shared(request)
        response = view(request, slug, *args, **kwargs)
        if response.status_code == 200 and request.method in ("GET", "HEAD") and not shows_messages:
            etag = _page_etag(request, slug)
            if etag is not None:
                response["ETag"] = etag
            _mark_shared(request, response)
        return response

    return wrapped


def _mark_shared(request: HttpRequest, response: HttpResponse) -> None:
    """Let nginx keep an anonymous visitor's page for everyone: never one that sets a cookie."""
    patch_vary_headers(response, ("HX-Request",))
    if is_shared(request) and not response.cookies:
        response["X-Accel-Expires"] = str(SHARED_SECONDS)


def event_page_condition(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """An event page: 304 while the event and the visitor are the same."""
    return condition(etag_func=_page_etag)(_tagged_after_rendering(view))


def _shared_answer(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The API answers every visitor alike: nginx may keep an answer a second, as a shared page."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args: object, **kwargs: object) -> HttpResponse:
        response = view(request, slug, *args, **kwargs)
        if response.status_code == 200 and not response.cookies:
            response["X-Accel-Expires"] = str(SHARED_SECONDS)
        return response

    return wrapped


def api_condition(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The API has no visitor: its answers may also be validated by date, and are shared."""
    return condition(etag_func=_api_etag, last_modified_func=_api_modified)(_shared_answer(view))
