"""Writes the builder makes to a list: each touches only the rows and fields it changes.

Two tabs open on the same list must not undo each other's work, so nothing here saves a whole
list or a whole entry loaded earlier: single fields go through ``QuerySet.update()``, a model
step is applied relative to the stored count, and every write bumps the list's ``updated_at``
(the lists index sorts on it, the builder's cache is keyed by it) with its own one-field
update; a new or deleted entry or platoon bumps it through ``signals``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext

from armybuilder.catalogue.models import Quality, Unit
from armybuilder.lists import row_cache
from armybuilder.lists.models import ENTRIES_MAX, ArmyList, Entry, Platoon

ENTRY_FIELDS = frozenset({"quality", "models_count", "options", "name", "platoon"})
PLATOON_FIELDS = frozenset({"name"})


def _touch(army_list: ArmyList) -> None:
    ArmyList.objects.filter(pk=army_list.pk).update(updated_at=timezone.now())


_ARMY_LIST = Entry._meta.get_field("army_list")


def _touch_after_entry_write(entry: Entry) -> None:
    """Move the list's ``updated_at`` after a change to one of its entries, made in memory too.

    When the list ``entry`` was loaded with is still at the revision it was loaded at (no other
    write in between, checked by the update itself), its rows in memory are now exactly the new
    revision's: they are kept for the next request (``row_cache``), which then reads no rows.
    """
    now = timezone.now()
    rows = ArmyList.objects.filter(pk=entry.army_list_id)
    army_list = entry.army_list if _ARMY_LIST.is_cached(entry) else None
    if army_list is not None and rows.filter(updated_at=army_list.updated_at).update(updated_at=now):
        army_list.updated_at = now
        transaction.on_commit(lambda: row_cache.remember(army_list, changed=entry))
    else:
        rows.update(updated_at=now)


class ListFull(ValidationError):
    """The list already holds ``ENTRIES_MAX`` units: nothing was added."""

    def __init__(self) -> None:
        super().__init__(
            gettext("A list holds at most %(limit)s units; remove one before adding another.") % {"limit": ENTRIES_MAX},
            code="list_full",
        )


def _check_room(army_list_id: int) -> None:
    """Refuse a new entry in a full list.

    The list's row is locked first (PostgreSQL; SQLite's writers already queue behind one
    another), so two tabs adding the last free place at once cannot both get it.
    """
    list(ArmyList.objects.select_for_update().filter(pk=army_list_id).values_list("pk"))
    if Entry.objects.filter(army_list_id=army_list_id).count() >= ENTRIES_MAX:
        raise ListFull()


def default_quality(unit: Unit) -> str:
    """Regular if the unit offers it, else its first offered quality."""
    offered = unit.qualities()
    if Quality.REGULAR in offered or not offered:
        return Quality.REGULAR
    return offered[0]


@transaction.atomic
def entry_add(*, army_list: ArmyList, unit: Unit, platoon: Platoon | None = None) -> Entry:
    """Add ``unit`` at its default quality and base models, last in the list; ``ListFull`` if no room."""
    _check_room(army_list.pk)
    last = Entry.objects.filter(army_list=army_list).aggregate(last=Max("position"))["last"]
    entry = Entry.objects.create(
        army_list=army_list,
        unit=unit,
        platoon=platoon,
        quality=default_quality(unit),
        models_count=unit.base_models,
        options={},
        position=0 if last is None else last + 1,
    )
    return entry


@transaction.atomic
def entry_update(*, entry: Entry, **fields: Any) -> bool:
    """Write only ``fields`` of one entry; False if the entry is gone (removed in another tab)."""
    unknown = set(fields) - ENTRY_FIELDS
    if unknown:
        raise ValueError(f"entry_update cannot change {sorted(unknown)}")
    updated = Entry.objects.filter(pk=entry.pk, army_list_id=entry.army_list_id).update(**fields)
    if updated:
        for name, value in fields.items():
            setattr(entry, name, value)
        _touch_after_entry_write(entry)
    return bool(updated)


@transaction.atomic
def entry_step_models(*, entry: Entry, step: int) -> bool:
    """Add ``step`` models to the stored count, within the unit's range; False if it would leave it."""
    unit = entry.unit
    bounded = Entry.objects.filter(pk=entry.pk, army_list_id=entry.army_list_id)
    bounded = bounded.filter(models_count__lte=unit.max_models - step) if step > 0 else bounded
    bounded = bounded.filter(models_count__gte=unit.base_models - step) if step < 0 else bounded
    if not bounded.update(models_count=F("models_count") + step):
        return False
    entry.models_count = Entry.objects.values_list("models_count", flat=True).get(pk=entry.pk)
    _touch_after_entry_write(entry)
    return True


@transaction.atomic
def entry_duplicate(*, entry: Entry) -> Entry:
    """A copy of ``entry`` (same choices, same platoon) placed just after it; ``ListFull`` if no room."""
    _check_room(entry.army_list_id)
    Entry.objects.filter(army_list_id=entry.army_list_id, position__gt=entry.position).update(
        position=F("position") + 1
    )
    copy = Entry.objects.create(
        army_list_id=entry.army_list_id,
        unit=entry.unit,
        platoon_id=entry.platoon_id,
        name=entry.name,
        quality=entry.quality,
        models_count=entry.models_count,
        options=dict(entry.options or {}),
        position=entry.position + 1,
    )
    return copy


@transaction.atomic
def entry_move(*, army_list: ArmyList, entry: Entry, direction: str) -> bool:
    """Swap ``entry`` with its neighbour in the same platoon; False if it is already at that end.

    The list is renumbered 0..n-1 in its current order, and only the rows whose position
    changes are written (usually just the two swapped), in one query.
    """
    entries = sorted(army_list.entries.all(), key=lambda e: (e.position, e.pk))
    group = [e for e in entries if e.platoon_id == entry.platoon_id]
    index = next(i for i, e in enumerate(group) if e.pk == entry.pk)
    other_index = index - 1 if direction == "up" else index + 1
    if not 0 <= other_index < len(group):
        return False
    other = group[other_index]
    i, j = entries.index(entry), entries.index(other)
    entries[i], entries[j] = entries[j], entries[i]
    changed = []
    for position, item in enumerate(entries):
        if item.position != position:
            item.position = position
            changed.append(item)
    Entry.objects.bulk_update(changed, ["position"])
    _touch(army_list)
    return True


@transaction.atomic
def entry_remove(*, entry: Entry) -> None:
    # The deletion moves the list's ``updated_at`` (``signals``).
    Entry.objects.filter(pk=entry.pk, army_list_id=entry.army_list_id).delete()


@transaction.atomic
def platoon_add(*, army_list: ArmyList, kind: str, name: str = "") -> Platoon:
    last = Platoon.objects.filter(army_list=army_list).aggregate(last=Max("position"))["last"]
    platoon = Platoon.objects.create(
        army_list=army_list, kind=kind, name=name, position=0 if last is None else last + 1
    )
    return platoon


@transaction.atomic
def platoon_rename(*, platoon: Platoon, name: str) -> None:
    Platoon.objects.filter(pk=platoon.pk).update(name=name)
    platoon.name = name
    ArmyList.objects.filter(pk=platoon.army_list_id).update(updated_at=timezone.now())


@transaction.atomic
def platoon_remove(*, platoon: Platoon) -> None:
    """Delete a platoon; its entries stay in the list, in no platoon (``on_delete=SET_NULL``).

    The deletion moves the list's ``updated_at`` (``signals``).
    """
    Platoon.objects.filter(pk=platoon.pk).delete()
