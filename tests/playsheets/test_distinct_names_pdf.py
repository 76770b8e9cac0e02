"""The roster PDF and the unit cards number units sharing a name, in English and French.

The factory list holds two "Rifle Squad" entries (``make_playsheet_list``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_roster_numbers_the_two_rifle_squads(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/roster.pdf?lang=en"))
    assert "Rifle Squad #1" in pdf.text and "Rifle Squad #2" in pdf.text
    assert "Medium Tank #" not in pdf.text
    # A number is not a player's name for the unit: its unit's name is not printed again beside it.
    assert "Rifle Squad · " not in pdf.text


def test_the_cards_number_them_in_french(alice_client, army_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=fr"))
    assert "Escouade de fusiliers #1" in pdf.text and "Escouade de fusiliers #2" in pdf.text
