"""Imported weapons onto the edition's weapons chart: chart weapons, mounts, or new weapons of an army.

A weapon named in community data is, in this order:

1. **a chart weapon**, when its name is one of the chart's ("Light AT gun" is the chart's "Light
   anti-tank gun", "SMG" its "Submachine gun (SMG)");
2. **a chart weapon on a mount**, when its name is a chart weapon's with mount and arc words
   around it ("Front Pintle-mounted LMG", "Co-axial MMG"): the unit's weapon line gets the mount,
   the chart gets nothing;
3. **a new weapon**, built from its profile, which must parse into Muster's typed values first
   (``armydata.weapon_profiles``): a profile that does not is refused, reported in the import
   summary, and the units keep their other weapons. New weapons are ``Weapon.imported``: the
   rulebook chart and the compare view never show them; the army's section of /about/data/ does.

The rulebook rows are never changed by an import. A new weapon's row is found again by its name
on the next import and updated in place when its profile changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from armybuilder.catalogue.models import Option, Unit
from armybuilder.importers.names import _clean, _fit, _name_keys, _unique_slug, _words
from armybuilder.reference.models import Edition, SpecialRule, Status, Weapon, WeaponCategory
from armydata.model import ImportedWeapon
from armydata.weapon_profiles import Profile, ProfileRefused, parse_profile, split_mount

IMPORTED_WEAPON_POSITION = 900
# The chart's columns (PositiveSmallIntegerField); the profile parser keeps far below them.
_SMALL = 32767


class RuleResolver(Protocol):
    def resolve_all(self, names: Iterable[str]) -> list[SpecialRule]: ...


class WeaponTally(Protocol):
    """What the mapping counts and warns about: the writer's ``CatalogueResult`` is one. A protocol
    rather than an import, so the writer, which calls the mapping, is the only one of the two that
    knows the other."""

    weapons_matched: int
    weapons_created: int
    weapons_kept: int
    weapons_refused: int

    def warn(self, message: str) -> None: ...


@dataclass(frozen=True)
class Resolved:
    """What a weapon name stands for: a weapon row and, for a mount variant, the mount its name gives."""

    weapon: Weapon
    mount: str = ""
    arc: str = ""


def weapon_category(name: str, pen: int, he_size: int | None) -> str:
    heavy = pen > 0 or he_size is not None or any(word in name.lower() for word in ("flame", "mortar", "howitzer"))
    return WeaponCategory.HEAVY if heavy or "cannon" in name.lower() else WeaponCategory.SMALL_ARMS


def _values(profile: Profile) -> dict[str, object]:
    """A typed profile as a weapon row's values."""
    return {
        "name": _fit(profile.name, 80),
        "category": weapon_category(profile.name, profile.pen, profile.he_size),
        "range_max": min(profile.range_max, _SMALL),
        "range_min": profile.range_min,
        "indirect_min": profile.indirect_min,
        "indirect_max": profile.indirect_max,
        "shots": profile.shots,
        "pen": min(profile.pen, _SMALL),
        "he_size": profile.he_size,
    }


