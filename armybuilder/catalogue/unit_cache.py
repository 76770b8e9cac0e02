"""Each army (with its edition) and its units (with their options), kept in memory between requests.

The builder reads a list's army and units (costs, model counts, options) on every request, and
they change only when the catalogue does: an import or an admin edit, both of which move the
army's ``updated_at`` (``signals``). So they are loaded once per army and stamp (the units in
two queries whatever their number) and shared by the requests that follow. The shared
instances are read-only: nothing in a request may change them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime

from django.db.models import Prefetch

from armybuilder.catalogue.models import Army, Option, Unit

# A few armies per process: the ones being built with right now.
MAX_ARMIES = 32

_lock = threading.Lock()
_armies: OrderedDict[tuple[int, datetime], dict[int, Unit]] = OrderedDict()
_army_rows: OrderedDict[tuple[int, datetime], Army] = OrderedDict()


def _options() -> Prefetch:
    return Prefetch("options", queryset=Option.objects.order_by("position", "name"))


def load_units(unit_ids) -> dict[int, Unit]:
    """Units by id with their options (two queries), outside the cache."""
    return {unit.pk: unit for unit in Unit.objects.filter(pk__in=unit_ids).prefetch_related(_options())}


def army_units(army: Army) -> dict[int, Unit]:
    """``{unit.pk: unit}`` for every unit of ``army``, removed and hidden ones included."""
    key = (army.pk, army.updated_at)
    with _lock:
        units = _armies.get(key)
        if units is not None:
            _armies.move_to_end(key)
            return units
    # Loaded outside the lock: two requests may both load a new stamp; either result is right.
    units = {unit.pk: unit for unit in Unit.objects.filter(army_id=army.pk).prefetch_related(_options())}
    with _lock:
        for old in [k for k in _armies if k[0] == army.pk]:
            del _armies[old]  # an older stamp of the same army is never asked for again
        _armies[key] = units
        while len(_armies) > MAX_ARMIES:
            _armies.popitem(last=False)
    return units


def army(army_id: int, stamp: datetime) -> Army:
    """The army ``army_id`` with its edition, as of its ``updated_at`` ``stamp`` (read with the list)."""
    key = (army_id, stamp)
    with _lock:
        found = _army_rows.get(key)
        if found is not None:
            _army_rows.move_to_end(key)
            return found
    # With its national rules, which the builder lists under its summary bar.
    found = Army.objects.select_related("edition").prefetch_related("national_rules").get(pk=army_id)
    with _lock:
        # Changed since the stamp was read: kept under its own stamp, the one later lists will read.
        _army_rows[(army_id, found.updated_at)] = found
        while len(_army_rows) > MAX_ARMIES:
            _army_rows.popitem(last=False)
    return found


def clear() -> None:
    with _lock:
        _armies.clear()
        _army_rows.clear()
