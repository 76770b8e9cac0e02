"""An event's missions, as the organiser types them from the rules pack, and a mission rolled at random.

In 3rd edition a mission is three choices: a victory condition, a deployment zone and a deployment
type, typed on one line separated by "/" (``Key Positions / Long edges / Meeting engagement``). In
2nd edition a mission is one scenario name. The names are the rules pack's own: nothing here checks
them against a list, only that each line has its parts and stays within the lengths a page shows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

MISSIONS_MAX = 24
PART_MAX = 60
THIRD_EDITION_PARTS = 3


class MissionError(ValueError):
    """A line that is not a mission: ``line`` (from 1) and ``code`` say where and why."""

    def __init__(self, code: str, line: int = 0) -> None:
        super().__init__(f"{code} (line {line})")
        self.code, self.line = code, line


@dataclass(frozen=True)
class Mission:
    parts: tuple[str, ...]

    @property
    def label(self) -> str:
        return " / ".join(self.parts)


def parse(text: str, edition: str) -> list[Mission]:
    """The missions typed one a line; blank lines skipped, a mission typed twice (case aside) kept once."""
    missions: list[Mission] = []
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1)]
    for number, line in lines:
        if not line:
            continue
        parts = tuple(" ".join(part.split()) for part in line.split("/"))
        if edition == "v3" and len(parts) != THIRD_EDITION_PARTS:
            raise MissionError("parts", number)
        if edition != "v3" and len(parts) != 1:
            raise MissionError("one-part", number)
        if any(not part for part in parts):
            raise MissionError("empty-part", number)
        if any(len(part) > PART_MAX for part in parts):
            raise MissionError("too-long", number)
        mission = Mission(parts)
        if find(missions, mission.label) is None:
            missions.append(mission)
    if len(missions) > MISSIONS_MAX:
        raise MissionError("too-many")
    return missions


def find(missions: list[Mission], label: str) -> Mission | None:
    """The mission with this label, spaces and case aside; None for a mission not of the event."""
    wanted = " ".join(label.split()).casefold()
    return next((m for m in missions if m.label.casefold() == wanted), None)


def roll(missions: list[Mission], rng: random.Random) -> Mission:
    """One of the missions at random (``rng`` injected: seeded, the same roll every time)."""
    if not missions:
        raise MissionError("none")
    return rng.choice(missions)
