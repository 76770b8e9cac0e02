"""League games: points per win, draw and loss, and how they join a season's event results."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.leagues.league import GamePoints, LeagueGame, Tally, tallies
from rules.leagues.season import Placing, season_standings

D1 = datetime.date(2026, 1, 10)


def test_tallies_with_the_default_three_one_nothing():
    games = [LeagueGame(1, 2, "a"), LeagueGame(2, 3, "draw"), LeagueGame(3, 1, "a"), LeagueGame(1, 2, "b")]
    # 1: beat 2, lost to 3, lost to 2 -> 1 win, 2 losses = 3 points.
    # 2: lost to 1, drew 3, beat 1 -> 1 win, 1 draw, 1 loss = 4 points.
    # 3: drew 2, beat 1 -> 1 win, 1 draw = 4 points.
    assert tallies(games) == {1: Tally(1, 0, 2, 3), 2: Tally(1, 1, 1, 4), 3: Tally(1, 1, 0, 4)}
    assert tallies(games)[2].played == 3


def test_tallies_with_the_seasons_own_points():
    games = [LeagueGame(1, 2, "a"), LeagueGame(1, 2, "draw"), LeagueGame(1, 2, "b")]
    assert tallies(games, GamePoints(win=5, draw=2, loss=1)) == {1: Tally(1, 1, 1, 8), 2: Tally(1, 1, 1, 8)}


@pytest.mark.parametrize(("win", "draw", "loss"), [(1, 2, 0), (3, 0, 1), (3, 1, -1)])
def test_points_out_of_order_or_negative_are_refused(win, draw, loss):
    with pytest.raises(ValueError):
        GamePoints(win, draw, loss)


def test_a_game_against_oneself_or_of_unknown_outcome_is_refused():
    with pytest.raises(ValueError, match="cannot play themselves"):
        tallies([LeagueGame(1, 1, "a")])
    with pytest.raises(ValueError, match="unknown outcome"):
        tallies([LeagueGame(1, 2, "win")])


def test_league_points_add_to_counted_event_points():
    # An event of 4: player 1 wins (100), player 2 is 2nd (75). League: 2 beats 3 twice, 3 beats 1.
    placings = [Placing(10, D1, 1, 1, 4), Placing(10, D1, 2, 2, 4)]
    league = tallies([LeagueGame(2, 3, "a"), LeagueGame(2, 3, "a"), LeagueGame(3, 1, "a")])
    rows = season_standings(placings, league=league)
    assert [(r.player, r.place, r.total, r.played) for r in rows] == [
        (1, 1, 100, 2),  # 100 and a loss (0)
        (2, 2, 81, 3),  # 75 and two wins × 3
        (3, 3, 3, 3),  # no event; a win and two losses
    ]
    assert rows[1].league == Tally(2, 0, 0, 6)


def test_league_games_count_towards_the_minimum_and_a_player_with_league_games_only_is_listed():
    league = tallies([LeagueGame(1, 2, "a"), LeagueGame(1, 3, "draw")])
    rows = season_standings([], minimum=2, league=league)
    # Player 1 played two games (ranked); 2 and 3 one each (listed without a place).
    assert [(r.player, r.place, r.total) for r in rows] == [(1, 1, 4), (3, None, 1), (2, None, 0)]


def test_a_tie_on_points_goes_to_the_better_event_result_then_to_more_results_played():
    # Player 1: an event's 2nd of 2 (50) and nothing else; player 2: 50 from one league game (scale of 50 a win).
    placings = [Placing(10, D1, 1, 2, 2), Placing(10, D1, 9, 1, 2)]
    league = tallies([LeagueGame(2, 3, "a"), LeagueGame(2, 3, "a")], GamePoints(25, 0, 0))
    rows = {r.player: r for r in season_standings(placings, league=league)}
    assert (rows[1].total, rows[2].total) == (50, 50)
    assert rows[1].place < rows[2].place  # an event result of 50 beats none

    # Player 1: a win (3 points in 1 game); player 2: three draws (3 points in 3 games).
    league = tallies(
        [LeagueGame(1, 4, "a"), LeagueGame(2, 5, "draw"), LeagueGame(2, 6, "draw"), LeagueGame(2, 7, "draw")]
    )
    rows = {r.player: r for r in season_standings([], league=league)}
    assert (rows[1].total, rows[2].total) == (3, 3)
    assert (rows[2].place, rows[1].place) == (1, 2)


def test_without_league_games_the_table_is_the_events_alone():
    placings = [Placing(10, D1, 1, 1, 2), Placing(10, D1, 2, 2, 2)]
    assert season_standings(placings) == season_standings(placings, league={})


games = st.lists(
    st.tuples(st.integers(1, 5), st.integers(1, 5), st.sampled_from(["a", "b", "draw"])).filter(lambda g: g[0] != g[1]),
    max_size=30,
)


@given(games)
def test_league_points_are_the_counts_times_the_points_and_no_game_is_lost(raw):
    league = tallies([LeagueGame(*g) for g in raw], GamePoints(3, 1, 0))
    assert sum(t.played for t in league.values()) == 2 * len(raw)
    assert sum(t.wins for t in league.values()) == sum(t.losses for t in league.values())
    for tally in league.values():
        assert tally.points == 3 * tally.wins + tally.draws


@given(games)
def test_the_order_of_the_games_does_not_change_the_table(raw):
    forward = season_standings([], league=tallies([LeagueGame(*g) for g in raw]))
    backward = season_standings([], league=tallies([LeagueGame(*g) for g in reversed(raw)]))
    assert forward == backward
