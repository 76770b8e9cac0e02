"""Between the database and the combat engine: weapon profiles, and saved list entries as firers/targets.

The engine (``rules.combat``) never sees a model instance. This module turns a reference ``Weapon`` row
into the engine's frozen ``Weapon`` and a list ``Entry`` into the plain values the calculator forms use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from armybuilder.lists.armament import CREWED, Armed, armament
from armybuilder.reference.models import Weapon as WeaponRow
from armybuilder.reference.weapon_rows import (
    bands,
    default_band,
    fires,
    has_ap_and_he,
    has_he,
    is_anti_tank_gun,
    is_indirect,
    is_vehicle_mounted,
    readable,
    to_rules_weapon,
    weapon_flags,
    weapons_for_edition,
)
from rules.army.names import ENTRY_FORMAT, distinct_names
from rules.combat.context import MAX_MODELS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from armybuilder.lists.models import Entry

# The weapon rows' reading (flags, bands, the engine's Weapon) lives with the chart
# (``armybuilder.reference.weapon_rows``) and who fires what in an entry with the lists
# (``armybuilder.lists.armament``): both are read below the odds pages, by the cards and the exports.
# The odds pages keep asking here for both.
__all__ = [
    "CREWED",
    "Armed",
    "FirerGroup",
    "FirerPrefill",
    "TargetPrefill",
    "armament",
    "bands",
    "default_band",
    "entry_choices",
    "firer_from_entry",
    "fires",
    "has_ap_and_he",
    "has_he",
    "is_anti_tank_gun",
    "is_indirect",
    "is_vehicle_mounted",
    "readable",
    "target_from_entry",
    "to_rules_weapon",
    "weapon_flags",
    "weapons_for_edition",
]


@dataclass(frozen=True)
class FirerGroup:
    weapon: str
    models: int
    band: str = "normal"


@dataclass(frozen=True)
class FirerPrefill:
    """What a list entry puts in the shooting form's firer half."""

    edition: str
    name: str
    quality: str
    groups: tuple[FirerGroup, ...]


@dataclass(frozen=True)
class TargetPrefill:
    """What a list entry puts in the shooting form's target half."""

    name: str
    kind: str
    quality: str
    models: int
    damage_value: int | None


def firer_from_entry(entry: Entry) -> FirerPrefill:
    """The shooting form's firer half for a list entry: each weapon of its ``armament`` with the
    models that fire it. A weapon the engine cannot read, or with no range to fire at (see ``fires``),
    is left out, not fired.
    """
    counts: dict[str, int] = {}
    rows: dict[str, WeaponRow] = {}
    for armed in armament(entry):
        if fires(armed.weapon):
            rows[armed.weapon.slug] = armed.weapon
            counts[armed.weapon.slug] = counts.get(armed.weapon.slug, 0) + armed.models
    groups = tuple(
        FirerGroup(slug, min(models, MAX_MODELS), default_band(rows[slug])) for slug, models in counts.items()
    )
    return FirerPrefill(
        edition=entry.army_list.edition.slug,
        name=entry.display_name,
        quality=entry.quality,
        groups=groups,
    )


_KINDS = {
    "headquarters": "infantry",
    "infantry": "infantry",
    "team": "infantry",
    "artillery": "artillery",
    "vehicle_soft": "soft_skin",
    "vehicle_armoured": "armoured",
    "transport": "soft_skin",
}


def target_from_entry(entry: Entry) -> TargetPrefill:
    """The target half of the form for a unit: kind, quality, models and (vehicles) damage value."""
    unit = entry.unit
    kind = _KINDS.get(unit.unit_type, "infantry")
    # As the builder, the cards and game day say it: the data's value, a soft-skin's or a
    # transport's 6+ when it gives none, and none for an armoured vehicle the data gives none
    # (the form then asks for it rather than guessing).
    dv = unit.vehicle_damage_value
    if kind == "soft_skin" and dv is not None and dv >= 7:
        kind = "armoured"  # an armoured transport (half-track, carrier)
    return TargetPrefill(
        name=entry.display_name,
        kind=kind,
        quality=entry.quality,
        models=min(max(entry.total_models, 1), MAX_MODELS),
        damage_value=dv if kind in ("soft_skin", "armoured") else None,
    )


def entry_choices(entries: Iterable[Entry]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Grouped select choices: one optgroup per list, one option per unit."""
    grouped: dict[int, tuple[str, list[Entry]]] = {}
    for entry in entries:
        army_list = entry.army_list
        label = f"{army_list.name} ({army_list.edition.slug})"
        grouped.setdefault(army_list.pk, (label, []))[1].append(entry)
    choices = []
    for label, listed in grouped.values():
        # Units of one list sharing a name are numbered, as the list's own pages number them.
        names = distinct_names(((e.pk, e.display_name) for e in listed), ENTRY_FORMAT)
        choices.append(
            (label, [(str(e.pk), f"{names[e.pk]} – {e.total_models} × {e.get_quality_display()}") for e in listed])
        )
    return choices
