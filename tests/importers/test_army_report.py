"""The import report per army: what was read, what was guessed (and from what), what was dropped (and why)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from armybuilder.importers.jobs import report_data
from armybuilder.importers.models import ImportJob
from armybuilder.importers.writer import ParsedImport, import_catalogues
from armydata.model import ImportedArmy, ImportedCatalogue, ImportedOption, ImportedUnit, ImportReport
from tests.importers.test_writer import make_chart

pytestmark = pytest.mark.django_db


def unit(source_id: str, name: str, **values) -> ImportedUnit:
    fields = {
        "unit_type": "infantry",
        "slot": "infantry",
        "base_cost": {"regular": 50},
        "per_model_cost": {},
        "base_models": 5,
        "min_models": 5,
        "max_models": 5,
    }
    return ImportedUnit(source_id=source_id, name=name, **{**fields, **values})


def parsed() -> ParsedImport:
    soviet = ImportedArmy(
        "soviet",
        "Soviet Union",
        units=[
            unit("rifles", "Rifle Squad", options=[ImportedOption("smg", "SMG", True, {"regular": 3})]),
            unit(
                "truck",
                "Truck",
                unit_type="transport",
                slot="transport",
                base_models=1,
                min_models=1,
                max_models=1,
                type_source="profiles",
            ),
            unit("kitchen", "Field Kitchen", base_cost={}),
        ],
    )
    germany = ImportedArmy("germany", "Germany", units=[unit("nco", "Feldwebel", type_source="name")])
    catalogue = ImportedCatalogue(
        system_name="Test 3ed", edition="v3", armies=[soviet, germany], weapons=[], rules=[], report=ImportReport()
    )
    return ParsedImport(origin="battlescribe", files=("test.cat",), catalogue=catalogue)


def test_each_army_says_what_was_read_guessed_and_dropped():
    make_chart("v3")
    result = import_catalogues([parsed()])
    lines = result.catalogues[0].lines()
    start = lines.index("  Per army (read, guessed, dropped):")
    assert lines[start + 1 :] == [
        "    Soviet Union: 3 units read, 2 imported (1 option), 1 guessed, 1 dropped",
        "      guessed: Truck: transport, from its profiles",
        "      dropped: Field Kitchen: no points value at any quality",
        "    Germany: 1 unit read, 1 imported (0 options), 1 guessed, 0 dropped",
        "      guessed: Feldwebel: infantry, from its name",
    ]
    # The catalogue-wide list of skipped entries still names the army.
    assert ("Soviet Union: Field Kitchen", "no points value at any quality") in result.catalogues[0].skipped
    # Kept with the import, in the job's report.
    assert report_data(result)["catalogues"][0]["army_reports"][0] == {
        "name": "Soviet Union",
        "read": 3,
        "imported": 2,
        "options": 1,
        "guessed": ["Truck: transport, from its profiles"],
        "dropped": [["Field Kitchen", "no points value at any quality"]],
    }


def test_the_report_kept_with_an_import_shows_each_army(client):
    make_chart("v3")
    client.force_login(get_user_model().objects.create_user(username="quartermaster", password=None, is_staff=True))
    job = ImportJob.objects.create(
        repository="muster/testland", status=ImportJob.Status.DONE, report=report_data(import_catalogues([parsed()]))
    )
    page = " ".join(client.get(f"/catalogue/import/jobs/{job.pk}/").content.decode().split())
    assert (
        "<strong>Soviet Union</strong>: units read: 3 · imported: 2 · options: 1 · guessed: 1 · dropped: 1" in page
        and "<li>Guessed: Truck: transport, from its profiles</li>" in page
        and "<li>Dropped: <strong>Field Kitchen</strong>: no points value at any quality</li>" in page
    )
    french = " ".join(
        client.get(f"/catalogue/import/jobs/{job.pk}/", headers={"Accept-Language": "fr"}).content.decode().split()
    )
    assert (
        "<strong>Germany</strong>: unités lues : 1 · importées : 1 · options : 0 · devinées : 1 · écartées : 0"
        in french
    )
