"""An imported army in use: the catalogue API, the builder, and a list's points worked out by hand."""

from __future__ import annotations

import pytest

from armybuilder.catalogue.models import Army, Unit
from armybuilder.importers.writer import import_files
from armybuilder.lists.models import ArmyList
from armybuilder.lists.summary import list_summary
from tests.importers.helpers import read_barracks
from tests.importers.test_upload import make_user
from tests.importers.test_writer import make_chart
from tests.lists.factories import make_entry, make_list, make_platoon

pytestmark = pytest.mark.django_db


@pytest.fixture
def army() -> Army:
    make_chart()
    import_files(read_barracks())
    return Army.objects.get(origin="barracks", source_id="testland")


@pytest.fixture
def army_list(army) -> ArmyList:
    """Officer, two squads, a mortar and a tank from the Barracks test data, with their options."""
    units = {unit.name: unit for unit in Unit.objects.filter(army=army).prefetch_related("options")}
    slugs = {(unit.name, option.name): option.slug for unit in units.values() for option in unit.options.all()}
    army_list = make_list(make_user("alice"), army, name="Testland 500", points_limit=500)
    platoon = make_platoon(army_list, kind="reinforced_platoon")
    make_entry(army_list, units["Second Lieutenant"], platoon=platoon, quality="regular", models_count=2)
    squad_options = {
        slugs["Rifle Squad", "SMG (replaces rifle)"]: 2,
        slugs["Rifle Squad", "Anti-tank grenades"]: 7,
    }
    make_entry(army_list, units["Rifle Squad"], platoon=platoon, models_count=7, options=squad_options)
    make_entry(army_list, units["Rifle Squad"], platoon=platoon, models_count=5)
    mortar_options = {slugs["Medium Mortar Team", "Spotter"]: 1}
    make_entry(army_list, units["Medium Mortar Team"], platoon=platoon, models_count=3, options=mortar_options)
    tank_options = {slugs["Test Tank", "Recce"]: 1}
    make_entry(army_list, units["Test Tank"], platoon=platoon, quality="veteran", options=tank_options)
    return army_list


def summary_of(army_list: ArmyList):
    return list_summary(ArmyList.objects.for_builder().get(pk=army_list.pk))


def test_it_prices_a_list_of_imported_units_as_worked_out_by_hand(army_list):
    officer = 50 + 1 * 10  # Second Lieutenant, regular, one attendant
    big_squad = 50 + 2 * 10 + 2 * 3 + 7 * 2  # 5 men + 2 more, 2 SMGs, grenades for all 7
    squad = 50
    mortar = 50 + 10  # with its spotter
    tank = 150 - 25  # veteran, Recce saves 25
    assert summary_of(army_list).points == officer + big_squad + squad + mortar + tank == 385


def test_it_counts_order_dice_and_officers_of_imported_units(army_list):
    summary = summary_of(army_list)
    assert summary.order_dice == 5
    assert [(officer.rank, officer.morale_bonus) for officer in summary.officers] == [("second_lieutenant", 1)]


def test_it_checks_force_organisation_of_imported_units(army_list):
    assert summary_of(army_list).problems == ()


def test_it_lists_the_imported_army_in_the_catalogue_api(army, client):
    armies = {item["slug"]: item for item in client.get("/api/editions/v2/armies/").json()}
    assert (armies["armies-of-testland"]["origin"], armies["armies-of-testland"]["national_rules"]) == (
        "barracks",
        ["Dogged"],
    )


def test_it_serves_the_imported_units_in_the_catalogue_api(army, client):
    units = {item["name"]: item for item in client.get("/api/editions/v2/armies/armies-of-testland/units/").json()}
    assert units["Rifle Squad"]["cost"] == {"inexperienced": 35, "regular": 50}
    # The squad's own armament: its SMGs come with the "SMG (replaces rifle)" option only.
    assert units["Rifle Squad"]["weapons"] == [{"slug": "rifle", "name": "Rifle"}]


def test_it_shows_a_list_of_imported_units_in_the_builder(army_list, client):
    client.force_login(army_list.owner)
    response = client.get(f"/lists/{army_list.pk}/")
    assert response.status_code == 200
    assert b"Medium Mortar Team" in response.content


def test_it_offers_an_imported_army_when_creating_a_list(army, client):
    response = client.get("/lists/new/?edition=v2")
    assert b"Armies of Testland" in response.content
