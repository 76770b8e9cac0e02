"""The built-in armies' unit and option names in French on every page, and in English as before.

Loads the 2nd-edition national armies (generated from the Barracks data, their French from
``armydata.glossary_fr``) and builds a German list with a Heer Grenadier Squad (an assault rifle,
anti-tank grenades "if no Panzerfaust taken") and a mortar team with its spotter.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from armybuilder.catalogue.models import Army, Unit
from armybuilder.games.models import Game
from tests.builtin_data import V2_NATIONS, module_data
from tests.lists.factories import make_entry, make_list, make_platoon, make_user

GRENADIERS_OPTIONS = {"assault-rifle": 1, "anti-tank-grenades-if-no-panzerfaust-taken": 1}


built_in = module_data(*V2_NATIONS)


@pytest.fixture
def german_list(built_in, db):
    owner = make_user("hans")
    army = Army.objects.get_by_natural_key("v2", "germany")
    army_list = make_list(owner, army, name="Kampfgruppe")
    platoon = make_platoon(army_list, kind="reinforced_platoon")
    grenadiers = Unit.objects.get_by_natural_key("v2", "germany", "heer-grenadier-squad")
    mortar = Unit.objects.get_by_natural_key("v2", "germany", "medium-mortar-team")
    squad = make_entry(army_list, grenadiers, platoon=platoon, position=0, options=GRENADIERS_OPTIONS)
    make_entry(army_list, mortar, platoon=platoon, position=1, options={"spotter": 1})
    return army_list, squad


def _client(army_list, language: str) -> Client:
    client = Client()
    client.force_login(army_list.owner)
    client.cookies["django_language"] = language
    return client


FRENCH = ("Escouade de grenadiers (Heer)", "Fusil d&#x27;assaut", "Équipe de mortier moyen", "Observateur")
ENGLISH = ("Heer Grenadier Squad", "Assault rifle", "Medium Mortar Team", "Spotter")


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "names"), [("fr", FRENCH), ("en", ENGLISH)])
def test_the_builders_rows_name_units_and_options_in_the_visitors_language(german_list, language, names):
    army_list, _squad = german_list
    html = _client(army_list, language).get(f"/lists/{army_list.pk}/").content.decode()
    for name in names:
        assert name in html
    other = ENGLISH if language == "fr" else FRENCH
    assert not any(name in html for name in other[:1] + other[2:3])


@pytest.mark.django_db
def test_the_open_editor_offers_the_options_in_french(german_list):
    army_list, squad = german_list
    html = _client(army_list, "fr").get(f"/lists/{army_list.pk}/", {"edit": squad.pk}).content.decode()
    assert "Grenades antichar (si pas de Panzerfaust)" in html
    assert "Fusil d&#x27;assaut" in html
    assert "Pistolet mitrailleur (SMG)" in html
    assert "Anti-tank grenades" not in html and "Assault rifle" not in html


@pytest.mark.django_db
def test_the_catalogue_finds_a_unit_by_its_french_name(german_list):
    army_list, _squad = german_list
    client = _client(army_list, "fr")
    url = f"/lists/{army_list.pk}/catalogue/"
    html = client.get(url, {"q": "grenadiers"}, headers={"HX-Request": "true"}).content.decode()
    assert "Escouade de grenadiers (Heer)" in html


@pytest.mark.django_db
def test_the_shared_page_and_text_export_are_in_french(german_list):
    army_list, _squad = german_list
    client = _client(army_list, "fr")
    shared = client.get(f"/s/{army_list.share_token}/").content.decode()
    assert "Escouade de grenadiers (Heer)" in shared and "Observateur" in shared
    text = client.get(f"/lists/{army_list.pk}/export.txt").content.decode()
    assert "Grenades antichar (si pas de Panzerfaust)" in text


@pytest.mark.django_db
def test_the_game_board_names_units_in_the_visitors_language(german_list):
    army_list, _squad = german_list
    english = _client(army_list, "en")
    data = {"my_name": "Hans", "opponent": "dice", "opponent_name": "Bob", "opponent_dice": "3"}
    response = english.post(f"/games/new/?list={army_list.pk}", data)
    game_url = response["Location"]
    assert Game.objects.filter(pk=int(re.search(r"/games/(\d+)/", game_url).group(1))).exists()
    assert "Heer Grenadier Squad" in english.get(game_url).content.decode()
    # Started in English, read in French: the names frozen at the start in both languages.
    french = _client(army_list, "fr").get(game_url).content.decode()
    assert "Escouade de grenadiers (Heer)" in french and "Équipe de mortier moyen" in french
    assert "Heer Grenadier Squad" not in french


@pytest.mark.django_db
def test_the_odds_page_names_the_unit_in_french(german_list):
    army_list, squad = german_list
    html = _client(army_list, "fr").get("/calc/shooting/", {"from_entry": squad.pk}).content.decode()
    assert "Escouade de grenadiers (Heer)" in html
