"""The refusals of event actions, in their own module so that every events module can raise them
(the services and the team services alike) without importing one another."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from armybuilder.events.models import Stage


class EventError(Exception):
    """An action the event's state does not allow now; the message says why (translated by the view)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class OverStagePoints(EventError):
    """A list with more points than its escalation stage allows: the figures go into the refusal's words."""

    def __init__(self, points: int, stage: Stage) -> None:
        super().__init__("stage-over-points")
        self.points, self.stage = points, stage
