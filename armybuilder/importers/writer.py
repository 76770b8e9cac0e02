"""Write parsed community data into the catalogue, and tell list owners what an import changed.

The parsers hand over plain ``ImportedCatalogue`` dataclasses; this module is the only place
that maps them onto ``Army``, ``Unit``, ``Option``, ``Weapon`` and ``SpecialRule`` rows.

Re-importing is idempotent. Armies are matched by (edition, origin, ``source_id``), units and
options by ``source_id`` within their army or unit, so the ids the source gave survive any
renaming; slugs are derived from names once, with a numeric suffix on collision, and never
change afterwards (saved lists refer to option slugs). A row is saved only when one of its
values differs, so ``updated_at`` moves only for real changes. A unit that disappears from a
newer version is flagged ``removed`` rather than deleted: saved lists PROTECT it.

Weapons map onto the edition's chart in ``importers.weapons``: by a normalised name, as a mount
variant of a chart weapon, or as a new weapon of the army whose profile must parse first. Rules
map by name. Rule texts are never copied into ``SpecialRule.summary``, which holds Muster's
paraphrases only: a text the data gives a rule is kept apart, plain and bounded, on the army
(``Army.source_rule_texts``, with who the data is from), and pages show it quoted and credited.

Each import runs in one ``transaction.atomic()``: any failure part-way leaves nothing behind,
and a dry run does all the work, then rolls it back, so it reports exactly what a real run would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from django.db import DatabaseError, transaction

# unit_change_notes now lives with the catalogue; re-exported for the builder, which imports it from here.
from armybuilder.catalogue.change_notes import unit_change_notes  # noqa: F401
from armybuilder.catalogue.models import Army, OfficerRank, Option, Origin, Slot, Unit, UnitType
from armybuilder.importers.names import _BRACKETS_RE, _clean, _fit, _unique_slug, _words
from armybuilder.importers.weapons import WeaponChart
from armybuilder.reference.models import Edition, SpecialRule, Status
from armydata.barracks import parse_barracks
from armydata.battlescribe import parse_battlescribe
from armydata.builder_module import parse_module
from armydata.french import french_name
from armydata.loader import detect_format, split_modules
from armydata.model import (
    QUALITIES,
    ImportedArmy,
    ImportedCatalogue,
    ImportedOption,
    ImportedUnit,
    ImportReport,
)
from armydata.safety import CatalogueImportError, expand_archives
from armydata.untrusted import quoted_text
from rules.army.force_org import edition_rules


@dataclass(frozen=True)
class SourceCredit:
    """Who imported data is from, as the import knows it (a known public source, a repository);
    anything left empty is filled from the data itself (its file name, its own credit line)."""

    name: str = ""
    author: str = ""
    url: str = ""


Progress = Callable[[int, int, str, str], None]
"""Called as ``progress(units_done, units_total, army, unit)``: with ``unit=""`` when an army starts,
then after each of its units."""

_BATTLESCRIBE_SUFFIXES = (".gst", ".cat")
_BARRACKS_NAMES = ("armies.json", "core.json")
# The source sets no upper bound on the unit's size; the model needs one.
UNBOUNDED_MODELS = 100
# Ranks the parsers know that Muster's officer tables do not: they count as the highest rank it has.
_RANK_FALLBACK = {"lieutenant_colonel": "major", "colonel": "major"}
ORIGIN_NAMES = {
    Origin.BATTLESCRIBE.value: "BattleScribe",
    Origin.BARRACKS.value: "Barracks",
    Origin.MODULE.value: "army-builder module",
}


# --- parsing: files to catalogues ----------------------------------------------------------------


@dataclass(frozen=True)
class ParsedImport:
    """One parsed catalogue with where it came from: its origin and the file names read."""

    origin: str
    files: tuple[str, ...]
    catalogue: ImportedCatalogue

    @property
    def files_label(self) -> str:
        # The game system (BattleScribe) or core.json (Barracks) names the data best.
        key = sorted(self.files, key=lambda n: (not n.lower().endswith((".gst", "core.json")), n))
        more = len(key) - 1
        return key[0] if not more else f"{key[0]} + {more} more file{'s' if more > 1 else ''}"


def parse_files(files: dict[str, bytes], *, edition: str | None = None) -> list[ParsedImport]:
    """Unpack archives and parse, BattleScribe and Barracks files each with their own parser.

    ``edition`` overrides the edition the data declares (or lacks). Raises
    ``CatalogueImportError`` for anything that cannot be imported.
    """
    expanded = expand_archives(files)
    # An army-builder module is known by its content (it often has no extension): each is one
    # catalogue of its own, whatever else was given with it.
    modules, expanded = split_modules(expanded)
    parsed = []
    for name, data in sorted(modules.items()):
        catalogue = parse_module({name: data})
        catalogue = replace(catalogue, edition=edition) if edition else catalogue
        parsed.append(ParsedImport(origin=Origin.MODULE.value, files=(name,), catalogue=catalogue))
    if not expanded:
        return parsed
    battlescribe = {name: data for name, data in expanded.items() if name.lower().endswith(_BATTLESCRIBE_SUFFIXES)}
    others = {name: data for name, data in expanded.items() if name not in battlescribe}
    barracks_given = any(name.replace("\\", "/").split("/")[-1] in _BARRACKS_NAMES for name in others)
    if battlescribe and barracks_given:
        groups = [("battlescribe", battlescribe), ("barracks", others)]
    else:
        groups = [(detect_format(expanded), expanded)]
    for kind, group in groups:
        if kind == "battlescribe":
            catalogue = parse_battlescribe(group, edition=edition)
            origin = Origin.BATTLESCRIBE
        else:
            catalogue = parse_barracks(group)
            catalogue = replace(catalogue, edition=edition) if edition else catalogue
            origin = Origin.BARRACKS
        parsed.append(ParsedImport(origin=origin.value, files=tuple(sorted(group)), catalogue=catalogue))
    return parsed


# --- the result -------------------------------------------------------------------------------


@dataclass
class Tally:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0

    @property
    def total(self) -> int:
        return self.created + self.updated + self.unchanged

    def count(self, created: bool, changed: bool) -> None:
        if created:
            self.created += 1
        elif changed:
            self.updated += 1
        else:
            self.unchanged += 1

    def describe(self) -> str:
        return f"{self.total} ({self.created} created, {self.updated} updated, {self.unchanged} unchanged)"


@dataclass
class ArmyReport:
    """What one army's import read, guessed and dropped: the per-army part of the report."""

    name: str
    read: int = 0  # units the data holds for the army
    imported: int = 0  # of them, written (created, updated or unchanged)
    options: int = 0
    guessed: list[str] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"{self.name}: {self.read} unit{'s' if self.read != 1 else ''} read, {self.imported} imported "
            f"({self.options} option{'s' if self.options != 1 else ''}), {len(self.guessed)} guessed, "
            f"{len(self.dropped)} dropped"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "read": self.read,
            "imported": self.imported,
            "options": self.options,
            "guessed": list(self.guessed),
            "dropped": [list(pair) for pair in self.dropped],
        }


