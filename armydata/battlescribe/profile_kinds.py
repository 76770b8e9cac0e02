"""What a BattleScribe unit's own profiles say it is (a tank, a transport, a gun with its crew), and
the damage value and transport capacity its type text states when no vehicle profile does."""

from __future__ import annotations

import re

from armydata.unit_kinds import damage_text, first_int, kinds_named, transport_text

from .tree import _Profile

_KIND_FIELD_RE = re.compile(r"\b(type|class|kind|composition)\b", re.I)
_SHIELD_RE = re.compile(r"\bshield\b", re.I)


def _profile_kinds(profiles: list[_Profile], rules: list[str]) -> list[str]:
    """Category-like names for what a unit's profiles say it is: "Tank", "Transport", "Artillery"...

    A profile type names the kind ("Vehicle", "Tank"), or a characteristic called type or
    composition does; a crew together with a gun shield is an artillery piece.
    """
    texts: list[str] = []
    crew = shield = False
    for profile in profiles:
        if profile.is_weapon:
            continue
        texts.append(profile.type_name)
        for key, value in profile.characteristics:
            if _KIND_FIELD_RE.search(key):
                texts.append(value)
            if re.search(r"\bcrew\b", key, re.I) or re.search(r"\bcrew\b", value, re.I):
                crew = True
            if _SHIELD_RE.search(key) or _SHIELD_RE.search(value):
                shield = True
            carries = re.search(r"\btransport", key, re.I) and (first_int(value, r"(\d+)") or 0) > 0
            if carries or (_KIND_FIELD_RE.search(key) and transport_text(value)):
                # A vehicle that carries men: a transport, whatever else its profile says.
                texts.insert(0, "transport")
    kinds = kinds_named(texts)
    for rule in rules:
        crew = crew or bool(re.search(r"\bcrew\b|\bteam\b", rule, re.I))
        shield = shield or bool(_SHIELD_RE.search(rule))
    if not kinds and crew and shield:
        kinds.append("Artillery")
    return kinds


def _type_texts(profiles: list[_Profile]) -> list[str]:
    """The texts of a unit's own profiles that say what it is: characteristics called type,
    class, kind or composition ("Composition / Type": "6+ (soft-skin) Transport Up to 3 men")."""
    return [
        value
        for profile in profiles
        if not profile.is_weapon
        for key, value in profile.characteristics
        if _KIND_FIELD_RE.search(key) and value
    ]


def _type_text_vehicle(profiles: list[_Profile]) -> tuple[str | None, str | None]:
    """The damage value ("10+ (heavy tank)") and the men carried ("12") a unit's type text states."""
    texts = _type_texts(profiles)
    damage = next((found for text in texts if (found := damage_text(text)) is not None), None)
    if damage is None:
        return None, None
    return damage, next((found for text in texts if (found := transport_text(text)) is not None), None)
