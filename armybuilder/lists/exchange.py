"""Lists in and out of Muster: the versioned JSON format ``muster-list/3`` and a plain-text export.

The JSON format is documented in ``docs/list-format.md``. Units, options, armies and editions
are named by their slugs (natural keys), never by database ids, so a file moves between
Muster installations. Import checks the whole file against the catalogue before writing
anything, and reports every problem with its place in the file
(``entries[3] (Rifle squad): ...``); a file with any error saves nothing.

``muster-list/2`` (teams inside units) reads ``models`` as the unit's own men, teams' men
coming from their options, and stores a whole-unit option as 1. Files of ``muster-list/1``
still import: their whole-unit counts of men become 1, and their ``models`` already mean the
same (no unit had teams then).

``muster-list/3`` adds the players' own units: the file carries the definition of each own unit
its entries take (``own_units``), and an entry names one by ``own_unit`` instead of ``unit``.
Importing recreates them as the importer's own units (or reuses an identical one they have).
``/2`` and ``/1`` files have none, and read as before.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.html import strip_tags
from django.utils.translation import gettext, ngettext

from armybuilder.catalogue import own_units
from armybuilder.catalogue.models import Army, Quality, Unit
from armybuilder.catalogue.mounts import mount_label
from armybuilder.lists.armament import armament
from armybuilder.lists.models import ENTRIES_MAX, POINTS_LIMIT_MAX, ArmyList, Entry, ForceOrg, Platoon, PlatoonKind
from armybuilder.lists.problems import display_problem
from armybuilder.reference.models import Edition
from armydata import untrusted
from rules.army import own_units as own_rules
from rules.army.model import QUALITIES, ListSummary
from rules.army.points import group_over_maximum, option_conflicts, option_limit
from rules.combat.national import check_choice

FORMAT = "muster-list/3"
# Earlier versions this Muster still reads, each brought to the current meaning on import.
OLDER_FORMATS = ("muster-list/2", "muster-list/1")
NAME_MAX = 100
PLATOONS_MAX = 50
MAX_ORDER_DICE = 200


class ListImportError(Exception):
    """The file cannot be imported; ``errors`` are sentences naming the place in the file."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors


# -- Reading a list for display and export --------------------------------------------------


@dataclass(frozen=True)
class EntryRow:
    entry: Entry
    name: str
    unit_name: str
    unit_slug: str
    quality: str
    quality_label: str
    models: int  # every model, the teams' men included (``Entry.total_models``)
    options: tuple[tuple[str, str, int], ...]  # (slug, name, count) in the unit's option order
    points: int | None
    own: bool = False  # the player's own unit, not checked data: the shared page says so


@dataclass
class PlatoonGroup:
    name: str
    rows: list[EntryRow] = field(default_factory=list)


def entry_rows(army_list: ArmyList, summary: ListSummary) -> list[EntryRow]:
    """One row per entry with its points; expects the ``for_builder()`` prefetches (no query)."""
    rows = []
    entry_names = army_list.entry_names()  # shared names numbered, as on every page
    for entry in army_list.entries.all():
        unit = entry.unit
        names = {option.slug: option.display_name for option in unit.options.all()}
        order = {option.slug: i for i, option in enumerate(unit.options.all())}
        taken = sorted(
            ((slug, names.get(slug, slug), count) for slug, count in entry.options.items() if count),
            key=lambda item: (order.get(item[0], len(order)), item[0]),
        )
        rows.append(
            EntryRow(
                entry=entry,
                name=entry_names[entry.pk],
                unit_name=unit.display_name,
                unit_slug=unit.slug,
                quality=entry.quality,
                quality_label=str(Quality(entry.quality).label) if entry.quality in QUALITIES else entry.quality,
                models=entry.total_models,  # every model, teams' men included
                options=tuple(taken),
                points=summary.entry_points.get(str(entry.pk)),
                own=unit.is_own,
            )
        )
    return rows


