from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from rules.events import timer as t

NOON = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return NOON + timedelta(minutes=minutes)


def test_a_started_timer_ends_after_its_length_and_says_the_last_turn():
    clock = t.start(t.Timer(), 90, NOON)
    assert clock.end() == at(90)
    assert clock.last_turn_by(15) == at(75)
    assert clock.remaining(at(30)) == timedelta(minutes=60)
    assert not clock.over(at(89)) and clock.over(at(90)) and clock.remaining(at(120)) == timedelta(0)


def test_a_pause_freezes_the_time_left_and_moves_the_end():
    clock = t.pause(t.start(t.Timer(), 90, NOON), at(30))
    assert clock.end() is None and clock.last_turn_by(15) is None
    assert clock.remaining(at(50)) == timedelta(minutes=60)
    clock = t.resume(clock, at(40))
    assert clock.paused_total == timedelta(minutes=10)
    assert clock.end() == at(100) and clock.remaining(at(40)) == timedelta(minutes=60)
    again = t.resume(t.pause(clock, at(50)), at(55))
    assert again.end() == at(105)


def test_minutes_added_move_the_end():
    clock = t.add(t.start(t.Timer(), 90, NOON), 10)
    assert clock.length == 100 and clock.end() == at(100)


def test_before_the_start_the_whole_length_is_left():
    assert t.Timer(length=60).remaining(NOON) == timedelta(minutes=60)
    assert t.Timer().end() is None and not t.Timer().over(NOON)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (lambda: t.start(t.start(t.Timer(), 60, NOON), 60, NOON), "started"),
        (lambda: t.start(t.Timer(), 0, NOON), "length"),
        (lambda: t.start(t.Timer(), t.LENGTH_MAX + 1, NOON), "length"),
        (lambda: t.pause(t.Timer(), NOON), "not-started"),
        (lambda: t.pause(t.pause(t.start(t.Timer(), 60, NOON), NOON), NOON), "paused"),
        (lambda: t.resume(t.start(t.Timer(), 60, NOON), NOON), "not-paused"),
        (lambda: t.add(t.Timer(), 5), "not-started"),
        (lambda: t.add(t.start(t.Timer(), 60, NOON), 0), "add"),
        (lambda: t.add(t.start(t.Timer(), 60, NOON), t.ADD_MAX + 1), "add"),
        (lambda: t.add(t.start(t.Timer(), t.LENGTH_MAX - 5, NOON), 10), "length"),
    ],
)
def test_actions_the_state_does_not_allow_are_refused(action, code):
    with pytest.raises(t.TimerError) as refused:
        action()
    assert refused.value.code == code
