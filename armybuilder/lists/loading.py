"""Loading a list for the builder: its row first, then its platoons and entries on demand.

The builder's page can often be answered from its cache with the list's row alone
(``builder_cache``); everything else loads its rows with ``with_builder_rows``: platoons and
entries from memory (``row_cache``) or in two queries, and each entry's unit (with its
options) from the army's units kept in memory (``catalogue.unit_cache``), so no query per
entry or per unit.
"""

from __future__ import annotations

from django.db.models import F, prefetch_related_objects
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from armybuilder.catalogue import unit_cache
from armybuilder.catalogue.unit_cache import army_units, load_units
from armybuilder.lists import row_cache
from armybuilder.lists.access import lists_for_user
from armybuilder.lists.models import ArmyList, Entry

_UNIT = Entry._meta.get_field("unit")
_ARMY = ArmyList._meta.get_field("army")
_EDITION = ArmyList._meta.get_field("edition")


def builder_list_row(request: HttpRequest, pk: int) -> ArmyList:
    """The visitor's own active list with its edition and army (one query), or a 404.

    The army (and its edition) come from memory, by the army's ``updated_at`` read with the list
    (``unit_cache.army``): one column joined rather than two whole rows.
    """
    queryset = lists_for_user(request).active().annotate(army_stamp=F("army__updated_at"))
    army_list = get_object_or_404(queryset, pk=pk)
    army = unit_cache.army(army_list.army_id, army_list.army_stamp)
    _ARMY.set_cached_value(army_list, army)
    if army.edition_id == army_list.edition_id:
        _EDITION.set_cached_value(army_list, army.edition)
    return army_list


def with_builder_rows(army_list: ArmyList) -> ArmyList:
    """``army_list`` with its platoons and entries, each entry with its unit and the unit's options.

    The rows come from memory when this revision of the list was loaded or written by an
    earlier request of this process (``row_cache``), else from the database (then kept).
    """
    if not row_cache.recall(army_list):
        prefetch_related_objects([army_list], "platoons", "entries")
        row_cache.remember(army_list)
    units = army_units(army_list.army)
    entries = army_list.entries.all()
    strays = {entry.unit_id for entry in entries} - units.keys()
    if strays:  # a unit of another army (an admin's doing): loaded on its own, still shared
        units = units | load_units(strays)
    for entry in entries:
        _UNIT.set_cached_value(entry, units[entry.unit_id])
    return army_list