def platoon_groups(army_list: ArmyList, summary: ListSummary) -> list[PlatoonGroup]:
    """Entries grouped by platoon in the list's order, then those in no platoon."""
    names = army_list.platoon_names()
    groups = {platoon.pk: PlatoonGroup(name=names[platoon.pk]) for platoon in army_list.platoons.all()}
    loose = PlatoonGroup(name="")
    for row in entry_rows(army_list, summary):
        groups.get(row.entry.platoon_id, loose).rows.append(row)
    result = list(groups.values())
    if loose.rows:
        result.append(loose)
    return result


# -- Plain text ------------------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


def _plain(text: str) -> str:
    """User text made safe to paste anywhere: one line, no markup, no angle brackets."""
    text = strip_tags(str(text))
    text = text.replace("<", "").replace(">", "")
    return _CONTROL.sub(" ", text).strip()


def _option_text(options: tuple[tuple[str, str, int], ...]) -> str:
    return ", ".join(_plain(name) if count == 1 else f"{_plain(name)} x{count}" for _, name, count in options)


def _armament_text(entry: Entry) -> str:
    """ "Rifle x4, Submachine gun x3, Light machine gun": each man's weapon after the options taken
    (a vehicle's mounts by name), as the odds and the cards count them."""
    parts = []
    for armed in armament(entry):
        name = _plain(armed.weapon.display_name)
        where = mount_label(armed.line)
        if where:
            name += f" ({where})"
        parts.append(name if armed.models == 1 else f"{name} x{armed.models}")
    return ", ".join(parts)


def officer_line(officer, name: str, *, inch: str = '"') -> str:
    """An officer's line of the text exports, in the active language: rank, morale bonus, extra
    orders and command range."""
    text = ngettext(
        "%(name)s: %(rank)s, morale +%(bonus)s, %(orders)s extra order, command range %(range)s",
        "%(name)s: %(rank)s, morale +%(bonus)s, %(orders)s extra orders, command range %(range)s",
        officer.extra_orders,
    )
    values = {
        "name": name,
        "rank": gettext(officer.rank_label),
        "bonus": officer.morale_bonus,
        "orders": officer.extra_orders,
        "range": f"{officer.command_range}{inch}",
    }
    return text % values


def export_text(army_list: ArmyList, summary: ListSummary) -> str:
    """The list as plain text for a forum post or a message, in the active language; no HTML, no
    entities."""
    lines = [
        _plain(army_list.name),
        f"{_plain(army_list.edition.display_name)} - {_plain(army_list.army.display_name)}",
        gettext("Points: %(points)s / %(limit)s   Order dice: %(dice)s")
        % {"points": summary.points, "limit": summary.points_limit, "dice": summary.order_dice},
    ]
    limits = []
    if army_list.max_order_dice:
        limits.append(gettext("at most %(n)s order dice") % {"n": army_list.max_order_dice})
    if army_list.max_platoons:
        limits.append(gettext("at most %(n)s platoons") % {"n": army_list.max_platoons})
    if limits:
        lines.append(gettext("Tournament: %(limits)s") % {"limits": ", ".join(limits)})
    if army_list.force_org == ForceOrg.NONE:
        lines.append(gettext("Force organisation: no restrictions"))
    for group in platoon_groups(army_list, summary):
        lines.append("")
        title = _plain(group.name) or gettext("Not in a platoon")
        lines.append(title)
        lines.append("-" * len(title))
        for row in group.rows:
            points = "?" if row.points is None else str(row.points)
            models = ngettext("%(n)s model", "%(n)s models", row.models) % {"n": row.models}
            text = f"* {_plain(row.name)} ({row.quality_label}, {models})"
            if row.own:
                text += " [" + gettext("player's own entry") + "]"  # typed from their book, not checked data
            if row.options:
                text += f": {_option_text(row.options)}"
            lines.append(f"{text} - " + gettext("%(points)s pts") % {"points": points})
            armed = _armament_text(row.entry)
            if armed:
                lines.append("  " + gettext("Weapons: %(weapons)s") % {"weapons": armed})
    if summary.officers:
        lines += ["", gettext("Officers")]
        lines += [f"* {officer_line(officer, _plain(officer.name))}" for officer in summary.officers]
    if summary.problems:
        lines += ["", gettext("Problems")]
        lines += [f"* {_plain(str(display_problem(problem)))}" for problem in summary.problems]
    lines += ["", gettext("Built with Muster")]
    return "\n".join(lines) + "\n"


