"""Importing again: the same data changes nothing, a newer version updates in place."""

from __future__ import annotations

import json

import pytest

from armybuilder.catalogue.change_notes import unit_change_notes
from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.importers.writer import import_files
from armybuilder.lists.models import ArmyList, Entry
from armybuilder.lists.summary import list_summary
from armybuilder.reference.models import SpecialRule, Weapon
from tests.importers.helpers import read_barracks, read_battlescribe
from tests.importers.test_bs3 import read_bs3
from tests.importers.test_nr3 import read_nr3
from tests.importers.test_writer import make_chart
from tests.lists.factories import make_entry, make_list

pytestmark = pytest.mark.django_db

UNITS = "units/testland.json"


def snapshot() -> dict:
    """Every row and link the importer writes, with its values (``updated_at`` included)."""
    rows: dict = {model.__name__: list(model.objects.order_by("pk").values()) for model in (Army, Unit, Option)}
    rows.update({model.__name__: list(model.objects.order_by("pk").values()) for model in (Weapon, SpecialRule)})
    links = {
        "unit weapons": Unit.weapons.through,
        "unit rules": Unit.special_rules.through,
        "national rules": Army.national_rules.through,
        "weapon rules": Weapon.special_rules.through,
    }
    for name, through in links.items():
        rows[name] = list(through.objects.order_by("pk").values())
    return rows


def barracks_with(change) -> dict[str, bytes]:
    """The Barracks test data with ``change(units)`` applied to the Testland units file."""
    files = read_barracks()
    units = json.loads(files[UNITS])
    change(units)
    files[UNITS] = json.dumps(units).encode()
    return files


def raise_squad_cost(units) -> None:
    units["infantry"]["Infantry Squads and Teams"][0]["profiles"][0]["cost"]["regular"] = 55


def drop_truck(units) -> None:
    units["vehicles"]["Transports and Tows"] = []


@pytest.fixture
def imported():
    make_chart()
    import_files(read_barracks())


# the same data again


def test_it_changes_no_row_when_the_same_data_is_imported_again(imported):
    before = snapshot()
    import_files(read_barracks())
    assert snapshot() == before


def test_it_reports_everything_unchanged_on_a_second_import(imported):
    result = import_files(read_barracks()).catalogues[0]
    assert (result.units.unchanged, result.units.updated, result.units.created) == (6, 0, 0)
    assert (result.weapons_created, result.rules_created) == (0, 0)


def test_it_changes_nothing_when_battlescribe_data_is_imported_again():
    make_chart()
    files = read_battlescribe("profiles.cat", "shared_groups.cat", "army.cat")
    import_files(files)
    before = snapshot()
    import_files(files)
    assert snapshot() == before


# a newer version


def test_it_updates_a_changed_cost_in_place(imported):
    squad = Unit.objects.get(name="Rifle Squad")
    import_files(barracks_with(raise_squad_cost))
    updated = Unit.objects.get(pk=squad.pk)
    assert updated.cost_regular == 55
    assert updated.updated_at > squad.updated_at


def test_it_leaves_the_unchanged_units_untouched(imported):
    before = dict(Unit.objects.values_list("name", "updated_at"))
    import_files(barracks_with(raise_squad_cost))
    after = dict(Unit.objects.values_list("name", "updated_at"))
    assert {name for name in before if before[name] != after[name]} == {"Rifle Squad"}


def test_it_marks_a_unit_gone_from_the_data_as_removed(imported):
    import_files(barracks_with(drop_truck))
    truck = Unit.objects.get(name="Truck")
    assert truck.removed
    assert "Truck" not in Unit.objects.all().available().values_list("name", flat=True)


def test_it_brings_back_a_removed_unit_that_returns(imported):
    import_files(barracks_with(drop_truck))
    import_files(read_barracks())
    assert not Unit.objects.get(name="Truck").removed


def test_it_leaves_an_army_alone_when_the_data_has_no_units_for_it(imported):
    files = read_barracks()
    del files[UNITS]
    result = import_files(files).catalogues[0]
    assert Unit.objects.filter(removed=True).count() == 0
    assert "Armies of Testland: the data has no units for this army; its 6 units were left as they were" in (
        result.warnings
    )


