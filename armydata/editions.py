"""Which Bolt Action edition a game system's or data file's name says."""

from __future__ import annotations

import re

# Editions as data authors spell them in a game system's name: "Bolt Action 3ed", "Third Edition",
# "3rd Ed.", "BA3", "v3", "Bolt Action 2.0". A bare digit counts only when nothing but an edition
# word or a version dot follows it, so a revision number elsewhere in the name does not decide.
_EDITION_PATTERNS = (
    ("v3", r"\bthird\b|\b3\s*(rd|ed|e)\b|\b3(rd)?\s*ed(ition|\.)?|\bv\.?\s*3\b|\bba\s*3\b|\b3\.0\b|\baction\s+3\b"),
    ("v2", r"\bsecond\b|\b2\s*(nd|ed|e)\b|\b2(nd)?\s*ed(ition|\.)?|\bv\.?\s*2\b|\bba\s*2\b|\b2\.0\b|\baction\s+2\b"),
)


def edition_of(system_name: str) -> str | None:
    """The edition ("v2", "v3") a game system's name says, or None when it says neither or both."""
    lowered = system_name.lower()
    found = {edition for edition, pattern in _EDITION_PATTERNS if re.search(pattern, lowered)}
    return found.pop() if len(found) == 1 else None
