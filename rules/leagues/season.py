"""Season standings: points per placing scaled by the field's size, each player's best results.

Points for a placing: ``points = round(scale × (N − placing + 1) / N)`` where N is the number of
players ranked at that event and ``scale`` the season's points for a win of the event (100 by
default). The winner of any event scores ``scale``; last place scores ``scale / N`` (rounded), so a
placing at a bigger event is worth more than the same placing at a small one. Rounding is half up,
in integers (no floating point). Players who share a place share its points.

Each player's results are sorted best first (points, then the earlier event, then the event's key)
and the first ``best`` of them count; the others are dropped and shown as such. A player with fewer
than ``minimum`` events is listed after the ranked players, without a place.

Ties between ranked players: the total of counted points, then the counted results compared best
first (the better single result wins), then the number of events played. Players equal on all of
these share a place and are listed by name, then by key.

League games (``rules.leagues.league``): a season may also take games its players report between
themselves. A player's league points (per win, draw and loss, all games counted) are added to their
counted event points; each league game played counts as one result towards ``minimum``, and in the
last tie-break (results played) beside the events. A player with league games only has a row too.
Without league games every figure is the events' alone, as above.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.leagues.league import NO_GAMES, Tally

DEFAULT_SCALE = 100


@dataclass(frozen=True)
class Placing:
    """One player's final place at one event of the season."""

    event: int  # the event's key
    date: datetime.date
    player: int
    place: int  # 1 for the winner; shared places repeat
    field: int  # the number of players ranked at the event


@dataclass(frozen=True)
class Result:
    event: int
    date: datetime.date
    place: int
    field: int
    points: int
    counted: bool


@dataclass(frozen=True)
class Row:
    player: int
    place: int | None  # None while the player has played fewer events than the minimum
    total: int  # counted event points plus league points
    results: tuple[Result, ...]  # best first; dropped ones have counted=False
    league: Tally = NO_GAMES  # the player's confirmed league games of the season

    @property
    def events(self) -> int:
        return len(self.results)

    @property
    def played(self) -> int:
        """Results towards the minimum: events played and league games played."""
        return len(self.results) + self.league.played


def placing_points(place: int, field: int, scale: int = DEFAULT_SCALE) -> int:
    """``round(scale × (field − place + 1) / field)``, half up, in integers."""
    if field < 1 or not 1 <= place <= field:
        raise ValueError(f"place {place} is outside a field of {field}")
    if scale < 0:
        raise ValueError("the points scale cannot be negative")
    numerator = scale * (field - place + 1)
    return (2 * numerator + field) // (2 * field)


def season_standings(
    placings: Sequence[Placing],
    *,
    best: int | None = None,
    minimum: int = 1,
    scale: int = DEFAULT_SCALE,
    names: Mapping[int, str] | None = None,
    league: Mapping[int, Tally] | None = None,
) -> list[Row]:
    """The season's table from every player's placings and league tallies; ``best`` None counts every result."""
    if best is not None and best < 1:
        raise ValueError("best must be at least 1")
    names = names or {}
    league = league or {}
    by_player: dict[int, list[Placing]] = {}
    seen: set[tuple[int, int]] = set()
    for placing in placings:
        if (placing.event, placing.player) in seen:
            raise ValueError(f"player {placing.player} is placed twice at event {placing.event}")
        seen.add((placing.event, placing.player))
        by_player.setdefault(placing.player, []).append(placing)

    rows = []
    for player in league:
        by_player.setdefault(player, [])
    for player, own in by_player.items():
        scored = sorted(
            ((placing_points(p.place, p.field, scale), p) for p in own),
            key=lambda item: (-item[0], item[1].date, item[1].event),
        )
        limit = len(scored) if best is None else best
        results = tuple(
            Result(p.event, p.date, p.place, p.field, points, counted=index < limit)
            for index, (points, p) in enumerate(scored)
        )
        tally = league.get(player, NO_GAMES)
        total = sum(r.points for r in results if r.counted) + tally.points
        rows.append(Row(player=player, place=None, total=total, results=results, league=tally))

    def strength(row: Row) -> tuple:
        return (row.total, tuple(r.points for r in row.results if r.counted), row.played)

    ranked = [row for row in rows if row.played >= minimum]
    unranked = [row for row in rows if row.played < minimum]
    ranked.sort(key=lambda row: (_descending(strength(row)), names.get(row.player, ""), row.player))
    unranked.sort(key=lambda row: (-row.total, names.get(row.player, ""), row.player))

    out = []
    place = 0
    previous = None
    for position, row in enumerate(ranked, start=1):
        if strength(row) != previous:
            place, previous = position, strength(row)
        out.append(Row(player=row.player, place=place, total=row.total, results=row.results, league=row.league))
    return out + unranked


def _descending(values: tuple) -> tuple:
    """A sort key putting the larger ``(total, counted points best first, results played)`` first."""
    total, counted, events = values
    # A longer list of counted results beats its own prefix: pad with -1 (no result is below 0 points).
    return (-total, tuple(-p for p in counted) + (1,), -events)
