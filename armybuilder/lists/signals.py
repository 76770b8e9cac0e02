"""Move a list's ``updated_at`` when one of its entries or platoons is saved as a model.

The builder's own writes are queryset updates that move it themselves (``services``); this
covers the rest (the admin, imports, scripts), so the builder cached for the list's
``updated_at`` (``builder_cache``) is never shown after its rows changed.
"""

from __future__ import annotations

from django.db.models.signals import post_save
from django.utils import timezone

from armybuilder.lists.models import ArmyList, Entry, Platoon


def _touch_list(sender, instance: Entry | Platoon, raw: bool = False, **kwargs) -> None:
    if not raw:
        ArmyList.objects.filter(pk=instance.army_list_id).update(updated_at=timezone.now())


def connect() -> None:
    post_save.connect(_touch_list, sender=Entry, dispatch_uid="lists-touch-list-entry")
    post_save.connect(_touch_list, sender=Platoon, dispatch_uid="lists-touch-list-platoon")
