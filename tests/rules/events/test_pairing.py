from __future__ import annotations

import random

import pytest

from rules.events.pairing import WINDOW, PairingImpossible, SwissPlayer, first_round, opponents_of, swap, swiss
from rules.events.standings import Game, standings


def _play(pairings, rng):
    games = []
    for pairing in pairings:
        if pairing.is_bye:
            games.append(Game(players=pairing.players, outcomes=("win",)))
            continue
        outcome = rng.choice([("win", "loss"), ("loss", "win"), ("draw", "draw")])
        games.append(Game(players=pairing.players, outcomes=outcome, dice=(rng.randint(0, 8), rng.randint(0, 8))))
    return games


def _run_event(count: int, rounds: int, seed: int, *, sides=None, prefer_sides=False):
    keys = list(range(1, count + 1))
    rng = random.Random(seed)
    games: list[Game] = []
    all_rounds = [first_round(keys, seed)]
    games += _play(all_rounds[0], rng)
    for _ in range(rounds - 1):
        table = standings(keys, games)
        met = opponents_of([g.players for g in games])
        byes = {g.players[0] for g in games if len(g.players) == 1}
        players = [
            SwissPlayer(
                key=row.key,
                score=row.score,
                side=(sides or {}).get(row.key, ""),
                opponents=met.get(row.key, frozenset()),
                had_bye=row.key in byes,
            )
            for row in table
        ]
        pairings = swiss(players, prefer_sides=prefer_sides)
        all_rounds.append(pairings)
        games += _play(pairings, rng)
    return all_rounds


@pytest.mark.parametrize("seed", range(5))
def test_no_rematch_over_five_rounds_of_sixteen(seed):
    rounds = _run_event(16, 5, seed)
    seen = set()
    for pairings in rounds:
        assert sorted(k for p in pairings for k in p.players) == list(range(1, 17))
        assert [p.table for p in pairings] == [1, 2, 3, 4, 5, 6, 7, 8]
        for pairing in pairings:
            pair = frozenset(pairing.players)
            assert pair not in seen
            seen.add(pair)


@pytest.mark.parametrize("seed", range(5))
def test_odd_count_gives_one_bye_a_round_never_twice_to_one_player(seed):
    rounds = _run_event(15, 5, seed)
    bye_players = []
    for pairings in rounds:
        byes = [p for p in pairings if p.is_bye]
        assert len(byes) == 1 and byes[0].table is None
        bye_players.append(byes[0].players[0])
    assert len(set(bye_players)) == 5


def test_bye_goes_to_the_lowest_player_without_one():
    players = [
        SwissPlayer(1, 6),
        SwissPlayer(2, 3),
        SwissPlayer(3, 0, had_bye=True),  # last, but has had the bye already
    ]
    pairings = swiss(players)
    assert [p.players for p in pairings] == [(1, 3), (2,)]


def test_first_round_is_reproducible_and_depends_on_the_seed():
    keys = list(range(1, 11))
    assert first_round(keys, 7) == first_round(list(reversed(keys)), 7)
    assert first_round(keys, 7) != first_round(keys, 8)


def test_swiss_pairs_by_score():
    players = [SwissPlayer(k, s) for k, s in [(1, 6), (2, 6), (3, 3), (4, 3), (5, 0), (6, 0)]]
    assert [p.players for p in swiss(players)] == [(1, 2), (3, 4), (5, 6)]


def test_axis_allies_preference_is_a_weight():
    # Standings order would pair 1-2 and 3-4: both Axis against Axis, Allies against Allies.
    sides = {1: "axis", 2: "axis", 3: "allies", 4: "allies"}
    players = [SwissPlayer(k, 3, side=sides[k]) for k in (1, 2, 3, 4)]
    assert [p.players for p in swiss(players)] == [(1, 2), (3, 4)]
    assert [p.players for p in swiss(players, prefer_sides=True)] == [(1, 3), (2, 4)]
    # It never outweighs a point of score.
    players = [SwissPlayer(1, 6, "axis"), SwissPlayer(2, 6, "axis"), SwissPlayer(3, 3, "allies"), SwissPlayer(4, 3)]
    assert [p.players for p in swiss(players, prefer_sides=True)] == [(1, 2), (3, 4)]


def test_impossible_without_rematch_is_refused():
    players = [SwissPlayer(1, 3, opponents=frozenset({2})), SwissPlayer(2, 0, opponents=frozenset({1}))]
    with pytest.raises(PairingImpossible):
        swiss(players)


def test_swap_exchanges_two_players_and_keeps_tables():
    pairings = first_round([1, 2, 3, 4], 1)
    swapped = swap(pairings, (0, 1), (1, 0))
    assert [p.table for p in swapped] == [1, 2]
    assert swapped[0].players == (pairings[0].players[0], pairings[1].players[0])
    assert swapped[1].players == (pairings[0].players[1], pairings[1].players[1])
    with pytest.raises(ValueError):
        swap(pairings, (0, 0), (0, 1))


def test_a_player_who_met_everyone_near_them_is_paired_further_down():
    # Player 1 has met the next 16 in the standings, more than WINDOW: the close graph leaves them out,
    # the full one does not.
    met = frozenset(range(2, 18))
    assert len(met) > WINDOW
    players = [SwissPlayer(1, 30, opponents=met)]
    players += [SwissPlayer(k, 30 - k, opponents=frozenset({1}) if k in met else frozenset()) for k in range(2, 21)]
    pairings = swiss(players)
    partner = next(p.players for p in pairings if 1 in p.players)
    assert set(partner) - {1} <= {18, 19, 20}
    assert sorted(k for p in pairings for k in p.players) == list(range(1, 21))
