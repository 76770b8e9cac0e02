"""French names for units, options and weapons, composed from the glossary (``glossary_fr``).

``french_name("Anti-tank grenades (if no Panzerfaust taken)")`` is "Grenades antichar (si pas
de Panzerfaust)". The composer serves every language with a glossary (``armydata.names``); this
module keeps the French entry points its callers (the fixture generator, the importers) use.
"""

from __future__ import annotations

from armydata import names


def is_designation(text: str) -> bool:
    """A name French players use as it is: a model, a make, a unit's own name ("SdKfz 251", "Tiger I")."""
    return names.is_designation(text, "fr")


def french_name(name: str) -> str | None:
    """The French for a unit's, option's or weapon's English name, or None if the glossary lacks a part."""
    return names.translated_name(name, "fr")


def french_parts(name: str) -> str:
    """The French of a name as far as the glossary knows its parts; the name itself if it knows none."""
    return names.shown_parts(name, "fr")