# -- JSON export -----------------------------------------------------------------------------


def export_data(army_list: ArmyList) -> dict[str, Any]:
    """The list as ``muster-list/3`` data; expects the ``for_builder()`` prefetches."""
    platoons = list(army_list.platoons.all())
    index = {platoon.pk: i for i, platoon in enumerate(platoons)}
    own = {entry.unit.pk: entry.unit for entry in army_list.entries.all() if entry.unit.is_own}
    own_keys = {pk: unit.slug for pk, unit in own.items()}
    return {
        "format": FORMAT,
        "name": army_list.name,
        "edition": army_list.edition.slug,
        "army": list(army_list.army.natural_key()),
        "points_limit": army_list.points_limit,
        "force_org": army_list.force_org,
        "tournament": {"max_order_dice": army_list.max_order_dice, "max_platoons": army_list.max_platoons},
        "national_choice": army_list.national_choice,
        "platoons": [{"kind": platoon.kind, "name": platoon.name} for platoon in platoons],
        "own_units": [{"key": own_keys[pk], **own_units.definition(unit)} for pk, unit in own.items()],
        "entries": [
            {
                **({"own_unit": own_keys[entry.unit.pk]} if entry.unit.pk in own_keys else {"unit": entry.unit.slug}),
                "name": entry.name,
                "quality": entry.quality,
                "models": entry.models_count,
                "options": _exported_options(entry),
                "platoon": index.get(entry.platoon_id),
            }
            for entry in army_list.entries.all()
        ],
    }


def _exported_options(entry: Entry) -> dict[str, int]:
    """The entry's options as the file stores them: a whole-unit option taken is 1."""
    whole = {option.slug for option in entry.unit.options.all() if option.all_models}
    options = {}
    for slug, count in sorted((entry.options or {}).items()):
        options[slug] = 1 if slug in whole and count else count
    return options


def export_json(army_list: ArmyList) -> str:
    return json.dumps(export_data(army_list), indent=2, ensure_ascii=False) + "\n"


def export_parsed(parsed: ParsedList) -> dict[str, Any]:
    """A checked file (``parse_list``) written back as ``muster-list/3`` data, as ``export_data``
    writes a saved list: what the file says, in the current format, without anything else it held.

    A list that was never saved (a walk-in's list pasted by an event's organiser) is sealed from it.
    """
    keys = {id(draft): key for key, draft in parsed.drafts.items()}
    taken = {id(entry.unit) for entry in parsed.entries}
    return {
        "format": FORMAT,
        "name": parsed.name,
        "edition": parsed.edition.slug,
        "army": list(parsed.army.natural_key()),
        "points_limit": parsed.points_limit,
        "force_org": parsed.force_org,
        "tournament": {"max_order_dice": parsed.max_order_dice, "max_platoons": parsed.max_platoons},
        "national_choice": parsed.national_choice,
        "platoons": [{"kind": kind, "name": name} for kind, name in parsed.platoons],
        "own_units": [{"key": key, **draft.data} for key, draft in parsed.drafts.items() if id(draft) in taken],
        "entries": [
            {
                **({"own_unit": keys[id(entry.unit)]} if id(entry.unit) in keys else {"unit": entry.unit.slug}),
                "name": entry.name,
                "quality": entry.quality,
                "models": entry.models,
                "options": dict(sorted(entry.options.items())),
                "platoon": entry.platoon,
            }
            for entry in parsed.entries
        ],
    }


# -- JSON import -----------------------------------------------------------------------------


def _words(values: list[str] | tuple[str, ...]) -> str:
    values = list(values)
    if len(values) <= 1:
        return "".join(values)
    return f"{', '.join(values[:-1])} or {values[-1]}"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass
class _ParsedEntry:
    unit: Unit | own_units.Draft
    name: str
    quality: str
    models: int
    options: dict[str, int]
    platoon: int | None


@dataclass
class ParsedList:
    """A checked file, ready to save: every catalogue row is resolved."""

    name: str
    edition: Edition
    army: Army
    points_limit: int
    force_org: str
    max_order_dice: int | None
    max_platoons: int | None
    platoons: list[tuple[str, str]]
    entries: list[_ParsedEntry]
    drafts: dict[str, own_units.Draft] = field(default_factory=dict)
    national_choice: str = ""


