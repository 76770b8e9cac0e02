"""Load Muster's built-in data (rules reference and generic catalogue) from fixtures/.

Fixtures use natural keys, so running this twice updates rows in place instead of
duplicating them. Files load in name order (``00_`` editions first, then each edition's
reference data, then the catalogue), which is how dependencies are kept in order.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from armybuilder.catalogue.models import Army, Option, Origin, Unit
from armybuilder.lists.models import Entry


def fixture_files() -> list[Path]:
    return sorted((Path(settings.BASE_DIR) / "fixtures").glob("*.json"))


def fixture_option_keys(files: list[Path]) -> set[tuple[str, ...]]:
    """Natural keys of the built-in options the fixtures define."""
    keys = set()
    for path in files:
        for obj in json.loads(path.read_text(encoding="utf-8")):
            if obj["model"] == "catalogue.option":
                keys.add((*obj["fields"]["unit"], obj["fields"]["slug"]))
    return keys


@transaction.atomic
def drop_stale_options(wanted: set[tuple[str, ...]]) -> int:
    """Delete built-in options the fixtures no longer define, and take them off saved entries.

    loaddata only adds and updates: an option removed from the data (a "+0" twin of "None")
    would otherwise stay on offer. Saved lists keep working: the entries that took it lose
    only that key.
    """
    options = Option.objects.filter(unit__army__origin=Origin.BUILTIN).select_related("unit__army__edition")
    stale = [option for option in options if option.natural_key() not in wanted]
    for option in stale:
        for entry in Entry.objects.filter(unit_id=option.unit_id, options__has_key=option.slug):
            entry.options.pop(option.slug, None)
            entry.save(update_fields=["options"])
    Option.objects.filter(pk__in=[option.pk for option in stale]).delete()
    return len(stale)


class Command(BaseCommand):
    help = "Load the built-in rules reference and catalogue (idempotent)."

    def handle(self, *args: object, **options: object) -> None:
        files = fixture_files()
        if not files:
            self.stdout.write("No fixtures found in fixtures/.")
            return
        call_command("loaddata", *[str(f) for f in files], verbosity=0)
        drop_stale_options(fixture_option_keys(files))
        # The fixtures carry fixed stamps and loaddata writes its rows raw (no ``auto_now``): move
        # the built-in armies' and units' stamps, so every list built from them gets a new revision
        # and what was kept for the old one (PDFs, ETags) is never asked for again.
        now = timezone.now()
        Army.objects.filter(origin=Origin.BUILTIN).update(updated_at=now)
        Unit.objects.filter(army__origin=Origin.BUILTIN).update(updated_at=now)
        self.stdout.write(f"Loaded built-in data from {len(files)} fixture files.")
