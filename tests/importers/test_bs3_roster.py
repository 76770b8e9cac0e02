"""Rosters that name their units through links and categories (``data/bs3``), and a 2nd-edition
roster of the community's German catalogue mapped onto Muster's built-in Germany by names (``data/bs2``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalogue.models import Unit
from armybuilder.importers.roster_import import import_roster, roster_document
from armybuilder.importers.writer import import_files
from armybuilder.lists.exchange import ListImportError
from armydata.roster_file import parse_roster
from tests.importers.test_bs3 import BS3, read_bs3
from tests.importers.test_writer import make_chart
from tests.lists.factories import make_army, make_edition, make_option, make_unit

pytestmark = pytest.mark.django_db

BS3_ROSTER = (BS3 / "bs3_roster.ros").read_bytes()
BS2_ROSTER = (Path(__file__).parent / "data" / "bs2" / "bs2_germany.ros").read_bytes()


@pytest.fixture
def catalogue():
    make_chart("v3")
    import_files(read_bs3())


def slug(unit: str, option: str) -> str:
    return Unit.objects.get(name=unit).options.get(name=option).slug


def test_the_links_that_reach_a_unit_are_kept_for_rosters(catalogue):
    assert Unit.objects.get(name="Grenadier Squad").source_aliases == ["fl-gren"]


def test_a_roster_through_force_entry_links_matches_every_unit(catalogue):
    document, _ = roster_document(parse_roster("army.ros", BS3_ROSTER))
    entries = [(e["unit"], e["quality"], e["models"], e["options"], e["platoon"]) for e in document["entries"]]
    names = ("Grenadier Squad", "Medium Mortar Team", "Panzer III")
    squad, mortar, tank = (Unit.objects.get(name=name).slug for name in names)
    assert entries == [
        (
            squad,
            "regular",
            7,
            {
                slug("Grenadier Squad", "NCO: SMG"): 1,
                slug("Grenadier Squad", "Grenadier: SMG"): 2,
                slug("Grenadier Squad", "Light Machine Gun Team"): 1,
                slug("Grenadier Squad", "Panzerfaust"): 2,
            },
            0,
        ),
        (mortar, "regular", 3, {slug("Medium Mortar Team", "Spotter"): 1}, 0),
        (tank, "veteran", 1, {slug("Panzer III", "Ausf. H"): 1}, 1),
    ]


def test_one_force_for_the_whole_army_is_split_into_the_platoons_its_categories_name(catalogue):
    document, notes = roster_document(parse_roster("army.ros", BS3_ROSTER))
    assert [p["kind"] for p in document["platoons"]] == ["rifle_platoon", "armoured_platoon"]
    assert not any("not a platoon" in note for note in notes)


def test_the_roster_imports_at_its_own_total(catalogue):
    result = import_roster("army.ros", BS3_ROSTER)
    assert (result.roster_points, result.muster_points) == (392, 392)


# a built-in army


@pytest.fixture
def germany():
    army = make_army(edition=make_edition("v2"), slug="germany", name="Germany", name_fr="Allemagne")
    squad = make_unit(army=army, name="Heer Infantry Squad", slug="heer-infantry-squad", base_models=5, max_models=10)
    make_option(squad, name="Anti-tank grenades", slug="at-grenades", per_model=True, all_models=True, cost_veteran=2)
    make_option(squad, name="LMG", slug="lmg", cost_veteran=20)
    make_unit(
        army=army,
        name="Panzer III Ausf H",
        slug="panzer-iii-h",
        unit_type="vehicle_armoured",
        slot="tank",
        base_models=1,
        max_models=1,
        cost_inexperienced=140,
        cost_regular=175,
        cost_veteran=210,
    )
    make_unit(army=make_army(edition=make_edition("v2"), slug="generic", name="Generic"), name="Kettenkrad")
    return army


def test_a_roster_of_a_built_in_army_maps_onto_it_by_names(germany):
    document, notes = roster_document(parse_roster("heer.ros", BS2_ROSTER))
    assert document["army"] == ["v2", "germany"]
    entries = [(e["unit"], e["quality"], e["models"], e["options"]) for e in document["entries"]]
    assert entries == [
        ("heer-infantry-squad", "veteran", 7, {"lmg": 1, "at-grenades": 1}),
        ("panzer-iii-h", "regular", 1, {}),
    ]
    assert [p["kind"] for p in document["platoons"]] == ["reinforced_platoon"]


def test_what_a_built_in_army_cannot_map_is_listed(germany):
    result = import_roster("heer.ros", BS2_ROSTER)
    assert any("mapped onto Muster's built-in Germany" in note for note in result.notes)
    assert any("“Kettenkrad” matches no unit of Germany" in note for note in result.notes)
    assert any("“Stielhandgranaten” (5 pts) matches no option" in note for note in result.notes)
    assert (result.roster_points, result.muster_points) == (325, 65 + 26 + 20 + 14 + 175)


def test_a_roster_of_an_army_neither_imported_nor_built_in_says_how_to_get_its_data_in(germany):
    other = BS2_ROSTER.replace(b"BA2 - Armies of Germany", b"BA2 - Armies of Finland")
    with pytest.raises(ListImportError) as caught:
        import_roster("finns.ros", other)
    assert "is not one of its built-in armies" in caught.value.errors[0]
    assert "catalogue import page" in caught.value.errors[0]
