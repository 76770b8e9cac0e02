"""Rosters from BattleScribe and NewRecruit (.ros, .rosz) imported as Muster lists, against the nr3 test catalogue."""

from __future__ import annotations

import io
import time
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from armybuilder.catalogue.models import Unit
from armybuilder.importers.roster_import import import_roster
from armybuilder.importers.writer import import_files
from armybuilder.lists.exchange import ListImportError
from armybuilder.lists.models import ArmyList, Entry
from armydata.roster_file import parse_roster
from armydata.safety import CatalogueImportError
from tests.importers.helpers import read_battlescribe
from tests.importers.test_nr3 import NR3, read_nr3
from tests.importers.test_writer import make_chart

pytestmark = pytest.mark.django_db

ROS = (NR3 / "nr3_roster.ros").read_bytes()
ROSZ = (NR3 / "nr3_roster.rosz").read_bytes()


@pytest.fixture
def catalogue():
    make_chart("v3")
    import_files(read_nr3())


def entries(army_list: ArmyList) -> list[tuple[str, str, int, dict, str | None]]:
    rows = Entry.objects.filter(army_list=army_list).select_related("unit", "platoon").order_by("position")
    return [(e.unit.name, e.quality, e.models_count, e.options, e.platoon.kind if e.platoon else None) for e in rows]


def test_it_reads_forces_selections_and_the_roster_total():
    roster = parse_roster("list.ros", ROS)
    assert (roster.name, roster.points, roster.points_limit) == ("Testland Company", 432, 500)
    assert [force.name for force in roster.all_forces()] == ["Configuration", "Rifle Platoon", "Heavy Weapons Platoon"]
    quality = roster.forces[1].selections[0].children[0]
    assert quality.entry_ids == ("u-lt-vet", "nr3-vet")


def test_it_imports_a_roster_with_quality_models_options_and_platoons(catalogue):
    result = import_roster("Testland Company.ros", ROS)
    army_list = result.army_list
    expected = ("Testland Company", 500, "nr3-testland")
    assert (army_list.name, army_list.points_limit, army_list.army.source_id) == expected
    # Forces named just for their kind leave the platoon's name to the builder (translated).
    assert [(p.kind, p.name) for p in army_list.platoons.order_by("position")] == [
        ("rifle_platoon", ""),
        ("heavy_weapons_platoon", ""),
    ]
    grenades = Unit.objects.get(name="Rifle Squad").options.get().slug
    assert entries(army_list) == [
        ("Second Lieutenant", "veteran", 2, {}, "rifle_platoon"),
        ("Rifle Squad", "regular", 8, {grenades: 1}, "rifle_platoon"),
        ("Rifle Squad", "inexperienced", 5, {}, "rifle_platoon"),
        ("Commissar", "veteran", 1, {}, "rifle_platoon"),
        ("Truck", "regular", 1, {}, "rifle_platoon"),
        ("Second Lieutenant", "regular", 1, {}, "heavy_weapons_platoon"),
        ("Machine Gun Team", "regular", 3, {}, "heavy_weapons_platoon"),
        ("Medium Mortar Team", "veteran", 3, {}, "heavy_weapons_platoon"),
    ]


def test_muster_and_the_roster_agree_on_the_points(catalogue):
    result = import_roster("Testland Company.ros", ROS)
    assert (result.muster_points, result.roster_points, result.difference) == (432, 432, 0)


def test_a_difference_from_the_rosters_total_is_reported(catalogue):
    result = import_roster("list.ros", ROS.replace(b'value="432.0"', b'value="440.0"'))
    assert (result.muster_points, result.roster_points, result.difference) == (432, 440, -8)


def test_a_zipped_roster_imports_the_same(catalogue):
    plain = entries(import_roster("list.ros", ROS).army_list)
    assert entries(import_roster("Testland Company.rosz", ROSZ).army_list) == plain


def test_unmatched_selections_are_listed_by_name_and_nothing_is_saved(catalogue):
    changed = ROS.replace(b'entryId="u-truck"', b'entryId="u-gone"').replace(
        b'entryId="u-rifle-atg"', b'entryId="u-rifle-gone"'
    )
    with pytest.raises(ListImportError) as caught:
        import_roster("list.ros", changed)
    assert caught.value.errors == [
        "Rifle Squad: “Anti-tank grenades” (5 pts) matches no option of the unit in Muster.",
        "Rifle Platoon: “Truck” matches no unit of Testland (3rd edition) in Muster.",
    ]
    assert ArmyList.objects.count() == 0


def test_a_roster_for_an_army_not_imported_is_refused(catalogue):
    with pytest.raises(ListImportError, match="has not been imported into Muster"):
        import_roster("list.ros", ROS.replace(b'catalogueId="nr3-testland"', b'catalogueId="elsewhere"'))


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("list.txt", ROS, "not a BattleScribe or NewRecruit roster"),
        ("list.ros", b"<roster><forces>", "not well-formed XML"),
        ("list.ros", b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "a">]><roster/>', "entity declarations"),
        ("list.ros", b"<catalogue/>", "is not a roster"),
        ("list.rosz", b"not a zip", "not a valid zip archive"),
    ],
)
def test_bad_files_are_refused_with_a_reason(name, data, message):
    with pytest.raises(CatalogueImportError, match=message):
        parse_roster(name, data)


