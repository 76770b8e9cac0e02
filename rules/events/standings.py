"""Standings: each player's score and tiebreaks from the games reported, in order.

Tiebreaks, in the event's chosen order after the score (or in place of it):
- ``score``: points for wins, draws and losses (the event's scoring); a bye counts as a win;
- ``sos``: strength of schedule, the sum of the scores of the opponents met (a bye adds nothing);
- ``dice``: enemy order dice destroyed, over every game;
- ``points``: the points of the enemy units destroyed, over every game (events that rank by it,
  as some 2nd-edition events do; a game without the figure adds nothing).
Bonus and penalty points (``adjustments``: the organiser's awards and deductions, a total per player)
are added to the player's score, so they move the score and the places; strength of schedule adds
the opponents' scores from their games only, so a painting award or a late-list deduction of one
player does not move the tiebreaks of everyone they met.
Players equal on every tiebreak share a place; they are listed by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

TIEBREAKS = ("score", "sos", "dice", "points")
DEFAULT_ORDER = ("score", "sos", "dice")


@dataclass(frozen=True)
class Scoring:
    win: int = 3
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True)
class Game:
    """A game with a result: the players, each one's outcome and dice destroyed. A bye has one player."""

    players: tuple[int, ...]
    outcomes: tuple[str, ...]  # "win", "draw" or "loss", one per player
    dice: tuple[int, ...] = ()  # enemy order dice each player destroyed
    points: tuple[int, ...] = ()  # points of the enemy units each player destroyed, when recorded


@dataclass(frozen=True)
class Row:
    key: int
    place: int
    score: int
    sos: int
    dice: int
    played: int
    adjustment: int = 0  # bonus and penalty points, already in ``score``
    points: int = 0  # points of enemy units destroyed

    @property
    def game_score(self) -> int:
        """The score from the games alone."""
        return self.score - self.adjustment

    def value(self, tiebreak: str) -> int:
        return getattr(self, tiebreak)


def standings(
    keys: Sequence[int],
    games: Sequence[Game],
    *,
    scoring: Scoring = Scoring(),
    order: Sequence[str] = DEFAULT_ORDER,
    names: Mapping[int, str] | None = None,
    adjustments: Mapping[int, int] | None = None,
) -> list[Row]:
    unknown = [name for name in order if name not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tiebreaks: {unknown}")
    points = {"win": scoring.win, "draw": scoring.draw, "loss": scoring.loss}
    score = dict.fromkeys(keys, 0)
    dice = dict.fromkeys(keys, 0)
    destroyed = dict.fromkeys(keys, 0)
    played = dict.fromkeys(keys, 0)
    met: dict[int, list[int]] = {key: [] for key in keys}
    for game in games:
        for index, key in enumerate(game.players):
            if key not in score:
                continue
            outcome = "win" if len(game.players) == 1 else game.outcomes[index]
            score[key] += points[outcome]
            played[key] += 1
            if game.dice:
                dice[key] += game.dice[index]
            if game.points:
                destroyed[key] += game.points[index]
            met[key].extend(other for other in game.players if other != key)
    sos = {key: sum(score.get(other, 0) for other in met[key]) for key in keys}
    adjustment = {key: (adjustments or {}).get(key, 0) for key in keys}
    for key in keys:
        score[key] += adjustment[key]
    names = names or {}

    def values(key: int) -> tuple[int, ...]:
        table = {"score": score, "sos": sos, "dice": dice, "points": destroyed}
        return tuple(table[name][key] for name in order)

    ordered = sorted(keys, key=lambda key: (tuple(-v for v in values(key)), names.get(key, ""), key))
    rows = []
    place = 0
    previous = None
    for position, key in enumerate(ordered, start=1):
        current = values(key)
        if current != previous:
            place = position
            previous = current
        rows.append(
            Row(
                key=key,
                place=place,
                score=score[key],
                sos=sos[key],
                dice=dice[key],
                played=played[key],
                adjustment=adjustment[key],
                points=destroyed[key],
            )
        )
    return rows
