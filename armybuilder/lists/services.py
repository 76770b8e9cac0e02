"""Writes the builder makes to a list: each touches only the rows and fields it changes.

Two tabs open on the same list must not undo each other's work, so nothing here saves a whole
list or a whole entry loaded earlier: single fields go through ``QuerySet.update()``, a model
step is applied relative to the stored count, and every write moves the list's ``updated_at``
(the lists index sorts on it; catalogue change notes compare with it) with its own one-field
update, here where the write is made rather than in a signal.

Lock order: every write locks the list's row first (``lock_list``), then its entries and
platoons. Without it two writes on one list could each hold a row the other waits for (a
duplicate shifting positions while a remove deletes an entry, each then touching the list):
PostgreSQL broke such deadlocks by failing one of the requests. With the list's row first,
writes to one list queue behind one another; writes to different lists never wait.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext

from armybuilder.catalogue.models import Quality, Unit
from armybuilder.lists.models import ENTRIES_MAX, ArmyList, Entry, Platoon

ENTRY_FIELDS = frozenset({"quality", "models_count", "options", "name", "platoon"})
PLATOON_FIELDS = frozenset({"name"})


def lock_list(army_list_id: int) -> None:
    """Lock the list's row until the transaction ends (PostgreSQL; SQLite's writers already queue).

    The first statement of every write to a list, whatever it writes: one order for all locks.
    """
    list(ArmyList.objects.select_for_update().filter(pk=army_list_id).values_list("pk"))


def _touch(army_list_id: int) -> None:
    ArmyList.objects.filter(pk=army_list_id).update(updated_at=timezone.now())


class ListFull(ValidationError):
    """The list already holds ``ENTRIES_MAX`` units: nothing was added."""

    def __init__(self) -> None:
        super().__init__(
            gettext("A list holds at most %(limit)s units; remove one before adding another.") % {"limit": ENTRIES_MAX},
            code="list_full",
        )


def _check_room(army_list_id: int) -> None:
    """Refuse a new entry in a full list.

    Called with the list's row locked (``lock_list``), so two tabs adding the last free place at
    once cannot both get it.
    """
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
    lock_list(army_list.pk)
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
    _touch(army_list.pk)
    return entry


@transaction.atomic
def entry_update(*, entry: Entry, **fields: Any) -> bool:
    """Write only ``fields`` of one entry; False if the entry is gone (removed in another tab)."""
    lock_list(entry.army_list_id)
    unknown = set(fields) - ENTRY_FIELDS
    if unknown:
        raise ValueError(f"entry_update cannot change {sorted(unknown)}")
    updated = Entry.objects.filter(pk=entry.pk, army_list_id=entry.army_list_id).update(**fields)
    if updated:
        for name, value in fields.items():
            setattr(entry, name, value)
        _touch(entry.army_list_id)
    return bool(updated)


@transaction.atomic
def entry_step_models(*, entry: Entry, step: int) -> bool:
    """Add ``step`` models to the stored count, within the unit's range; False if it would leave it."""
    lock_list(entry.army_list_id)
    unit = entry.unit
    bounded = Entry.objects.filter(pk=entry.pk, army_list_id=entry.army_list_id)
    bounded = bounded.filter(models_count__lte=unit.max_models - step) if step > 0 else bounded
    bounded = bounded.filter(models_count__gte=unit.base_models - step) if step < 0 else bounded
    if not bounded.update(models_count=F("models_count") + step):
        return False
    entry.models_count = Entry.objects.values_list("models_count", flat=True).get(pk=entry.pk)
    _touch(entry.army_list_id)
    return True


@transaction.atomic
def entry_duplicate(*, entry: Entry) -> Entry:
    """A copy of ``entry`` (same choices, same platoon) placed just after it; ``ListFull`` if no room."""
    lock_list(entry.army_list_id)
    _check_room(entry.army_list_id)
    # Its place now, with the list locked: another tab's write may have moved it since it was read.
    stored = Entry.objects.filter(pk=entry.pk).values_list("position", flat=True).first()
    entry.position = entry.position if stored is None else stored
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
    _touch(entry.army_list_id)
    return copy


