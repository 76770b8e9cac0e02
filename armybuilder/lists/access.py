"""Who may see and change a list.

Signed-in users own their lists. A visitor without an account may build lists too: their ids
are kept in the session, and ``claim_session_lists`` hands them to the account at sign-up or
log-in. Every lookup goes through ``get_list_for_user`` so another visitor's list is a 404,
whatever the endpoint (page, htmx fragment or action).
"""

from __future__ import annotations

from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from armybuilder.lists.models import ArmyList

SESSION_KEY = "muster_anonymous_lists"


def session_list_ids(request: HttpRequest) -> list[int]:
    return [int(i) for i in request.session.get(SESSION_KEY, [])]


def remember_in_session(request: HttpRequest, army_list: ArmyList) -> None:
    ids = session_list_ids(request)
    if army_list.pk not in ids:
        request.session[SESSION_KEY] = [*ids, army_list.pk]


def owner_for(request: HttpRequest):
    """Who a list this visitor makes belongs to: the signed-in user, or nobody (then the session keeps it)."""
    return request.user if request.user.is_authenticated else None


def keep_made_list(request: HttpRequest, army_list: ArmyList) -> None:
    """A list just made (imported, copied) by a visitor without an account is kept in their session."""
    if army_list.owner_id is None:
        remember_in_session(request, army_list)


def lists_for_user(request: HttpRequest):
    """The visitor's own lists (active and trashed)."""
    return ArmyList.objects.owned_by(request.user, session_list_ids(request))


def get_list_for_user(request: HttpRequest, pk: int, *, for_builder: bool = False, trashed: bool = False) -> ArmyList:
    queryset = lists_for_user(request)
    queryset = queryset.in_trash() if trashed else queryset.active()
    if for_builder:
        queryset = queryset.for_builder()
    return get_object_or_404(queryset, pk=pk)


def get_shared_list(token: str) -> ArmyList:
    return get_object_or_404(ArmyList.objects.active().for_builder(), share_token=token)


def claim_session_lists(request: HttpRequest, user) -> int:
    """Give the session's anonymous lists to ``user``; returns how many were claimed."""
    ids = session_list_ids(request)
    if not ids:
        return 0
    claimed = ArmyList.objects.filter(pk__in=ids, owner__isnull=True).update(owner=user)
    request.session[SESSION_KEY] = []
    return claimed
