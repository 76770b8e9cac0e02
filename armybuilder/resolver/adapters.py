"""Between the database and the combat engine: weapon profiles, and saved list entries as firers/targets.

The engine (``rules.combat``) never sees a model instance. This module turns a reference ``Weapon`` row
into the engine's frozen ``Weapon`` and a list ``Entry`` into the plain values the calculator forms use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from armybuilder.catalogue.mounts import Change, carried_lines
from armybuilder.reference.models import Weapon as WeaponRow
from armybuilder.reference.models import WeaponCategory
from rules.army.names import ENTRY_FORMAT, distinct_names
from rules.combat.context import MAX_MODELS
from rules.combat.weapons import Weapon
from rules.errors import RulesError

if TYPE_CHECKING:
    from collections.abc import Iterable

    from armybuilder.lists.models import Entry

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


def _is_heavy(row: WeaponRow) -> bool:
    return row.category == "heavy" or "team" in weapon_flags(row) or bool(row.he_size) or row.pen > 0


def _crew(row: WeaponRow) -> int:
    """Men a weapon takes: a team weapon's gunner and loader (the loader does not fire), else one."""
    return 2 if "team" in weapon_flags(row) else 1


@dataclass(frozen=True)
class Armed:
    """One weapon of an entry as it fights: ``models`` of it fire (a mount: how many of it).

    ``line`` is the weapon line the cards print: a vehicle's mount and arc, empty for men.
    """

    weapon: WeaponRow
    models: int
    line: dict


CREWED = frozenset({"artillery", "vehicle_soft", "vehicle_armoured", "transport"})


def _crewed(unit) -> bool:
    """Guns and vehicles fire each mount; a team of fixed size fires its weapon once. A unit that can
    take more men than it starts with is a squad of men, each with his own weapon, whatever its type
    says (imported data files squads under a team category too)."""
    return unit.unit_type in CREWED or (unit.unit_type == "team" and unit.max_models <= unit.base_models)


def _taken(entry: Entry, option) -> int:
    try:
        return max(int((entry.options or {}).get(option.slug, 0) or 0), 0)
    except (TypeError, ValueError):
        return 0


def armament(entry: Entry) -> list[Armed]:
    """Who fires what in a list entry, after its options: the one answer for the odds, the cards,
    game day and the text export.

    Guns, vehicles and fixed teams fire each mount (``Unit.weapon_lines``) once, with the weapons
    the options took on and without the ones they replaced (``catalogue.mounts.carried_lines``).
    In a squad each man carries one weapon: each heavy or team weapon of the unit is one man (a
    team weapon's loader carries nothing that fires), other extra small arms one man each, and
    the first small arm (the rifles) everyone else. A per-man option taken N times arms N men
    with its weapon, taking them from the weapon it replaces; an option for the whole unit arms
    every man who carried what it replaces; a team taken adds its men with its weapon (one
    gunner and his loader for a team weapon). Expects ``unit__weapons`` and ``unit__options``
    (with their weapons) prefetched or cheap to read.
    """
    unit = entry.unit
    rows = sorted(unit.weapons.all(), key=lambda w: (w.position, w.pk))
    options = list(unit.options.all())
    if _crewed(unit):
        return _mounted(entry, rows, options)
    by_pk: dict[int, WeaponRow] = {row.pk: row for row in rows}
    counts: dict[int, int] = {}

    def add(row: WeaponRow, n: int) -> None:
        by_pk[row.pk] = row
        counts[row.pk] = counts.get(row.pk, 0) + n

    small = [row for row in rows if not _is_heavy(row)]
    # The men's weapon is the first small arm that shoots: a close-combat weapon with no range
    # (grenades, a knife) listed first is one man's extra, not the squad's rifles.
    primary = next((row for row in small if fires(row)), small[0] if small else None)
    used = 0
    for row in rows:
        if row is not primary:
            add(row, 1)
            used += _crew(row)
    for option in options:
        taken = _taken(entry, option)
        if taken <= 0:
            continue
        granted = option.grants_weapon
        if option.adds_models:
            # A team or added men: they bring their weapon (the team weapon fires once a team).
            if granted is not None and "team" in weapon_flags(granted):
                add(granted, taken)
                used += taken * max(option.adds_models, 2)
            elif granted is not None:
                add(granted, taken * option.adds_models)
                used += taken * option.adds_models
            continue  # men added with no weapon of their own carry the squad's first small arm
        if granted is None:
            continue
        replaced = option.replaces_weapon_id
        if option.all_models:
            # The whole unit: every man who carried the replaced weapon (the rifles if it names none).
            if replaced is None or replaced == getattr(primary, "pk", None):
                primary = granted
                by_pk[granted.pk] = granted
            elif replaced in counts:
                add(granted, counts.pop(replaced))
            continue
        add(granted, taken)
        used += taken * _crew(granted)
        if replaced is not None and replaced != getattr(primary, "pk", None) and replaced in counts:
            moved = min(counts[replaced], taken)
            counts[replaced] -= moved
            used -= moved
    if primary is not None:
        total = max(entry.total_models, 1)
        add(primary, max(total - used, 0))
    order = sorted(counts, key=lambda pk: (pk != getattr(primary, "pk", None), list(counts).index(pk)))
    return [
        Armed(by_pk[pk], counts[pk], {"weapon": by_pk[pk].slug, "mount": "", "count": counts[pk], "arc": ""})
        for pk in order
        if counts[pk] > 0
    ]


def _mounted(entry: Entry, rows: list[WeaponRow], options: list) -> list[Armed]:
    """A gun's or vehicle's mounts (or a fixed team's weapons), after the options taken."""
    by_pk = {row.pk: row for row in rows}
    for option in options:
        if option.grants_weapon is not None:
            by_pk.setdefault(option.grants_weapon.pk, option.grants_weapon)
    by_slug = {row.slug: row for row in by_pk.values()}
    slugs = {row.pk: row.slug for row in by_pk.values()}
    changes = [
        Change(
            name=option.name,
            grants=slugs.get(option.grants_weapon_id),
            replaces=slugs.get(option.replaces_weapon_id),
            count=_taken(entry, option),
            whole_unit=option.all_models,
        )
        for option in options
    ]
    own = max(entry.models_count, 1)  # whose weapons a per-man swap replaces
    lines = carried_lines(entry.unit.weapon_lines, [row.slug for row in rows], changes, own)
    return [
        Armed(by_slug[line["weapon"]], max(int(line.get("count") or 1), 1), line)
        for line in lines
        if line["weapon"] in by_slug
    ]


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
    dv = unit.damage_value
    if kind == "soft_skin" and dv is not None and dv >= 7:
        kind = "armoured"  # an armoured transport (half-track, carrier)
    if kind == "armoured" and dv is None:
        dv = 7
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
