"""League games of a season: games two players report between themselves, outside any event.

Each confirmed league game scores points for both players by the season's points for a win, a
draw and a loss (3, 1 and 0 by default, as most club leagues count). A player's league points are
the sum over their games: every league game counts (no best N; that rule is for events, where a
player's weaker results would otherwise pile up).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

DEFAULT_WIN, DEFAULT_DRAW, DEFAULT_LOSS = 3, 1, 0

# Player a's outcome, as events record it, and what each side made of it.
OUTCOMES = {"a": ("win", "loss"), "b": ("loss", "win"), "draw": ("draw", "draw")}


@dataclass(frozen=True)
class GamePoints:
    """The points a win, a draw and a loss of a league game earn in one season."""

    win: int = DEFAULT_WIN
    draw: int = DEFAULT_DRAW
    loss: int = DEFAULT_LOSS

    def __post_init__(self) -> None:
        if min(self.win, self.draw, self.loss) < 0:
            raise ValueError("league points cannot be negative")
        if not self.win >= self.draw >= self.loss:
            raise ValueError("a win must score at least a draw, and a draw at least a loss")

    def of(self, result: str) -> int:
        return {"win": self.win, "draw": self.draw, "loss": self.loss}[result]


@dataclass(frozen=True)
class LeagueGame:
    """One confirmed league game; ``outcome`` is "a", "b" or "draw" (from player a's side)."""

    player_a: int
    player_b: int
    outcome: str


@dataclass(frozen=True)
class Tally:
    """A player's league games of a season: counts and points."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses


NO_GAMES = Tally()


def tallies(games: Iterable[LeagueGame], points: GamePoints = GamePoints()) -> dict[int, Tally]:
    """Each player's wins, draws, losses and league points over the season's confirmed games."""
    counts: dict[int, list[int]] = {}
    for game in games:
        if game.outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {game.outcome!r}")
        if game.player_a == game.player_b:
            raise ValueError(f"player {game.player_a} cannot play themselves")
        for player, result in zip((game.player_a, game.player_b), OUTCOMES[game.outcome], strict=True):
            counts.setdefault(player, [0, 0, 0])[("win", "draw", "loss").index(result)] += 1
    return {
        player: Tally(w, d, lost, w * points.win + d * points.draw + lost * points.loss)
        for player, (w, d, lost) in counts.items()
    }