def _load(text: str) -> dict[str, Any]:
    try:
        data = untrusted.loads(text)
    except untrusted.UntrustedInput as exc:
        # The whole file's faults read as before ("This is not valid JSON: line 3, ..."); a refused
        # value names its place in the file, as every other import error does.
        if exc.syntax is not None:
            error = exc.syntax
            message = f"This is not valid JSON: line {error.lineno}, column {error.colno}: {error.msg}."
        else:
            message = f"{'This file' if exc.field == 'body' else exc.field} {exc.message}"
        raise ListImportError([message]) from None
    if not isinstance(data, dict):
        raise ListImportError(["The file must hold one JSON object, starting with {."])
    found = data.get("format")
    if found is None:
        raise ListImportError([f'format: missing; a Muster list file has "format": "{FORMAT}".'])
    if found != FORMAT and found not in OLDER_FORMATS:
        readable = _words([json.dumps(name) for name in (FORMAT, *OLDER_FORMATS)])
        raise ListImportError([f"format: {json.dumps(found)} is not supported; this Muster reads {readable} files."])
    return data


def _optional_limit(value: object, place: str, top: int, errors: list[str]) -> int | None:
    if value is None:
        return None
    if not _is_int(value) or not 1 <= value <= top:
        errors.append(f"{place}: must be empty (null) or a whole number from 1 to {top}, not {json.dumps(value)}.")
        return None
    return value


def _check_name(value: object, place: str, errors: list[str], *, required: bool) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        errors.append(f"{place}: must be {'a non-empty' if required else 'a'} text.")
        return ""
    if len(value.strip()) > NAME_MAX:
        errors.append(f"{place}: must be at most {NAME_MAX} characters (it has {len(value.strip())}).")
    return value.strip()


