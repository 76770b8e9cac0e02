"""The writer maps the community data's imported shapes onto catalogue rows: teams, free units, option groups
and options offered at some qualities only, and a second import of the same data changes nothing."""

from __future__ import annotations

import pytest

from armybuilder.catalogue.models import Option, Unit
from armybuilder.importers.writer import ParsedImport, import_catalogues
from armydata.model import (
    ImportedArmy,
    ImportedCatalogue,
    ImportedOption,
    ImportedOptionGroup,
    ImportedUnit,
    ImportReport,
)
from tests.importers.test_writer import make_chart

pytestmark = pytest.mark.django_db


def _catalogue() -> ParsedImport:
    squad = ImportedUnit(
        source_id="guards",
        name="Guards Squad",
        unit_type="infantry",
        slot="infantry",
        base_cost={"regular": 50, "veteran": 65},
        per_model_cost={"regular": 10, "veteran": 13},
        base_models=5,
        min_models=5,
        max_models=10,
        options=[
            ImportedOption("lmg-team", "LMG team", False, {"regular": 20, "veteran": 26}, adds_models=2),
            ImportedOption("scope", "Scope", False, {"regular": 5}, group="upgrades"),
            ImportedOption("flag", "Flag", False, {"regular": 7, "veteran": 7}, group="upgrades"),
            ImportedOption("free", "Free Unit", False, {"regular": 0}, free_unit=True, free_per_list=1),
        ],
        option_groups=[ImportedOptionGroup("upgrades", "Upgrades", maximum=2)],
    )
    tank = ImportedUnit(
        source_id="panzer",
        name="Panzer III",
        unit_type="vehicle_armoured",
        slot="tank",
        base_cost={"regular": 0, "veteran": 0},
        per_model_cost={},
        base_models=1,
        min_models=1,
        max_models=1,
        options=[
            ImportedOption("ausf-f", "Ausf. F", False, {"regular": 120, "veteran": 145}, group="variant"),
            ImportedOption("ausf-j", "Ausf. J", False, {"veteran": 160}, group="variant"),
        ],
        option_groups=[ImportedOptionGroup("variant", "Variant", minimum=1, maximum=1)],
    )
    catalogue = ImportedCatalogue(
        system_name="Test 3ed",
        edition="v3",
        armies=[ImportedArmy("soviet", "Soviet Union", units=[squad, tank])],
        weapons=[],
        rules=[],
        report=ImportReport(),
    )
    return ParsedImport(origin="battlescribe", files=("test.cat",), catalogue=catalogue)


def test_it_writes_teams_free_units_groups_and_qualities_carried_by_a_variant():
    make_chart("v3")
    import_catalogues([_catalogue()])
    guards, panzer = Unit.objects.get(name="Guards Squad"), Unit.objects.get(name="Panzer III")
    assert guards.option_groups == [
        {"key": "upgrades", "label": "Upgrades", "minimum": 0, "maximum": 2, "per_model": False}
    ]
    team = Option.objects.get(unit=guards, name="LMG team")
    free = Option.objects.get(unit=guards, name="Free Unit")
    assert (team.adds_models, free.free_unit, free.free_per_list) == (2, True, 1)
    # An ordinary option priced for some qualities is offered at the others for the nearest price;
    # a required variant only where the data prices it.
    assert Option.objects.get(unit=guards, name="Scope").cost() == dict.fromkeys(
        ("inexperienced", "regular", "veteran"), 5
    )
    assert Option.objects.get(unit=panzer, name="Ausf. J").cost() == {"veteran": 160}
    spec = panzer.to_rules()
    assert spec.option_groups[0].minimum == 1
    assert [option.cost for option in spec.options] == [{"regular": 120, "veteran": 145}, {"veteran": 160}]


def test_a_second_import_of_the_same_shapes_changes_nothing():
    make_chart("v3")
    import_catalogues([_catalogue()])
    stamps = sorted(Unit.objects.values_list("pk", "updated_at")) + sorted(Option.objects.values_list("pk", "name"))
    result = import_catalogues([_catalogue()])
    assert (
        sorted(Unit.objects.values_list("pk", "updated_at")) + sorted(Option.objects.values_list("pk", "name"))
        == stamps
    )
    [catalogue] = result.catalogues
    assert (catalogue.units.updated, catalogue.options.updated, catalogue.options.created) == (0, 0, 0)
