"""Elo ratings per game system and edition, recomputed from the games.

The published Elo definition: a player rated Ra meeting one rated Rb expects to score
``E = 1 / (1 + 10^((Rb − Ra) / 400))`` (a win scores S = 1, a draw ½, a loss 0) and leaves with
``R' = R + K × (S − E)``.

Choices (parameters, with these defaults):
- every player starts at 1500 in each pool (a game system and edition: a rating in one edition says
  little about another);
- K = 32 for every game. A Bolt Action player plays a few dozen rated games a year, far fewer than a
  chess player; a high constant K lets a rating move within a season and keeps every step easy to
  check by hand.

Reproducibility: games are taken by date; the games of one day are all rated against the ratings
frozen at the start of that day, and each game's change is rounded to 0.01 (half even, in
``Decimal``) before the day's changes are summed. Sums of such numbers are exact, so the ratings do
not depend on the order of the games within a day, nor on the machine. ``E`` itself is computed in a
28-digit decimal context, the same everywhere.
"""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Context, Decimal

START = Decimal(1500)
K = Decimal(32)
CENT = Decimal("0.01")
SCORES = {"win": Decimal(1), "draw": Decimal("0.5"), "loss": Decimal(0)}
_CONTEXT = Context(prec=28, rounding=ROUND_HALF_EVEN)


@dataclass(frozen=True)
class RatedGame:
    """One game between two players; ``outcome`` is player a's ("win", "draw" or "loss")."""

    pool: Hashable  # the game system and edition, e.g. ("bolt-action", "v3")
    date: datetime.date
    key: str  # stable and unique, e.g. "event-12/round-3/table-4"; orders the history
    player_a: Hashable
    player_b: Hashable
    outcome: str


@dataclass(frozen=True)
class Step:
    """A player's rating after one day of games."""

    date: datetime.date
    rating: Decimal
    change: Decimal
    games: int


def expected(rating: Decimal, opponent: Decimal) -> Decimal:
    """The expected score of a player rated ``rating`` against one rated ``opponent``."""
    exponent = _CONTEXT.divide(opponent - rating, Decimal(400))
    power = _CONTEXT.power(Decimal(10), exponent)
    return _CONTEXT.divide(Decimal(1), _CONTEXT.add(Decimal(1), power))


def change(rating: Decimal, opponent: Decimal, score: Decimal, k: Decimal = K) -> Decimal:
    """K × (S − E), rounded to 0.01 half even."""
    delta = _CONTEXT.multiply(k, score - expected(rating, opponent))
    return delta.quantize(CENT, rounding=ROUND_HALF_EVEN)


def ratings(
    games: Iterable[RatedGame], *, start: Decimal = START, k: Decimal = K
) -> dict[Hashable, dict[Hashable, list[Step]]]:
    """Each pool's players' rating histories (one step per day played), from the games in any order."""
    by_pool: dict[Hashable, list[RatedGame]] = {}
    keys: set[str] = set()
    for game in games:
        if game.outcome not in SCORES:
            raise ValueError(f"unknown outcome {game.outcome!r} in game {game.key}")
        if game.player_a == game.player_b:
            raise ValueError(f"game {game.key} has the same player on both sides")
        if game.key in keys:
            raise ValueError(f"game {game.key} is given twice")
        keys.add(game.key)
        by_pool.setdefault(game.pool, []).append(game)
    return {pool: _pool_history(pool_games, start, k) for pool, pool_games in by_pool.items()}


def current(history: Mapping[Hashable, list[Step]]) -> dict[Hashable, Decimal]:
    """The latest rating of each player of one pool."""
    return {player: steps[-1].rating for player, steps in history.items()}


def _pool_history(games: list[RatedGame], start: Decimal, k: Decimal) -> dict[Hashable, list[Step]]:
    games = sorted(games, key=lambda game: (game.date, game.key))
    rating: dict[Hashable, Decimal] = {}
    history: dict[Hashable, list[Step]] = {}
    index = 0
    while index < len(games):
        day = games[index].date
        frozen = dict(rating)
        deltas: dict[Hashable, Decimal] = {}
        played: dict[Hashable, int] = {}
        while index < len(games) and games[index].date == day:
            game = games[index]
            ra = frozen.get(game.player_a, start)
            rb = frozen.get(game.player_b, start)
            # Player b's change is exactly the opposite of a's (E_b = 1 − E_a), so no rounding
            # can create or destroy rating points.
            delta = change(ra, rb, SCORES[game.outcome], k)
            for player, own in ((game.player_a, delta), (game.player_b, -delta)):
                deltas[player] = deltas.get(player, Decimal(0)) + own
                played[player] = played.get(player, 0) + 1
            index += 1
        for player, delta in deltas.items():
            rating[player] = frozen.get(player, start) + delta
            history.setdefault(player, []).append(Step(day, rating[player], delta, played[player]))
    return history
