"""An import moves what it really changes, and only that: a saved list's revision and its notes.

The same data imported again leaves every list's revision (its ETag, its kept PDFs) as it was
and notes nothing; a new option price moves the revision and notes the unit's options, not its
points or profile.
"""

from __future__ import annotations

import pytest

from armybuilder.catalogue.change_notes import unit_change_notes
from armybuilder.catalogue.models import Army, Unit
from armybuilder.importers.writer import import_files
from armybuilder.lists.conditional import list_stamp
from armybuilder.lists.models import ArmyList
from tests.importers.helpers import read_barracks
from tests.importers.test_writer import make_chart
from tests.importers.test_writer_updates import barracks_with
from tests.lists.factories import make_entry, make_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def saved_list():
    make_chart()
    import_files(read_barracks())
    army = Army.objects.get(source_id="testland")
    squad = Unit.objects.get(army=army, name="Rifle Squad")
    smg = squad.options.get(name="SMG (replaces rifle)")
    army_list = make_list(None, army, name="Testland 500")
    make_entry(army_list, squad, quality="regular", models_count=5, options={smg.slug: 1})
    make_entry(army_list, Unit.objects.get(army=army, name="Truck"), quality="regular")
    return army_list


def _notes(army_list):
    return unit_change_notes(ArmyList.objects.for_builder().get(pk=army_list.pk).entries.all())


def test_the_same_data_again_moves_nothing(saved_list):
    before = list_stamp(saved_list.pk)
    import_files(read_barracks())
    assert list_stamp(saved_list.pk) == before
    assert _notes(saved_list) == {}


def dearer_smg(units) -> None:
    squad = units["infantry"]["Infantry Squads and Teams"][0]
    next(o for o in squad["options"] if o["name"].startswith("SMG"))["cost"]["regular"] = 4


def test_a_new_option_price_moves_the_revision_and_notes_the_options(saved_list):
    before = list_stamp(saved_list.pk)
    import_files(barracks_with(dearer_smg))
    assert list_stamp(saved_list.pk) != before
    assert list(_notes(saved_list).values()) == [
        "Rifle Squad changed in the catalogue since this list was last saved: its options. Check them."
    ]
