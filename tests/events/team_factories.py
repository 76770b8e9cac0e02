"""Team events for tests: teams of approved players, founded and joined through the services."""

from __future__ import annotations

from armybuilder.events import teams as team_services
from armybuilder.events.models import Event, Team
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import make_user


def make_team_event(organiser=None, *, teams: int = 4, size: int = 3, prefix: str = "", **kwargs) -> Event:
    """A published team event of ``teams`` full teams of ``size`` approved players; the first player of
    each team captains it. Team names: "<prefix>Team 1", ... (sorted as numbered below 10)."""
    kwargs.setdefault("published", True)
    event = make_event(organiser or make_user(), team_size=size, **kwargs)
    for number in range(1, teams + 1):
        captain = make_entrant(event, make_user(f"{prefix}t{number}p1"))
        team = team_services.create_team(event, captain, f"{prefix}Team {number}")
        for seat in range(2, size + 1):
            player = make_entrant(event, make_user(f"{prefix}t{number}p{seat}"))
            team_services.join_team(event, team.pk, player.pk)
    return event


def players_of(team: Team) -> list[int]:
    """The team's players, captain first, in the order they joined."""
    return list(team.members.order_by("joined_at", "pk").values_list("pk", flat=True))
