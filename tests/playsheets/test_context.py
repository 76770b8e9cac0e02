"""The print data, without rendering: what each part shows, in which language, for how many queries."""

from __future__ import annotations

import pytest
from django.utils import translation

from armybuilder.lists.models import ArmyList
from armybuilder.playsheets.columns import fit_columns
from armybuilder.playsheets.context import format_cell, list_context, reference_sheet_context
from tests.lists.factories import make_platoon
from tests.playsheets.factories import make_playsheet_list


def _loaded(army_list: ArmyList) -> ArmyList:
    return ArmyList.objects.for_builder().get(pk=army_list.pk)


@pytest.mark.django_db
def test_it_lists_weapons_granted_by_the_options_taken(army_list):
    context = list_context(_loaded(army_list), paper="a4")
    squads = [unit for unit in context["units"] if unit.unit_name == "Rifle Squad"]
    assert [w.name for w in squads[0].weapons] == ["9× Rifle", "Submachine gun"]
    assert [w.name for w in squads[1].weapons] == ["10× Rifle"]


@pytest.mark.django_db
def test_it_notes_the_officers_bonus_only_for_his_platoon_in_the_third_edition(army_list):
    second = make_platoon(army_list, kind="rifle_platoon", name="Second Platoon")
    army_list.entries.exclude(unit__officer_rank="platoon_commander").update(platoon=second)
    units = list_context(_loaded(army_list), paper="a4")["units"]
    assert [len(unit.officer_notes) for unit in units] == [1, 0, 0, 0]


@pytest.mark.django_db
def test_it_gives_vehicles_no_casualty_boxes(army_list):
    units = {unit.unit_name: unit for unit in list_context(_loaded(army_list), paper="a4")["units"]}
    assert units["Medium Tank"].casualty_boxes == 0
    assert units["Rifle Squad"].casualty_boxes == 10
    assert units["Rifle Squad"].pin_boxes == 9


@pytest.mark.django_db
def test_it_summarises_only_the_weapons_and_rules_the_list_uses(army_list):
    context = list_context(_loaded(army_list), paper="a4", parts=("summary",))
    assert [row.texts[0] for row in context["used_weapons"].rows] == ["Rifle", "Submachine gun", "Medium anti-tank gun"]
    assert [rule.name for rule in context["used_rules"]] == ["Assault", "Team"]
    assert [table.slug for table in context["summary_tables"]] == ["hit-modifiers", "damage-values"]


@pytest.mark.django_db
def test_it_builds_the_sheet_in_the_active_language(edition):
    with translation.override("fr"):
        context = reference_sheet_context(edition, paper="letter")
    orders = context["sections"][0].tables[0]
    assert orders.title == "Ordres"
    assert orders.rows[0].texts == ["1", "Feu", "Shoot at full effect"]
    assert context["paper"] == "letter"


@pytest.mark.django_db
def test_it_drops_a_column_no_row_fills_in(edition):
    edition.tables.get(slug="orders").rows.update(cells={"number": 1, "order": "Fire", "summary": ""})
    orders = reference_sheet_context(edition, paper="a4")["sections"][0].tables[0]
    assert [column.label for column in orders.columns] == ["Die", "Order"]


@pytest.mark.django_db
def test_it_reads_a_list_in_a_fixed_number_of_queries(army_list, edition, django_assert_num_queries):
    big = make_playsheet_list(army_list.owner, squads=12)
    loaded_small, loaded_big = _loaded(army_list), _loaded(big)
    # The loaded list brings its weapons' rules (who fires what reads them). 1: the army's national
    # rules; 2-3: the summary page's tables and their rows; 4-7: the quick reference's tables, rows,
    # weapons and weapon rules.
    with django_assert_num_queries(7):
        list_context(loaded_small, paper="a4", parts=("roster", "summary", "cards", "reference"))
    with django_assert_num_queries(7):
        list_context(loaded_big, paper="a4", parts=("roster", "summary", "cards", "reference"))


def test_it_signs_modifiers_with_a_real_minus():
    assert [format_cell("value", v) for v in (2, -1, 0)] == ["+2", "−1", "0"]
    assert format_cell("damage_value", 4) == "4"
    assert format_cell("notes", None) == "–"


def test_it_gives_the_spare_width_to_the_wordy_column():
    rows = [["Point-blank range", "+2", "A long note that would wrap over several lines if squeezed"]] * 3
    widths = fit_columns(["Situation", "Modifier", "Notes"], rows, [False, True, False], line_chars=70)
    assert round(sum(widths)) == 100
    assert widths[2] > widths[0] > widths[1]
