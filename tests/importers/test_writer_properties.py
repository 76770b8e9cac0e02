"""Properties of the writer over the parser tests' random well-formed BattleScribe catalogues."""

from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings

from armybuilder.catalogue.models import Unit
from armybuilder.importers.writer import import_files
from rules.army.model import EntrySpec
from rules.army.points import entry_points
from tests.catalogue.factories import make_edition
from tests.importers.test_properties import SYSTEM, catalogues
from tests.importers.test_writer_updates import snapshot

pytestmark = pytest.mark.django_db

# Each example writes inside its own rolled-back transaction, so examples never see each other's rows.
DB_EXAMPLES = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _every_entry(unit: Unit):
    spec = unit.to_rules()
    for quality in spec.base_cost:
        for models in {spec.base_models, spec.max_models}:
            options = {option.key: 1 for option in spec.options if not option.group}
            yield EntrySpec(key="e", name=unit.name, unit=spec, quality=quality, models=models, options=options)


@DB_EXAMPLES
@given(catalogues())
def test_it_writes_no_unit_worth_less_than_nothing(catalogue):
    with transaction.atomic():
        make_edition("v2")
        import_files({**SYSTEM, "random.cat": catalogue})
        for unit in Unit.objects.prefetch_related("options"):
            assert all(entry_points(entry) >= 0 for entry in _every_entry(unit))
        transaction.set_rollback(True)


@DB_EXAMPLES
@given(catalogues())
def test_it_changes_nothing_when_a_random_catalogue_is_imported_twice(catalogue):
    with transaction.atomic():
        make_edition("v2")
        files = {**SYSTEM, "random.cat": catalogue}
        import_files(files)
        before = snapshot()
        import_files(files)
        assert snapshot() == before
        transaction.set_rollback(True)
