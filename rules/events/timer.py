"""A round's timer: started, paused, resumed and lengthened by the organiser; plain data, no clock.

Every function takes the moment it works at (``now``), so the same inputs always give the same
answer. The end moves later by every pause (the time spent paused) and by every minute added.
While paused, the time left stands still and the end is not known until the timer runs again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

LENGTH_MAX = 600  # minutes: a long day's round, and far beyond any rules pack's
ADD_MAX = 120


class TimerError(ValueError):
    """A timer action the timer's state does not allow; ``code`` says which."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Timer:
    length: int = 0  # minutes
    started_at: datetime | None = None
    paused_at: datetime | None = None
    paused_total: timedelta = timedelta(0)

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def end(self) -> datetime | None:
        """When the round ends, while running; None before the start and while paused."""
        if self.started_at is None or self.paused_at is not None:
            return None
        return self.started_at + timedelta(minutes=self.length) + self.paused_total

    def remaining(self, now: datetime) -> timedelta:
        """Time left (never below zero); the whole length before the start."""
        if self.started_at is None:
            return timedelta(minutes=self.length)
        at = self.paused_at or now
        left = self.started_at + timedelta(minutes=self.length) + self.paused_total - at
        return max(left, timedelta(0))

    def over(self, now: datetime) -> bool:
        return self.started and not self.paused and self.remaining(now) == timedelta(0)

    def last_turn_by(self, minutes: int) -> datetime | None:
        """When the last turn should start: the end less ``minutes`` (None while there is no end)."""
        end = self.end()
        return end - timedelta(minutes=minutes) if end is not None else None


def start(timer: Timer, length: int, now: datetime) -> Timer:
    if timer.started:
        raise TimerError("started")
    if not 1 <= length <= LENGTH_MAX:
        raise TimerError("length")
    return Timer(length=length, started_at=now)


def pause(timer: Timer, now: datetime) -> Timer:
    if not timer.started:
        raise TimerError("not-started")
    if timer.paused:
        raise TimerError("paused")
    return replace(timer, paused_at=now)


def resume(timer: Timer, now: datetime) -> Timer:
    if not timer.paused:
        raise TimerError("not-paused")
    return replace(timer, paused_at=None, paused_total=timer.paused_total + (now - timer.paused_at))


def add(timer: Timer, minutes: int) -> Timer:
    if not timer.started:
        raise TimerError("not-started")
    if not 1 <= minutes <= ADD_MAX:
        raise TimerError("add")
    if timer.length + minutes > LENGTH_MAX:
        raise TimerError("length")
    return replace(timer, length=timer.length + minutes)
