"""Data names in the visitor's language: the stored French, or a glossary's name composed now.

French names are stored beside the English (``name_fr``, filled by the fixture generator and the
importers from ``armydata.glossary_fr``, or typed by an admin). Other languages with a glossary
(German) are composed at render time by ``armydata.names``: the glossary is code, so a composed
name is cached per process and cannot go stale. A language without a glossary, or a name with a
part its glossary lacks, shows the English.
"""

from __future__ import annotations

from django.utils.translation import get_language

from armydata.names import shown_armament, shown_parts


def _language() -> str:
    return (get_language() or "en").split("-")[0]


def shown(name: str, name_fr: str = "") -> str:
    """A unit's, option's, weapon's, rule's or army's name as the active language shows it.

    A stored French name comes first; otherwise the glossary gives the name as far as it knows its
    parts (an imported "Guard Squad" reads "Escouade Guard"), the rest kept as the data wrote it.
    """
    language = _language()
    if language == "en" or not name:
        return name
    if language == "fr" and name_fr:
        return name_fr
    return shown_parts(name, language)


def shown_typed(name: str, name_fr: str = "") -> str:
    """A name a player typed (their own unit): kept as typed, with their French if they gave one."""
    return name_fr if _language() == "fr" and name_fr else name


def shown_weapons(text: str, text_fr: str = "") -> str:
    """A unit's printed armament ("Rifle, Automatic rifle") as the active language shows it."""
    language = _language()
    if language == "en" or not text:
        return text
    if language == "fr" and text_fr:
        return text_fr
    return (
        shown_armament(text, language)
        if language != "fr"
        else ", ".join(shown_parts(part, "fr") for part in text.split(", "))
    )
