"""Quality names as community data writes them, for every importer.

Data authors name the quality choice "Inexperienced", "Regular" (or "Experienced", which is
Regular) and "Veteran", sometimes with a bracketed price note, and call the choice itself
"Veterancy", "Rating", "Experience" or "Quality".
"""

from __future__ import annotations

import re

# A quality choice is named just that, maybe with a bracketed note ("Veteran (+3 pts)");
# "Regular Soldier" is a model, not a quality.
QUALITY_RE = re.compile(r"^\s*(inexperienced|regular|experienced|veteran)\s*(\(.*\))?\s*$", re.IGNORECASE)
# What community 3rd-edition data calls the quality choice; in a group so named, "Experienced"
# is the Regular choice.
QUALITY_GROUP_RE = re.compile(r"\b(veterancy|rating|experience|quality|qualities)\b", re.IGNORECASE)
QUALITY_ALIASES = {"experienced": "regular"}
# A quality word anywhere in a longer name ("Veteran Grenadier").
QUALITY_WORD_RE = re.compile(r"\b(inexperienced|regular|veteran)\b", re.IGNORECASE)


def quality_of(name: str) -> str | None:
    """The quality a choice named like "Veteran" or "Experienced (+2 pts)" stands for."""
    match = QUALITY_RE.match(name)
    if match is None:
        return None
    word = match.group(1).lower()
    return QUALITY_ALIASES.get(word, word)


def is_quality_group(name: str) -> bool:
    """Whether a choice's name says it picks the quality ("Veterancy", "Rating"...)."""
    return bool(QUALITY_GROUP_RE.search(name))
