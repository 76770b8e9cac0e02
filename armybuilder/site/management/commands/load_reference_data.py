"""Load Muster's built-in data (rules reference and generic catalogue) from fixtures/.

Fixtures use natural keys, so running this twice updates rows in place instead of
duplicating them. Files load in name order (``00_`` editions first, then each edition's
reference data, then the catalogue), which is how dependencies are kept in order.

Only rows whose values differ from the database are written, and only they get a new stamp:
loading identical data moves nothing, so no saved list is told its units changed and no kept
page or PDF is thrown away; a real change moves exactly the rows (and, for a unit, the kinds of
change: points, options, profile) that differ. ``loaddata`` would rewrite every row.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core import serializers
from django.core.management.base import BaseCommand
from django.db import models, transaction
from django.utils import timezone

from armybuilder.catalogue.models import Option, Origin, Unit
from armybuilder.lists.models import Entry
from armybuilder.stamps import Stamped


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

    Loading only adds and updates: an option removed from the data (a "+0" twin of "None")
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


@dataclass
class LoadReport:
    created: int = 0
    changed: int = 0
    unchanged: int = 0
    changed_labels: list[str] = field(default_factory=list)


class _Database:
    """The rows already stored, read once per model (and per many-to-many field) as plain values."""

    def __init__(self) -> None:
        self.rows: dict[type[models.Model], dict[Any, dict[str, Any]]] = {}
        self.links: dict[tuple[type[models.Model], str], dict[Any, set[Any]]] = {}

    def row(self, model: type[models.Model], pk: Any) -> dict[str, Any] | None:
        if model not in self.rows:
            names = [f.attname for f in model._meta.concrete_fields]
            self.rows[model] = {row["pk_"]: row for row in model._base_manager.values(*names, pk_=models.F("pk"))}
        return self.rows[model].get(pk)

    def linked(self, model: type[models.Model], name: str, pk: Any) -> set[Any]:
        if (model, name) not in self.links:
            relation = model._meta.get_field(name)
            through = relation.remote_field.through
            source, target = relation.m2m_field_name(), relation.m2m_reverse_field_name()
            links: dict[Any, set[Any]] = defaultdict(set)
            for owner, other in through._base_manager.values_list(f"{source}_id", f"{target}_id"):
                links[owner].add(other)
            self.links[(model, name)] = links
        return self.links[(model, name)].get(pk, set())


def _changes(deserialized: Any, stored: dict[str, Any], database: _Database) -> set[str]:
    """The fields (and many-to-many fields) of a fixture object whose values differ from its row."""
    obj = deserialized.object
    model = type(obj)
    stamps = model.stamp_fields() if issubclass(model, Stamped) else set()
    changed = {
        f.attname
        for f in model._meta.concrete_fields
        if not f.primary_key and f.attname not in stamps and getattr(obj, f.attname) != stored[f.attname]
    }
    for name, pks in (deserialized.m2m_data or {}).items():
        if {model._meta.get_field(name).target_field.to_python(pk) for pk in pks} != database.linked(
            model, name, obj.pk
        ):
            changed.add(name)
    return changed


@transaction.atomic
def load_fixtures(files: list[Path]) -> LoadReport:
    """Write the fixtures' rows that are new or differ from the database; leave the others alone."""
    report = LoadReport()
    database = _Database()
    now = timezone.now()
    deferred = []
    touched_units: set[Any] = set()
    for path in files:
        with path.open(encoding="utf-8") as stream:
            # Lazily: each object's natural keys are resolved against the rows saved before it.
            for deserialized in serializers.deserialize("json", stream, handle_forward_references=True):
                obj = deserialized.object
                model = type(obj)
                stored = database.row(model, obj.pk) if obj.pk is not None else None
                if stored is None or deserialized.deferred_fields:
                    changed = None  # new (or not comparable yet): written whole, every stamp moved
                else:
                    changed = _changes(deserialized, stored, database)
                    if not changed:
                        report.unchanged += 1
                        continue
                if issubclass(model, Stamped):
                    moved = set(model.stamps_for(changed))
                    for stamp in model.stamp_fields():
                        setattr(obj, stamp, now if stamp in moved or stored is None else stored[stamp])
                deserialized.save()
                if deserialized.deferred_fields:
                    deferred.append(deserialized)
                if model is Option:
                    touched_units.add(obj.unit_id)
                if stored is None:
                    report.created += 1
                else:
                    report.changed += 1
                    report.changed_labels.append(f"{model._meta.label} {obj}")
    for deserialized in deferred:
        deserialized.save_deferred_fields()
    if touched_units:
        Unit.objects.filter(pk__in=touched_units).update(options_updated_at=now)
    return report


class Command(BaseCommand):
    help = "Load the built-in rules reference and catalogue (idempotent: identical data writes nothing)."

    def handle(self, *args: object, **options: object) -> None:
        files = fixture_files()
        if not files:
            self.stdout.write("No fixtures found in fixtures/.")
            return
        report = load_fixtures(files)
        dropped = drop_stale_options(fixture_option_keys(files))
        self.stdout.write(
            f"Loaded built-in data from {len(files)} fixture files: {report.created} rows added, "
            f"{report.changed} changed, {dropped} options dropped, {report.unchanged} unchanged."
        )
        if int(options.get("verbosity", 1)) > 1:
            for label in report.changed_labels:
                self.stdout.write(f"  changed: {label}")
