"""Every language Muster offers, as a visitor gets it: from the browser, switched on any page, kept.

Pages go through the test client with the ``django_language`` cookie (or ``Accept-Language``).
``make test`` compiles the catalogues before pytest runs. The home page, a builder page (a German
list of the built-in 2nd-edition armies, whose names German and Spanish compose from
``glossary_de`` and ``glossary_es``) and the reference index are read in German and in Spanish
with a few of their strings, and none of a short list of English ones. A language joins ``PAGES``
when its catalogues are complete (tests/test_translation_coverage.py); until then its pages carry
its ``lang`` and the switch.
"""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.utils import translation

from armybuilder.catalogue.models import Army, Unit
from armybuilder.lists.problems import _grouped
from armybuilder.resolver.charts import percent
from tests.builtin_data import V2_NATIONS, module_data
from tests.lists.factories import make_entry, make_list, make_platoon, make_user

NEW_LANGUAGES = ["de", "pl", "es", "it"]
# Each language as the switch names it: in itself.
SELF_NAMES = {"en": "English", "fr": "Français", "de": "Deutsch", "pl": "Polski", "es": "Español", "it": "Italiano"}

# Per page: strings the language shows, and English it must not show.
PAGES = {
    "de": {
        "home": (
            ["Erstelle Bolt-Action-Armeelisten", "Regelreferenz", "Meine Listen", "Wahrscheinlichkeiten"],
            ["Build Bolt Action army lists", "Rules reference", "My lists"],
        ),
        "builder": (
            [
                "Einheiten hinzufügen",
                "Befehlswürfel",
                "Grenadiertrupp (Heer)",
                "Sturmgewehr",
                "Team mittlerer Mörser",
                "Deutschland",
            ],
            ["Add units", "Order dice", "Heer Grenadier Squad", "Medium Mortar Team", "Assault rifle"],
        ),
        "reference": (
            ["Jede Kurzreferenztabelle jeder Edition", "2. Edition", "Druckbares Kurzreferenzblatt (PDF):"],
            ["Every quick-reference table for each edition", "2nd edition", "Printable quick-reference sheet"],
        ),
    },
    "es": {
        "home": (
            ["Crea listas de ejército de Bolt Action", "Referencia de reglas", "Mis listas", "Probabilidades"],
            ["Build Bolt Action army lists", "Rules reference", "My lists"],
        ),
        "builder": (
            [
                "Añadir unidades",
                "Dados de orden",
                "Escuadra de granaderos (Heer)",
                "Fusil de asalto",
                "Equipo de mortero medio",
                "Alemania",
            ],
            ["Add units", "Order dice", "Heer Grenadier Squad", "Medium Mortar Team", "Assault rifle"],
        ),
        "reference": (
            [
                "Todas las tablas de referencia rápida de cada edición",
                "2.ª edición",
                "Hoja de referencia rápida imprimible (PDF):",
            ],
            ["Every quick-reference table for each edition", "2nd edition", "Printable quick-reference sheet"],
        ),
    },
    "it": {
        "home": (
            ["Crea liste d'esercito per Bolt Action", "Consultazione delle regole", "Le mie liste", "Probabilità"],
            ["Build Bolt Action army lists", "Rules reference", "My lists"],
        ),
        "builder": (
            [
                "Aggiungi unità",
                "Dadi ordine",
                "Plotone rinforzato",
                "Squadra granatieri (Heer)",
                "Fucile d'assalto",
                "Squadra mortaio medio",
                "Germania",
            ],
            ["Add units", "Order dice", "Reinforced Platoon", "Heer Grenadier Squad", "Medium Mortar Team"],
        ),
        "reference": (
            [
                "Ogni tabella di consultazione rapida per ogni edizione",
                "2ª edizione",
                "Scheda di consultazione rapida stampabile (PDF):",
            ],
            ["Every quick-reference table for each edition", "2nd edition", "Printable quick-reference sheet"],
        ),
    },
    "pl": {
        "home": (
            ["Buduj rozpiski armii do Bolt Action", "Przegląd zasad", "Moje rozpiski", "Szanse"],
            ["Build Bolt Action army lists", "Rules reference", "My lists"],
        ),
        "builder": (
            [
                "Dodaj jednostki",
                "Kości rozkazów",
                "Drużyna grenadierów (Heer)",
                "Karabin szturmowy",
                "Zespół średniego moździerza",
                "Niemcy",
            ],
            ["Add units", "Order dice", "Heer Grenadier Squad", "Medium Mortar Team", "Assault rifle"],
        ),
        "reference": (
            ["Każda tabela skrócona dla każdej edycji", "2. edycja", "Karta skróconych zasad do druku (PDF):"],
            ["Every quick-reference table for each edition", "2nd edition", "Printable quick-reference sheet"],
        ),
    },
}


