"""The Italian bonus on the unit cards: a Bersaglieri squad of a Combattere list names its Fire and Manoeuvre."""

from __future__ import annotations

import pytest

from armybuilder.playsheets.context import list_context
from tests.lists.factories import make_entry, make_unit
from tests.playsheets.factories import make_playsheet_list, make_rules_edition
from tests.reference.factories import make_special_rule

pytestmark = pytest.mark.django_db


@pytest.fixture
def v2(db):
    return make_rules_edition("v2")


def _italian_list(edition, alice, choice: str):
    army_list = make_playsheet_list(alice, edition=edition, national_choice=choice)
    army_list.army.national_rules.add(
        make_special_rule(edition, name="Cedere, Obbedire, Combattere", slug="cedere-obbedire-combattere")
    )
    rifle = edition.weapons.get(slug="rifle")
    bersaglieri = make_unit(army_list.army, name="Bersaglieri Infantry Section", name_fr="Section Bersaglieri")
    bersaglieri.weapons.set([rifle])
    make_entry(army_list, bersaglieri, models_count=10, position=20)
    return army_list


def _card(army_list, name: str):
    return next(u for u in list_context(army_list, paper="a4", parts=("cards",))["units"] if u.name.startswith(name))


def test_a_bersaglieri_card_names_the_rule_its_list_chose(v2, alice):
    army_list = _italian_list(v2, alice, "combattere")
    card = _card(army_list, "Bersaglieri Infantry Section")
    assert "Fire and Manoeuvre (Combattere)" in card.special_rules
    rifle = next(line for line in card.weapons if line.name.split("× ")[-1] == "Rifle")  # "9× Rifle"
    assert rifle.rules.startswith("No −1 for Advancing: Fire and Manoeuvre (Combattere)")
    # The list's other squads are not Bersaglieri; the Veteran officer is not named as one.
    assert "Fire and Manoeuvre (Combattere)" not in _card(army_list, "Rifle Squad").special_rules
    assert not any("Combattere" in r for r in _card(army_list, "Platoon Commander").special_rules)


def test_another_bonus_prints_what_it_gives(v2, alice):
    army_list = _italian_list(v2, alice, "cedere")
    assert "Fire and Manoeuvre (Combattere)" not in _card(army_list, "Bersaglieri Infantry Section").special_rules
    # Cedere: Regular HQ units are Fanatics; the playsheet's officer is a Veteran, so a Regular one is added.
    officer = army_list.entries.get(unit__name="Platoon Commander")
    officer.quality = "regular"
    officer.save()
    assert "Fanatics (Cedere)" in _card(army_list, "Platoon Commander").special_rules


def test_the_cards_pdf_names_the_rule_in_english_and_french(alice_client, v2, alice, read_pdf):
    army_list = _italian_list(v2, alice, "combattere")
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=en"))
    assert "Fire and Manoeuvre (Combattere)" in pdf.text
    french = read_pdf(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=fr"))
    assert "Tir et mouvement (Combattere)" in french.text


def test_an_alpini_veteran_hq_prints_stubborn_and_mountaineers(v2, alice):
    # Obbedire: the player names the Veteran officer as an Alpini one; Mountaineers is named, not modelled.
    army_list = _italian_list(v2, alice, "obbedire")
    army_list.entries.filter(unit__name="Platoon Commander").update(name="Tenente degli Alpini")
    card = _card(army_list, "Tenente degli Alpini")
    assert card.special_rules[-2:] == ["Stubborn (Obbedire)", "Mountaineers (Obbedire)"]
    assert not any("Obbedire" in r for r in _card(army_list, "Bersaglieri Infantry Section").special_rules)
