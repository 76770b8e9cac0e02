from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.leagues.elo import RatedGame, change, current, expected, ratings

POOL = ("bolt-action", "v3")
DAY1, DAY2 = datetime.date(2026, 1, 10), datetime.date(2026, 1, 11)


def test_equal_ratings_expect_half_and_a_win_moves_sixteen():
    assert expected(Decimal(1500), Decimal(1500)) == Decimal("0.5")
    assert change(Decimal(1500), Decimal(1500), Decimal(1)) == Decimal("16.00")
    assert change(Decimal(1500), Decimal(1500), Decimal(0)) == Decimal("-16.00")


def test_a_draw_against_a_weaker_player_costs_a_little():
    # 32 points apart: E = 1 / (1 + 10^(-32/400)) = 1 / (1 + 0.83176) = 0.54592; 32 × (0.5 − 0.54592) = −1.47.
    assert expected(Decimal(1516), Decimal(1484)).quantize(Decimal("0.00001")) == Decimal("0.54592")
    assert change(Decimal(1516), Decimal(1484), Decimal("0.5")) == Decimal("-1.47")


def test_four_hundred_points_apart_expects_ten_to_one():
    assert expected(Decimal(1900), Decimal(1500)) == Decimal(10) / Decimal(11)


def test_history_over_two_days():
    games = [
        RatedGame(POOL, DAY1, "e1/r1/t1", "anne", "bob", "win"),
        RatedGame(POOL, DAY2, "e2/r1/t1", "anne", "bob", "draw"),
    ]
    history = ratings(games)[POOL]
    assert [(s.date, s.rating, s.change) for s in history["anne"]] == [
        (DAY1, Decimal("1516.00"), Decimal("16.00")),
        (DAY2, Decimal("1514.53"), Decimal("-1.47")),
    ]
    assert current(history) == {"anne": Decimal("1514.53"), "bob": Decimal("1485.47")}


def test_games_of_one_day_use_the_ratings_of_the_start_of_the_day():
    # Anne beats Bob then Carl on the same day: both games are rated from 1500, so +16 twice.
    games = [
        RatedGame(POOL, DAY1, "r1", "anne", "bob", "win"),
        RatedGame(POOL, DAY1, "r2", "anne", "carl", "win"),
    ]
    history = ratings(games)[POOL]
    assert history["anne"] == [history["anne"][0]]
    assert (history["anne"][0].rating, history["anne"][0].games) == (Decimal("1532.00"), 2)


def test_pools_are_rated_apart():
    games = [
        RatedGame(POOL, DAY1, "a", "anne", "bob", "win"),
        RatedGame(("bolt-action", "v2"), DAY1, "b", "bob", "anne", "win"),
    ]
    result = ratings(games)
    assert current(result[POOL])["anne"] == Decimal("1516.00")
    assert current(result[("bolt-action", "v2")])["anne"] == Decimal("1484.00")


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (RatedGame(POOL, DAY1, "x", "anne", "anne", "win"), "same player"),
        (RatedGame(POOL, DAY1, "x", "anne", "bob", "won"), "unknown outcome"),
    ],
)
def test_bad_games_are_refused(game, message):
    with pytest.raises(ValueError, match=message):
        ratings([game])


def test_a_game_given_twice_is_refused():
    game = RatedGame(POOL, DAY1, "x", "anne", "bob", "win")
    with pytest.raises(ValueError, match="twice"):
        ratings([game, game])


players = st.sampled_from(["anne", "bob", "carl", "dora", "emil"])


@st.composite
def game_lists(draw):
    games = []
    for index in range(draw(st.integers(min_value=0, max_value=25))):
        a = draw(players)
        b = draw(players.filter(lambda name, a=a: name != a))
        day = DAY1 + datetime.timedelta(days=draw(st.integers(min_value=0, max_value=3)))
        games.append(RatedGame(POOL, day, f"g{index:03}", a, b, draw(st.sampled_from(["win", "draw", "loss"]))))
    return games


@given(games=game_lists(), data=st.data())
def test_ratings_are_the_same_in_any_order_of_the_games(games, data):
    assert ratings(data.draw(st.permutations(games))) == ratings(games)


@given(games=game_lists())
def test_rating_points_are_conserved(games):
    # Every game moves both players by opposite amounts (rounded the same way), so the pool's total stays put.
    history = ratings(games).get(POOL, {})
    assert sum(current(history).values(), Decimal(0)) == Decimal(1500) * len(history)
