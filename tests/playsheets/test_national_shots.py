"""National rules on the unit cards: a German machine gun prints its Hitler's Buzzsaw shot and names the rule."""

from __future__ import annotations

import pytest

from armybuilder.playsheets.context import list_context
from tests.playsheets.factories import make_playsheet_list
from tests.reference.factories import make_special_rule, make_weapon

pytestmark = pytest.mark.django_db


def _german_mg_list(edition, alice, *, german: bool = True):
    mmg = make_weapon(edition, name="Medium machine gun", name_fr="Mitrailleuse moyenne", slug="mmg", shots="6")
    army_list = make_playsheet_list(alice)
    tank = army_list.entries.get(unit__name="Medium Tank").unit
    tank.weapons.add(mmg)
    if german:
        buzzsaw = make_special_rule(edition, name="Hitler's Buzzsaw", slug="hitler-s-buzzsaw", name_fr="La scie")
        army_list.army.national_rules.add(buzzsaw)
    return army_list


def _tank_lines(army_list):
    units = list_context(army_list, paper="a4", parts=("cards",))["units"]
    return {line.name: line for line in next(u for u in units if u.name == "Medium Tank").weapons}


def test_a_german_mmg_card_prints_the_extra_shot_and_the_rule(edition, alice):
    lines = _tank_lines(_german_mg_list(edition, alice))
    mmg, gun = lines["Medium machine gun"], lines["Medium anti-tank gun"]
    # 3rd edition: the MMG's 6 shots, and one more for Hitler's Buzzsaw.
    assert (mmg.shots, mmg.rules.startswith("+1 shot: Hitler's Buzzsaw")) == ("7", True)
    assert (gun.shots, "Buzzsaw" in gun.rules) == ("1", False)


def test_another_army_prints_the_chart_figure(edition, alice):
    lines = _tank_lines(_german_mg_list(edition, alice, german=False))
    assert lines["Medium machine gun"].shots == "6" and "Buzzsaw" not in lines["Medium machine gun"].rules


def test_the_cards_pdf_names_the_rule_in_french_and_english(alice_client, edition, alice, read_pdf):
    army_list = _german_mg_list(edition, alice)
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=en"))
    assert "+1 shot: Hitler's Buzzsaw" in pdf.text
    french = read_pdf(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=fr"))
    assert "+1 tir : La scie d'Hitler" in french.text


def test_the_summarys_weapons_table_prints_the_same_figure(edition, alice):
    context = list_context(_german_mg_list(edition, alice), paper="a4", parts=("summary",))
    rows = {row.cells[0].text: row for row in context["used_weapons"].rows}
    mmg = [cell.text for cell in rows["Medium machine gun"].cells]
    assert "7" in mmg and any("+1 shot: Hitler's Buzzsaw" in text for text in mmg)