built_in = module_data(*V2_NATIONS)


@pytest.fixture
def german_list(built_in, db):
    army = Army.objects.get_by_natural_key("v2", "germany")
    army_list = make_list(make_user("hans"), army, name="Kampfgruppe")
    platoon = make_platoon(army_list, kind="reinforced_platoon")
    grenadiers = Unit.objects.get_by_natural_key("v2", "germany", "heer-grenadier-squad")
    mortar = Unit.objects.get_by_natural_key("v2", "germany", "medium-mortar-team")
    make_entry(army_list, grenadiers, platoon=platoon, position=0, options={"assault-rifle": 1})
    make_entry(army_list, mortar, platoon=platoon, position=1, options={"spotter": 1})
    return army_list


def page(client: Client, url: str, **headers: str) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, url
    return html.unescape(response.content.decode())


def in_language(language: str, army_list=None) -> Client:
    client = Client()
    if army_list is not None:
        client.force_login(army_list.owner)
    client.cookies["django_language"] = language
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("language", NEW_LANGUAGES)
def test_the_cookie_chooses_the_pages_language(language: str) -> None:
    text = page(in_language(language), "/")
    assert f'<html lang="{language}"' in text


@pytest.mark.django_db
@pytest.mark.parametrize("language", NEW_LANGUAGES)
def test_the_browsers_language_is_the_default(client, language: str) -> None:
    text = page(client, "/", **{"accept-language": f"{language}-XX,{language};q=0.9,en;q=0.5"})
    assert f'<html lang="{language}"' in text


@pytest.mark.django_db
@pytest.mark.parametrize("language", NEW_LANGUAGES)
def test_the_switch_on_every_page_offers_each_language_in_itself(client, language: str) -> None:
    text = page(in_language(language), "/reference/")
    for code, name in SELF_NAMES.items():
        assert f'<option value="{code}" lang="{code}"' in text
        assert f">{name}</option>" in text
    assert f'<option value="{language}" lang="{language}" selected>' in text


@pytest.mark.django_db
@pytest.mark.parametrize("language", NEW_LANGUAGES)
def test_a_switched_language_is_remembered(client, language: str) -> None:
    # The browser asks for English; the visitor switches, and the choice outlasts the page.
    response = client.post("/i18n/setlang/", {"language": language, "next": "/reference/"})
    assert response.status_code == 302 and response["Location"] == "/reference/"
    assert client.cookies["django_language"].value == language
    for url in ("/reference/", "/"):
        assert f'<html lang="{language}"' in page(client, url, **{"accept-language": "en"})


@pytest.mark.parametrize("language", sorted(PAGES))
def test_the_home_page_speaks_the_language(built_in, db, language: str) -> None:
    present, absent = PAGES[language]["home"]
    text = page(in_language(language), "/")
    assert f'<html lang="{language}"' in text
    assert [s for s in present if s not in text] == []
    assert [s for s in absent if s in text] == []


@pytest.mark.parametrize("language", sorted(PAGES))
def test_the_builder_speaks_the_language_with_its_unit_names(german_list, language: str) -> None:
    present, absent = PAGES[language]["builder"]
    text = page(in_language(language, german_list), f"/lists/{german_list.pk}/")
    assert f'<html lang="{language}"' in text
    assert [s for s in present if s not in text] == []
    assert [s for s in absent if s in text] == []


@pytest.mark.parametrize("language", sorted(PAGES))
def test_the_reference_speaks_the_language(built_in, db, language: str) -> None:
    present, absent = PAGES[language]["reference"]
    text = page(in_language(language), "/reference/")
    assert [s for s in present if s not in text] == []
    assert [s for s in absent if s in text] == []