def test_it_keeps_an_option_slug_when_the_option_is_renamed():
    make_chart()
    import_files(read_battlescribe("shared_groups.cat"))
    files = read_battlescribe("shared_groups.cat")
    files["shared_groups.cat"] = files["shared_groups.cat"].replace(b'name="Binoculars"', b'name="Field glasses"')
    import_files(files)
    assert Option.objects.get(source_id="s-binoculars").slug == "binoculars"


def test_it_deletes_an_option_gone_from_the_data(imported):
    def drop_spotter(units):
        units["infantry"]["Infantry Squads and Teams"][1]["options"] = []

    import_files(barracks_with(drop_spotter))
    assert not Option.objects.filter(name="Spotter").exists()


# saved lists


@pytest.fixture
def saved_list(imported):
    army = Army.objects.get(source_id="testland")
    army_list = make_list(None, army, name="Testland 500")
    make_entry(army_list, Unit.objects.get(name="Rifle Squad"), quality="regular", models_count=5)
    make_entry(army_list, Unit.objects.get(name="Truck"), quality="regular", models_count=1)
    return army_list


def test_it_keeps_a_saved_list_working_after_an_update(saved_list):
    import_files(barracks_with(lambda units: (raise_squad_cost(units), drop_truck(units))))
    summary = list_summary(ArmyList.objects.for_builder().get(pk=saved_list.pk))
    assert summary.points == 55 + 39
    assert not [problem for problem in summary.problems if problem.rule == "entry-points"]


def test_it_notes_a_changed_and_a_removed_unit_for_the_builder(saved_list):
    import_files(barracks_with(lambda units: (raise_squad_cost(units), drop_truck(units))))
    entries = ArmyList.objects.for_builder().get(pk=saved_list.pk).entries.all()
    notes = unit_change_notes(entries)
    assert {entry.unit.name: notes[entry.pk] for entry in entries} == {
        "Rifle Squad": ("Rifle Squad changed in the catalogue since this list was last saved: its points. Check them."),
        "Truck": "Truck is no longer in the latest catalogue data; it stays in this list as it was.",
    }


def test_it_notes_nothing_when_the_import_changed_nothing(saved_list):
    import_files(read_barracks())
    assert unit_change_notes(Entry.objects.filter(army_list=saved_list).select_related("unit", "army_list")) == {}


def test_it_reads_the_notes_without_a_query(saved_list, django_assert_num_queries):
    entries = list(ArmyList.objects.for_builder().get(pk=saved_list.pk).entries.all())
    with django_assert_num_queries(0):
        unit_change_notes(entries)


def test_it_stores_the_options_an_option_excludes_as_their_slugs():
    from tests.importers.helpers import BARRACKS

    make_chart()
    files = read_barracks()
    files[UNITS] = (BARRACKS.parent / "barracks_exclusive" / "units" / "testland.json").read_bytes()
    import_files(files)
    squad = Unit.objects.get(name="Grenadier Squad")
    excludes = {option.name: option.excludes for option in squad.options.all()}
    assert excludes["Anti-tank grenades (if no Panzerfausts taken)"] == [squad.options.get(name="Panzerfaust").slug]
    assert excludes["Panzerfaust"] == []
    before = snapshot()
    import_files(files)  # the same data again changes nothing
    assert snapshot() == before


# the same 3rd-edition data again (it said "1 army updated" and counted fewer rules)


@pytest.mark.parametrize("read", [read_nr3, read_bs3], ids=["nr3", "bs3"])
def test_the_same_data_again_reports_nothing_changed(read):
    make_chart("v3")
    first = import_files(read()).catalogues[0]
    before = snapshot()
    second = import_files(read()).catalogues[0]
    assert snapshot() == before
    assert (second.armies.unchanged, second.armies.updated) == (1, 0)
    assert second.rules_matched + second.rules_created == first.rules_matched + first.rules_created
    assert not second.changed and first.changed
    assert "  Nothing changed: the data is the same as at the last import." in second.lines()
    assert "  Nothing changed: the data is the same as at the last import." not in first.lines()


def test_it_leaves_a_players_own_units_in_an_imported_army_alone(imported):
    from tests.lists.factories import make_user

    alice = make_user("alice")
    army = Unit.objects.get(name="Truck").army
    own = Unit.objects.create(
        army=army, owner=alice, slug="own-truck", name="My Truck", unit_type="transport", slot="transport", source="t"
    )
    stamp = own.updated_at
    import_files(barracks_with(drop_truck))
    own.refresh_from_db()
    assert not own.removed and own.updated_at == stamp and own.owner == alice
