"""A list's revision moves with every write that changes what its pages show, whoever makes it.

Kept PDFs and ETags are keyed by it (``lists.conditional``), so these writes go around the
builder's services on purpose: plain ORM saves, queryset updates, deletes, a catalogue edit.
"""

from __future__ import annotations

import pytest

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.lists.conditional import list_stamp
from armybuilder.lists.models import ArmyList, Entry, Platoon
from armybuilder.reference.models import SpecialRule, Weapon
from tests.lists.factories import make_user
from tests.playsheets.factories import make_playsheet_list, make_rules_edition

pytestmark = pytest.mark.django_db


@pytest.fixture
def army_list():
    make_rules_edition()
    return make_playsheet_list(make_user("alice"))


def _moves(army_list, write) -> bool:
    before = list_stamp(army_list.pk)
    write()
    return list_stamp(army_list.pk) != before


def test_an_entry_saved_directly_moves_it(army_list):
    entry = army_list.entries.order_by("position").first()

    def write():
        entry.name = "Lauri's men"
        entry.save()

    assert _moves(army_list, write)


def test_a_queryset_update_of_entries_moves_it(army_list):
    assert _moves(army_list, lambda: Entry.objects.filter(army_list=army_list).update(models_count=3))


def test_a_deleted_entry_or_platoon_moves_it(army_list):
    assert _moves(army_list, lambda: army_list.entries.order_by("-position").first().delete())
    assert _moves(army_list, lambda: Platoon.objects.filter(army_list=army_list).update(name="Renamed"))


def test_a_catalogue_edit_of_a_unit_it_takes_moves_it(army_list):
    unit = army_list.entries.first().unit

    def write():
        unit.cost_regular = (unit.cost_regular or 0) + 5
        unit.save()

    assert _moves(army_list, write)


# A queryset update of each catalogue table the list's pages read, on the rows this list reads.
CATALOGUE_UPDATES = {
    "army": lambda army_list: Army.objects.filter(pk=army_list.army_id).update(name="Suomi"),
    "unit": lambda army_list: Unit.objects.filter(entries__army_list=army_list).update(name="Jäkärit"),
    "option": lambda army_list: Option.objects.filter(unit__entries__army_list=army_list).update(cost_regular=9),
    "weapon": lambda army_list: Weapon.objects.filter(units__entries__army_list=army_list).update(range_max=30),
    "special rule": lambda army_list: SpecialRule.objects.filter(units__entries__army_list=army_list).update(
        name="Crew"
    ),
}


@pytest.mark.parametrize("table", list(CATALOGUE_UPDATES))
def test_a_queryset_update_of_each_catalogue_table_moves_it(army_list, table):
    assert _moves(army_list, lambda: CATALOGUE_UPDATES[table](army_list))


@pytest.mark.parametrize("table", list(CATALOGUE_UPDATES))
def test_the_list_query_alone_sees_each_catalogue_table(army_list, table):
    """Without the rules data's version: the one query of ``revisions()`` moves by itself."""
    before = ArmyList.objects.filter(pk=army_list.pk).revisions().get()
    CATALOGUE_UPDATES[table](army_list)
    assert ArmyList.objects.filter(pk=army_list.pk).revisions().get() != before


def test_an_added_or_removed_option_or_weapon_moves_it(army_list):
    squad = Unit.objects.get(name="Rifle Squad")
    assert _moves(army_list, lambda: Option.objects.create(unit=squad, slug="pf", name="Panzerfaust"))
    assert _moves(army_list, lambda: Option.objects.filter(unit=squad, slug="pf").delete())
    assert _moves(army_list, lambda: squad.weapons.clear())
    assert _moves(army_list, lambda: squad.special_rules.add(SpecialRule.objects.first()))


def test_a_save_that_changes_nothing_leaves_it(army_list):
    def write():
        for model in (Army, Unit, Option, Weapon, SpecialRule):
            for row in model.objects.all():
                row.save()

    assert not _moves(army_list, write)


def test_an_unrelated_write_leaves_it(army_list):
    other = make_playsheet_list(make_user("bob"), edition=army_list.edition)
    assert not _moves(army_list, lambda: Entry.objects.filter(army_list=other).update(models_count=2))


def test_one_query_reads_it(army_list, django_assert_num_queries):
    with django_assert_num_queries(1):
        list_stamp(army_list.pk)
    assert Unit.objects.exists()
