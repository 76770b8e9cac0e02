"""What a unit's free "type" text says it is, for every importer: words like "half-track",
"howitzer" or "tank" become category-like names ("Transport", "Artillery", "Tank") that the
classifier (``classify.py``) reads as it reads a category.

BattleScribe data writes the kind in a profile's type or a "Type" characteristic; other formats
write it in keywords or an equipment line. The words are the same, so the table is shared.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Tested in order against each text; the first kind a text names is the one it gives.
KIND_WORDS = (
    (re.compile(r"armou?red car|scout car|recce vehicle|reconnaissance vehicle", re.I), "Armoured car"),
    (
        re.compile(r"half-?track|\btrucks?\b|\blorry\b|\btransport\b|\bcarriers?\b|\btractor\b|\bjeep\b", re.I),
        "Transport",
    ),
    (
        re.compile(
            r"\btanks?\b|assault guns?|tank destroyer|self.propelled|\bspg\b|tank hunter|\bpanzer|"
            r"armou?red (fighting )?vehicle|\bafv\b",
            re.I,
        ),
        "Tank",
    ),
    (re.compile(r"anti-?\s?tank gun|\bat gun\b", re.I), "Anti-tank gun"),
    (re.compile(r"\bartillery\b|howitzer|field gun|anti-?\s?aircraft gun|\bflak\b", re.I), "Artillery"),
    (re.compile(r"\bvehicles?\b", re.I), "Vehicle"),
    (re.compile(r"\binfantry\b|\bsquad\b|\bsection\b", re.I), "Infantry"),
    (re.compile(r"\bteam\b", re.I), "Team"),
)


def kinds_named(texts: Iterable[str]) -> list[str]:
    """The kinds the texts name, one per text at most, first seen first, without repeats."""
    kinds: list[str] = []
    for text in texts:
        for pattern, kind in KIND_WORDS:
            if pattern.search(text or "") and kind not in kinds:
                kinds.append(kind)
                break
    return kinds


def first_int(text: str | None, pattern: str) -> int | None:
    """The first group of ``pattern`` in ``text`` as a whole number, or None."""
    match = re.search(pattern, text or "")
    return int(match.group(1)) if match else None
