"""What the print templates show: plain rows built once, in the active language.

Call these inside ``translation.override(lang)``: names, titles and labels are resolved here, so
the templates only lay out strings. The list builders expect a list loaded with
``ArmyList.objects.for_builder()`` (``get_list_for_user(..., for_builder=True)`` or
``get_shared_list``); ``prefetch_print_extras`` then adds what only the playsheets read (the
weapons' special rules and the weapons options grant) in a fixed number of queries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import prefetch_related_objects
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from armybuilder.catalogue.models import OfficerRank, Quality, UnitType
from armybuilder.catalogue.mounts import mount_label
from armybuilder.lists.armament import armament
from armybuilder.lists.models import ArmyList, Entry
from armybuilder.lists.summary import list_summary
from armybuilder.playsheets.columns import fit_columns
from armybuilder.reference.models import Edition, RulesTable, SpecialRule, Status, Weapon, WeaponCategory
from armybuilder.reference.topics import TOPICS
from armybuilder.resolver.national_rules import card_entry_line as national_entry_line
from armybuilder.resolver.national_rules import card_line as national_card_line
from armybuilder.resolver.national_rules import card_rules as national_unit_rules
from rules.army.model import ListSummary, OfficerEffect
from rules.combat.config import config_for
from rules.combat.context import BASE_MORALE, DAMAGE_VALUE
from rules.errors import RulesError

PAPERS = {"a4": "A4", "letter": "letter"}
PARTS = ("roster", "summary", "cards", "reference")

# Columns whose numbers are modifiers, printed with their sign (+1, −2).
SIGNED_COLUMNS = frozenset({"value", "modifier", "hit_modifier", "morale_bonus"})
# A column whose every value is this short is printed centred and unbroken.
SHORT_CELL = 9
# About how many characters of the sheet's body text fit across one of its two columns.
SHEET_LINE_CHARS = 70
SUMMARY_LINE_CHARS = 70
CARD_LINE_CHARS = 64
WIDE_LINE_CHARS = 150
# The tables the list playsheet's summary page repeats from the edition's reference.
SUMMARY_TABLES = ("hit-modifiers", "damage-values")
CARDS_PER_ROW = 2
VEHICLE_TYPES = frozenset({"vehicle_soft", "vehicle_armoured", "transport"})
UNCERTAIN = frozenset({Status.UNVERIFIED, Status.DISPUTED})


# -- Reference tables -------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    label: str
    short: bool
    width: float  # per cent of the table


@dataclass(frozen=True)
class Cell:
    text: str
    short: bool
    span: int = 1

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class PrintRow:
    cells: list[Cell]
    uncertain: bool

    @property
    def texts(self) -> list[str]:
        return [cell.text for cell in self.cells]


@dataclass(frozen=True)
class PrintTable:
    slug: str
    title: str
    intro: str
    columns: list[Column]
    rows: list[PrintRow]
    uncertain: bool


@dataclass(frozen=True)
class WeaponLine:
    name: str
    range: str
    shots: str
    pen: str
    rules: str
    uncertain: bool = False
    carried_by: str = ""


@dataclass
class Section:
    slug: str
    title: str
    tables: list[PrintTable] = field(default_factory=list)


def _signed(number: int | float) -> str:
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"−{abs(number)}"  # a real minus sign, as the rulebooks print it
    return "0"


def format_cell(key: str, value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    if isinstance(value, int | float) and key in SIGNED_COLUMNS:
        return _signed(value)
    return str(value)


def build_table(
    *,
    slug: str,
    title: str,
    labels: list[str],
    rows: list[tuple[list[str], bool]],
    intro: str = "",
    uncertain: bool = False,
    line_chars: int = SHEET_LINE_CHARS,
) -> PrintTable:
    """A table of strings with fitted column widths; ``rows`` are (cells, uncertain) pairs.

    A column left empty in every row (a Notes column nobody filled in) is dropped: paper is short.
    """
    kept = [i for i in range(len(labels)) if i == 0 or any(texts[i] for texts, _ in rows)]
    kept_labels = [labels[i] for i in kept]
    kept_rows = [[texts[i] for i in kept] for texts, _ in rows]
    short = [all(len(texts[j]) <= SHORT_CELL for texts in kept_rows) for j in range(len(kept))]
    merged_rows = [_merge_empty(texts, short) for texts in kept_rows]
    # Back to one entry per column for the fitting: a spanning cell first, then the columns it covers.
    fitted_rows = [[text for cell in cells for text in [cell.text] + [""] * (cell.span - 1)] for cells in merged_rows]
    spans = [[span for cell in cells for span in [cell.span] + [0] * (cell.span - 1)] for cells in merged_rows]
    widths = fit_columns(kept_labels, fitted_rows, short, line_chars, spans)
    columns = [
        Column(label, is_short, width) for label, is_short, width in zip(kept_labels, short, widths, strict=True)
    ]
    return PrintTable(
        slug=slug,
        title=title,
        intro=intro,
        columns=columns,
        rows=[PrintRow(cells=cells, uncertain=u) for cells, (_, u) in zip(merged_rows, rows, strict=True)],
        uncertain=uncertain,
    )


def _merge_empty(texts: list[str], short: list[bool]) -> list[Cell]:
    """Cells in column order; empty short cells run into the text cell that follows them.

    A vehicle table's "Reversing" row has no speeds, only a long note: spanning the empty
    speed columns gives that note the room. Before a short cell nothing merges, so numbers stay
    in their own column.
    """
    cells: list[Cell] = []
    run = 0
    for text, is_short in zip(texts, short, strict=True):
        if not text and is_short:
            run += 1
            continue
        if run and not is_short and text:
            cells.append(Cell(text, is_short, span=run + 1))
        else:
            cells.extend(Cell("", True) for _ in range(run))
            cells.append(Cell(text, is_short))
        run = 0
    cells.extend(Cell("", True) for _ in range(run))
    return cells


def print_table(table: RulesTable, *, line_chars: int = SHEET_LINE_CHARS) -> PrintTable:
    """A reference table in the active language; expects ``rows`` prefetched."""
    keyed_labels = table.column_labels()
    return build_table(
        slug=table.slug,
        title=table.display_title,
        intro=table.display_intro,
        labels=[label for _key, label in keyed_labels],
        rows=[
            (
                [
                    format_cell(key, value)
                    for (key, _label), value in zip(keyed_labels, row.display_cells(), strict=True)
                ],
                row.status in UNCERTAIN,
            )
            for row in table.rows.all()
        ],
        uncertain=table.status in UNCERTAIN,
        line_chars=line_chars,
    )


def _rule_names(rules: Iterable[SpecialRule]) -> str:
    return ", ".join(sorted((rule.display_name for rule in rules), key=str.casefold))


def weapon_line(weapon: Weapon, carried_by: str = "") -> WeaponLine:
    """One weapons-chart line; expects ``special_rules`` prefetched."""
    return WeaponLine(
        name=weapon.display_name,
        range=weapon.range_display,
        shots=weapon.shots_display,
        pen=weapon.pen_display,
        rules=_rule_names(weapon.special_rules.all()),
        uncertain=weapon.status in UNCERTAIN,
        carried_by=carried_by,
    )


def _weapon_labels() -> list[str]:
    return [_("Weapon"), _("Range"), _("Shots"), _("Pen"), _("Special rules")]


def weapon_table(
    lines: Sequence[WeaponLine],
    *,
    slug: str,
    title: str = "",
    line_chars: int = SHEET_LINE_CHARS,
    carriers: bool = False,
) -> PrintTable:
    """Weapons as a printed table; ``carriers`` adds the units that carry each one."""
    labels = _weapon_labels() + ([pgettext("weapons of a list", "Carried by")] if carriers else [])
    rows = [
        ([w.name, w.range, w.shots, w.pen, w.rules or "–"] + ([w.carried_by] if carriers else []), w.uncertain)
        for w in lines
    ]
    return build_table(slug=slug, title=title, labels=labels, rows=rows, line_chars=line_chars)


def weapon_tables(weapons: Sequence[Weapon]) -> list[PrintTable]:
    """The weapons chart, one table per category, laid out like the other reference tables."""
    return [
        weapon_table(
            [weapon_line(w) for w in weapons if w.category == value], slug=f"weapons-{value}", title=str(label)
        )
        for value, label in WeaponCategory.choices
        if any(w.category == value for w in weapons)
    ]


def reference_sections(edition: Edition) -> list[Section]:
    """Every table of the edition in reading order (the reference's topics), with its weapons chart."""
    tables = list(RulesTable.objects.all().for_edition(edition).with_rows())
    weapons = list(Weapon.objects.filter(edition=edition).rulebook().for_chart())
    sections = []
    for topic in TOPICS:
        section = Section(slug=topic.slug, title=str(topic.title))
        if topic.slug == "weapons":
            section.tables = weapon_tables(weapons)
        else:
            ordered = sorted((t for t in tables if t.topic == topic.slug), key=lambda t: (t.position, t.slug))
            section.tables = [print_table(t) for t in ordered]
        if section.tables:
            sections.append(section)
    return sections


def _document(paper: str, title: str, subtitle: str) -> dict[str, Any]:
    return {"paper": PAPERS.get(paper, PAPERS["a4"]), "doc_title": title, "doc_subtitle": subtitle}


def reference_context(edition: Edition) -> dict[str, Any]:
    """The quick reference's sections, and whether any value on it is flagged as uncertain."""
    sections = reference_sections(edition)
    uncertain = any(t.uncertain or any(r.uncertain for r in t.rows) for s in sections for t in s.tables)
    return {"sections": sections, "has_uncertain": uncertain}


def reference_sheet_context(edition: Edition, *, paper: str) -> dict[str, Any]:
    return {
        **_document(paper, _("Quick reference"), f"Bolt Action · {edition.display_name}"),
        "edition": edition,
        "parts": ("reference",),
        **reference_context(edition),
    }


# -- Army lists -------------------------------------------------------------------------------


@dataclass(frozen=True)
class OfficerLine:
    name: str
    rank: str
    morale_bonus: str
    extra_orders: int
    command_range: int
    platoon: str
    uncertain: bool


@dataclass(frozen=True)
class OfficerNote:
    """An officer whose morale bonus this unit can use (when within his command range)."""

    name: str
    bonus: str
    command_range: int
    morale_with_bonus: int


@dataclass
class UnitLine:
    key: str
    name: str
    unit_name: str
    type_label: str
    quality: str
    quality_label: str
    models: int
    points: int | None
    display_weapons: str  # the printed armament, shown when the unit has no weapon profiles
    weapons: list[WeaponLine]
    weapon_table: PrintTable
    options: list[str]
    special_rules: list[str]
    damage_value: str
    morale: int
    officer_notes: list[OfficerNote]
    casualty_boxes: int
    pin_boxes: int
    is_vehicle: bool
    platoon: str
    renamed: bool = False  # the player named the unit: its unit's name is printed beside it
    own: bool = False  # the player's own unit, typed from their book: printed as their entry

    @property
    def casualty_slots(self) -> range:
        return range(self.casualty_boxes)

    @property
    def pin_slots(self) -> range:
        return range(self.pin_boxes)


@dataclass
class PlatoonBlock:
    name: str
    units: list[UnitLine]
    points: int


@dataclass(frozen=True)
class RuleLine:
    name: str
    summary: str
    uncertain: bool
    # The imported source's own text of the rule, shown quoted and credited beside Muster's summary.
    quote: str = ""


def prefetch_print_extras(army_list: ArmyList) -> None:
    """The weapons' rules, the weapons options grant and the army's national rules: four queries."""
    prefetch_related_objects(
        list(army_list.entries.all()),
        "unit__weapons__special_rules",
        "unit__options__grants_weapon__special_rules",
    )
    prefetch_related_objects([army_list.army], "national_rules")


def _quality_label(quality: str) -> str:
    return str(Quality(quality).label) if quality in Quality.values else quality


def _type_label(unit_type: str) -> str:
    return str(UnitType(unit_type).label) if unit_type in UnitType.values else unit_type


def _rank_label(officer: OfficerEffect) -> str:
    return str(OfficerRank(officer.rank).label) if officer.rank in OfficerRank.values else officer.rank_label


def entry_lines(entry: Entry) -> list[tuple[Weapon, dict]]:
    """What the entry fires with, as the odds and game day load it (``lists.armament.armament``):
    one line per mount for a vehicle (``Unit.weapon_lines``), else one per weapon its men carry
    after its taken options (per-man swaps, whole-unit swaps, teams added); ``count`` is how many."""
    return [(armed.weapon, armed.line) for armed in armament(entry)]


def entry_weapons(entry: Entry) -> list[Weapon]:
    """The distinct weapons the entry fires with (see ``entry_lines``)."""
    weapons: dict[int, Weapon] = {}
    for weapon, _line in entry_lines(entry):
        weapons.setdefault(weapon.pk, weapon)
    return list(weapons.values())


# Crew-served rules that describe a man-carried weapon, never one on a vehicle's mount.
_INFANTRY_ONLY_RULES = frozenset({"team", "fixed"})


def mounted_line(weapon: Weapon, line: dict) -> WeaponLine:
    """A weapon on its mount: "Medium machine gun (MMG) (2 ×, hull, front)", without Team or Fixed.

    Men's weapons say how many men carry each ("4× Rifle", "3× Submachine gun"), as ``armament``
    counts them from the unit's men and its options taken; one man's or one team's says none.
    """
    base = weapon_line(weapon)
    count = max(int(line.get("count") or 1), 1)
    if not line.get("mount"):
        return replace(base, name=f"{count}× {base.name}") if count > 1 else base
    language = get_language() or "en"
    where = mount_label(line, french=language.startswith("fr"), language=language)
    label = f"{count} × {where}" if count > 1 else where
    rules = _rule_names(r for r in weapon.special_rules.all() if r.slug not in _INFANTRY_ONLY_RULES)
    return replace(base, name=f"{base.name} ({label})", rules=rules)


def _damage_value(entry: Entry) -> str:
    vehicle = entry.unit.vehicle_damage_value
    if vehicle:
        return f"{vehicle}+"
    return f"{DAMAGE_VALUE.get(entry.quality, DAMAGE_VALUE['regular'])}+"


def morale_cap(edition_slug: str) -> int:
    """The highest morale a bonus can reach in the edition (10, or 11 in the 3rd)."""
    try:
        return config_for(edition_slug).morale_cap
    except RulesError:
        return max(BASE_MORALE.values())


def _officer_notes(entry: Entry, officers: Sequence[OfficerEffect], morale: int, cap: int) -> list[OfficerNote]:
    """The officers whose bonus reaches this unit: any unit in range, or only his own platoon (3rd ed)."""
    platoon = str(entry.platoon_id) if entry.platoon_id else None
    return [
        OfficerNote(
            name=officer.name,
            bonus=_signed(officer.morale_bonus),
            command_range=officer.command_range,
            morale_with_bonus=min(morale + officer.morale_bonus, max(cap, morale)),
        )
        for officer in officers
        if officer.platoon_key is None or officer.platoon_key == platoon
    ]


def _option_texts(entry: Entry) -> list[str]:
    texts = []
    for option in entry.unit.options.all():
        count = entry.options.get(option.slug) or 0
        if count:
            texts.append(option.display_name if count == 1 else f"{option.display_name} ×{count}")
    return texts


def unit_line(
    entry: Entry, summary: ListSummary, platoon_names: dict[int, str], cap: int, name: str | None = None
) -> UnitLine:
    """``name``: the list's name for the entry, numbered when another unit shares it."""
    unit = entry.unit
    morale = BASE_MORALE.get(entry.quality, BASE_MORALE["regular"])
    is_vehicle = unit.unit_type in VEHICLE_TYPES
    # National rules that change a printed figure (Hitler's Buzzsaw) print the new figure and the rule;
    # a rule the unit gains from its list's Italian bonus is named with its rifles and its special rules.
    weapons = [national_entry_line(entry, weapon, mounted_line(weapon, line)) for weapon, line in entry_lines(entry)]
    return UnitLine(
        key=str(entry.pk),
        name=name or entry.display_name,
        unit_name=unit.display_name,
        own=unit.is_own,
        type_label=_type_label(unit.unit_type),
        quality=entry.quality,
        quality_label=_quality_label(entry.quality),
        models=entry.total_models,
        points=summary.entry_points.get(str(entry.pk)),
        display_weapons=unit.display_weapons,
        weapons=weapons,
        weapon_table=weapon_table(weapons, slug=f"unit-{entry.pk}-weapons", line_chars=CARD_LINE_CHARS),
        options=_option_texts(entry),
        special_rules=[
            *sorted((r.display_name for r in unit.special_rules.all()), key=str.casefold),
            *national_unit_rules(entry),
        ],
        damage_value=_damage_value(entry),
        morale=morale,
        officer_notes=_officer_notes(entry, summary.officers, morale, cap),
        casualty_boxes=0 if is_vehicle else entry.total_models,  # a team's men are boxes too
        pin_boxes=morale,
        is_vehicle=is_vehicle,
        platoon=platoon_names.get(entry.platoon_id or 0, ""),
        renamed=bool(entry.name),
    )


def _platoon_blocks(units: list[UnitLine], entries: list[Entry], army_list: ArmyList) -> list[PlatoonBlock]:
    """Units grouped by platoon in the list's order, then those in no platoon."""
    names = army_list.platoon_names()
    blocks = {p.pk: PlatoonBlock(name=names[p.pk], units=[], points=0) for p in army_list.platoons.all()}
    loose = PlatoonBlock(name="", units=[], points=0)
    for entry, line in zip(entries, units, strict=True):
        block = blocks.get(entry.platoon_id or 0, loose)
        block.units.append(line)
        block.points += line.points or 0
    result = [block for block in blocks.values() if block.units]
    if loose.units:
        result.append(loose)
    return result


def _used_weapons(entries: list[Entry], units: list[UnitLine]) -> PrintTable:
    """Each weapon the list carries once, with the units that carry it, in chart order."""
    carriers: dict[int, list[str]] = {}
    weapons: dict[int, Weapon] = {}
    for entry, line in zip(entries, units, strict=True):
        for weapon in entry_weapons(entry):
            weapons.setdefault(weapon.pk, weapon)
            names = carriers.setdefault(weapon.pk, [])
            if line.name not in names:
                names.append(line.name)
    order = {value: index for index, (value, _label) in enumerate(WeaponCategory.choices)}
    ordered = sorted(weapons.values(), key=lambda w: (order.get(w.category, 99), w.position, w.display_name))
    lines = [weapon_line(w, carried_by=", ".join(carriers[w.pk])) for w in ordered]
    if entries:  # the army's national rules, as on the cards
        lines = [national_card_line(entries[0].army_list, w, line) for w, line in zip(ordered, lines, strict=True)]
    return weapon_table(lines, slug="used-weapons", line_chars=WIDE_LINE_CHARS, carriers=True)


def _used_rules(entries: list[Entry], army_list: ArmyList) -> list[RuleLine]:
    """The special rules of the list's units and weapons, and the army's national rules."""
    rules: dict[int, SpecialRule] = {rule.pk: rule for rule in army_list.army.national_rules.all()}
    for entry in entries:
        rules.update((rule.pk, rule) for rule in entry.unit.special_rules.all())
        for weapon in entry_weapons(entry):
            rules.update((rule.pk, rule) for rule in weapon.special_rules.all())
    lines = [
        RuleLine(
            name=r.display_name,
            summary=r.display_summary,
            uncertain=r.status in UNCERTAIN,
            quote=army_list.army.quoted_rule_text(r),
        )
        for r in rules.values()
    ]
    return sorted(lines, key=lambda line: line.name.casefold())


def list_context(army_list: ArmyList, *, paper: str, parts: Sequence[str] = ("roster",)) -> dict[str, Any]:
    """Everything the roster, the summary page, the cards and the quick reference of a list show.

    ``army_list``: a saved list, or a sealed one read into memory (``lists.snapshot``), which
    comes with everything printing reads already loaded.
    """
    if isinstance(army_list, ArmyList):
        prefetch_print_extras(army_list)
    summary = list_summary(army_list)
    entries = list(army_list.entries.all())
    platoon_names = army_list.platoon_names()
    entry_names = army_list.entry_names()
    cap = morale_cap(army_list.edition.slug)
    units = [unit_line(entry, summary, platoon_names, cap, entry_names.get(entry.pk)) for entry in entries]
    subtitle = f"{army_list.army.display_name} · {army_list.edition.display_name}"
    context: dict[str, Any] = {
        **_document(paper, army_list.name, subtitle),
        "army_list": army_list,
        "edition": army_list.edition,
        "summary": summary,
        "over_limit": summary.points > summary.points_limit,
        "units": units,
        "platoons": _platoon_blocks(units, entries, army_list),
        "officers": [
            OfficerLine(
                name=o.name,
                rank=_rank_label(o),
                morale_bonus=_signed(o.morale_bonus),
                extra_orders=o.extra_orders,
                command_range=o.command_range,
                platoon=o.platoon_name or "",
                uncertain=o.unverified,
            )
            for o in summary.officers
        ],
        "parts": tuple(part for part in PARTS if part in parts),
    }
    if "summary" in parts:
        tables = RulesTable.objects.all().for_edition(army_list.edition).filter(slug__in=SUMMARY_TABLES).with_rows()
        by_slug = {table.slug: table for table in tables}
        context["summary_tables"] = [
            print_table(by_slug[slug], line_chars=SUMMARY_LINE_CHARS) for slug in SUMMARY_TABLES if slug in by_slug
        ]
        context["used_weapons"] = _used_weapons(entries, units)
        context["used_rules"] = _used_rules(entries, army_list)
    if "cards" in parts:
        context["card_rows"] = [units[i : i + CARDS_PER_ROW] for i in range(0, len(units), CARDS_PER_ROW)]
    if "reference" in parts:
        context.update(reference_context(army_list.edition))
    return context
