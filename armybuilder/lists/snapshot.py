"""A list as it was sealed, read into memory only: what the PDFs, game day and events read of it.

An event keeps each player's list as its JSON export (``muster-list/3``, with the definitions of
the player's own units). Printing it or playing it must not depend on the list still existing,
nor on anyone owning its own units, nor write anything: ``read_sealed`` checks the export against
the catalogue (``exchange.parse_list`` without saving) and builds a frozen tree of it.

The tree answers what the roster (``playsheets.context.list_context``) and game day
(``games.services.side_from_list``) read of a saved list: ``entries.all()``, ``platoons.all()``,
``entry_names()``, each entry's unit with its options, weapons and special rules. Catalogue units
are the catalogue's rows, loaded once with everything printing reads; a player's own unit is
built from its sealed definition and saved nowhere. Nothing here writes to the database.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, prefetch_related_objects

from armybuilder.catalogue import own_units
from armybuilder.catalogue.models import Army, Option, Quality, Unit
from armybuilder.lists.exchange import ListImportError, parse_list
from armybuilder.lists.models import EntryReading, PlatoonNaming
from armybuilder.reference.models import Edition, SpecialRule, Weapon
from rules.army import model as army_rules
from rules.army.names import ENTRY_FORMAT, PLATOON_FORMAT, distinct_names
from rules.army.order_dice import entry_order_dice

__all__ = ["ListImportError", "Rows", "SealedEntry", "SealedLine", "SealedList", "SealedPlatoon", "read_sealed"]


@dataclass(frozen=True)
class Rows:
    """A read-only collection that answers ``all()`` as a loaded relation of a saved row does."""

    items: tuple = ()

    def all(self) -> tuple:
        return self.items

    def __iter__(self) -> Iterator:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True, eq=False)
class OwnUnit:
    """A player's own unit as sealed: its definition's values on an unsaved catalogue row, with its
    options, weapons and rules held here (an unsaved row has no relations to read)."""

    row: Unit
    key: str
    options: Rows
    weapons: Rows
    special_rules: Rows

    def __getattr__(self, name: str) -> Any:
        if name == "row":  # not yet set (copying): never recurse
            raise AttributeError(name)
        return getattr(self.row, name)

    @property
    def pk(self) -> str:
        return f"own:{self.key}"

    @property
    def is_own(self) -> bool:
        return True

    @property
    def display_name(self) -> str:
        return self.row.name

    def to_rules(self) -> army_rules.UnitSpec:
        return self.row.to_rules(key=self.pk, options=tuple(option.to_rules() for option in self.options))


@dataclass(frozen=True, eq=False)
class SealedPlatoon(PlatoonNaming):
    pk: int
    kind: str
    name: str


@dataclass(frozen=True, eq=False)
class SealedEntry(EntryReading):
    """One unit of the sealed list: its unit, the name the player gave it, quality, men and options."""

    pk: int
    unit: Unit | OwnUnit
    name: str
    quality: str
    models_count: int
    options: dict[str, int]
    platoon: SealedPlatoon | None
    army_list: SealedList = field(init=False, repr=False)

    @property
    def unit_id(self) -> int | str:
        return self.unit.pk

    @property
    def platoon_id(self) -> int | None:
        return self.platoon.pk if self.platoon is not None else None

    def get_quality_display(self) -> str:
        return str(Quality(self.quality).label) if self.quality in Quality.values else self.quality


@dataclass(frozen=True)
class SealedLine:
    """What the organiser reads of one sealed unit."""

    name: str
    unit_name: str
    own: bool
    quality: str
    quality_label: str
    men: int
    options: tuple[tuple[str, int], ...]
    weapons: tuple[str, ...]
    points: int | None
    dice: int


@dataclass(frozen=True, eq=False)
class SealedList:
    """A sealed list, read-only: no primary key, no owner, no share link."""

    name: str
    edition: Edition
    army: Army
    points_limit: int
    force_org: str
    max_order_dice: int | None
    max_platoons: int | None
    national_choice: str
    platoons: Rows
    entries: Rows
    pk = None
    owner = None
    owner_id = None

    def __post_init__(self) -> None:
        for entry in self.entries:
            object.__setattr__(entry, "army_list", self)

    @property
    def edition_id(self) -> int:
        return self.edition.pk

    @property
    def army_id(self) -> int:
        return self.army.pk

    def __str__(self) -> str:
        return self.name

    def entry_names(self) -> dict[int, str]:
        return distinct_names(((e.pk, e.display_name) for e in self.entries), ENTRY_FORMAT)

    def platoon_names(self) -> dict[int, str]:
        return distinct_names(((p.pk, p.display_name) for p in self.platoons), PLATOON_FORMAT)

    def to_rules(self) -> army_rules.ListSpec:
        from armybuilder.lists.summary import list_spec

        return list_spec(self)

    def lines(self) -> list[SealedLine]:
        """Each unit with its men, options, weapons, points and order dice (the organiser's page)."""
        from armybuilder.lists.summary import list_summary

        summary = list_summary(self)
        spec = self.to_rules()
        names = self.entry_names()
        lines = []
        for entry, entry_spec in zip(self.entries, spec.entries, strict=True):
            option_names = {option.slug: option.display_name for option in entry.unit.options.all()}
            lines.append(
                SealedLine(
                    name=names[entry.pk],
                    unit_name=entry.unit.display_name,
                    own=entry.unit.is_own,
                    quality=entry.quality,
                    quality_label=entry.get_quality_display(),
                    men=entry.total_models,
                    options=tuple((option_names.get(slug, slug), n) for slug, n in entry.options.items() if n),
                    weapons=tuple(weapon.display_name for weapon in entry.unit.weapons.all()),
                    points=summary.entry_points.get(str(entry.pk)),
                    dice=entry_order_dice(entry_spec),
                )
            )
        return lines


def _catalogue_units(pks: set[int]) -> dict[int, Unit]:
    """The catalogue units a list takes, with everything printing and game day read of them."""
    options = Option.objects.select_related("grants_weapon", "replaces_weapon").order_by("position", "name")
    units = Unit.objects.filter(pk__in=pks).prefetch_related(
        Prefetch("options", queryset=options),
        "options__grants_weapon__special_rules",
        Prefetch("weapons", queryset=Weapon.objects.prefetch_related("special_rules")),
        "special_rules",
    )
    return {unit.pk: unit for unit in units}


def _own_unit(key: str, draft: own_units.Draft, edition: Edition, weapons: dict[str, Weapon], rules) -> OwnUnit:
    data = draft.data
    lines = [dict(line) for line in data.get("weapons", ()) if line["weapon"] in weapons]
    row = draft.unit
    # As ``own_units.write_unit`` keeps them: mounted lines for a vehicle, else the weapons themselves.
    row.weapon_lines = lines if any(line.get("mount") for line in lines) else []
    row.composition = data.get("composition") or ""
    row.weapons_text = data.get("weapons_text") or ", ".join(weapons[line["weapon"]].name for line in lines)
    row.source = own_units.SOURCE
    options = []
    for position, option in enumerate(draft.all()):
        raw = data["options"][position]
        option.position = position
        option.grants_weapon = weapons.get(raw.get("grants") or "")
        option.replaces_weapon = weapons.get(raw.get("replaces") or "")
        options.append(option)
    distinct = list({line["weapon"]: weapons[line["weapon"]] for line in lines}.values())
    return OwnUnit(
        row=row,
        key=key,
        options=Rows(tuple(options)),
        weapons=Rows(tuple(distinct)),
        special_rules=Rows(tuple(rules[slug] for slug in data.get("special_rules", ()) if slug in rules)),
    )


def read_sealed(data: dict, *, name: str | None = None) -> SealedList:
    """The sealed export ``data`` as a read-only list; ``ListImportError`` (its problems named) when
    the catalogue no longer has what it takes. ``name``: printed instead of the list's own name."""
    parsed = parse_list(json.dumps(data), saving=False)
    edition, army = parsed.edition, parsed.army
    prefetch_related_objects([army], "national_rules")
    catalogue = _catalogue_units({entry.unit.pk for entry in parsed.entries if isinstance(entry.unit, Unit)})
    own: dict[int, OwnUnit] = {}
    if parsed.drafts:
        slugs = {line["weapon"] for d in parsed.drafts.values() for line in d.data.get("weapons", ())}
        for draft in parsed.drafts.values():
            slugs |= {option.get(k) or "" for option in draft.data["options"] for k in ("grants", "replaces")}
        weapons = {
            w.slug: w for w in Weapon.objects.filter(edition=edition, slug__in=slugs).prefetch_related("special_rules")
        }
        wanted = {slug for d in parsed.drafts.values() for slug in d.data.get("special_rules", ())}
        rules = {r.slug: r for r in SpecialRule.objects.filter(edition=edition, slug__in=wanted)}
        for key, draft in parsed.drafts.items():
            own[id(draft)] = _own_unit(key, draft, edition, weapons, rules)
    platoons = tuple(SealedPlatoon(pk=i + 1, kind=kind, name=pname) for i, (kind, pname) in enumerate(parsed.platoons))
    entries = tuple(
        SealedEntry(
            pk=i + 1,
            unit=own[id(entry.unit)] if isinstance(entry.unit, own_units.Draft) else catalogue[entry.unit.pk],
            name=entry.name,
            quality=entry.quality,
            models_count=entry.models,
            options=dict(entry.options),
            platoon=platoons[entry.platoon] if entry.platoon is not None else None,
        )
        for i, entry in enumerate(parsed.entries)
    )
    return SealedList(
        name=name or parsed.name,
        edition=edition,
        army=army,
        points_limit=parsed.points_limit,
        force_org=parsed.force_org,
        max_order_dice=parsed.max_order_dice,
        max_platoons=parsed.max_platoons,
        national_choice=parsed.national_choice,
        platoons=Rows(platoons),
        entries=Rows(entries),
    )
