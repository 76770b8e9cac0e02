"""3rd-edition community data written into the catalogue: per-quality costs, slots, weapon lines, re-import."""

from __future__ import annotations

import pytest
from django.utils import translation

from armybuilder.catalogue.models import Army, Unit
from armybuilder.importers.writer import import_files
from armybuilder.lists.models import ArmyList
from armybuilder.lists.problems import display_problem
from armybuilder.lists.summary import list_summary
from tests.importers.test_nr3 import read_nr3
from tests.importers.test_writer import make_chart
from tests.lists.factories import make_entry, make_list, make_platoon

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


def test_the_game_systems_platoons_are_stored_on_the_army_and_validate_its_lists():
    make_chart("v3")
    import_files(read_nr3())
    army = Army.objects.get(source_id="nr3-testland")
    assert [force["kind"] for force in army.force_org] == ["rifle_platoon", "heavy_weapons_platoon", "armoured_platoon"]
    army_list = make_list(army=army, force_org="platoons", points_limit=5000)
    rifle = make_platoon(army_list, kind="rifle_platoon", name="1st Platoon")
    heavy = make_platoon(army_list, kind="heavy_weapons_platoon", name="Support")
    for name in ("Second Lieutenant", "Rifle Squad", "Rifle Squad", "Commissar"):
        make_entry(army_list, Unit.objects.get(name=name), platoon=rifle, quality="regular")
    make_entry(army_list, Unit.objects.get(name="Second Lieutenant"), platoon=heavy, quality="regular")
    for _ in range(5):
        make_entry(army_list, Unit.objects.get(name="Machine Gun Team"), platoon=heavy, quality="regular")
    for _ in range(4):
        make_entry(army_list, Unit.objects.get(name="Medium Mortar Team"), platoon=heavy, quality="regular")
    loaded = ArmyList.objects.for_builder().get(pk=army_list.pk)
    messages = [problem.message for problem in list_summary(loaded).problems]
    # The data's rule: 4 mortar teams leave room for 4 machine-gun teams, 5 of those for 3 mortar
    # teams. The commissar fills no squad slot, and the rifle platoon's two squads are enough.
    # Units sharing a name are numbered (``rules.army.names``), so the problem says which.
    assert messages == [
        "Support: a Heavy Weapons Platoon allows 0–4 Machine Gun Teams; it has 5 "
        "(Machine Gun Team #1, Machine Gun Team #2, Machine Gun Team #3, Machine Gun Team #4, Machine Gun Team #5).",
        "Support: a Heavy Weapons Platoon allows 0–3 Mortar Teams; it has 4 "
        "(Medium Mortar Team #1, Medium Mortar Team #2, Medium Mortar Team #3, Medium Mortar Team #4).",
    ]


def test_a_limit_read_from_the_data_is_shown_in_french_too():
    make_chart("v3")
    import_files(read_nr3())
    army = Army.objects.get(source_id="nr3-testland")
    army_list = make_list(army=army, force_org="platoons", points_limit=5000)
    make_platoon(army_list, kind="rifle_platoon", name="Alpha")
    loaded = ArmyList.objects.for_builder().get(pk=army_list.pk)
    problems = [p for p in list_summary(loaded).problems if p.rule.endswith("-min")]
    with translation.override("fr"):
        shown = [display_problem(problem) for problem in problems]
    # The data's category names are translated where Muster's tables use the same words.
    assert shown[0] == "Alpha : un Peloton de fusiliers doit compter 1 Chef de peloton ; il en compte 0."
