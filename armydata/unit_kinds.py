"""What a unit's free "type" text says it is, for every importer: words like "half-track",
"howitzer" or "tank" become category-like names ("Transport", "Artillery", "Tank") that the
classifier (``classify.py``) reads as it reads a category; a damage value written in the text
("10+ (heavy tank)", "6+ (soft-skin)", "Damage Value: 9+") and the men a vehicle carries
("Transport Up to 12 men") are read out of it.

BattleScribe data writes the kind in a profile's type or a "Type" characteristic (one author
writes a vehicle's whole card there: "7+ (armoured carrier) Transport Up to 12 men Tow Light
howitzer"); other formats write it in keywords or an equipment line. The words are the same, so
the table is shared.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Tested in order against each text; the first kind a text names is the one it gives.
KIND_WORDS = (
    # "armoured car", but not "armoured carrier" (a half-track's damage class, a transport).
    (re.compile(r"armou?red cars?\b|scout car|recce vehicle|reconnaissance vehicle", re.I), "Armoured car"),
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


# A damage value in free text: "10+ (heavy tank)", "6+ (soft-skin)", "Damage Value: 9+", "DV 7+".
# The bracket, when there is one, names the class ("soft-skin", "armoured carrier").
_DAMAGE_RE = re.compile(r"(?<![\d+.])(\d{1,2})\s*\+(?!\s*\d)(?:\s*\(([^)]{0,40})\))?")
# "Transport Up to 12 men", "Transport: 10 men", "transports up to 3 men".
_TRANSPORT_RE = re.compile(r"\btransports?\b\W{0,3}(?:up\s+to\s+)?(\d{1,3})\s*(?:men|models|infantry|soldiers)\b", re.I)


def damage_text(text: str | None) -> str | None:
    """The damage value a type text states ("10+ (heavy tank)"), as written, or None.

    Only the first one counts: a card's later text (an option, a rule) may quote other numbers.
    """
    match = _DAMAGE_RE.search(text or "")
    if match is None or not 2 <= int(match.group(1)) <= 12:
        return None
    return match.group(0).strip()


def transport_text(text: str | None) -> str | None:
    """How many men a type text says the vehicle carries ("12"), or None."""
    match = _TRANSPORT_RE.search(text or "")
    return match.group(1) if match else None