_TYPE_SOURCE_WORDS = {"profiles": "its profiles", "name": "its name"}


@dataclass
class CatalogueResult:
    """What one catalogue's import did; ``lines()`` is the report the command and the page show."""

    parsed: ParsedImport
    edition: str
    armies: Tally = field(default_factory=Tally)
    units: Tally = field(default_factory=Tally)
    options: Tally = field(default_factory=Tally)
    weapons_matched: int = 0
    weapons_created: int = 0
    weapons_kept: int = 0  # imported by an earlier run: not the chart's, not new
    weapons_refused: int = 0
    weapons_dropped: int = 0  # imported earlier, carried by nothing any more: deleted
    rules_matched: int = 0
    rules_created: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    army_reports: list[ArmyReport] = field(default_factory=list)

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    @property
    def changed(self) -> bool:
        """Whether the import wrote anything: a re-import of the same data changes nothing."""
        tallies = (self.armies, self.units, self.options)
        return any(t.created or t.updated or t.removed for t in tallies) or bool(
            self.weapons_created or self.rules_created
        )

    @property
    def report(self) -> ImportReport:
        return self.parsed.catalogue.report

    def title(self) -> str:
        catalogue = self.parsed.catalogue
        origin = ORIGIN_NAMES.get(self.parsed.origin, self.parsed.origin)
        files = len(self.parsed.files)
        return (
            f"{catalogue.system_name} ({origin}, edition {self.edition}): "
            f"{files} file{'s' if files != 1 else ''}, {self.report.entries_read} entries read"
        )

    def counts(self) -> list[str]:
        return [
            f"Armies: {self.armies.describe()}",
            f"Units: {self.units.describe()}; {self.units.removed} gone from the data, marked removed",
            f"Options: {self.options.describe()}; {self.options.removed} gone from the data, deleted",
            self._weapons_line(),
            f"Rules: {self.rules_matched + self.rules_created} "
            f"({self.rules_matched} matched to the {self.edition} special rules, {self.rules_created} created)",
        ]

    def _weapons_line(self) -> str:
        total = self.weapons_matched + self.weapons_created + self.weapons_kept
        line = (
            f"Weapons: {total} ({self.weapons_matched} matched to the {self.edition} weapons chart, "
            f"{self.weapons_created} created"
        )
        if self.weapons_kept:
            line += f", {self.weapons_kept} from an earlier import"
        line += ")"
        if self.weapons_refused:
            line += f"; {self.weapons_refused} refused (see the warnings)"
        if self.weapons_dropped:
            line += f"; {self.weapons_dropped} imported earlier and carried by no unit any more, deleted"
        return line

    def lines(self) -> list[str]:
        lines = [self.title(), *(f"  {line}" for line in self.counts())]
        if not self.changed:
            lines.append("  Nothing changed: the data is the same as at the last import.")
        if self.skipped:
            lines.append(f"  Skipped {len(self.skipped)} entr{'y' if len(self.skipped) == 1 else 'ies'}:")
            lines += [f"    - {entry}: {reason}" for entry, reason in self.skipped]
        if self.warnings:
            lines.append(f"  {len(self.warnings)} warning{'s' if len(self.warnings) != 1 else ''}:")
            lines += [f"    - {warning}" for warning in self.warnings]
        if self.army_reports:
            lines.append("  Per army (read, guessed, dropped):")
            for army in self.army_reports:
                lines.append(f"    {army.line()}")
                lines += [f"      guessed: {text}" for text in army.guessed]
                lines += [f"      dropped: {entry}: {reason}" for entry, reason in army.dropped]
        return lines


