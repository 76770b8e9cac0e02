"""Tables: the top of the standings at table 1, but nobody twice at the same table when avoidable."""

from __future__ import annotations

import itertools

from rules.events.tables import assign_tables


def test_a_first_round_numbers_the_games_in_order():
    assert assign_tables([(1, 2), (3, 4), (5, 6)], {}) == [1, 2, 3]


def test_the_leaders_move_off_the_table_they_played_at():
    history = {1: {1}, 2: {2}, 3: {1}, 4: {2}}
    tables = assign_tables([(1, 3), (2, 4)], history)
    assert tables == [2, 1]


def test_a_matching_finds_new_tables_that_the_order_alone_misses():
    # Game 1 may take table 1 or 2 only; game 2 only table 1: in order game 1 takes table 1.
    history = {1: {3}, 2: set(), 3: {2, 3}, 4: set()}
    tables = assign_tables([(1, 2), (3, 4)] + [(5, 6)], {**history, 5: {1, 2}, 6: set()})
    assert sorted(tables) == [1, 2, 3]
    seated = {1: tables[0], 3: tables[1], 5: tables[2]}
    assert all(seated[p] not in {1: {3}, 3: {2, 3}, 5: {1, 2}}[p] for p in seated)


def test_every_small_case_avoids_a_repeat_whenever_some_seating_does():
    # Three games, players who each sat at one earlier table: compare with every seating.
    for earlier in itertools.product((1, 2, 3), repeat=6):
        history = {player: {table} for player, table in zip(range(1, 7), earlier, strict=True)}
        games = [(1, 2), (3, 4), (5, 6)]
        best = min(
            sum(1 for g, t in zip(games, order, strict=True) for p in g if t in history[p])
            for order in itertools.permutations((1, 2, 3))
        )
        tables = assign_tables(games, history)
        assert sorted(tables) == [1, 2, 3]
        found = sum(1 for g, t in zip(games, tables, strict=True) for p in g if t in history[p])
        if best == 0:
            assert found == 0, (earlier, tables)


def test_a_big_round_is_seated_quickly():
    import time

    games = [(2 * i + 1, 2 * i + 2) for i in range(250)]
    # Each game's players sat at its number last round: the order alone leaves the last game at its own.
    history = {p: {(p + 1) // 2} for p in range(1, 501)}
    start = time.process_time()
    tables = assign_tables(games, history)
    assert time.process_time() - start < 5
    assert sorted(tables) == list(range(1, 251))
    assert all(t not in history[a] and t not in history[b] for (a, b), t in zip(games, tables, strict=True))
