from __future__ import annotations

import pytest

from rules.events.standings import Game, Scoring, standings

# 1 beats 3 (destroying 2 dice), 2 beats 4 (destroying 6), then 3 beats 4 and 1 draws 2.
# Scores: 1 and 2 on 4 each; 1's opponents 3 (3) + 2 (4) = 7, 2's opponents 4 (0) + 1 (4) = 4.
GAMES = [
    Game(players=(1, 3), outcomes=("win", "loss"), dice=(2, 1)),
    Game(players=(2, 4), outcomes=("win", "loss"), dice=(6, 0)),
    Game(players=(3, 4), outcomes=("win", "loss"), dice=(3, 3)),
    Game(players=(1, 2), outcomes=("draw", "draw"), dice=(1, 1)),
]


def test_score_then_strength_of_schedule_then_dice():
    rows = standings([1, 2, 3, 4], GAMES)
    assert [(r.key, r.place, r.score, r.sos, r.dice) for r in rows] == [
        (1, 1, 4, 7, 3),
        (2, 2, 4, 4, 7),
        (3, 3, 3, 4, 4),
        (4, 4, 0, 7, 3),
    ]


def test_tiebreak_order_is_the_events():
    rows = standings([1, 2, 3, 4], GAMES, order=("score", "dice", "sos"))
    assert [r.key for r in rows][:2] == [2, 1]


def test_points_of_enemy_units_destroyed_break_a_tie_on_score():
    # 1 and 2 are level on score (4 each); 2 destroyed 900 points of enemy units, 1 only 310.
    games = [
        Game(players=(1, 3), outcomes=("win", "loss"), dice=(2, 1), points=(210, 95)),
        Game(players=(2, 4), outcomes=("win", "loss"), dice=(6, 0), points=(800, 0)),
        Game(players=(3, 4), outcomes=("win", "loss"), dice=(3, 3), points=(300, 300)),
        Game(players=(1, 2), outcomes=("draw", "draw"), dice=(1, 1), points=(100, 100)),
    ]
    rows = standings([1, 2, 3, 4], games, order=("score", "points", "sos"))
    assert [(r.key, r.place, r.points) for r in rows] == [(2, 1, 900), (1, 2, 310), (3, 3, 395), (4, 4, 300)]
    # Ranked by strength of schedule first, 1 comes first again: the points only break what is left.
    assert [r.key for r in standings([1, 2, 3, 4], games, order=("score", "sos", "points"))][:2] == [1, 2]


def test_games_without_points_add_nothing_to_them():
    rows = standings([1, 2, 3, 4], GAMES, order=("score", "points"))
    assert {r.key: r.points for r in rows} == {1: 0, 2: 0, 3: 0, 4: 0}
    assert [(r.key, r.place) for r in rows] == [(1, 1), (2, 1), (3, 3), (4, 4)]


def test_scoring_and_bye():
    games = [Game(players=(1, 2), outcomes=("draw", "draw")), Game(players=(3,), outcomes=("win",))]
    rows = standings([1, 2, 3], games, scoring=Scoring(win=2, draw=1, loss=0), names={1: "B", 2: "A"})
    assert [(r.key, r.place, r.score, r.sos) for r in rows] == [(3, 1, 2, 0), (2, 2, 1, 1), (1, 2, 1, 1)]


def test_unknown_tiebreak_is_refused():
    with pytest.raises(ValueError):
        standings([1], [], order=("score", "luck"))


def test_adjustments_move_the_score_and_the_places_but_not_the_opponents_tiebreaks():
    # 4 loses 3 points (a late list), 3 gains 2 (painting): 3 passes 1 and 2 on score.
    rows = standings([1, 2, 3, 4], GAMES, adjustments={3: 2, 4: -3})
    assert [(r.key, r.place, r.score, r.game_score, r.adjustment, r.sos) for r in rows] == [
        (3, 1, 5, 3, 2, 4),
        (1, 2, 4, 4, 0, 7),
        (2, 3, 4, 4, 0, 4),
        (4, 4, -3, 0, -3, 7),
    ]


def test_an_adjustment_can_break_a_tie_on_score():
    games = [Game(players=(1, 2), outcomes=("draw", "draw"))]
    rows = standings([1, 2], games, adjustments={2: 1})
    assert [(r.key, r.place, r.score) for r in rows] == [(2, 1, 2), (1, 2, 1)]


def test_an_adjustment_of_a_player_not_listed_is_ignored():
    rows = standings([1], [], adjustments={9: 5})
    assert [(r.key, r.score, r.adjustment) for r in rows] == [(1, 0, 0)]
