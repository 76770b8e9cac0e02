"""Side-by-side diffs of one reference table (or the weapons chart) in two editions.

The diff works on plain data: each side is a list of columns and a list of rows, a row being an
alignment key, the values compared (English, stable across languages) and the values shown
(active language). Rules tables align rows by their first column's value, the weapons chart by
weapon slug; columns align by key.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from armybuilder.reference.models import Status

if TYPE_CHECKING:
    from armybuilder.reference.models import RulesTable, Weapon


class Change(StrEnum):
    SAME = "same"
    CHANGED = "changed"
    ADDED = "added"
    REMOVED = "removed"


@dataclass(frozen=True)
class Column:
    key: str
    label: str


class _Sourced:
    status: str

    def get_status_display(self) -> str:
        """The status label, named like the models' method so the same template fragments show it."""
        return str(Status(self.status).label) if self.status in Status.values else self.status


@dataclass(frozen=True)
class Row(_Sourced):
    key: str
    values: dict[str, Any]
    display: dict[str, Any]
    source: str = ""
    status: str = ""
    note: str = ""


@dataclass(frozen=True)
class Side(_Sourced):
    columns: Sequence[Column]
    rows: Sequence[Row]
    title: str = ""
    source: str = ""
    status: str = ""
    note: str = ""


@dataclass(frozen=True)
class CellDiff:
    change: Change
    old: Any = None
    new: Any = None
    key: str = ""
    label: str = ""  # the column's, shown beside the value when a phone stacks the row

    @property
    def value(self) -> Any:
        """What to show for an unchanged cell, or the surviving value of an added/removed one."""
        return self.old if self.change == Change.REMOVED else self.new


@dataclass(frozen=True)
class RowDiff:
    key: str
    change: Change
    cells: list[CellDiff]
    old: Row | None = None
    new: Row | None = None


@dataclass
class TableDiff:
    slug: str
    title: str
    change: Change
    columns: list[Column]
    column_changes: list[Change]
    rows: list[RowDiff] = field(default_factory=list)
    old: Side | None = None
    new: Side | None = None

    @property
    def header(self) -> list[tuple[Column, Change]]:
        return list(zip(self.columns, self.column_changes, strict=True))

    @property
    def meta(self) -> Side | None:
        """The side whose title, status and source describe the table (the newer one if both)."""
        return self.new or self.old

    def count(self, change: Change) -> int:
        return sum(1 for row in self.rows if row.change == change)

    @property
    def changed(self) -> int:
        return self.count(Change.CHANGED)

    @property
    def added(self) -> int:
        return self.count(Change.ADDED)

    @property
    def removed(self) -> int:
        return self.count(Change.REMOVED)

    @property
    def has_differences(self) -> bool:
        return self.change != Change.SAME


def _same(a: Any, b: Any) -> bool:
    # Numbers stay numbers in the fixtures, but "5" and 5 are the same rule on the table.
    if a is None or b is None:
        return a is None and b is None
    return " ".join(str(a).split()) == " ".join(str(b).split())


def alignment_key(value: Any) -> str:
    """Rows match across editions when their first cells read the same, ignoring case and spacing."""
    return " ".join(str(value if value is not None else "").split()).casefold()


def unique_keys(keys: Iterable[str]) -> list[str]:
    """Number repeated keys (``x``, ``x#2``, ...) so each row still aligns with one partner."""
    seen: dict[str, int] = {}
    result = []
    for key in keys:
        seen[key] = seen.get(key, 0) + 1
        result.append(key if seen[key] == 1 else f"{key}#{seen[key]}")
    return result


def _merge_columns(old: Side | None, new: Side | None) -> tuple[list[Column], list[Change]]:
    old_columns = list(old.columns) if old else []
    new_columns = list(new.columns) if new else []
    old_keys = {c.key for c in old_columns}
    new_keys = {c.key for c in new_columns}
    # The newer edition's labels and order win; columns it dropped follow at the end.
    columns = new_columns + [c for c in old_columns if c.key not in new_keys]
    changes = []
    for column in columns:
        if column.key in old_keys and column.key in new_keys:
            changes.append(Change.SAME)
        elif column.key in new_keys:
            changes.append(Change.ADDED if old else Change.SAME)
        else:
            changes.append(Change.REMOVED if new else Change.SAME)
    return columns, changes


def _cell_diff(column: Column, old: Row, new: Row) -> CellDiff:
    key, label = column.key, column.label
    in_old, in_new = key in old.values, key in new.values
    old_shown, new_shown = old.display.get(key), new.display.get(key)
    if in_old and in_new and _same(old.values[key], new.values[key]):
        return CellDiff(Change.SAME, old_shown, new_shown, key, label)
    if not in_old and not in_new:
        return CellDiff(Change.SAME, key=key, label=label)
    return CellDiff(Change.CHANGED, old_shown if in_old else None, new_shown if in_new else None, key, label)


