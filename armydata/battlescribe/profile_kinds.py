"""What a BattleScribe unit's own profiles say it is (a tank, a transport, a gun with its crew)."""

from __future__ import annotations

import re

from armydata.unit_kinds import first_int, kinds_named

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
            if re.search(r"\btransport", key, re.I) and (first_int(value, r"(\d+)") or 0) > 0:
                # A vehicle that carries men: a transport, whatever else its profile says.
                texts.insert(0, "transport")
    kinds = kinds_named(texts)
    for rule in rules:
        crew = crew or bool(re.search(r"\bcrew\b|\bteam\b", rule, re.I))
        shield = shield or bool(_SHIELD_RE.search(rule))
    if not kinds and crew and shield:
        kinds.append("Artillery")
    return kinds