def parse_list(text: str, owner: Any = None, *, saving: bool = True) -> ParsedList:
    """Check a ``muster-list/3`` (``/2``, ``/1``) file against the catalogue; raises ``ListImportError``.

    Entries name the army's units (never a player's own units by slug: those only come with
    their definition in ``own_units``, which needs a signed-in ``owner`` to become theirs).
    ``saving=False``: the file is only read (a sealed list printed or played), so its own units
    need no owner and count against nobody's units.
    """
    data = _load(text)
    errors: list[str] = []

    name = _check_name(data.get("name"), "name", errors, required=True)

    edition = None
    edition_slug = data.get("edition")
    if not isinstance(edition_slug, str):
        errors.append('edition: missing; use an edition slug such as "v3".')
    else:
        edition = Edition.objects.filter(slug=edition_slug).first()
        if edition is None:
            known = list(Edition.objects.values_list("slug", flat=True))
            errors.append(f"edition: {json.dumps(edition_slug)} is unknown; choose {_words(known)}.")

    army = None
    army_key = data.get("army")
    if isinstance(army_key, str):
        army_key = [edition_slug, army_key]
    if not (isinstance(army_key, list) and len(army_key) == 2 and all(isinstance(p, str) for p in army_key)):
        errors.append('army: must be the army\'s natural key, such as ["v3", "germany"].')
    elif edition is not None:
        if army_key[0] != edition.slug:
            errors.append(f"army: {json.dumps(army_key)} belongs to edition {army_key[0]!r}, not {edition.slug!r}.")
        else:
            army = Army.objects.filter(edition=edition, slug=army_key[1]).first()
            if army is None:
                errors.append(f"army: no army {army_key[1]!r} in {edition.display_name}.")

    points_limit = data.get("points_limit")
    if not _is_int(points_limit) or not 1 <= points_limit <= POINTS_LIMIT_MAX:
        errors.append(
            f"points_limit: must be a whole number from 1 to {POINTS_LIMIT_MAX}, not {json.dumps(points_limit)}."
        )
        points_limit = 1

    force_org = data.get("force_org", ForceOrg.PLATOONS.value)
    if force_org not in ForceOrg.values:
        errors.append(f"force_org: {json.dumps(force_org)} is unknown; choose {_words(ForceOrg.values)}.")

    tournament = data.get("tournament") or {}
    if not isinstance(tournament, dict):
        errors.append("tournament: must be an object with max_order_dice and max_platoons.")
        tournament = {}
    max_order_dice = _optional_limit(
        tournament.get("max_order_dice"), "tournament.max_order_dice", MAX_ORDER_DICE, errors
    )
    max_platoons = _optional_limit(tournament.get("max_platoons"), "tournament.max_platoons", PLATOONS_MAX, errors)

    platoons: list[tuple[str, str]] = []
    raw_platoons = data.get("platoons", [])
    if not isinstance(raw_platoons, list):
        errors.append("platoons: must be a list.")
        raw_platoons = []
    if len(raw_platoons) > PLATOONS_MAX:
        errors.append(f"platoons: at most {PLATOONS_MAX} platoons, not {len(raw_platoons)}.")
        raw_platoons = []
    for _i, place, raw in untrusted.objects(raw_platoons, "platoons", errors, "must be an object with kind and name."):
        kind = raw.get("kind")
        if kind not in PlatoonKind.values:
            errors.append(f"{place}: kind {json.dumps(kind)} is unknown; choose {_words(PlatoonKind.values)}.")
        platoons.append((str(kind), _check_name(raw.get("name"), f"{place}.name", errors, required=False)))

    raw_entries = data.get("entries", [])
    if not isinstance(raw_entries, list):
        errors.append("entries: must be a list.")
        raw_entries = []
    if len(raw_entries) > ENTRIES_MAX:
        errors.append(f"entries: at most {ENTRIES_MAX} units, not {len(raw_entries)}.")
        raw_entries = []
    units: dict[str, Unit] = {}
    if army is not None:
        units = {unit.slug: unit for unit in Unit.objects.filter(army=army).builtin().prefetch_related("options")}
    drafts = _parse_own_units(data, army, owner, errors, saving=saving) if found_format(data) == FORMAT else {}
    entries = []
    for i, raw in enumerate(raw_entries):
        if isinstance(raw, dict) and "own_unit" in raw and "unit" not in raw:
            key = raw.get("own_unit")
            if key not in drafts:
                errors.append(f"entries[{i}]: own_unit {json.dumps(key)} is not one of the file's own_units.")
                continue
            raw = {**raw, "unit": key}
            parsed = _parse_entry(i, raw, drafts, army, len(raw_platoons), errors)
        else:
            parsed = _parse_entry(i, raw, units, army, len(raw_platoons), errors)
        if parsed is not None:
            entries.append(parsed)

    national_choice = data.get("national_choice", "")
    if not isinstance(national_choice, str):
        errors.append("national_choice: must be a string, the slug of a choice the army's national rules offer.")
        national_choice = ""
    elif army is not None and not check_choice({r.slug for r in army.national_rules.all()}, national_choice):
        errors.append(f"national_choice: {json.dumps(national_choice)} is not a choice this army's rules offer.")

    if errors:
        raise ListImportError(errors)
    assert edition is not None and army is not None
    return ParsedList(
        national_choice=national_choice,
        name=name,
        edition=edition,
        army=army,
        points_limit=points_limit,
        force_org=force_org,
        max_order_dice=max_order_dice,
        max_platoons=max_platoons,
        platoons=platoons,
        entries=entries,
        drafts=drafts,
    )


def found_format(data: dict) -> str:
    return data.get("format", "")


# Own units one file may carry: no more than the entries it may hold.
OWN_UNITS_PER_FILE = ENTRIES_MAX