@dataclass
class ImportResult:
    dry_run: bool
    catalogues: list[CatalogueResult]

    def lines(self) -> list[str]:
        lines = [line for result in self.catalogues for line in result.lines()]
        if self.dry_run:
            lines.append("Dry run: the data was checked and nothing was written.")
        else:
            lines.append("Import complete.")
        return lines


# --- names, slugs and ids ------------------------------------------------------------------------


def _unique_ids(ids: Iterable[str], length: int) -> list[str]:
    """Source ids made unique within one parent: a repeat gets ``#2``, ``#3`` in source order."""
    seen: set[str] = set()
    out = []
    for raw in ids:
        base = _fit(raw, length)
        candidate, number = base, 2
        while candidate in seen:
            candidate = _fit(f"{raw}#{number}", length)
            number += 1
        seen.add(candidate)
        out.append(candidate)
    return out


def _roster_header(catalogue: ImportedCatalogue, imported: ImportedArmy) -> dict[str, str]:
    """What a roster exported from a list of this army names its data by; empty unless the data
    says its game system's id (BattleScribe's), since a roster without it opens nowhere."""
    if not catalogue.system_id or not catalogue.points_type_id:
        return {}
    return {
        "game_system_id": _fit(catalogue.system_id, 120),
        "game_system_name": _fit(catalogue.system_name, 200),
        "game_system_revision": _fit(catalogue.system_revision, 20),
        "catalogue_revision": _fit(imported.revision, 20),
        "points_type_id": _fit(catalogue.points_type_id, 120),
    }


def _force_org(catalogue: ImportedCatalogue, edition: str) -> list[dict[str, Any]]:
    """The game system's platoon tables as stored on each of its armies (``Army.force_rules()`` reads them).

    Only kinds the edition has are kept: a 2nd-edition army cannot field a 3rd-edition platoon.
    """
    kinds = set(edition_rules(edition).platoons)
    # Stored as JSON reads it back (lists, not tuples), so the same data compares equal on a re-import.
    return _as_json([asdict(force) for force in catalogue.forces if force.kind in kinds])


def _as_json(value: Any) -> Any:
    """A value as a JSON field reads it back: tuples become lists."""
    if isinstance(value, dict):
        return {key: _as_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_as_json(item) for item in value]
    return value


# --- weapons and rules -------------------------------------------------------------------------