@transaction.atomic
def entry_restore(*, army_list: ArmyList, snapshot: dict[str, Any]) -> Entry | None:
    """Put back an entry removed a moment ago (``entry_snapshot``), with its id and place.

    None when it is back already (a second click on "Undo"), or when its unit is no longer in
    the catalogue at all. Its platoon may have gone
    meanwhile: it then comes back in no platoon, as a removed platoon's units do.
    """
    lock_list(army_list.pk)
    if Entry.objects.filter(pk=snapshot["pk"]).exists() or not Unit.objects.filter(pk=snapshot["unit"]).exists():
        return None  # back already, or its unit deleted from the catalogue meanwhile
    platoon_id = snapshot["platoon"]
    if platoon_id and not Platoon.objects.filter(pk=platoon_id, army_list=army_list).exists():
        platoon_id = None
    position = snapshot["position"]
    Entry.objects.filter(army_list=army_list, position__gte=position).update(position=F("position") + 1)
    entry = Entry.objects.create(
        pk=snapshot["pk"],
        army_list=army_list,
        unit_id=snapshot["unit"],
        platoon_id=platoon_id,
        name=snapshot["name"],
        quality=snapshot["quality"],
        models_count=snapshot["models"],
        options=snapshot["options"],
        position=position,
    )
    _touch(army_list.pk)
    return entry


def entry_snapshot(entry: Entry) -> dict[str, Any]:
    """What ``entry_restore`` needs to put ``entry`` back (plain data, for a signed token)."""
    return {
        "pk": entry.pk,
        "unit": entry.unit_id,
        "platoon": entry.platoon_id,
        "name": entry.name,
        "quality": entry.quality,
        "models": entry.models_count,
        "options": dict(entry.options or {}),
        "position": entry.position,
    }


@transaction.atomic
def entry_move(*, army_list: ArmyList, entry: Entry, direction: str) -> bool:
    """Swap ``entry`` with its neighbour in the same platoon; False if it is already at that end.

    The list is renumbered 0..n-1 in its current order, and only the rows whose position
    changes are written (usually just the two swapped), in one query.
    """
    lock_list(army_list.pk)
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
    _touch(army_list.pk)
    return True


@transaction.atomic
def entry_remove(*, entry: Entry) -> bool:
    """Delete one entry; False if it was gone already (removed in another tab)."""
    lock_list(entry.army_list_id)
    deleted, _by_model = Entry.objects.filter(pk=entry.pk, army_list_id=entry.army_list_id).delete()
    if deleted:
        _touch(entry.army_list_id)
    return bool(deleted)


@transaction.atomic
def platoon_add(*, army_list: ArmyList, kind: str, name: str = "") -> Platoon:
    lock_list(army_list.pk)
    last = Platoon.objects.filter(army_list=army_list).aggregate(last=Max("position"))["last"]
    platoon = Platoon.objects.create(
        army_list=army_list, kind=kind, name=name, position=0 if last is None else last + 1
    )
    _touch(army_list.pk)
    return platoon


@transaction.atomic
def platoon_rename(*, platoon: Platoon, name: str) -> None:
    lock_list(platoon.army_list_id)
    Platoon.objects.filter(pk=platoon.pk).update(name=name)
    platoon.name = name
    _touch(platoon.army_list_id)


@transaction.atomic
def platoon_remove(*, platoon: Platoon) -> None:
    """Delete a platoon; its entries stay in the list, in no platoon (``on_delete=SET_NULL``)."""
    lock_list(platoon.army_list_id)
    Platoon.objects.filter(pk=platoon.pk).delete()
    _touch(platoon.army_list_id)