def _parse_own_units(
    data: dict, army: Army | None, owner: Any, errors: list[str], *, saving: bool = True
) -> dict[str, own_units.Draft]:
    raw = data.get("own_units", [])
    if not isinstance(raw, list) or len(raw) > OWN_UNITS_PER_FILE:
        errors.append(f"own_units: must be a list of at most {OWN_UNITS_PER_FILE} unit definitions.")
        return {}
    if not raw or army is None:
        return {}
    if saving and (owner is None or not owner.is_authenticated):
        errors.append("own_units: this list takes a player's own units; log in to import it, and they become yours.")
        return {}
    if saving and not own_units.room_for(owner, len(raw)):
        errors.append(f"own_units: {len(raw)} more would take you past {own_rules.OWN_UNITS_MAX} units of your own.")
        return {}
    drafts: dict[str, own_units.Draft] = {}
    for i, definition in enumerate(raw):
        place = f"own_units[{i}]"
        key = definition.get("key") if isinstance(definition, dict) else None
        if not isinstance(key, str) or not own_units.KEY_PATTERN.match(key) or key in drafts:
            errors.append(f"{place}.key: must be a slug (a-z, 0-9, -) no other own unit of the file has.")
            continue
        parsed = own_units.parse_definition(definition, place, army.edition, errors)
        if parsed is not None:
            drafts[key] = own_units.Draft(army, parsed)
    return drafts


def _parse_entry(
    i: int,
    raw: object,
    units: dict[str, Unit] | dict[str, own_units.Draft],
    army: Army | None,
    platoon_count: int,
    errors: list[str],
) -> _ParsedEntry | None:
    place = f"entries[{i}]"
    if not isinstance(raw, dict):
        errors.append(f"{place}: must be an object with unit, quality, models and options.")
        return None
    slug = raw.get("unit")
    entry_name = raw.get("name") if isinstance(raw.get("name"), str) else ""
    label = f"{place} ({entry_name.strip() or slug})" if isinstance(slug, str) else place
    if not isinstance(slug, str):
        errors.append(f"{place}: unit is missing; give the unit's slug.")
        return None
    if army is None:
        return None  # the army's own error is already reported; units cannot be checked without it
    unit = units.get(slug)
    if unit is None:
        errors.append(f"{label}: unit {slug!r} is not in {army.display_name}.")
        return None
    label = f"{place} ({entry_name.strip() or unit.name})"
    before = len(errors)
    name = _check_name(raw.get("name"), f"{label}: name", errors, required=False)

    quality = raw.get("quality")
    offered = unit.qualities()
    if quality not in offered:
        errors.append(f"{label}: quality {json.dumps(quality)} is not offered; choose {_words(offered)}.")

    models = raw.get("models")
    if not _is_int(models) or not unit.base_models <= models <= unit.max_models:
        allowed = (
            f"exactly {unit.base_models}"
            if unit.base_models == unit.max_models
            else f"from {unit.base_models} to {unit.max_models}"
        )
        errors.append(f"{label}: models must be {allowed}, not {json.dumps(models)}.")
        models = unit.base_models

    options: dict[str, int] = {}
    raw_options = raw.get("options", {})
    if not isinstance(raw_options, dict):
        errors.append(f"{label}: options must be an object mapping option slugs to counts.")
        raw_options = {}
    by_slug = {option.slug: option for option in unit.options.all()}
    for slug_taken, count in raw_options.items():
        option = by_slug.get(slug_taken)
        if option is None:
            choices = _words([repr(s) for s in by_slug]) if by_slug else "none (this unit has no options)"
            errors.append(f"{label}: option {slug_taken!r} is not offered; choose {choices}.")
            continue
        limit = option_limit(option.to_rules(), models)
        if not _is_int(count) or not 0 <= count <= limit:
            errors.append(f"{label}: option {slug_taken!r} count must be from 0 to {limit}, not {json.dumps(count)}.")
            continue
        # A whole-unit option is one choice: 1 when taken (``muster-list/1`` stored a count of men).
        options[slug_taken] = 1 if option.all_models and count else count
    specs = [option.to_rules() for option in unit.options.all()]
    for option, other in option_conflicts(specs, options):
        errors.append(f"{label}: option {option.key!r} cannot be taken with {other.key!r} ({other.name}).")
    for group, count, limit in group_over_maximum(unit.to_rules(), models, options):
        errors.append(f"{label}: {group.label} allows at most {limit} of its options; {count} were taken.")

    platoon = raw.get("platoon")
    if platoon is not None and (not _is_int(platoon) or not 0 <= platoon < platoon_count):
        errors.append(
            f"{label}: platoon must be null or the index of one of the {platoon_count} platoons, "
            f"not {json.dumps(platoon)}."
        )
    if len(errors) > before:
        return None
    return _ParsedEntry(unit=unit, name=name, quality=str(quality), models=models, options=options, platoon=platoon)


