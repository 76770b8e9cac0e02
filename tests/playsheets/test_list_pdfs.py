"""A list's roster, unit cards and playsheet as PDFs, read back with pypdf, in English and French.

The factory list: a veteran Platoon Commander (65 pts), two Rifle Squads of ten (103 pts with the
SMG option, 100 without) and a Medium Tank (195 pts): 463 of 1000 points and 4 order dice.
"""

from __future__ import annotations

import re

import pytest

from tests.playsheets.factories import make_playsheet_list

pytestmark = pytest.mark.django_db


def test_it_prints_the_roster_in_english(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/roster.pdf?lang=en"))
    assert pdf.pages == 1
    assert all(name in pdf.text for name in ("Sisu Company", "Platoon Commander", "Rifle Squad", "Medium Tank"))
    assert "points 463 / 1000" in pdf.lower
    assert "order dice 4" in pdf.lower


def test_it_prints_each_units_points_options_and_rules(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/roster.pdf?lang=en"))
    # Nine rifles and the NCO's SMG: how many men carry each weapon.
    assert "9× Rifle, Submachine gun SMG for the NCO – 103" in pdf.text
    assert "Medium anti-tank gun Team 195" in pdf.text


def test_it_prints_the_officers_bonus_orders_and_range(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/roster.pdf?lang=en"))
    assert "Platoon Commander Platoon Commander +2 2 6″ First Platoon" in pdf.text


def test_it_prints_the_lists_problems_in_a_warning_box(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/roster.pdf?lang=en"))
    assert "This list has problems" in pdf.text
    assert "has no place for Medium Tank" in pdf.text


def test_it_prints_the_roster_in_french(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/roster.pdf?lang=fr"))
    assert all(name in pdf.text for name in ("Sisu Company", "Chef de section", "Escouade de fusiliers", "Char moyen"))
    assert "dés d'ordre 4" in pdf.lower
    assert "points 463 / 1000" in pdf.lower
    assert "Finlande · 3e édition" in pdf.text


def test_it_puts_the_list_name_and_page_numbers_in_the_footer(alice_client, read_pdf, alice, edition):
    army_list = make_playsheet_list(alice, squads=30)
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/roster.pdf"))
    assert 2 <= pdf.pages <= 3
    assert f"Sisu Company · Finland · 3rd edition 2 / {pdf.pages}" in pdf.text


def test_it_prints_unit_cards_with_weapon_profiles(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=en"))
    assert pdf.pages == 1
    assert 'Medium anti-tank gun 60" 1 +5 / HE (1") Team' in pdf.text
    assert 'Submachine gun 12" 2 – Assault' in pdf.text


def test_it_prints_damage_value_morale_and_the_officers_bonus_on_cards(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=en"))
    assert "Medium Tank 195 pts" in pdf.text
    assert "morale 9 damage value 9+" in pdf.lower
    assert "morale 10 damage value 5+" in pdf.lower
    # The veteran officer's own 10 plus his +2 is held at the 3rd edition's cap of 11.
    assert "+2 within 6″ of Platoon Commander (morale 11)" in pdf.text
    assert "casualties" in pdf.lower and "pins" in pdf.lower


def test_it_prints_unit_cards_in_french(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=fr"))
    assert 'Pistolet mitrailleur 12" 2 – Assaut' in pdf.text
    assert "valeur de dégâts 9+" in pdf.lower
    assert "(moral 11)" in pdf.text
    assert "pertes" in pdf.lower and "marqueurs pin" in pdf.lower
    assert "Fiches d'unité de Sisu Company : découpez le long des pointillés." in pdf.text


def test_it_puts_several_cards_on_each_page(alice_client, read_pdf, alice, edition):
    army_list = make_playsheet_list(alice, squads=10)
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/cards.pdf"))
    assert 2 <= pdf.pages <= 3
    # Ten squads of one name: numbered #1 to #10 (``rules.army.names``); #1 has the SMG option.
    assert len(re.findall(r"Rifle Squad #(?:[2-9]|10) 100 pts", pdf.text)) == 9


def test_it_prints_the_playsheet_with_a_summary_of_the_lists_rules(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/playsheet.pdf?lang=en"))
    assert pdf.pages == 2
    assert "Point-blank range +2 Firer is pinned −1" in pdf.text
    assert "Regular infantry 4 Medium tank 9" in pdf.text
    assert "Assault No penalty for firing on the move." in pdf.text
    assert 'Submachine gun 12" 2 – Assault Rifle Squad' in pdf.text


def test_it_leaves_tables_the_list_does_not_need_out_of_the_summary(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/playsheet.pdf?lang=en"))
    assert "Immobilised" not in pdf.text
    assert "Shoot at full effect" not in pdf.text


def test_it_prints_the_playsheet_in_french(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/playsheet.pdf?lang=fr"))
    assert "Bout portant +2 Tireur sous PIN −1" in pdf.text
    assert "Infanterie régulière 4 Char moyen 9" in pdf.text
    assert "Utilisée par" in pdf.text


def test_it_prints_the_chosen_parts_in_one_pdf(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/print.pdf?parts=roster&parts=reference&paper=letter"))
    assert pdf.pages == 2
    assert "Sisu Company" in pdf.text and "Shoot at full effect" in pdf.text
    assert pdf.page_size() == (612, 792)


def test_it_offers_the_pdf_as_a_download_when_asked(alice_client, army_list):
    response = alice_client.get(f"/lists/{army_list.pk}/print.pdf?download=1")
    assert response["Content-Disposition"] == 'attachment; filename="sisu-company-print-en-a4.pdf"'


def test_it_shows_the_pdf_inline_by_default(alice_client, army_list):
    response = alice_client.get(f"/lists/{army_list.pk}/roster.pdf?lang=fr&paper=letter")
    assert response["Content-Disposition"] == 'inline; filename="sisu-company-roster-fr-letter.pdf"'
