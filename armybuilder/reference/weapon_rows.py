"""A weapons-chart row as the combat engine reads it: its flags, range bands and the engine's ``Weapon``.

Beside the chart (``reference.models.Weapon``) because everything above reads it: the odds pages,
the cards, and who fires what in a list entry (``lists.armament``).
"""

from __future__ import annotations

import re

from armybuilder.reference.models import Weapon as WeaponRow
from armybuilder.reference.models import WeaponCategory
from rules.combat.weapons import Weapon
from rules.errors import RulesError

# Special rules (by slugified name) that change how the engine treats a weapon.
_FLAGS = {
    "assault": "assault",
    "team": "team",
    "team-weapon": "team",
    "shaped-charge": "shaped_charge",
    "flamethrower": "flamethrower",
    "indirect-fire": "indirect",
    "indirect": "indirect",
    "fixed": "fixed",
    "fixed-weapon": "fixed",
    "anti-tank-gun": "anti_tank_gun",
}


def _slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def weapon_flags(row: WeaponRow) -> set[str]:
    """The engine flags a weapon row's special rules switch on; reads ``special_rules.all()`` (prefetch it)."""
    flags: set[str] = set()
    for rule in row.special_rules.all():
        for key in (_slugify(rule.slug), _slugify(rule.name)):
            if key in _FLAGS:
                flags.add(_FLAGS[key])
    if "flame" in row.slug:
        flags.add("flamethrower")
    return flags


def is_anti_tank_gun(row: WeaponRow) -> bool:
    """AT guns get the 3rd-edition +1 to hit vehicles on a Fire order [JK3]."""
    return "anti_tank_gun" in weapon_flags(row) or row.slug.endswith("at-gun")


def is_vehicle_mounted(row: WeaponRow, flags: set[str] | None = None) -> bool:
    """A vehicle's flamethrower ("Flamethrower (vehicle)", ``vehicle-flamethrower``) scores D6+1 hits
    rather than D6 (notes §17 [S002, JK3]); the charts name it, they carry no rule for it."""
    flags = weapon_flags(row) if flags is None else flags
    return "flamethrower" in flags and ("vehicle" in row.slug or "vehicle" in row.name.lower())


def to_rules_weapon(row: WeaponRow) -> Weapon:
    """The engine's profile for one weapons-chart row (the numbers are already that edition's)."""
    flags = weapon_flags(row)
    return Weapon(
        name=row.name,
        slug=row.slug,
        range_max=row.range_max,
        range_min=row.range_min,
        shots=row.shots or "1",
        pen=row.pen,
        he_size=row.he_size,
        assault="assault" in flags,
        team="team" in flags,
        shaped_charge="shaped_charge" in flags,
        flamethrower="flamethrower" in flags,
        indirect="indirect" in flags,
        fixed="fixed" in flags,
        vehicle_mounted=is_vehicle_mounted(row, flags),
        anti_tank_gun=is_anti_tank_gun(row),
    )


def is_indirect(row: WeaponRow) -> bool:
    """The weapon fires indirectly unless told otherwise (mortars)."""
    return "indirect" in weapon_flags(row)


def bands(row: WeaponRow) -> tuple[str, ...]:
    """The range bands a weapon can fire in directly (``rules.combat.weapons.Weapon.bands``)."""
    return to_rules_weapon(row).bands


def default_band(row: WeaponRow) -> str:
    """The range band to start from: normal if the weapon has it, else its farthest band (a 12"
    Panzerfaust beyond 6" is at long range; a 6" flamethrower is only ever at point blank)."""
    possible = bands(row)
    return "normal" if "normal" in possible or not possible else possible[-1]


def has_he(row: WeaponRow) -> bool:
    """The weapon can fire HE (a template, or one HE hit on a vehicle)."""
    return bool(row.he_size) and "flamethrower" not in weapon_flags(row)


def has_ap_and_he(row: WeaponRow) -> bool:
    """A gun that can load either shell, so the firer chooses (HE is compulsory at men [BS2, JK3])."""
    return has_he(row) and row.pen > 0


def readable(row: WeaponRow) -> bool:
    """Whether the engine can read the row's profile. Imports refuse unreadable profiles, so this is
    the second line: a row edited by hand or left by an older import must cost its own use, not a page."""
    try:
        to_rules_weapon(row)
    except RulesError:
        return False
    return True


def fires(row: WeaponRow) -> bool:
    """Whether the odds pages can fire the row at a distance: the engine reads it and it reaches some
    range band. A weapon with no range (grenades, a demolition charge: imported data writes its range
    "-") is used in close combat; it stays on its unit but is never offered or prefilled to shoot."""
    return readable(row) and bool(bands(row))


def weapons_for_edition(edition_slug: str) -> list[WeaponRow]:
    """The edition's weapons the odds pages offer, with what ``to_rules_weapon`` reads: the rulebook
    chart in chart order (small arms first, the rifle at the top, as the chart prints them: the
    models' ordering sorts the categories by name, which put the HMG and autocannons first), then
    the weapons imports brought (units of imported armies fire them). A row whose profile cannot be
    read, or that has no range (a close-combat weapon), is left out, never a 500."""
    order = {value: index for index, value in enumerate(WeaponCategory.values)}
    rows = WeaponRow.objects.all().for_chart().filter(edition__slug=edition_slug)
    rows = sorted(rows, key=lambda row: (row.imported, order.get(row.category, len(order)), row.position, row.name))
    return [row for row in rows if fires(row)]
