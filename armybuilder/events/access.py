"""Who may see and change what of an event.

The organiser changes the event; an entrant only their own submission and their own games'
results. An event is reached by its link (its slug) by anyone; its standings and API are public
once published. A sealed list is seen by the organiser and its own player, and by everyone else
only once the organiser reveals the lists.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from armybuilder.events.models import Entrant, Event
from armybuilder.events.services import event_for_rules


def get_event(slug: str) -> Event:
    return get_object_or_404(event_for_rules(), slug=slug)


def get_organised_event(request: HttpRequest, slug: str) -> Event:
    """The event, when the visitor organises it; a 404 for anyone else (no hint that it exists)."""
    event = get_event(slug)
    if not event.is_organiser(request.user):
        raise Http404
    return event


def entrant_of(request: HttpRequest, event: Event) -> Entrant | None:
    if not request.user.is_authenticated:
        return None
    return Entrant.objects.filter(event=event, user=request.user).first()


def can_follow(request: HttpRequest, event: Event, entrant: Entrant | None) -> bool:
    """Rounds and standings: public once published, else the organiser's and entrants' only."""
    return event.published or event.is_organiser(request.user) or entrant is not None


def can_see_list(request: HttpRequest, event: Event, owner: Entrant) -> bool:
    if event.is_organiser(request.user):
        return True
    if request.user.is_authenticated and owner.user_id == request.user.pk:
        return True
    return event.lists_revealed