def test_a_rosz_must_hold_one_roster():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.ros", ROS)
        archive.writestr("b.ros", ROS)
    with pytest.raises(CatalogueImportError, match="should hold one .ros roster; it holds 2"):
        parse_roster("two.rosz", buffer.getvalue())


# the page


def test_the_page_imports_a_roster_and_shows_the_points_comparison(client, catalogue):
    response = client.post("/lists/import/roster/", {"file": SimpleUploadedFile("Testland Company.rosz", ROSZ)})
    army_list = ArmyList.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/lists/{army_list.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert "Imported “Testland Company”." in page
    assert "Muster counts 432 points, the same as the roster." in page


def test_the_page_lists_what_matched_nothing(client, catalogue):
    upload = SimpleUploadedFile("list.ros", ROS.replace(b'entryId="u-truck"', b'entryId="u-gone"'))
    response = client.post("/lists/import/roster/", {"file": upload})
    assert response.status_code == 200
    content = response.content.decode()
    assert "<strong>The roster was not imported: 1 problem.</strong>" in content
    assert "“Truck” matches no unit of Testland (3rd edition) in Muster." in content
    assert ArmyList.objects.count() == 0


def test_the_page_refuses_other_files(client):
    response = client.post("/lists/import/roster/", {"file": SimpleUploadedFile("list.json", b"{}")})
    assert "Choose a .ros or .rosz roster file." in response.content.decode()


def test_the_lists_import_page_links_to_the_roster_import(client):
    assert 'href="/lists/import/roster/"' in client.get("/lists/import/").content.decode()


V2_ROSTER = b"""<?xml version="1.0" encoding="UTF-8"?>
<roster id="r2" name="Old style" gameSystemId="sys-test-2" xmlns="http://www.battlescribe.net/schema/rosterSchema">
  <costs><cost name="pts" typeId="pts-id" value="91.0"/></costs>
  <forces>
    <force id="f1" name="Reinforced Platoon" entryId="fe-x" catalogueId="cat-rating" catalogueName="Rating Test">
      <selections>
        <selection id="s1" name="Second Lieutenant" entryId="u-lt" number="1" type="unit">
          <selections>
            <selection id="s2" name="Veteran" entryId="q-vet" entryGroupId="g-rating" number="1" type="upgrade">
              <costs><cost name="pts" typeId="pts-id" value="65.0"/></costs>
            </selection>
            <selection id="s3" name="Veteran Soldier" entryId="m-q-vet" entryGroupId="g-men" number="2" type="upgrade">
              <costs><cost name="pts" typeId="pts-id" value="26.0"/></costs>
            </selection>
          </selections>
        </selection>
      </selections>
    </force>
  </forces>
</roster>
"""


def test_models_no_entry_stands_for_are_added_to_those_the_roster_lists():
    # 2nd-edition data has no entry for the officer himself: the roster lists his two attendants only.
    make_chart("v2")
    import_files(read_battlescribe("rating.cat"))
    result = import_roster("old.ros", V2_ROSTER)
    assert entries(result.army_list) == [("Second Lieutenant", "veteran", 3, {}, "reinforced_platoon")]
    assert (result.muster_points, result.difference) == (91, 0)


def _roster_with(selections: str) -> bytes:
    return (
        V2_ROSTER.split(b"<selections>", 1)[0]
        + b"<selections>"
        + selections.encode()
        + b"</selections></force></forces></roster>"
    )


LIEUTENANT = '<selection id="s{n}" name="Second Lieutenant" entryId="u-lt" number="{number}" type="unit"/>'


@pytest.mark.parametrize("number", ["101", "10000000", "1e300"])
def test_a_unit_numbered_beyond_the_cap_is_refused_before_any_entry_is_built(number):
    # A 300-byte roster with number="10000000" built ten million entries (666 MB, 30 s) first.
    make_chart("v2")
    import_files(read_battlescribe("rating.cat"))
    start = time.process_time()
    with pytest.raises(ListImportError) as refused:
        import_roster("big.ros", _roster_with(LIEUTENANT.format(n=1, number=number)))
    assert time.process_time() - start < 1
    assert "at most 100" in str(refused.value.errors)
    assert not ArmyList.objects.exists()


def test_many_units_are_refused_at_the_cap_and_a_hundred_are_not():
    make_chart("v2")
    import_files(read_battlescribe("rating.cat"))
    with pytest.raises(ListImportError):
        import_roster("many.ros", _roster_with("".join(LIEUTENANT.format(n=n, number=1) for n in range(101))))
    result = import_roster("hundred.ros", _roster_with(LIEUTENANT.format(n=1, number=100)))
    assert Entry.objects.filter(army_list=result.army_list).count() == 100
