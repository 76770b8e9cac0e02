"""Events for tests: an organiser's event and players with lists, sealed and approved as asked."""

from __future__ import annotations

import datetime

from armybuilder.events import services
from armybuilder.events.models import Entrant, Event, Submission
from tests.lists.factories import make_army, make_edition, make_entry, make_list, make_unit, make_user


def make_event(organiser=None, **kwargs) -> Event:
    kwargs.setdefault("name", "Club night")
    kwargs.setdefault("date", datetime.date(2026, 12, 5))
    kwargs.setdefault("edition", make_edition("v3"))
    kwargs.setdefault("points_limit", 1000)
    return Event.objects.create(organiser=organiser or make_user(), **kwargs)


def make_player_list(user, army=None, *, units: int = 1, **kwargs):
    """A list with ``units`` 50-point squads and no force organisation: legal under any cap it fits."""
    army = army or make_army(edition=make_edition("v3"))
    kwargs.setdefault("force_org", "none")
    army_list = make_list(owner=user, army=army, **kwargs)
    unit = make_unit(army=army)
    for _ in range(units):
        make_entry(army_list, unit)
    return army_list


def make_entrant(event: Event, user=None, *, army=None, approve: bool = True, units: int = 1) -> Entrant:
    user = user or make_user()
    entrant = Entrant.objects.create(event=event, user=user)
    army_list = make_player_list(user, army, units=units)
    services.seal(entrant, army_list.pk)
    if approve:
        Submission.objects.filter(entrant=entrant).update(status=Submission.Status.APPROVED)
    return entrant
