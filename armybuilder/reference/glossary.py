"""Data names in the visitor's language: the stored translation, else the glossary's by parts.

Imported rows carry English names (the community's data is English); the glossary
(``armydata.glossary_fr``, data with its sources) knows the parts those names are made of. A
page asks here at render time, so every imported unit, option and chart weapon reads as far
as the glossary knows it today, with no per-row French to write and keep up to date. A part
the glossary does not know stays as the data wrote it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import get_language

from armydata.french import french_parts

# Each language Muster speaks besides English, and its glossary.
GLOSSARIES: dict[str, Callable[[str], str]] = {"fr": french_parts}


def _glossary() -> Callable[[str], str] | None:
    return GLOSSARIES.get((get_language() or "en").split("-")[0])


def localized(name: str, stored: str = "") -> str:
    """``name`` in the active language: ``stored`` (the row's own translation) first, else the glossary's."""
    glossary = _glossary()
    if glossary is None:
        return name
    return stored or glossary(name)


def localized_list(text: str, stored: str = "") -> str:
    """An armament as printed ("Rifle, Submachine gun (SMG)"), each weapon through the glossary."""
    glossary = _glossary()
    if glossary is None:
        return text
    return stored or ", ".join(glossary(part) for part in text.split(", "))
