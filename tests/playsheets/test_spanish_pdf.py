"""The roster PDF and the unit cards in Spanish: the interface's words and the built-in names.

Read back with pypdf: a Spanish list of the 2nd-edition national armies (Barracks data), its names
composed from ``armydata.glossary_es`` as the PDF is made (noun first: "carro", "torreta").
"""

from __future__ import annotations

import pytest
from django.test import Client

from armybuilder.catalogue.models import Army, Unit
from tests.builtin_data import V2_NATIONS, module_data
from tests.lists.factories import make_entry, make_list, make_platoon, make_user

built_in = module_data(*V2_NATIONS)


@pytest.fixture
def client_and_list(built_in, db):
    owner = make_user("pilar")
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
def test_the_roster_pdf_prints_spanish_words_and_names(client_and_list, read_pdf):
    client, army_list = client_and_list
    pdf = read_pdf(client.get(f"/lists/{army_list.pk}/roster.pdf?lang=es"))
    assert "Escuadra de granaderos (Heer)" in pdf.text
    assert "Fusil de asalto" in pdf.text
    assert "Granadas antitanque (si no se toma Panzerfaust)" in pdf.text
    assert "Panzer IV Ausf H" in pdf.text  # a designation reads the same in Spanish
    assert "dados de orden" in pdf.lower
    assert "Assault rifle" not in pdf.text and "Heer Grenadier Squad" not in pdf.text


@pytest.mark.django_db
def test_the_cards_print_spanish_mounts(client_and_list, read_pdf):
    client, army_list = client_and_list
    pdf = read_pdf(client.get(f"/lists/{army_list.pk}/cards.pdf?lang=es"))
    assert "Escuadra de granaderos (Heer)" in pdf.text
    assert "(torreta, 360°)" in pdf.text and "(casco, frente)" in pdf.text  # the Panzer IV's gun and hull MMG
    assert "turret" not in pdf.lower
