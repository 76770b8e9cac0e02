"""Team events: teams paired Swiss on team results, and team standings.

A team pairing is a set of games between the two teams' players. The team that wins more of
those games wins the pairing (team win); as many games won on each side is a team draw. Team
points come from the event's scoring of team wins, draws and losses.

Team standings order teams by team points, then by the organiser's tiebreaks, chosen from:
- ``game_points``: the sum of the team's players' game points (the event's scoring of each game);
- ``games_won``: the number of games the team's players won;
- ``sos``: strength of schedule, the sum of the team points of the teams met.
Teams equal on all of them share a place and are listed by name, then key.

Individual standings are the events' standings over every player's games (``individual_games``).

Pairing reuses the individual Swiss matching on team keys: each team is a Swiss player whose
score is its team points and whose opponents are the teams it has met, so teams never meet twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.events.pairing import Pairing, SwissPlayer, first_round, swiss
from rules.events.standings import Game, Scoring

DEFAULT_SCORING = Scoring()
TEAM_TIEBREAKS = ("game_points", "games_won", "sos")


@dataclass(frozen=True)
class TeamGame:
    """One game of a team pairing: player a of team a against player b of team b."""

    player_a: int
    player_b: int
    outcome: str  # player a's: "win", "draw" or "loss"


@dataclass(frozen=True)
class TeamMatch:
    """Two teams' pairing and its games; a bye (``team_b`` None) is a team win with no games."""

    team_a: int
    team_b: int | None
    games: tuple[TeamGame, ...] = ()

    def team_outcomes(self) -> tuple[str, str]:
        won_a = sum(game.outcome == "win" for game in self.games)
        won_b = sum(game.outcome == "loss" for game in self.games)
        if won_a > won_b:
            return "win", "loss"
        if won_b > won_a:
            return "loss", "win"
        return "draw", "draw"


@dataclass(frozen=True)
class TeamRow:
    key: int
    place: int
    team_points: int
    game_points: int
    games_won: int
    sos: int
    played: int

    def value(self, name: str) -> int:
        return getattr(self, name)


def team_standings(
    teams: Sequence[int],
    matches: Sequence[TeamMatch],
    *,
    team_scoring: Scoring = DEFAULT_SCORING,
    game_scoring: Scoring = DEFAULT_SCORING,
    order: Sequence[str] = TEAM_TIEBREAKS,
    names: Mapping[int, str] | None = None,
) -> list[TeamRow]:
    unknown = [name for name in order if name not in TEAM_TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown team tiebreaks: {unknown}")
    team_value = {"win": team_scoring.win, "draw": team_scoring.draw, "loss": team_scoring.loss}
    game_value = {"win": game_scoring.win, "draw": game_scoring.draw, "loss": game_scoring.loss}
    flipped = {"win": "loss", "loss": "win", "draw": "draw"}
    points = dict.fromkeys(teams, 0)
    game_points = dict.fromkeys(teams, 0)
    won = dict.fromkeys(teams, 0)
    played = dict.fromkeys(teams, 0)
    met: dict[int, list[int]] = {team: [] for team in teams}
    for match in matches:
        if match.team_b is None:
            if match.team_a in points:
                points[match.team_a] += team_value["win"]
                played[match.team_a] += 1
            continue
        outcome_a, outcome_b = match.team_outcomes()
        for team, other, outcome, side in (
            (match.team_a, match.team_b, outcome_a, "a"),
            (match.team_b, match.team_a, outcome_b, "b"),
        ):
            if team not in points:
                continue
            points[team] += team_value[outcome]
            played[team] += 1
            met[team].append(other)
            for game in match.games:
                own = game.outcome if side == "a" else flipped[game.outcome]
                game_points[team] += game_value[own]
                won[team] += own == "win"
    sos = {team: sum(points.get(other, 0) for other in met[team]) for team in teams}
    table = {"game_points": game_points, "games_won": won, "sos": sos}
    names = names or {}

    def values(team: int) -> tuple[int, ...]:
        return (points[team], *(table[name][team] for name in order))

    ordered = sorted(teams, key=lambda team: (tuple(-v for v in values(team)), names.get(team, ""), team))
    rows = []
    place = 0
    previous = None
    for position, team in enumerate(ordered, start=1):
        if values(team) != previous:
            place, previous = position, values(team)
        rows.append(TeamRow(team, place, points[team], game_points[team], won[team], sos[team], played[team]))
    return rows


def pair_teams(
    teams: Sequence[int],
    matches: Sequence[TeamMatch],
    *,
    seed: int | str,
    team_scoring: Scoring = DEFAULT_SCORING,
    order: Sequence[str] = TEAM_TIEBREAKS,
) -> list[Pairing]:
    """The next round's team pairings: random in the first round, then Swiss without rematches."""
    if not matches:
        return first_round(teams, seed)
    rows = team_standings(teams, matches, team_scoring=team_scoring, order=order)
    met: dict[int, set[int]] = {team: set() for team in teams}
    had_bye: set[int] = set()
    for match in matches:
        if match.team_b is None:
            had_bye.add(match.team_a)
        else:
            met.setdefault(match.team_a, set()).add(match.team_b)
            met.setdefault(match.team_b, set()).add(match.team_a)
    return swiss(
        [
            SwissPlayer(
                key=row.key, score=row.team_points, opponents=frozenset(met[row.key]), had_bye=row.key in had_bye
            )
            for row in rows
        ]
    )


def individual_games(matches: Sequence[TeamMatch]) -> list[Game]:
    """The players' games of every team pairing, for the individual standings beside the teams'."""
    flipped = {"win": "loss", "loss": "win", "draw": "draw"}
    return [
        Game(players=(game.player_a, game.player_b), outcomes=(game.outcome, flipped[game.outcome]))
        for match in matches
        for game in match.games
    ]