def test_a_reference_table_names_itself_and_its_columns_in_german(built_in, db) -> None:
    # The cells keep the English of the data (no German cells yet); the title and heads are German.
    text = page(in_language("de"), "/reference/v2/movement/")
    assert "Bewegungsweiten" in text and "Vorrücken (Zoll)" in text and "Rennen (Zoll)" in text
    assert "Movement rates" not in text and "Advance (inches)" not in text


def test_the_builders_search_finds_a_unit_by_its_german_name(german_list) -> None:
    client = in_language("de", german_list)
    url = f"/lists/{german_list.pk}/catalogue/"
    found = page(client, f"{url}?q=grenadiertrupp", **{"HX-Request": "true"})
    assert "Grenadiertrupp (Heer)" in found
    assert "Team mittlerer Mörser" not in found  # the catalogue was filtered, not listed whole
    assert "Team mittlerer Mörser" in page(client, f"{url}?q=mörser", **{"HX-Request": "true"})


def test_the_builders_search_finds_a_unit_by_its_spanish_name(german_list) -> None:
    client = in_language("es", german_list)
    url = f"/lists/{german_list.pk}/catalogue/"
    found = page(client, f"{url}?q=granaderos", **{"HX-Request": "true"})
    assert "Escuadra de granaderos (Heer)" in found
    assert "Equipo de mortero medio" not in found  # the catalogue was filtered, not listed whole
    assert "Equipo de mortero medio" in page(client, f"{url}?q=mortero", **{"HX-Request": "true"})


@pytest.mark.parametrize(
    ("language", "odds", "points"),
    [
        ("en", "58.3%", "1,250"),
        ("fr", "58,3\u00a0%", "1\u202f250"),
        ("de", "58,3\u00a0%", "1.250"),
        ("pl", "58,3%", "1\u00a0250"),
        ("es", "58,3\u00a0%", "1\u00a0250"),
        ("it", "58,3%", "1.250"),
    ],
)
def test_numbers_are_written_as_each_language_writes_them(language: str, odds: str, points: str) -> None:
    with translation.override(language):
        assert percent("7/12") == odds
        assert _grouped(1250) == points


def test_the_shared_page_text_export_and_game_board_name_units_in_german(german_list) -> None:
    german = in_language("de", german_list)
    shared = page(german, f"/s/{german_list.share_token}/")
    assert "Grenadiertrupp (Heer)" in shared and "Beobachter" in shared
    assert "Sturmgewehr" in page(german, f"/lists/{german_list.pk}/export.txt")
    # A game started in English reads in German: the names are frozen at the start in every
    # language with a glossary.
    english = in_language("en", german_list)
    data = {"my_name": "Hans", "opponent": "dice", "opponent_name": "Bob", "opponent_dice": "3"}
    game_url = english.post(f"/games/new/?list={german_list.pk}", data)["Location"]
    assert "Heer Grenadier Squad" in page(english, game_url)
    board = page(german, game_url)
    assert "Grenadiertrupp (Heer)" in board and "Team mittlerer Mörser" in board
    assert "Heer Grenadier Squad" not in board


def test_the_odds_page_names_the_unit_in_german(german_list) -> None:
    squad = german_list.entries.get(unit__slug="heer-grenadier-squad")
    text = page(in_language("de", german_list), f"/calc/shooting/?from_entry={squad.pk}")
    assert "Grenadiertrupp (Heer)" in text and "Schieß-Wahrscheinlichkeiten" in text


def test_the_builders_search_finds_a_unit_by_its_italian_name(german_list) -> None:
    client = in_language("it", german_list)
    url = f"/lists/{german_list.pk}/catalogue/"
    found = page(client, f"{url}?q=granatieri", **{"HX-Request": "true"})
    assert "Squadra granatieri (Heer)" in found
    assert "Squadra mortaio medio" not in found  # the catalogue was filtered, not listed whole
    assert "Squadra mortaio medio" in page(client, f"{url}?q=mortaio", **{"HX-Request": "true"})


def test_the_builders_search_finds_a_unit_by_its_polish_name(german_list) -> None:
    client = in_language("pl", german_list)
    url = f"/lists/{german_list.pk}/catalogue/"
    found = page(client, f"{url}?q=grenadierów", **{"HX-Request": "true"})
    assert "Drużyna grenadierów (Heer)" in found
    assert "Zespół średniego moździerza" not in found
    assert "Zespół średniego moździerza" in page(client, f"{url}?q=moździerza", **{"HX-Request": "true"})