def _row_diff(columns: list[Column], old: Row | None, new: Row | None) -> RowDiff:
    if old is None and new is not None:
        cells = [CellDiff(Change.ADDED, new=new.display.get(c.key), key=c.key, label=c.label) for c in columns]
        return RowDiff(new.key, Change.ADDED, cells, new=new)
    if new is None and old is not None:
        cells = [CellDiff(Change.REMOVED, old=old.display.get(c.key), key=c.key, label=c.label) for c in columns]
        return RowDiff(old.key, Change.REMOVED, cells, old=old)
    assert old is not None and new is not None
    cells = [_cell_diff(column, old, new) for column in columns]
    change = Change.CHANGED if any(cell.change != Change.SAME for cell in cells) else Change.SAME
    return RowDiff(new.key, change, cells, old=old, new=new)


def diff_sides(slug: str, old: Side | None, new: Side | None) -> TableDiff:
    """Align two versions of a table row by row; either side may be missing from its edition."""
    columns, column_changes = _merge_columns(old, new)
    old_rows = list(old.rows) if old else []
    new_rows = list(new.rows) if new else []
    old_by_key = {row.key: (index, row) for index, row in enumerate(old_rows)}
    new_keys = {row.key for row in new_rows}

    rows: list[RowDiff] = []
    emitted_old = 0
    for row in new_rows:
        match = old_by_key.get(row.key)
        if match is not None:
            # Rows the new edition dropped stay where they stood in the old one.
            index, old_row = match
            for earlier in old_rows[emitted_old:index]:
                if earlier.key not in new_keys:
                    rows.append(_row_diff(columns, earlier, None))
            emitted_old = max(emitted_old, index + 1)
            rows.append(_row_diff(columns, old_row, row))
        else:
            rows.append(_row_diff(columns, None, row))
    rows.extend(_row_diff(columns, earlier, None) for earlier in old_rows[emitted_old:] if earlier.key not in new_keys)

    if old is None:
        change = Change.ADDED
    elif new is None:
        change = Change.REMOVED
    elif any(r.change != Change.SAME for r in rows) or any(c != Change.SAME for c in column_changes):
        change = Change.CHANGED
    else:
        change = Change.SAME
    title = (new or old).title if (new or old) else slug
    return TableDiff(slug, title, change, columns, column_changes, rows, old=old, new=new)


def table_side(table: RulesTable) -> Side:
    """A rules table as diff input; its rows must be prefetched (``RulesTable.objects.with_rows()``)."""
    columns = [Column(key, label) for key, label in table.column_labels()]
    first = table.columns[0]["key"] if table.columns else None
    rows = list(table.rows.all())
    keys = unique_keys(alignment_key(row.cells.get(first) if first else row.position) for row in rows)
    side_rows = []
    for key, row in zip(keys, rows, strict=True):
        # An empty cell shows as a dash, like a missing one, so "→ new" always has something before it.
        shown = {c.key: (None if v == "" else v) for c, v in zip(columns, row.display_cells(), strict=True)}
        side_rows.append(Row(key, dict(row.cells), shown, row.source, row.status, row.note))
    return Side(columns, side_rows, table.display_title, table.source, table.status, table.note)


def weapon_columns() -> list[Column]:
    return [
        Column("name", _("Weapon")),
        Column("category", _("Type")),
        Column("range", _("Range")),
        Column("shots", _("Shots")),
        Column("pen", _("Pen")),
        Column("rules", _("Special rules")),
    ]


def weapons_side(weapons: Iterable[Weapon], title: str = "") -> Side:
    """The weapons chart as diff input, aligned by slug; special rules must be prefetched."""
    rows = []
    for weapon in weapons:
        rules = sorted(weapon.special_rules.all(), key=lambda rule: rule.name)
        values = {
            "name": weapon.name,
            "category": weapon.category,
            "range": weapon.range_display,
            "shots": weapon.shots,
            "pen": weapon.pen_display,
            "rules": ", ".join(rule.name for rule in rules),
        }
        display = {
            "name": weapon.display_name,
            "category": weapon.get_category_display(),
            "range": weapon.range_display,
            "shots": weapon.shots,
            "pen": weapon.pen_display,
            "rules": ", ".join(rule.display_name for rule in rules) or None,
        }
        rows.append(Row(weapon.slug, values, display, weapon.source, weapon.status, weapon.note))
    return Side(weapon_columns(), rows, title)
