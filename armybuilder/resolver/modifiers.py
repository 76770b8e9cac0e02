"""The combat engine's roll modifiers ("Long range", "Pinned (2)"...) named in the active language.

``rules.combat`` names each modifier it applies in English (it does not import Django); the
calculator pages show them translated, and any name not listed here as the engine wrote it.
"""

from __future__ import annotations

import re

from django.utils.translation import pgettext, pgettext_lazy

# A context of their own: "Pinned" or "Pen" mean something else elsewhere in the interface.
NAMES = {
    "Point blank": pgettext_lazy("roll modifier", "Point blank"),
    "Long range": pgettext_lazy("roll modifier", "Long range"),
    "Fire on the move": pgettext_lazy("roll modifier", "Fire on the move"),
    "Pinned": pgettext_lazy("roll modifier", "Pinned"),
    "Inexperienced firer": pgettext_lazy("roll modifier", "Inexperienced firer"),
    "Team weapon short of crew": pgettext_lazy("roll modifier", "Team weapon short of crew"),
    "Hard cover": pgettext_lazy("roll modifier", "Hard cover"),
    "Soft cover": pgettext_lazy("roll modifier", "Soft cover"),
    "Target Down": pgettext_lazy("roll modifier", "Target Down"),
    "Small unit or team": pgettext_lazy("roll modifier", "Small unit or team"),
    "Shaped charge": pgettext_lazy("roll modifier", "Shaped charge"),
    "Anti-tank gun": pgettext_lazy("roll modifier", "Anti-tank gun"),
    "Front armour": pgettext_lazy("roll modifier", "Front armour"),
    "Side armour": pgettext_lazy("roll modifier", "Side armour"),
    "Rear armour": pgettext_lazy("roll modifier", "Rear armour"),
    "Top armour": pgettext_lazy("roll modifier", "Top armour"),
    "Pen": pgettext_lazy("roll modifier", "Pen"),
    "HE Pen": pgettext_lazy("roll modifier", "HE Pen"),
    "Gun shield": pgettext_lazy("roll modifier", "Gun shield"),
    "Building": pgettext_lazy("roll modifier", "Building"),
}
PINNED = re.compile(r"^Pinned \((\d+)\)$")


def modifier_name(name: str) -> str:
    """``name`` in the active language; unknown names as they are."""
    if name in NAMES:
        return str(NAMES[name])
    pinned = PINNED.match(name)
    if pinned:
        return pgettext("roll modifier", "Pinned (%(pins)s)") % {"pins": pinned.group(1)}
    return name
