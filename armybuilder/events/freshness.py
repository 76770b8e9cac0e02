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
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max, OuterRef, Subquery, Sum
from django.http import HttpRequest, HttpResponse
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
from armybuilder.http import etag_for, messages_waiting


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


def event_version(slug: str, *, published_only: bool = False) -> EventVersion | None:
    """The event's version, in one query; None when no event has this slug (or, with
    ``published_only``, no published one: the API knows no draft)."""
    annotations = {name: _of_event(qs, path, expr) for name, (qs, path, expr) in PARTS.items()}
    events = Event.objects.filter(published=True) if published_only else Event.objects.all()
    row = events.filter(slug=slug).annotate(**annotations).values("updated_at", *PARTS).first()
    if row is None:
        return None
    text = "|".join(str(row[key]) for key in ("updated_at", *PARTS))
    stamps = [value for value in row.values() if isinstance(value, datetime)]
    return EventVersion(stamp=hashlib.blake2b(text.encode(), digest_size=12).hexdigest(), modified=max(stamps))


def _version(request: HttpRequest, slug: str, *, published_only: bool = False) -> EventVersion | None:
    """Read once per request: ``condition`` asks for the ETag and the date separately."""
    known = request.__dict__.setdefault("event_versions", {})
    if (slug, published_only) not in known:
        known[slug, published_only] = event_version(slug, published_only=published_only)
    return known[slug, published_only]


def _page_etag(request: HttpRequest, slug: str, *args: object, **kwargs: object) -> str | None:
    if messages_waiting(request):
        return None
    version = _version(request, slug)
    return etag_for(request, version.stamp) if version is not None else None


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
        response = view(request, slug, *args, **kwargs)
        if response.status_code == 200 and request.method in ("GET", "HEAD") and not shows_messages:
            etag = _page_etag(request, slug)
            if etag is not None:
                response["ETag"] = etag
        return response

    return wrapped


def event_page_condition(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """An event page: 304 while the event and the visitor are the same."""
    return condition(etag_func=_page_etag)(_tagged_after_rendering(view))


# The API has no visitor: its answers may also be validated by date.
api_condition = condition(etag_func=_api_etag, last_modified_func=_api_modified)
