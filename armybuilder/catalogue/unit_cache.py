"""Each army's units, with their options, kept in memory between requests.

The builder reads a list's units (costs, model counts, options) on every request, and they
change only when the catalogue does: an import or an admin edit, both of which move the
army's ``updated_at`` (``signals``). So the units are loaded once per army and stamp, in two
queries whatever the number of units, and shared by the requests that follow. The shared
``Unit`` instances are read-only: nothing in a request may change them.
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


def clear() -> None:
    with _lock:
        _armies.clear()
