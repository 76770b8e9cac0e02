"""Escalation events: stages, each with its own points limit, played over consecutive rounds.

An escalation event grows the armies through the day (500 points for rounds 1 and 2, 750 for rounds
3 and 4...). Each player seals one list per stage; a round is played with the lists of its stage.
Here the stages are plain values: checking that they cover every round of the event once, and
finding the stage of a round. An event without stages has none of this (one list, its points limit).
"""

from __future__ import annotations

from dataclasses import dataclass


class StageError(ValueError):
    """Stages that cannot be played: ``index`` (from 0) is the stage at fault, -1 the whole set;
    ``field`` which of its values (``points``, ``first_round``, ``last_round``, or "" for the set)."""

    def __init__(self, code: str, index: int = -1, field: str = "", **params: int) -> None:
        super().__init__(code)
        self.code, self.index, self.field, self.params = code, index, field, params


@dataclass(frozen=True)
class StagePlan:
    points: int
    first_round: int
    last_round: int

    def covers(self, number: int) -> bool:
        return self.first_round <= number <= self.last_round


def check(stages: list[StagePlan], rounds: int, points_max: int) -> list[StagePlan]:
    """The stages in round order, numbered by it, when they cover rounds 1 to ``rounds`` exactly once;
    the first problem found as ``StageError`` otherwise."""
    for index, stage in enumerate(stages):
        if not 0 < stage.points <= points_max:
            raise StageError("stage-points", index, "points", max=points_max)
        if not 1 <= stage.first_round <= rounds:
            raise StageError("stage-round-range", index, "first_round", rounds=rounds)
        if not 1 <= stage.last_round <= rounds:
            raise StageError("stage-round-range", index, "last_round", rounds=rounds)
        if stage.last_round < stage.first_round:
            raise StageError("stage-round-order", index, "last_round")
    if len(stages) == 1:
        raise StageError("stage-one")
    ordered = sorted(range(len(stages)), key=lambda i: stages[i].first_round)
    expected = 1
    for index in ordered:
        stage = stages[index]
        if stage.first_round < expected:
            raise StageError("stage-overlap", index, "first_round", round=stage.first_round)
        if stage.first_round > expected:
            raise StageError("stage-gap", index, "first_round", round=expected)
        expected = stage.last_round + 1
    if stages and expected <= rounds:
        raise StageError("stage-gap", ordered[-1], "last_round", round=expected)
    return [stages[index] for index in ordered]


def stage_of(stages: list[StagePlan], number: int) -> int | None:
    """The position (from 0) of the stage that plays round ``number``; None when none does."""
    for index, stage in enumerate(stages):
        if stage.covers(number):
            return index
    return None