class _Rules:
    """The edition's special rules by normalised name; unknown names become new rows."""

    def __init__(self, edition: Edition, source: str, result: CatalogueResult):
        self.edition = edition
        self.source = source
        self.result = result
        self.slugs: set[str] = set()
        self.by_key: dict[str, SpecialRule] = {}
        self.seen: set[int] = set()
        self.created: set[int] = set()
        for rule in SpecialRule.objects.filter(edition=edition).order_by("pk"):
            self._index(rule)

    def _index(self, rule: SpecialRule) -> None:
        self.slugs.add(rule.slug)
        for key in (_words(rule.name, False), _words(rule.slug, False)):
            self.by_key.setdefault(key, rule)

    def resolve(self, name: str) -> SpecialRule | None:
        name = _clean(name)
        bare = _clean(_BRACKETS_RE.sub(" ", name)) or name
        if not bare:
            return None
        # A name longer than the column was stored cut, so it is looked up cut as well.
        keys = (_words(name, False), _words(bare, False), _words(_fit(bare, 80), False))
        rule = next((self.by_key[key] for key in keys if key in self.by_key), None)
        if rule is None:
            # "Crew (3)" and "HE (2")" are one rule with a parameter: the row is the rule.
            rule = SpecialRule.objects.create(
                edition=self.edition,
                slug=_unique_slug(bare, self.slugs, 60, "rule"),
                name=_fit(bare, 80),
                source=_fit(self.source, 200),
                status=Status.UNVERIFIED,
                note="Created by a catalogue import; the source's rule text is not copied. Add a paraphrase.",
            )
            self._index(rule)
            self.created.add(rule.pk)
        if rule.pk not in self.seen:
            self.seen.add(rule.pk)
            if rule.pk in self.created:
                self.result.rules_created += 1
            else:
                self.result.rules_matched += 1
        return rule

    def resolve_all(self, names: Iterable[str]) -> list[SpecialRule]:
        rules = [self.resolve(name) for name in names]
        return list({rule.pk: rule for rule in rules if rule is not None}.values())


# --- the writer ----------------------------------------------------------------------------------


def _fill_costs(cost: dict[str, int]) -> dict[str, int]:
    """An option's price at every quality: a quality the source leaves out takes its nearest neighbour's.

    Muster's options have no per-quality availability, so an option the source prices only for
    veterans is offered at the others at the same price (the report says how many).
    """
    if not cost:
        return dict.fromkeys(QUALITIES, 0)
    filled = {}
    for index, quality in enumerate(QUALITIES):
        if quality in cost:
            filled[quality] = cost[quality]
        else:
            nearest = min(cost, key=lambda q: (abs(QUALITIES.index(q) - index), -QUALITIES.index(q)))
            filled[quality] = cost[nearest]
    return filled


# Numbers no Bolt Action unit reaches: a file that holds them is mistaken or hostile. PostgreSQL
# would refuse the whole import for them (its integer columns), SQLite would store them and every
# page add them up; either way the unit is refused, or keeps its other values, here.
MAX_UNIT_POINTS = 10_000
MAX_UNIT_MODELS = 1_000
MAX_DAMAGE_VALUE = 15
MAX_TRANSPORT = 100


def _refuse_huge(name: str, values: dict[str, Any], warn: Callable[[str], None]) -> None:
    """Skip a unit whose cost or size is beyond any unit's; leave out a damage value or capacity no vehicle has."""
    costs = [cost for key, cost in values.items() if key.startswith(("cost_", "per_model_")) and cost is not None]
    if costs and max(costs) > MAX_UNIT_POINTS:
        raise _Skip(f"a cost of {max(costs)} points, beyond any unit's (at most {MAX_UNIT_POINTS})")
    if values["base_models"] > MAX_UNIT_MODELS:
        raise _Skip(f"{values['base_models']} models, beyond any unit's (at most {MAX_UNIT_MODELS})")
    if values["max_models"] > MAX_UNIT_MODELS:
        warn(f"{name}: up to {values['max_models']} models is beyond any unit; at most {MAX_UNIT_MODELS}")
        values["max_models"] = MAX_UNIT_MODELS
        values["composition"] = _composition(values["base_models"], MAX_UNIT_MODELS)
    for column, label, highest in (
        ("damage_value", "damage value", MAX_DAMAGE_VALUE),
        ("transport_capacity", "transport capacity", MAX_TRANSPORT),
    ):
        if values[column] is not None and values[column] > highest:
            warn(f"{name}: a {label} of {values[column]} is beyond any vehicle's (at most {highest}); left out")
            values[column] = None


