"""A list's revision moves with every write that changes what its pages show, whoever makes it.

Kept PDFs and ETags are keyed by it (``lists.conditional``), so these writes go around the
builder's services on purpose: plain ORM saves, queryset updates, deletes, a catalogue edit.
"""

from __future__ import annotations

import pytest

from armybuilder.catalogue.models import Unit
from armybuilder.lists.conditional import list_stamp
from armybuilder.lists.models import Entry, Platoon
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


def test_an_unrelated_write_leaves_it(army_list):
    other = make_playsheet_list(make_user("bob"), edition=army_list.edition)
    assert not _moves(army_list, lambda: Entry.objects.filter(army_list=other).update(models_count=2))


def test_one_query_reads_it(army_list, django_assert_num_queries):
    with django_assert_num_queries(1):
        list_stamp(army_list.pk)
    assert Unit.objects.exists()
