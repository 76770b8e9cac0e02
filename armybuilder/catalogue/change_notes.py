"""What an import changed under a saved list: a note per entry whose unit was removed or updated."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from armybuilder.lists.models import Entry


def unit_change_notes(entries: Iterable[Entry], *, since: datetime | None = None) -> dict[int, str]:
    """``{entry.pk: note}`` for entries whose unit an import removed or changed since the list was saved.

    "Changed" means the unit's ``updated_at`` is later than ``since`` (default: the entry's list
    ``updated_at``, which every edit of the list moves). Reads ``entry.unit`` and
    ``entry.army_list``: pass entries loaded through ``ArmyList.objects.for_builder()`` and it
    runs no query.
    """
    notes: dict[int, str] = {}
    for entry in entries:
        unit = entry.unit
        if unit.removed:
            notes[entry.pk] = _(
                "%(unit)s is no longer in the latest catalogue data; it stays in this list as it was."
            ) % {"unit": unit.display_name}
            continue
        reference = since if since is not None else entry.army_list.updated_at
        if unit.updated_at > reference:
            notes[entry.pk] = _(
                "%(unit)s changed in the catalogue since this list was last saved; check its points and options."
            ) % {"unit": unit.display_name}
    return notes
