"""Who fires what in a list entry, after its options: the one answer for the odds, the cards, game
day and the text export (``armament``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from armybuilder.catalogue.mounts import Change, carried_lines
from armybuilder.reference.models import Weapon as WeaponRow
from armybuilder.reference.weapon_rows import fires, weapon_flags

if TYPE_CHECKING:
    from armybuilder.lists.models import Entry


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
