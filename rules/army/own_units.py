"""What makes a player's own unit coherent, whatever page typed it.

Plain Python (no Django): the unit form and the list import both ask ``check`` and show each
finding next to the field it names. A finding is ``(field, code)``; the caller words the code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.army.model import QUALITIES

OWN_UNITS_MAX = 200  # per player: a whole book of national units is well under a hundred
WEAPON_LINES_MAX = 12
OPTIONS_MAX = 20
MODELS_MAX = 30
COST_MAX = 2000

VEHICLE_TYPES = frozenset({"vehicle_soft", "vehicle_armoured", "transport"})

# The special rule's slug that marks an open-topped vehicle, as the editions' data names it.
OPEN_TOPPED = "open-topped"


@dataclass(frozen=True)
class WeaponLine:
    weapon: str
    count: int
    mount: str = ""
    arc: str = ""


@dataclass(frozen=True)
class OwnUnitSpec:
    """The typed values of an own unit, as the form or an import parsed them."""

    name: str
    unit_type: str
    slot: str
    base_cost: Mapping[str, int]
    per_model_cost: Mapping[str, int]
    base_models: int
    max_models: int
    officer_rank: str = ""
    damage_value: int | None = None
    transport_capacity: int | None = None
    open_topped: bool = False
    weapons: Sequence[WeaponLine] = field(default_factory=tuple)
    option_names: Sequence[str] = field(default_factory=tuple)


def check(spec: OwnUnitSpec) -> list[tuple[str, str]]:
    """The unit's problems, each as (the field it is about, a code); empty when it can be taken."""
    found: list[tuple[str, str]] = []
    if not spec.base_cost:
        found.append(("cost_regular", "no_quality"))
    if spec.max_models < spec.base_models:
        found.append(("max_models", "max_below_base"))
    if spec.max_models > spec.base_models:
        for quality in QUALITIES:
            if quality in spec.base_cost and quality not in spec.per_model_cost:
                found.append((f"per_model_{quality}", "per_model_missing"))
    for quality in spec.per_model_cost:
        if quality not in spec.base_cost:
            found.append((f"per_model_{quality}", "per_model_without_quality"))
    vehicle = spec.unit_type in VEHICLE_TYPES
    if vehicle and spec.damage_value is None:
        found.append(("damage_value", "vehicle_needs_damage"))
    if not vehicle and spec.damage_value is not None:
        found.append(("damage_value", "damage_only_vehicles"))
    if spec.transport_capacity is not None and not vehicle:
        found.append(("transport_capacity", "capacity_only_vehicles"))
    if spec.open_topped and not vehicle:
        found.append(("open_topped", "open_topped_only_vehicles"))
    if spec.slot in ("officer", "company_commander") and not spec.officer_rank:
        found.append(("officer_rank", "officer_needs_rank"))
    if spec.officer_rank and spec.unit_type != "headquarters":
        found.append(("officer_rank", "rank_only_headquarters"))
    if vehicle and any(not line.mount for line in spec.weapons):
        found.append(("weapons", "vehicle_weapon_needs_mount"))
    if not vehicle and any(line.mount for line in spec.weapons):
        found.append(("weapons", "mount_only_vehicles"))
    names = [name.casefold() for name in spec.option_names]
    if len(names) != len(set(names)):
        found.append(("options", "option_names_repeat"))
    return found