def import_list(text: str, *, owner: Any = None) -> ArmyList:
    """Check then save a ``muster-list/3`` (``/2``, ``/1``) file as a new list, all or nothing."""
    parsed = parse_list(text, owner)
    try:
        made_list = _write_import(parsed, owner)
    except own_units.TooManyUnits as full:  # another tab's units took the room since the check
        raise ListImportError([f"own_units: {full}"]) from full
    return made_list


def _write_import(parsed, owner: Any) -> ArmyList:
    with transaction.atomic():
        made = {id(draft): own_units.same_or_new(owner, parsed.army, draft.data) for draft in parsed.drafts.values()}
        army_list = ArmyList.objects.create(
            owner=owner,
            edition=parsed.edition,
            army=parsed.army,
            name=parsed.name,
            points_limit=parsed.points_limit,
            force_org=parsed.force_org,
            max_order_dice=parsed.max_order_dice,
            max_platoons=parsed.max_platoons,
            national_choice=parsed.national_choice,
        )
        platoons = [
            Platoon.objects.create(army_list=army_list, kind=kind, name=name, position=position)
            for position, (kind, name) in enumerate(parsed.platoons)
        ]
        Entry.objects.bulk_create(
            Entry(
                army_list=army_list,
                unit=made[id(entry.unit)] if isinstance(entry.unit, own_units.Draft) else entry.unit,
                name=entry.name,
                quality=entry.quality,
                models_count=entry.models,
                options=entry.options,
                platoon=platoons[entry.platoon] if entry.platoon is not None else None,
                position=position,
            )
            for position, entry in enumerate(parsed.entries)
        )
    return army_list


_SAME_OWNER = object()


def duplicate_list(*, army_list: ArmyList, name: str, owner=_SAME_OWNER) -> ArmyList:
    """Copy a list with its platoons and entries under a new name (and a new share link).

    The copy is the same owner's unless ``owner`` is given (a shared list copied by its reader;
    None for a visitor without an account).
    """
    with transaction.atomic():
        copy = ArmyList.objects.create(
            owner=army_list.owner if owner is _SAME_OWNER else owner,
            edition_id=army_list.edition_id,
            army_id=army_list.army_id,
            name=name,
            points_limit=army_list.points_limit,
            force_org=army_list.force_org,
            max_order_dice=army_list.max_order_dice,
            max_platoons=army_list.max_platoons,
            national_choice=army_list.national_choice,
        )
        new_platoons = {}
        for platoon in Platoon.objects.filter(army_list=army_list):
            new_platoons[platoon.pk] = Platoon.objects.create(
                army_list=copy, kind=platoon.kind, name=platoon.name, position=platoon.position
            )
        entries = list(Entry.objects.filter(army_list=army_list).select_related("unit"))
        units = _own_units_for(copy.owner, [entry.unit for entry in entries])
        Entry.objects.bulk_create(
            Entry(
                army_list=copy,
                platoon=new_platoons.get(entry.platoon_id),
                unit_id=units.get(entry.unit_id, entry.unit_id),
                name=entry.name,
                quality=entry.quality,
                models_count=entry.models_count,
                options=dict(entry.options),
                position=entry.position,
            )
            for entry in entries
        )
    return copy


def _own_units_for(owner, units: list[Unit]) -> dict[int, int]:
    """Another player's own units a copied list takes, as the new owner's own copies (old pk: new pk).

    A signed-in reader gets copies they own, so the list never ties them to someone else's
    entries (which its author could not then delete). A visitor without an account has nowhere
    to keep them: refused (``own_units.NeedsAccount``), as the JSON import refuses them.
    """
    foreign = {
        unit.pk: unit for unit in units if unit.owner_id is not None and unit.owner_id != getattr(owner, "pk", None)
    }
    if not foreign:
        return {}
    if owner is None:
        raise own_units.NeedsAccount
    if not own_units.room_for(owner, len(foreign)):
        raise own_units.TooManyUnits
    return {pk: own_units.copy_unit(owner, unit).pk for pk, unit in foreign.items()}
