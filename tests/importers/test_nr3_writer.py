"""3rd-edition community data written into the catalogue: per-quality costs, slots, weapon lines, re-import."""

from __future__ import annotations

import pytest

from armybuilder.catalogue.models import Unit
from armybuilder.importers.writer import import_files
from tests.importers.test_nr3 import read_nr3
from tests.importers.test_writer import make_chart

pytestmark = pytest.mark.django_db


def test_it_stores_the_cost_of_each_offered_quality_and_nothing_else():
    make_chart("v3")
    import_files(read_nr3())
    sniper = Unit.objects.get(name="Sniper Team")
    assert (sniper.cost_inexperienced, sniper.cost_regular, sniper.cost_veteran) == (None, 50, 65)
    squad = Unit.objects.get(name="Rifle Squad")
    assert squad.base_cost() == {"inexperienced": 35, "regular": 50, "veteran": 65}
    assert squad.per_model_cost() == {"inexperienced": 7, "regular": 10, "veteran": 13}


def test_it_writes_no_unit_for_the_roster_setting_and_a_character_slot_for_the_commissar():
    make_chart("v3")
    import_files(read_nr3())
    assert not Unit.objects.filter(name="Configuration").exists()
    assert Unit.objects.get(name="Commissar").slot == "character"


def test_it_writes_one_weapon_line_per_mount():
    make_chart("v3")
    import_files(read_nr3())
    lines = Unit.objects.get(name="Panzer III").weapon_lines
    assert [(line["mount"], line["count"]) for line in lines] == [("turret", 1), ("coaxial", 1), ("hull", 1)]
    assert lines[1]["weapon"] == lines[2]["weapon"]


def test_importing_again_changes_nothing():
    make_chart("v3")
    import_files(read_nr3())
    stamps = dict(Unit.objects.values_list("name", "updated_at"))
    result = import_files(read_nr3())
    assert dict(Unit.objects.values_list("name", "updated_at")) == stamps
    assert result.catalogues[0].units.updated == 0
