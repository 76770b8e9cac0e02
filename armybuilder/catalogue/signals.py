"""Move an army's ``updated_at`` whenever one of its units or options is saved or deleted.

The builder keeps each army's units in memory keyed by that stamp (``unit_cache``), so any
change to the catalogue, from the admin or an import, must move it. Queryset ``update()``
sends no signal: catalogue code saves rows one by one (see importers/writer.py). Fixtures
(``raw`` saves) keep their own timestamps: ``load_reference_data`` moves the stamps itself.
"""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from armybuilder.catalogue.models import Army, Option, Unit


def _touch_unit_army(sender, instance: Unit, raw: bool = False, **kwargs) -> None:
    if not raw:
        Army.objects.filter(pk=instance.army_id).update(updated_at=timezone.now())


def _touch_option_army(sender, instance: Option, raw: bool = False, **kwargs) -> None:
    if not raw:
        Army.objects.filter(units__pk=instance.unit_id).update(updated_at=timezone.now())


def connect() -> None:
    for signal in (post_save, post_delete):
        signal.connect(_touch_unit_army, sender=Unit, dispatch_uid="catalogue-touch-army-unit")
        signal.connect(_touch_option_army, sender=Option, dispatch_uid="catalogue-touch-army-option")
