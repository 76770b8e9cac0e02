"""Units and platoons sharing a name are numbered wherever they are printed (``rules.army.names``):
the builder's rows and platoon headings, its problems, the shared page, the text export and the
game board, in English and French; a unit added or removed renumbers the others in place."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from armybuilder.games.models import Game
from tests.lists.factories import (
    make_army,
    make_edition,
    make_entry,
    make_list,
    make_officer,
    make_platoon,
    make_unit,
    make_user,
)

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def alice():
    return make_user("alice")


@pytest.fixture
def client_for(alice):
    def make(language: str = "en") -> Client:
        client = Client()
        client.force_login(alice)
        client.cookies["django_language"] = language
        return client

    return make


@pytest.fixture
def two_platoons(alice):
    """Two unnamed Reinforced Platoons, each with a "Regular Infantry Squad (Late-War)"; only the
    first has its Lieutenant."""
    army = make_army(edition=make_edition("v2"), name="British")
    squad = make_unit(army, name="Regular Infantry Squad (Late-War)", name_fr="Escouade d'infanterie régulière")
    officer = make_officer(army, name="Second Lieutenant", name_fr="Sous-lieutenant")
    army_list = make_list(alice, army, name="Desert Rats")
    first = make_platoon(army_list, kind="reinforced_platoon", position=0)
    second = make_platoon(army_list, kind="reinforced_platoon", position=1)
    make_entry(army_list, officer, platoon=first, position=0)
    one = make_entry(army_list, squad, platoon=first, position=1)
    make_entry(army_list, squad, platoon=first, position=2)
    two = make_entry(army_list, squad, platoon=second, position=3)
    return army_list, first, second, one, two, squad


def _problems(html: str) -> str:
    return re.search(r'<section id="problems".*?</section>', html, re.S).group(0)


def test_the_builder_numbers_shared_unit_and_platoon_names(client_for, two_platoons):
    army_list, first, second, one, two, _squad = two_platoons
    html = client_for().get(f"/lists/{army_list.pk}/").content.decode()
    assert f'id="platoon-{first.pk}-title">Reinforced Platoon 1<' in html
    assert f'id="platoon-{second.pk}-title">Reinforced Platoon 2<' in html
    row = re.search(rf'<li id="entry-{two.pk}".*?</li>', html, re.S).group(0)
    assert '<span class="unit-name">Regular Infantry Squad (Late-War) #3</span>' in row
    assert html.count("Regular Infantry Squad (Late-War) #1") >= 1
    assert "Second Lieutenant #" not in html  # a name used once is left alone


def test_a_problem_says_which_platoon(client_for, two_platoons):
    army_list = two_platoons[0]
    problems = _problems(client_for().get(f"/lists/{army_list.pk}/").content.decode())
    assert re.search(r"Reinforced Platoon 2: [^<]*needs 1", problems), problems
    assert "Reinforced Platoon 1:" not in problems


def test_in_french_the_numbers_follow_the_french_names(client_for, two_platoons):
    army_list, first, second, *_ = two_platoons
    html = client_for("fr").get(f"/lists/{army_list.pk}/").content.decode()
    assert f'id="platoon-{second.pk}-title">Peloton renforcé 2<' in html
    assert "Escouade d&#x27;infanterie régulière #2" in html
    assert "Peloton renforcé 2 : un Peloton renforcé doit compter 1 lieutenant" in _problems(html)


def test_adding_a_second_unit_of_a_name_numbers_the_first_in_place(client_for, alice):
    army = make_army(edition=make_edition("v2"))
    squad = make_unit(army, name="Rifle Squad")
    army_list = make_list(alice, army)
    first = make_entry(army_list, squad)
    client = client_for()
    response = client.post(f"/lists/{army_list.pk}/entries/add/", {"unit": squad.pk, "platoon": ""}, headers=HX)
    html = response.content.decode()
    added = army_list.entries.exclude(pk=first.pk).get()
    assert f'<span hx-swap-oob="innerHTML:#entry-{first.pk}-open .unit-name">Rifle Squad #1</span>' in html
    assert re.search(rf'<li id="entry-{added.pk}".*?Rifle Squad #2', html, re.S)
    # Removing it leaves one: the first's name goes back to plain.
    html = client.post(f"/lists/{army_list.pk}/entries/{added.pk}/remove/", headers=HX).content.decode()
    assert f'<span hx-swap-oob="innerHTML:#entry-{first.pk}-open .unit-name">Rifle Squad</span>' in html


def test_renaming_a_unit_away_from_a_shared_name_renumbers_the_other(client_for, alice):
    army = make_army(edition=make_edition("v2"))
    squad = make_unit(army, name="Rifle Squad")
    army_list = make_list(alice, army)
    first, second = make_entry(army_list, squad, position=0), make_entry(army_list, squad, position=1)
    url = f"/lists/{army_list.pk}/entries/{second.pk}/rename/"
    html = client_for().post(url, {"name": "Able Section"}, headers=HX).content.decode()
    assert '<span class="unit-name">Able Section</span>' in html
    assert f'<span hx-swap-oob="innerHTML:#entry-{first.pk}-open .unit-name">Rifle Squad</span>' in html


def test_a_change_that_keeps_the_names_sends_no_renamed_rows(client_for, two_platoons):
    army_list, *_rest, one, _two, _squad = two_platoons
    url = f"/lists/{army_list.pk}/entries/{one.pk}/quality/"
    html = client_for().post(url, {"quality": "veteran"}, headers=HX).content.decode()
    assert "innerHTML:#entry-" not in html


def test_the_shared_page_and_the_text_export_number_them(client_for, two_platoons):
    army_list = two_platoons[0]
    client = client_for()
    shared = client.get(f"/s/{army_list.share_token}/").content.decode()
    assert "Regular Infantry Squad (Late-War) #2" in shared
    assert "Reinforced Platoon 2" in shared
    text = client.get(f"/lists/{army_list.pk}/export.txt").content.decode()
    assert "Regular Infantry Squad (Late-War) #3" in text
    assert "Reinforced Platoon 1" in text


def test_the_game_board_numbers_them(client_for, two_platoons):
    army_list = two_platoons[0]
    client = client_for()
    data = {"my_name": "Alice", "opponent": "dice", "opponent_name": "Bob", "opponent_dice": "3"}
    response = client.post(f"/games/new/?list={army_list.pk}", data)
    game = Game.objects.get(pk=int(re.search(r"/games/(\d+)/", response["Location"]).group(1)))
    names = [unit["name"] for unit in game.setup["sides"][0]["units"]]
    assert names == [
        "Second Lieutenant",
        "Regular Infantry Squad (Late-War) #1",
        "Regular Infantry Squad (Late-War) #2",
        "Regular Infantry Squad (Late-War) #3",
    ]
    board = client.get(response["Location"]).content.decode()
    assert "Regular Infantry Squad (Late-War) #3" in board


def test_the_odds_pages_target_menu_numbers_them(client_for, two_platoons):
    html = client_for().get("/calc/shooting/").content.decode()
    assert "Regular Infantry Squad (Late-War) #2 – " in html
    assert "Regular Infantry Squad (Late-War) – " not in html


def test_naming_one_of_two_platoons_renumbers_the_other_in_place(client_for, two_platoons):
    army_list, first, second, *_ = two_platoons
    url = f"/lists/{army_list.pk}/platoons/{second.pk}/rename/"
    html = client_for().post(url, {"name": "Kampfgruppe Nord"}, headers=HX).content.decode()
    assert f'<header class="platoon-head" id="platoon-{first.pk}-head" hx-swap-oob="true">' in html
    assert f'id="platoon-{first.pk}-title">Reinforced Platoon<' in html
