"""The roster PDF and the unit cards print the built-in armies' unit and option names in French.

Read back with pypdf: a German list of the 2nd-edition national armies (Barracks data, French
from ``armydata.glossary_fr``)."""

from __future__ import annotations

import pytest
from django.test import Client

from armybuilder.catalogue.models import Army, Unit
from tests.builtin_data import V2_NATIONS, module_data
from tests.lists.factories import make_entry, make_list, make_platoon, make_user

built_in = module_data(*V2_NATIONS)


@pytest.fixture
def client_and_list(built_in, db):
    owner = make_user("hans")
    army_list = make_list(owner, Army.objects.get_by_natural_key("v2", "germany"), name="Kampfgruppe")
    platoon = make_platoon(army_list, kind="reinforced_platoon")
    grenadiers = Unit.objects.get_by_natural_key("v2", "germany", "heer-grenadier-squad")
    options = {"assault-rifle": 1, "anti-tank-grenades-if-no-panzerfaust-taken": 1}
    make_entry(army_list, grenadiers, platoon=platoon, options=options)
    make_entry(army_list, Unit.objects.get_by_natural_key("v2", "germany", "panzer-iv-ausf-h"), platoon=platoon)
    client = Client()
    client.force_login(owner)
    return client, army_list


@pytest.mark.django_db
def test_the_roster_pdf_prints_french_unit_and_option_names(client_and_list, read_pdf):
    client, army_list = client_and_list
    pdf = read_pdf(client.get(f"/lists/{army_list.pk}/roster.pdf?lang=fr"))
    assert "Escouade de grenadiers (Heer)" in pdf.text
    assert "Fusil d'assaut" in pdf.text
    assert "Grenades antichar (si pas de Panzerfaust)" in pdf.text
    assert "Panzer IV Ausf H" in pdf.text  # a designation reads the same in French
    assert "Assault rifle" not in pdf.text and "Heer Grenadier Squad" not in pdf.text


@pytest.mark.django_db
def test_the_cards_print_french_names_and_the_english_ones_stay_english(client_and_list, read_pdf):
    client, army_list = client_and_list
    french = read_pdf(client.get(f"/lists/{army_list.pk}/cards.pdf?lang=fr"))
    assert "Escouade de grenadiers (Heer)" in french.text
    assert "Grenades antichar (si pas de Panzerfaust)" in french.text
    english = read_pdf(client.get(f"/lists/{army_list.pk}/cards.pdf?lang=en"))
    assert "Heer Grenadier Squad" in english.text
    assert "Anti-tank grenades (if no Panzerfaust taken)" in english.text
