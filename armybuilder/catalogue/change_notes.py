"""What the catalogue changed under a saved list: a note per entry whose unit was removed or changed.

A unit's stamps move only when a value really differs (``armybuilder.stamps.Stamped``), one per
kind of change (``Unit.STAMP_GROUPS``), so a note appears only for a real change and says which:
its points, its options or its profile. A rename, a new position or an identical reload of the
built-in data notes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Protocol

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


class SavedEntry(Protocol):
    """What a note reads of a list's entry (``lists.models.Entry``), named by its shape: the catalogue
    sits below the lists and does not import them."""

    pk: int
    unit: object
    army_list: object


# The unit's stamp for each kind of change, and how the note names it.
CHANGES = (
    ("points_updated_at", gettext_lazy("its points")),
    ("options_updated_at", gettext_lazy("its options")),
    ("profile_updated_at", gettext_lazy("its profile (models, weapons or rules)")),
)


def what_changed(unit: object, since: datetime) -> list[str]:
    """The kinds of change (as ``CHANGES`` names them) made to ``unit`` after ``since``."""
    return [str(label) for stamp, label in CHANGES if getattr(unit, stamp) > since]


def unit_change_notes(entries: Iterable[SavedEntry], *, since: datetime | None = None) -> dict[int, str]:
    """``{entry.pk: note}`` for entries whose unit was removed or changed since the list was saved.

    ``since`` defaults to the entry's list ``updated_at``, which every edit of the list moves.
    Reads ``entry.unit`` and ``entry.army_list``: pass entries loaded through
    ``ArmyList.objects.for_builder()`` and it runs no query.
    """
    notes: dict[int, str] = {}
    for entry in entries:
        unit = entry.unit
        if unit.removed:
            notes[entry.pk] = _(
                "%(unit)s is no longer in the latest catalogue data; it stays in this list as it was."
            ) % {"unit": unit.display_name}
            continue
        changes = what_changed(unit, since if since is not None else entry.army_list.updated_at)
        if changes:
            notes[entry.pk] = _(
                "%(unit)s changed in the catalogue since this list was last saved: %(changes)s. Check them."
            ) % {"unit": unit.display_name, "changes": ", ".join(changes)}
    return notes