def _composition(base: int, maximum: int) -> str:
    if base == maximum:
        return f"{base} model{'s' if base != 1 else ''}"
    return f"{base} to {maximum} models"


class _Skip(Exception):
    pass


class _CatalogueWriter:
    def __init__(
        self,
        parsed: ParsedImport,
        edition: Edition,
        result: CatalogueResult,
        progress: _ProgressCounter,
        credit: SourceCredit | None = None,
    ):
        self.parsed = parsed
        self.catalogue = parsed.catalogue
        self.edition = edition
        self.origin = parsed.origin
        self.origin_label = ORIGIN_NAMES.get(parsed.origin, parsed.origin)
        self.result = result
        self.progress = progress
        source = f"import: {parsed.files_label} ({self.origin_label})"
        self.rules = _Rules(edition, source, result)
        self.weapons = WeaponChart(edition, source, self.rules, result)
        self.partly_priced_options = 0
        credit = credit or SourceCredit()
        # The data's own credit line ("Phy; an address for questions") names its author before the first ";".
        own_author = self.catalogue.credit.split(";", 1)[0].strip()
        self.credit = {
            "name": quoted_text(credit.name or parsed.files_label, 120),
            "author": quoted_text(credit.author or own_author, 120),
            "url": credit.url if credit.url.startswith("https://") else "",
        }

    def _quoted_rules(self, imported: ImportedArmy) -> dict[str, Any]:
        """The data's own texts of the army's rules, by rule slug, with the credit; {} when it gives none."""
        texts: dict[str, str] = {}
        for name, text in imported.rule_texts.items():
            rule = self.rules.resolve(name)
            text = quoted_text(text)
            if rule is not None and text:
                texts.setdefault(rule.slug, text)
        return {"source": self.credit, "rules": texts} if texts else {}

    def write(self) -> None:
        self.weapons.add_profiles(self.catalogue.weapons)
        # A weapon an earlier import created is matched now, not created: its rules still count as
        # the data's, so the same data reports the same rules on every import.
        source = _fit(self.weapons.source, 200)
        for profile in self.catalogue.weapons:
            found = self.weapons.resolved.get(profile.name)
            weapon = getattr(found, "weapon", found)  # a chart that keeps the mount holds the row in .weapon
            if weapon is not None and weapon.source == source:
                self.rules.resolve_all(profile.special_rules)
        for army in self.catalogue.armies:
            self._army(army)
        self.result.weapons_dropped = self.weapons.drop_unused()
        if self.partly_priced_options:
            self.result.warn(
                f"{self.partly_priced_options} options are priced in the data for only some of their unit's "
                "qualities; Muster offers them at the others for the nearest quality's price"
            )

    # armies

    def _army(self, imported: ImportedArmy) -> None:
        self.progress.step(0, imported.name, "")
        name = _fit(_clean(imported.name), 120)
        source_id = _fit(imported.source_id or f"name:{name}", 120)
        values: dict[str, Any] = {
            "name": name,
            "theatre_selectors": list(imported.theatre_selectors),
            "source": _fit(f"{self.origin_label}: {self.catalogue.system_name}, {name} (id {source_id})", 300),
            "force_org": _force_org(self.catalogue, self.edition.slug),
            "roster_header": _roster_header(self.catalogue, imported),
        }
        national = {rule.pk for rule in self.rules.resolve_all(imported.national_rules)}
        values["source_rule_texts"] = self._quoted_rules(imported)
        army = Army.objects.filter(edition=self.edition, origin=self.origin, source_id=source_id).first()
        created = army is None
        if army is None:
            taken = set(Army.objects.filter(edition=self.edition).values_list("slug", flat=True))
            army = Army.objects.create(
                edition=self.edition,
                slug=_unique_slug(name, taken, 80, "army"),
                origin=self.origin,
                source_id=source_id,
                description=f"Imported from {self.origin_label} data ({self.catalogue.system_name}).",
                **values,
            )
            army.national_rules.set(national)
            changed = True
        else:
            changed = self._update(army, values)
            if set(army.national_rules.values_list("pk", flat=True)) != national:
                army.national_rules.set(national)
                self._update(army, {}, force=not changed)
                changed = True
        self.result.armies.count(created, changed)
        self._units(army, imported)

    def _update(self, row: Army | Unit | Option, values: dict[str, Any], force: bool = False) -> bool:
        """Save only the fields that differ; ``force`` saves ``updated_at`` alone (a related row changed)."""
        changed = [name for name, value in values.items() if getattr(row, name) != value]
        for name in changed:
            setattr(row, name, values[name])
        if changed or force:
            fields = [*changed, "updated_at"] if hasattr(row, "updated_at") else changed
            row.save(update_fields=fields)
        return bool(changed)

    # units

    def _units(self, army: Army, imported: ImportedArmy) -> None:
        report = ArmyReport(name=imported.name, read=len(imported.units))
        self.result.army_reports.append(report)
        existing: dict[str, Unit] = {}
        slugs: set[str] = set()
        for unit in Unit.objects.filter(army=army).prefetch_related("options", "weapons", "special_rules"):
            slugs.add(unit.slug)
            # Players' own units live in the army but are not the data's: never updated or removed.
            if unit.owner_id is None:
                existing.setdefault(unit.source_id, unit)
        ids = _unique_ids((unit.source_id or f"name:{unit.name}" for unit in imported.units), 120)
        seen: set[str] = set()
        for index, (source_id, unit) in enumerate(zip(ids, imported.units, strict=True)):
            try:
                self._unit(army, unit, source_id, (index + 1) * 10, existing.get(source_id), slugs)
            except _Skip as skip:
                self.result.skipped.append((f"{imported.name}: {unit.name}", str(skip)))
                report.dropped.append((unit.name, str(skip)))
            else:
                seen.add(source_id)
                report.imported += 1
                report.options += len(unit.options)
                if unit.type_source in _TYPE_SOURCE_WORDS:
                    kind = unit.unit_type.replace("_", " ")
                    report.guessed.append(f"{unit.name}: {kind}, from {_TYPE_SOURCE_WORDS[unit.type_source]}")
            self.progress.step(1, imported.name, unit.name)
        gone = [unit for source_id, unit in existing.items() if source_id not in seen and not unit.removed]
        if gone and not imported.units:
            self.result.warn(
                f"{imported.name}: the data has no units for this army; its {len(gone)} units were left as they were"
            )
            return
        for unit in gone:
            self._update(unit, {"removed": True})
            self.result.units.removed += 1

    def _unit_values(self, unit: ImportedUnit, source_id: str, position: int) -> dict[str, Any]:
        name = _fit(_clean(unit.name), 120)
        if not name:
            raise _Skip("no name")
        if unit.unit_type not in UnitType.values:
            raise _Skip(f"unknown unit type {unit.unit_type!r}")
        if not unit.base_cost:
            raise _Skip("no points value at any quality")
        costs = [*unit.base_cost.values(), *unit.per_model_cost.values()]
        if any(cost < 0 for cost in costs):
            raise _Skip("a negative cost")
        slot = unit.slot
        if slot not in Slot.values:
            self.result.warn(f"{name}: unknown slot {slot!r}; counted as 'other'")
            slot = Slot.OTHER
        rank = unit.officer_rank or ""
        if rank in _RANK_FALLBACK:
            self.result.warn(f"{name}: rank {rank!r} counts as {_RANK_FALLBACK[rank]!r}")
            rank = _RANK_FALLBACK[rank]
        if rank and rank not in OfficerRank.values:
            self.result.warn(f"{name}: unknown officer rank {rank!r}; left out")
            rank = ""
        base = max(unit.base_models, 1)
        maximum = max(unit.max_models if unit.max_models is not None else UNBOUNDED_MODELS, base)
        values: dict[str, Any] = {
            "name": name,
            # The glossary's French where it knows every part of the name; else English.
            "name_fr": _fit(french_name(name) or "", 120),
            "unit_type": unit.unit_type,
            "slot": slot,
            "position": position,
            "base_models": base,
            "max_models": maximum,
            "officer_rank": rank,
            "damage_value": unit.damage_value if unit.damage_value is None else max(unit.damage_value, 0),
            "transport_capacity": (
                unit.transport_capacity if unit.transport_capacity is None else max(unit.transport_capacity, 0)
            ),
            "composition": _composition(base, maximum),
            "weapons_text": _fit(", ".join(unit.weapons), 300),
            "categories": [_fit(category, 120) for category in unit.categories],
            "implicit_models": max(0, min(unit.implicit_models, base)),
            "source": _fit(f"{self.origin_label}: {self.catalogue.system_name}, entry {source_id}", 300),
            "source_id": source_id,
            "source_aliases": [_fit(alias, 120) for alias in unit.source_aliases],
            "hidden": unit.hidden,
            "removed": False,
            "order_dice": max(0, min(unit.order_dice, 10)),
            "periods": "".join(letter for letter in "EML" if letter in unit.periods),
            "source_flags": [_fit(_clean(flag), 30) for flag in unit.flags],
            "option_groups": [
                {
                    "key": _fit(_clean(group.key), 60),
                    "label": _fit(_clean(group.label), 160) or _fit(_clean(group.key), 60),
                    "minimum": max(group.minimum, 0),
                    "maximum": group.maximum if group.maximum is None else max(group.maximum, 0),
                    "per_model": group.per_model,
                }
                for group in unit.option_groups
            ],
        }
        for quality in QUALITIES:
            values[f"cost_{quality}"] = unit.base_cost.get(quality)
            values[f"per_model_{quality}"] = unit.per_model_cost.get(quality)
        _refuse_huge(name, values, self.result.warn)
        return values

    def _unit(
        self, army: Army, imported: ImportedUnit, source_id: str, position: int, row: Unit | None, slugs: set[str]
    ) -> None:
        values = self._unit_values(imported, source_id, position)
        weapons = {w.pk for w in (self.weapons.resolve(name) for name in imported.weapons) if w is not None}
        values["weapon_lines"] = self._weapon_lines(imported)
        rules = {rule.pk for rule in self.rules.resolve_all(imported.special_rules)}
        created = row is None
        if row is None:
            row = Unit.objects.create(army=army, slug=_unique_slug(values["name"], slugs, 120, "unit"), **values)
            row.weapons.set(weapons)
            row.special_rules.set(rules)
            self._options(row, imported, [])
            self.result.units.count(True, True)
            return
        changed = self._update(row, values)
        related = False
        if {w.pk for w in row.weapons.all()} != weapons:
            row.weapons.set(weapons)
            related = True
        if {r.pk for r in row.special_rules.all()} != rules:
            row.special_rules.set(rules)
            related = True
        related = self._options(row, imported, list(row.options.all())) or related
        if related and not changed:
            self._update(row, {}, force=True)
        self.result.units.count(created, changed or related)

    def _weapon_lines(self, imported: ImportedUnit) -> list[dict[str, Any]]:
        lines: list[dict[str, Any]] = []
        for line in imported.weapon_lines:
            found = self.weapons.resolve_mounted(line.weapon)
            if found is None:
                continue
            # A mount variant ("Front Pintle-mounted LMG") is the chart's weapon; its name gives the
            # mount and arc when the entry holding it did not.
            mount, arc = line.mount or found.mount, line.arc or found.arc
            lines.append({"weapon": found.weapon.slug, "mount": mount, "count": max(line.count, 1), "arc": arc})
        return lines

    # options

    def _options(self, unit: Unit, imported: ImportedUnit, current: list[Option]) -> bool:
        ids = _unique_ids((option.source_id or f"name:{option.name}" for option in imported.options), 120)
        wanted = dict(zip(ids, imported.options, strict=True))
        changed = False
        existing: dict[str, Option] = {}
        gone: list[Option] = []
        for option in current:
            if option.source_id in wanted and option.source_id not in existing:
                existing[option.source_id] = option
            else:
                gone.append(option)
        if gone:
            Option.objects.filter(pk__in=[option.pk for option in gone]).delete()
            self.result.options.removed += len(gone)
            changed = True
        slugs = {option.slug for option in existing.values()}
        rows: list[tuple[Option, ImportedOption]] = []
        for position, (source_id, option) in enumerate(wanted.items(), start=1):
            values = self._option_values(unit, option, source_id, position)
            row = existing.get(source_id)
            if row is None:
                row = Option.objects.create(
                    unit=unit, slug=_unique_slug(values["name"], slugs, 120, "option"), **values
                )
                self.result.options.count(True, True)
                changed = True
            else:
                updated = self._update(row, values)
                self.result.options.count(False, updated)
                changed = changed or updated
            rows.append((row, option))
        # An option names the options it excludes; stored as their slugs once every option has one.
        slug_of = {option.name: row.slug for row, option in rows}
        for row, option in rows:
            excludes = [slug_of[name] for name in option.excludes if name in slug_of]
            if row.excludes != excludes:
                row.excludes = excludes
                row.save(update_fields=["excludes"])
                changed = True
        return changed

    def _option_values(self, unit: Unit, option: ImportedOption, source_id: str, position: int) -> dict[str, Any]:
        required = {group["key"] for group in unit.option_groups or () if group.get("minimum", 0) >= 1}
        cost: dict[str, int | None]
        if option.prices_exact:
            # The source says at which qualities the option is offered: null at the others.
            cost = {quality: option.cost.get(quality) for quality in QUALITIES}
        elif option.cost and _fit(_clean(option.group), 60) in required:
            # A required choice carrying the prices (a tank's variant): offered only at the
            # qualities it is priced at (null elsewhere), so no quality gets a borrowed price.
            cost = {quality: option.cost.get(quality) for quality in QUALITIES}
        else:
            if set(unit.base_cost()) - set(option.cost) and option.cost:
                self.partly_priced_options += 1
            cost = dict(_fill_costs(option.cost))
        grants = self.weapons.resolve(option.grants_weapon) if option.grants_weapon else None
        replaces = self.weapons.resolve(option.replaces_weapon) if option.replaces_weapon else None
        name = _fit(_clean(option.name), 160) or "Option"
        return {
            "name": name,
            "name_fr": _fit(french_name(name) or "", 160),
            "position": position,
            "per_model": option.per_model,
            "all_models": option.all_models,
            # An imported per-model option is an upgrade for the whole unit priced per model; in
            # Muster that is a per-model option taken once per model, which is what no cap means.
            "max_count": option.per_man_limit if option.per_model else option.max_count,
            "group": _fit(_clean(option.group), 60),
            "adds_models": max(option.adds_models, 0),
            "within_size": bool(option.within_size and option.adds_models),
            "free_unit": option.free_unit,
            "free_per_list": option.free_per_list if option.free_per_list is None else max(option.free_per_list, 0),
            "grants_weapon_id": grants.pk if grants else None,
            "replaces_weapon_id": replaces.pk if replaces else None,
            "source_id": source_id,
            **{f"cost_{quality}": cost[quality] for quality in QUALITIES},
        }


