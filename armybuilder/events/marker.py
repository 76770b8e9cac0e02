"""Which of a player's lists are submitted to an event, kept in their session.

The builder shows "legal for <event>" only for a list submitted somewhere, and it must learn that
without a query: its pages and htmx answers have fixed query budgets (tests/lists/test_builder_queries.py),
and the problems panel is sent again after many changes. The session is read on every request
anyway, so the ids live there: filled at log-in (one query), added to when the player submits a
list, refreshed when they open an event's page. A list no longer submitted anywhere still fetches
the fragment once per panel, which then shows nothing.
"""

from __future__ import annotations

from django.http import HttpRequest

from armybuilder.events.models import Submission

SESSION_KEY = "events_submitted_lists"


def submitted(request: HttpRequest | None, list_id: int | None) -> bool:
    session = getattr(request, "session", None)
    return bool(list_id) and session is not None and list_id in session.get(SESSION_KEY, [])


def remember(request: HttpRequest, list_id: int | None) -> None:
    ids = request.session.get(SESSION_KEY, [])
    if list_id and list_id not in ids:
        request.session[SESSION_KEY] = [*ids, list_id]


def on_login(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """``user_logged_in``: the ids of the lists this user has submitted, for this session."""
    if request is None or not hasattr(request, "session"):
        return
    ids = Submission.objects.filter(entrant__user=user, army_list__isnull=False).values_list("army_list_id", flat=True)
    request.session[SESSION_KEY] = sorted(set(ids))
