"""Pairing the players of a round: round 1 at random (seeded), then Swiss.

Swiss pairing is a maximum-weight matching (networkx, Edmonds' blossom algorithm) on the graph
of pairs of players who have not met and stand at most ``WINDOW`` places apart; the whole field
is linked only when that graph cannot pair everyone (200 players pair in about 0.2 s instead of
3 s). An edge's weight is high when the two are close in the standings (score first, then rank)
and a little higher when one plays Axis and the other Allies, if the event asks for that. With
an odd count a "bye" node joins the graph, linked only to players who have not had a bye, the
lower in the standings the heavier. The matching is asked for at maximum cardinality, so
everyone is paired whenever that is possible without a rematch; when it is not,
``PairingImpossible`` says so rather than pairing anyone twice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

BYE = -1  # the bye node's key; players' keys are their entrant ids (positive)

# Weights are integers, so the matching is exact. A point of score apart costs more than any
# difference of rank or any side preference can pay back.
SCORE_WEIGHT = 1_000_000
SIDE_BONUS = 400  # worth pairing about 20 places further apart within one score group
BASE = 10**13
# Players further apart than this in the standings are linked only when the closer graph has no
# pairing of everyone: the matching's time grows with the edges, and a Swiss pairing never needs them.
WINDOW = 12


class PairingImpossible(Exception):
    """No pairing of every player avoids a rematch (and a second bye)."""


@dataclass(frozen=True)
class SwissPlayer:
    key: int
    score: int
    side: str = ""  # "axis", "allies" or "" (unknown)
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False


@dataclass(frozen=True)
class Pairing:
    table: int | None  # None for the bye
    players: tuple[int, ...]  # two keys, or one for a bye

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1


def first_round(keys: Sequence[int], seed: int | str) -> list[Pairing]:
    """Random pairs, the same for the same players and seed; the odd one out has the bye."""
    order = sorted(keys)
    random.Random(str(seed)).shuffle(order)
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
    bye = order[-1] if len(order) % 2 else None
    return _with_tables(pairs, bye)


def swiss(players: Sequence[SwissPlayer], *, prefer_sides: bool = False) -> list[Pairing]:
    """Pairs of players close in the standings who have not met; ``players`` in standings order."""
    matching = _match(players, prefer_sides, WINDOW)
    if matching is None and len(players) > WINDOW + 1:
        matching = _match(players, prefer_sides, len(players))
    if matching is None:
        raise PairingImpossible
    rank = {player.key: index for index, player in enumerate(players)}
    pairs = []
    bye = None
    for a, b in matching:
        if BYE in (a, b):
            bye = b if a == BYE else a
            continue
        pairs.append((a, b) if rank[a] < rank[b] else (b, a))
    pairs.sort(key=lambda pair: rank[pair[0]])
    return _with_tables(pairs, bye)


def _match(players: Sequence[SwissPlayer], prefer_sides: bool, window: int) -> set[tuple[int, int]] | None:
    """The best matching linking players at most ``window`` places apart; None if it leaves anyone out."""
    rank = {player.key: index for index, player in enumerate(players)}
    graph = nx.Graph()
    graph.add_nodes_from(rank)
    for i, a in enumerate(players):
        for b in players[i + 1 : i + 1 + window]:
            if b.key in a.opponents or a.key in b.opponents:
                continue
            weight = BASE - SCORE_WEIGHT * (a.score - b.score) ** 2 - (rank[a.key] - rank[b.key]) ** 2
            if prefer_sides and {a.side, b.side} == {"axis", "allies"}:
                weight += SIDE_BONUS
            graph.add_edge(a.key, b.key, weight=weight)
    if len(players) % 2:
        lowest = min((player.score for player in players), default=0)
        last = len(players) - 1
        for player in players:
            if not player.had_bye:
                weight = BASE - SCORE_WEIGHT * (player.score - lowest) ** 2 - (last - rank[player.key]) ** 2
                graph.add_edge(BYE, player.key, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    matched = {key for pair in matching for key in pair}
    return matching if len(matched) == graph.number_of_nodes() else None


def _with_tables(pairs: Sequence[tuple[int, int]], bye: int | None) -> list[Pairing]:
    """Table 1 for the first pair, and so on; the bye last, at no table."""
    out = [Pairing(table=table, players=pair) for table, pair in enumerate(pairs, start=1)]
    if bye is not None:
        out.append(Pairing(table=None, players=(bye,)))
    return out


def swap(pairings: Sequence[Pairing], first: tuple[int, int], second: tuple[int, int]) -> list[Pairing]:
    """Exchange two players between two pairings (the organiser's manual fix before publishing).

    ``first`` and ``second`` are (pairing index, seat index); the tables stay where they are.
    """
    seats = [list(pairing.players) for pairing in pairings]
    (pa, sa), (pb, sb) = first, second
    if pa == pb:
        raise ValueError("the two players are in the same pairing")
    seats[pa][sa], seats[pb][sb] = seats[pb][sb], seats[pa][sa]
    return [Pairing(table=p.table, players=tuple(s)) for p, s in zip(pairings, seats, strict=True)]


def opponents_of(games: Sequence[Sequence[int]]) -> Mapping[int, frozenset[int]]:
    """Each player's past opponents from the games played (pairs; a bye is a game of one)."""
    met: dict[int, set[int]] = {}
    for game in games:
        for key in game:
            met.setdefault(key, set()).update(other for other in game if other != key)
    return {key: frozenset(keys) for key, keys in met.items()}
