"""Which table each game of a round is played at: nobody at a table they have played at before,
when that can be avoided.

Tables are numbered from the top of the standings (the leaders at table 1), which would seat the
same players at table 1 all day. Each game in standings order takes the lowest-numbered free table
neither player has sat at. When that leaves a game at a table one of its players knows, the
largest set of games that can all sit at tables new to their players is found exactly (a maximum
bipartite matching of games to such tables, Hopcroft-Karp in networkx) and the other games take
the tables left. So a seating where nobody repeats a table is found whenever one exists. Plain
Python, no framework: the caller passes each player's earlier tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx


def _fresh(players: Sequence[int], table: int, history: Mapping[int, frozenset[int] | set[int]]) -> bool:
    return not any(table in history.get(player, ()) for player in players)


def _in_order(games: Sequence[Sequence[int]], history: Mapping[int, frozenset[int] | set[int]]) -> list[int]:
    free = list(range(1, len(games) + 1))
    tables = []
    for players in games:
        table = next((t for t in free if _fresh(players, t, history)), free[0])
        free.remove(table)
        tables.append(table)
    return tables


def assign_tables(games: Sequence[Sequence[int]], history: Mapping[int, frozenset[int] | set[int]]) -> list[int]:
    """Table numbers 1..n for the n ``games`` (each its players' keys, in standings order)."""
    tables = _in_order(games, history)
    repeated = sum(1 for players, table in zip(games, tables, strict=True) if not _fresh(players, table, history))
    if not repeated:
        return tables
    graph = nx.Graph()
    game_nodes = [("game", i) for i in range(len(games))]
    graph.add_nodes_from(game_nodes)
    graph.add_nodes_from(("table", t) for t in range(1, len(games) + 1))
    graph.add_edges_from(
        (("game", i), ("table", t))
        for i, players in enumerate(games)
        for t in range(1, len(games) + 1)
        if _fresh(players, t, history)
    )
    matching = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=game_nodes)
    matched = {i: matching[("game", i)][1] for i in range(len(games)) if ("game", i) in matching}
    if len(games) - len(matched) >= repeated:
        return tables  # the order already seats as many games at new tables as can be
    left = sorted(set(range(1, len(games) + 1)) - set(matched.values()))
    return [matched[i] if i in matched else left.pop(0) for i in range(len(games))]
