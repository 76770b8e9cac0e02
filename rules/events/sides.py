"""Which side an army fought on, for events that prefer Axis against Allies.

Keyed by army slug, whatever the edition. An army not named here (a generic list, an imported
army under its own name) has no side, and the preference simply does not apply to it.
"""

from __future__ import annotations

AXIS = frozenset({"germany", "italy", "imperial-japan", "japan", "hungary", "romania", "finland", "bulgaria"})
ALLIES = frozenset(
    {"great-britain", "britain", "us", "usa", "united-states", "soviet-union", "france", "poland", "china", "greece"}
)


def side_of(army_slug: str) -> str:
    if army_slug in AXIS:
        return "axis"
    if army_slug in ALLIES:
        return "allies"
    return ""
