"""Small builders for the plain rules data: ``make_unit``, ``make_entry``, ``make_list``."""

from __future__ import annotations

from itertools import count

from rules.army.model import EntrySpec, ListSpec, OptionSpec, PlatoonSpec, UnitSpec

_keys = count(1)

# Slot -> unit type, so a unit built for a slot has a plausible type (transports count carried units by type).
SLOT_TYPES = {
    "officer": "headquarters",
    "company_commander": "headquarters",
    "character": "headquarters",
    "infantry": "infantry",
    "medic": "headquarters",
    "forward_observer": "headquarters",
    "sniper": "team",
    "machine_gun": "team",
    "light_mortar": "team",
    "mortar": "team",
    "flamethrower": "team",
    "anti_tank": "team",
    "anti_tank_gun": "artillery",
    "artillery": "artillery",
    "armoured_car": "vehicle_armoured",
    "tank": "vehicle_armoured",
    "transport": "transport",
    "other": "infantry",
}

RANKS = {"officer": "second_lieutenant", "company_commander": "captain"}
V3_RANKS = {"officer": "platoon_commander", "company_commander": "company_commander"}


def make_option(key: str = "smg", **kw) -> OptionSpec:
    kw.setdefault("name", key.upper())
    kw.setdefault("per_model", False)
    kw.setdefault("cost", {"inexperienced": 3, "regular": 3, "veteran": 3})
    return OptionSpec(key=key, **kw)


def make_unit(name: str = "Rifle squad", **kw) -> UnitSpec:
    slot = kw.setdefault("slot", "infantry")
    kw.setdefault("key", name.lower().replace(" ", "-"))
    kw.setdefault("unit_type", SLOT_TYPES[slot])
    kw.setdefault("base_cost", {"inexperienced": 35, "regular": 50, "veteran": 65})
    kw.setdefault("per_model_cost", {"inexperienced": 7, "regular": 10, "veteran": 13})
    kw.setdefault("base_models", 5)
    kw.setdefault("max_models", 10)
    return UnitSpec(name=name, **kw)


def make_slot_unit(slot: str, edition: str = "v2", name: str | None = None) -> UnitSpec:
    """A one-model unit that fills ``slot`` (officers get the edition's rank for it)."""
    ranks = V3_RANKS if edition == "v3" else RANKS
    return make_unit(
        name or slot.replace("_", " ").capitalize(),
        slot=slot,
        officer_rank=ranks.get(slot),
        base_cost={"regular": 50},
        per_model_cost={},
        base_models=1,
        max_models=1,
    )


def make_entry(unit: UnitSpec | None = None, **kw) -> EntrySpec:
    unit = unit or make_unit()
    kw.setdefault("key", f"e{next(_keys)}")
    kw.setdefault("name", unit.name)
    kw.setdefault("quality", "regular")
    kw.setdefault("models", unit.base_models)
    return EntrySpec(unit=unit, **kw)


def make_platoon(key: str = "p1", kind: str = "reinforced_platoon", name: str = "1st Platoon") -> PlatoonSpec:
    return PlatoonSpec(key=key, kind=kind, name=name)


def make_list(entries=(), platoons=(), **kw) -> ListSpec:
    kw.setdefault("edition", "v2")
    kw.setdefault("force_org", "platoons")
    kw.setdefault("points_limit", 1000)
    return ListSpec(entries=tuple(entries), platoons=tuple(platoons), **kw)