class _ProgressCounter:
    def __init__(self, total: int, callback: Progress | None):
        self.done = 0
        self.total = total
        self.callback = callback

    def step(self, units: int, army: str, unit: str) -> None:
        self.done += units
        if self.callback is not None:
            self.callback(self.done, self.total, army, unit)


def import_catalogues(
    parsed: list[ParsedImport],
    *,
    dry_run: bool = False,
    progress: Progress | None = None,
    credit: SourceCredit | None = None,
) -> ImportResult:
    """Write parsed catalogues in one transaction; a dry run rolls it back and reports the same."""
    slugs = {item.catalogue.edition for item in parsed}
    editions = {edition.slug: edition for edition in Edition.objects.filter(slug__in=slugs)}
    missing = sorted(slugs - set(editions))
    if missing:
        raise CatalogueImportError(
            f"edition {missing[0]!r} is not in the database: load the reference data first "
            "(manage.py load_reference_data)"
        )
    total = sum(len(army.units) for item in parsed for army in item.catalogue.armies)
    counter = _ProgressCounter(total, progress)
    results = []
    try:
        with transaction.atomic():
            for item in parsed:
                result = CatalogueResult(parsed=item, edition=item.catalogue.edition)
                _CatalogueWriter(item, editions[item.catalogue.edition], result, counter, credit).write()
                result.skipped = [*item.catalogue.report.skipped, *result.skipped]
                result.warnings = [*item.catalogue.report.warnings, *result.warnings]
                results.append(result)
            if dry_run:
                transaction.set_rollback(True)
    except DatabaseError as exc:
        raise CatalogueImportError(f"the database refused the import, so nothing was written: {exc}") from exc
    return ImportResult(dry_run=dry_run, catalogues=results)


def import_files(
    files: dict[str, bytes],
    *,
    edition: str | None = None,
    dry_run: bool = False,
    progress: Progress | None = None,
    credit: SourceCredit | None = None,
) -> ImportResult:
    """Parse ``{name: bytes}`` (archives included) and write it: what the command and the page run.

    ``credit`` says who the data is from when the caller knows (a GitHub repository)."""
    return import_catalogues(parse_files(files, edition=edition), dry_run=dry_run, progress=progress, credit=credit)