class WeaponChart:
    """The edition's rulebook chart by normalised name, and the weapons earlier imports created.

    ``resolve(name)`` gives the weapon row a name stands for (None when it cannot be had: no
    profile, or a profile refused); ``resolve_mounted(name)`` adds the mount a variant's name gives.
    """

    def __init__(self, edition: Edition, source: str, rules: RuleResolver, result: WeaponTally):
        self.edition = edition
        self.source = source
        self.rules = rules
        self.result = result
        self.slugs: set[str] = set()
        self.by_key: dict[str, list[tuple[int, Weapon]]] = {}
        self.imported: dict[str, Weapon] = {}
        self.profiles: dict[str, ImportedWeapon] = {}
        self.resolved: dict[str, Resolved | None] = {}
        self.seen: set[int] = set()
        for weapon in Weapon.objects.filter(edition=edition).order_by("category", "position", "pk"):
            self.slugs.add(weapon.slug)
            if weapon.imported:
                self.imported.setdefault(_words(weapon.name, True), weapon)
            else:
                self._index(weapon)

    def _index(self, weapon: Weapon) -> None:
        keys = [*_name_keys(weapon.name, True), (0, _words(weapon.slug, True))]
        for rank, key in keys:
            entries = self.by_key.setdefault(key, [])
            if all(known is not weapon for _rank, known in entries):
                entries.append((rank, weapon))

    def find(self, name: str, profile: Profile | None = None, mounted: bool = False) -> Weapon | None:
        """The rulebook weapon a name stands for, if any.

        Between equally good names, the row whose range and shots agree with the profile wins,
        then, for a mounted weapon, the chart's vehicle version ("Flamethrower (vehicle)").
        """
        best: tuple[tuple[int, int, int], Weapon] | None = None
        for rank, key in [*_name_keys(name, True), *_name_keys(_fit(_clean(name), 80), True)]:
            for known_rank, weapon in self.by_key.get(key, []):
                agrees = profile is not None and (profile.range_max, profile.shots) == (weapon.range_max, weapon.shots)
                vehicle = "vehicle" in weapon.slug or "vehicle" in weapon.name.lower()
                score = (rank + known_rank, 0 if agrees else 1, 0 if vehicle == mounted else 1)
                if best is None or score < best[0]:
                    best = (score, weapon)
        return best[1] if best else None

    def add_profiles(self, weapons: list[ImportedWeapon]) -> None:
        for weapon in weapons:
            self.profiles.setdefault(weapon.name, weapon)
        for weapon in weapons:
            self.resolve(weapon.name)

    def _profile(self, name: str) -> Profile | None | ProfileRefused:
        imported = self.profiles.get(name)
        if imported is None:
            return None
        try:
            return parse_profile(imported.name, imported.range, imported.shots, imported.pen, imported.special_rules)
        except ProfileRefused as refused:
            return refused

    def resolve(self, name: str) -> Weapon | None:
        found = self.resolve_mounted(name)
        return found.weapon if found is not None else None

    def resolve_mounted(self, name: str) -> Resolved | None:
        if name in self.resolved:
            return self.resolved[name]
        profile = self._profile(name)
        typed = profile if isinstance(profile, Profile) else None
        found: Resolved | None = None
        weapon = self.find(name, typed)
        if weapon is not None:
            found = Resolved(weapon)
        elif (variant := split_mount(name)) is not None and (
            base := self.find(variant.weapon, typed, mounted=True)
        ) is not None:
            found = Resolved(base, variant.mount, variant.arc)
        elif profile is None and (row := self.imported.get(_words(_fit(_clean(name), 80), True))) is not None:
            found = Resolved(row)  # named without a profile here, created from one by an earlier import
        if found is not None:
            self._count(found.weapon, created=False)
        elif profile is None:
            self.result.warn(f"weapon {name!r} has no profile in the data and is not in the chart; left out")
        elif isinstance(profile, ProfileRefused):
            self.result.weapons_refused += 1
            self.result.warn(f"weapon {name!r} refused, {profile}; the units that carry it are kept without it")
        else:
            found = Resolved(self._new(profile))
        self.resolved[name] = found
        return found

    def drop_unused(self) -> int:
        """Delete the edition's imported weapons that nothing refers to any more and this import did
        not bring: what an earlier import made of names it now reads as mount variants ("Front
        Pintle-mounted LMG" rows) or of weapons the data no longer has. Returns how many."""
        candidates = Weapon.objects.filter(edition=self.edition, imported=True, units__isnull=True)
        options = Option.objects.filter(unit__army__edition=self.edition)
        used = {pk for pair in options.values_list("grants_weapon_id", "replaces_weapon_id") for pk in pair if pk}
        lines = Unit.objects.filter(army__edition=self.edition)
        slugs = {
            line.get("weapon")
            for unit_lines in lines.values_list("weapon_lines", flat=True)
            for line in (unit_lines if isinstance(unit_lines, list) else [])
            if isinstance(line, dict)
        }
        unused = [w.pk for w in candidates if w.pk not in self.seen and w.pk not in used and w.slug not in slugs]
        if unused:
            Weapon.objects.filter(pk__in=unused).delete()
        return len(unused)

    def _count(self, weapon: Weapon, created: bool) -> None:
        if weapon.pk in self.seen:
            return
        self.seen.add(weapon.pk)
        if created:
            self.result.weapons_created += 1
        elif weapon.imported:
            self.result.weapons_kept += 1
        else:
            self.result.weapons_matched += 1

    def _new(self, profile: Profile) -> Weapon:
        """The imported weapon row for a typed profile: found again by its name, or created."""
        values = _values(profile)
        rules = self.rules.resolve_all(profile.special_rules)
        key = _words(_fit(profile.name, 80), True)
        row = self.imported.get(key)
        if row is None:
            row = Weapon.objects.create(
                edition=self.edition,
                slug=_unique_slug(profile.name, self.slugs, 60, "weapon"),
                position=IMPORTED_WEAPON_POSITION,
                source=_fit(self.source, 200),
                status=Status.UNVERIFIED,
                imported=True,
                note="Created by a catalogue import from the data's profile; check it against the army's book.",
                **values,
            )
            row.special_rules.set(rules)
            self.imported[key] = row
            self._count(row, created=True)
            return row
        changed = [field for field, value in values.items() if getattr(row, field) != value]
        for field in changed:
            setattr(row, field, values[field])
        if changed:
            row.save(update_fields=changed)
        if {rule.pk for rule in row.special_rules.all()} != {rule.pk for rule in rules}:
            row.special_rules.set(rules)
        self._count(row, created=False)
        return row
