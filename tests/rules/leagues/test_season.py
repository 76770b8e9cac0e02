from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.leagues.season import Placing, placing_points, season_standings

D1, D2, D3 = datetime.date(2026, 1, 10), datetime.date(2026, 2, 14), datetime.date(2026, 3, 14)


@pytest.mark.parametrize(
    ("place", "field", "scale", "points"),
    [
        (1, 8, 100, 100),  # the winner scores the scale, whatever the field
        (3, 8, 100, 75),  # 100 × 6 / 8
        (8, 8, 100, 13),  # 100 × 1 / 8 = 12.5, half up
        (2, 3, 100, 67),  # 100 × 2 / 3 = 66.67
        (3, 3, 100, 33),  # 33.33
        (1, 1, 100, 100),
        (5, 20, 50, 40),  # 50 × 16 / 20
    ],
)
def test_points_per_placing_scaled_by_the_field(place, field, scale, points):
    assert placing_points(place, field, scale) == points


def test_a_placing_outside_the_field_is_refused():
    with pytest.raises(ValueError, match="outside"):
        placing_points(9, 8)


def test_best_two_count_and_the_rest_are_dropped():
    # Player 1: 1st of 4 (100), 4th of 4 (25), 2nd of 8 (88): best two are 100 + 88 = 188.
    # Player 2: 2nd of 4 (75), 1st of 8 (100): 175.  Player 3: 3rd of 4 (50) only: unranked (min 2).
    placings = [
        Placing(event=1, date=D1, player=1, place=1, field=4),
        Placing(event=1, date=D1, player=2, place=2, field=4),
        Placing(event=1, date=D1, player=3, place=3, field=4),
        Placing(event=2, date=D2, player=1, place=4, field=4),
        Placing(event=3, date=D3, player=2, place=1, field=8),
        Placing(event=3, date=D3, player=1, place=2, field=8),
    ]
    rows = season_standings(placings, best=2, minimum=2)
    assert [(r.player, r.place, r.total) for r in rows] == [(1, 1, 188), (2, 2, 175), (3, None, 50)]
    first = rows[0]
    assert [(r.event, r.points, r.counted) for r in first.results] == [(1, 100, True), (3, 88, True), (2, 25, False)]


def test_ties_on_total_go_to_the_better_single_result_then_events_played():
    # Player 1: 100 + 50 = 150; player 2: 75 + 75 = 150; player 3: 100 + 50 = 150 over three events
    # with best 2 (its third, 25, dropped). Player 1 and 3 beat 2 on their best result; 3 beats 1 on events.
    placings = [
        Placing(1, D1, 1, 1, 4),
        Placing(1, D1, 2, 2, 4),
        Placing(1, D1, 3, 3, 4),
        Placing(2, D2, 3, 1, 4),
        Placing(2, D2, 2, 2, 4),
        Placing(2, D2, 1, 3, 4),
        Placing(3, D3, 3, 4, 4),
    ]
    rows = season_standings(placings, best=2)
    assert [(r.player, r.place, r.total) for r in rows] == [(3, 1, 150), (1, 2, 150), (2, 3, 150)]


def test_players_equal_on_everything_share_a_place_listed_by_name():
    placings = [Placing(1, D1, 7, 1, 2), Placing(1, D1, 8, 2, 2), Placing(2, D2, 8, 1, 2), Placing(2, D2, 7, 2, 2)]
    rows = season_standings(placings, names={7: "Zoé", 8: "Anne"})
    assert [(r.player, r.place) for r in rows] == [(8, 1), (7, 1)]


def test_a_player_placed_twice_at_one_event_is_refused():
    with pytest.raises(ValueError, match="twice"):
        season_standings([Placing(1, D1, 1, 1, 2), Placing(1, D1, 1, 2, 2)])


fields = st.integers(min_value=1, max_value=40)


@given(field=fields, scale=st.integers(min_value=0, max_value=1000), data=st.data())
def test_points_never_rise_as_the_placing_falls(field, scale, data):
    place = data.draw(st.integers(min_value=1, max_value=field))
    points = placing_points(place, field, scale)
    assert 0 <= points <= scale
    if place < field:
        assert placing_points(place + 1, field, scale) <= points


@st.composite
def seasons(draw):
    placings = []
    for event in range(draw(st.integers(min_value=1, max_value=6))):
        players = draw(st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=12, unique=True))
        for place, player in enumerate(players, start=1):
            placings.append(Placing(event, D1 + datetime.timedelta(days=event), player, place, len(players)))
    return placings


@given(placings=seasons(), best=st.integers(min_value=1, max_value=6), minimum=st.integers(min_value=1, max_value=4))
def test_total_is_the_sum_of_at_most_best_counted_results_which_are_the_highest(placings, best, minimum):
    rows = season_standings(placings, best=best, minimum=minimum)
    assert sorted(r.player for r in rows) == sorted({p.player for p in placings})
    for row in rows:
        counted = [r.points for r in row.results if r.counted]
        dropped = [r.points for r in row.results if not r.counted]
        assert len(counted) == min(best, row.events)
        assert row.total == sum(counted)
        assert not dropped or min(counted) >= max(dropped)
        assert (row.place is None) == (row.events < minimum)
    ranked = [row for row in rows if row.place is not None]
    assert [row.total for row in ranked] == sorted((row.total for row in ranked), reverse=True)


@given(placings=seasons(), data=st.data())
def test_the_table_does_not_depend_on_the_order_of_the_placings(placings, data):
    shuffled = data.draw(st.permutations(placings))
    assert season_standings(shuffled, best=3) == season_standings(placings, best=3)
