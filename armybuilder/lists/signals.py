"""Move a list's ``updated_at`` when one of its entries or platoons is saved or deleted.

The builder's own updates are queryset updates that move it themselves (``services``); this
covers creations and deletions, whoever makes them (the builder, the admin, imports, scripts),
so nothing cached for the list's ``updated_at`` (``builder_cache``, ``row_cache``) is used
after its rows changed. Deleting the list itself (or its owner) deletes its rows too: nothing
to move then.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from armybuilder.lists.models import ArmyList, Entry, Platoon


def _touch_list(sender, instance: Entry | Platoon, raw: bool = False, **kwargs) -> None:
    if not raw:
        ArmyList.objects.filter(pk=instance.army_list_id).update(updated_at=timezone.now())


def _touch_list_after_delete(sender, instance: Entry | Platoon, origin=None, **kwargs) -> None:
    # ``origin`` is what the deletion started from: only rows deleted for their own sake matter.
    started_from = origin.model if isinstance(origin, QuerySet) else type(origin)
    if started_from in (Entry, Platoon):
        ArmyList.objects.filter(pk=instance.army_list_id).update(updated_at=timezone.now())


def connect() -> None:
    post_save.connect(_touch_list, sender=Entry, dispatch_uid="lists-touch-list-entry")
    post_save.connect(_touch_list, sender=Platoon, dispatch_uid="lists-touch-list-platoon")
    post_delete.connect(_touch_list_after_delete, sender=Entry, dispatch_uid="lists-touch-list-entry-gone")
    post_delete.connect(_touch_list_after_delete, sender=Platoon, dispatch_uid="lists-touch-list-platoon-gone")
