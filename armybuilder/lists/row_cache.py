"""A list's platoon and entry rows kept in memory between requests, by the list's ``updated_at``.

Someone building a list sends one change after another, each answered from the list's rows.
Every write to a list moves its ``updated_at`` (``services``, ``signals``), so the rows stored
for one ``updated_at`` are the rows of that revision and are never stale, only unused:

* rows loaded from the database are stored under the ``updated_at`` read just before them (they
  are at least that revision: the same rows a reader loading them itself would get);
* after one of the builder's own single-entry writes, the rows in memory, changed as written,
  are stored under the new ``updated_at``, but only when the write found the list still at the
  revision those rows were loaded at (``services._touch``): no other write came in between.

Plain values only (never the instances a request changes); per process, a few hundred lists.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.db.models.base import ModelState

from armybuilder.lists.models import ArmyList, Entry, Platoon

MAX_LISTS = 256

_ENTRY_FIELDS = [field.attname for field in Entry._meta.concrete_fields]
_PLATOON_FIELDS = [field.attname for field in Platoon._meta.concrete_fields]
_OPTIONS = _ENTRY_FIELDS.index("options")
_PK = _ENTRY_FIELDS.index(Entry._meta.pk.attname)
_ARMY_LIST = Entry._meta.get_field("army_list")
_PLATOON_LIST = Platoon._meta.get_field("army_list")

_lock = threading.Lock()
_lists: OrderedDict[tuple[int, str], tuple[tuple, tuple]] = OrderedDict()


def _key(army_list: ArmyList) -> tuple[int, str]:
    return (army_list.pk, army_list.updated_at.isoformat())


def _values(instance, fields: list[str]) -> tuple:
    return tuple(getattr(instance, name) for name in fields)


def _entry_values(entry: Entry) -> tuple:
    values = list(_values(entry, _ENTRY_FIELDS))
    values[_OPTIONS] = dict(values[_OPTIONS] or {})  # a copy: the request may replace it
    return tuple(values)


def remember(army_list: ArmyList, *, changed: Entry | None = None) -> None:
    """Store ``army_list``'s loaded platoons and entries as its rows at its ``updated_at``.

    ``changed``: the one entry this request changed in memory, when the others are still the
    rows it recalled; only that entry's row is read again.
    """
    recalled = army_list.__dict__.get("_recalled_rows")
    if changed is not None and recalled is not None:
        platoons = recalled[0]
        entries = tuple(_entry_values(changed) if values[_PK] == changed.pk else values for values in recalled[1])
    else:
        platoons = tuple(_values(platoon, _PLATOON_FIELDS) for platoon in army_list.platoons.all())
        entries = tuple(_entry_values(entry) for entry in army_list.entries.all())
    key = _key(army_list)
    with _lock:
        _lists[key] = (platoons, entries)
        _lists.move_to_end(key)
        while len(_lists) > MAX_LISTS:
            _lists.popitem(last=False)


def recall(army_list: ArmyList) -> bool:
    """Give ``army_list`` its platoons and entries from memory; False if they are not kept."""
    with _lock:
        rows = _lists.get(_key(army_list))
    if rows is None:
        return False
    db = army_list._state.db
    platoons = [_instance(Platoon, _PLATOON_FIELDS, values, db) for values in rows[0]]
    entries = []
    for values in rows[1]:
        entry = _instance(Entry, _ENTRY_FIELDS, values, db)
        entry.options = dict(entry.options)  # its own: the request may change it
        entries.append(entry)
    for platoon in platoons:
        _PLATOON_LIST.set_cached_value(platoon, army_list)
    for entry in entries:
        _ARMY_LIST.set_cached_value(entry, army_list)
    _prime(army_list, "platoons", platoons)
    _prime(army_list, "entries", entries)
    army_list.__dict__["_recalled_rows"] = rows
    return True


def _instance(model, fields: list[str], values: tuple, db: str | None):
    """A saved row as a model instance, built the way unpickling builds one (no ``__init__``):
    a third of the time of ``Model.from_db``, for values that came from such an instance."""
    instance = model.__new__(model)
    instance.__dict__.update(zip(fields, values, strict=True))
    instance._state = ModelState()
    instance._state.adding = False
    instance._state.db = db
    return instance


def _prime(army_list: ArmyList, name: str, rows: list) -> None:
    # What prefetch_related leaves on an instance (Django's prefetch_one_level does the same), so
    # ``army_list.entries.all()`` everywhere reads these rows without a query.
    queryset = getattr(army_list, name).all()
    queryset._result_cache = rows
    queryset._prefetch_done = True
    army_list.__dict__.setdefault("_prefetched_objects_cache", {})[name] = queryset


def clear() -> None:
    with _lock:
        _lists.clear()
