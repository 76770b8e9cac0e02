"""Fanatics at game day: frozen per unit when the game starts from its own rule, its side's
Death Before Dishonour or Cedere, and pins at the limit do not destroy it while two or more men are left."""

from __future__ import annotations

import pytest

from armybuilder.games.models import Game
from tests.games.test_views import act, start
from tests.lists.factories import make_builder_list, make_entry, make_option, make_unit, make_user
from tests.resolver.factories import make_rule

pytestmark = pytest.mark.django_db

NOTE = "Fanatics: pins do not destroy it while 2+ men are left"


def _game(client, army_list, **data) -> Game:
    response = start(client, army_list, **data)
    assert response.status_code == 302, response.content[:2000]
    return Game.objects.get(pk=int(response["Location"].split("/")[2]))


def _units(game: Game) -> dict[str, dict]:
    return {u["name"]: u for u in game.setup["sides"][0]["units"]}


def test_a_japanese_list_freezes_its_infantry_as_fanatic_and_pins_do_not_destroy_it(client):
    alice = make_user("alice")
    client.force_login(alice)
    army_list = make_builder_list(alice, entries=1)
    army_list.army.national_rules.add(make_rule(army_list.edition, "death-before-dishonour"))
    make_entry(army_list, make_unit(army_list.army, name="Type 95 Ha-Go", unit_type="vehicle_armoured"))
    game = _game(client, army_list)
    units = _units(game)
    squad, tank = units["Rifle Squad"], units["Type 95 Ha-Go"]
    assert (squad["fanatic"], tank["fanatic"]) == (True, False)  # infantry and artillery only
    base = f"/games/{game.pk}/"
    html = client.get(base).text
    assert html.count(NOTE) == 1 and html.count('data-fanatic="1"') == 1
    assert "les marqueurs PIN ne la détruisent pas" in client.get(base, headers={"Accept-Language": "fr"}).text
    act(client, base, action="pins", unit=squad["key"], delta="9", rev="0")  # a Regular squad's morale
    state = Game.objects.get(pk=game.pk).state()
    assert (state.unit(squad["key"]).destroyed, state.unit(squad["key"]).pins) == (False, 9)
    html = client.get(base).text
    assert "pins +9 (now 9)" in html and "(now 9) · pin limit reached" not in html
    # Down to one man at the limit, it routs.
    act(client, base, action="casualties", unit=squad["key"], delta=str(squad["models"] - 1), rev="1")
    state = Game.objects.get(pk=game.pk).state()
    assert state.unit(squad["key"]).destroyed_how == "pins"
    assert "(1 left) · pin limit reached: destroyed" in client.get(base).text


def test_a_unit_with_its_own_fanatics_rule_is_fanatic_and_others_are_not(client):
    alice = make_user("alice")
    client.force_login(alice)
    army_list = make_builder_list(alice, entries=1)
    zealots = make_unit(army_list.army, name="Zealots")
    zealots.special_rules.add(make_rule(army_list.edition, "fanatics"))
    make_entry(army_list, zealots, position=5)
    game = _game(client, army_list)
    units = _units(game)
    assert (units["Zealots"]["fanatic"], units["Rifle Squad"]["fanatic"]) == (True, False)
    base = f"/games/{game.pk}/"
    assert client.get(base).text.count(NOTE) == 1
    act(client, base, action="pins", unit=units["Zealots"]["key"], delta="9", rev="0")
    act(client, base, action="pins", unit=units["Rifle Squad"]["key"], delta="9", rev="1")
    state = Game.objects.get(pk=game.pk).state()
    assert (state.unit(units["Zealots"]["key"]).destroyed, state.unit(units["Rifle Squad"]["key"]).destroyed) == (
        False,
        True,
    )


def test_a_unit_that_bought_the_fanatics_option_is_fanatic(client):
    alice = make_user("alice")
    client.force_login(alice)
    army_list = make_builder_list(alice, entries=0)
    ss = make_unit(army_list.army, name="Waffen-SS Squad")
    make_option(ss, slug="fanatics", name="Fanatics")
    make_entry(army_list, ss, options={"fanatics": 1})
    make_entry(army_list, make_unit(army_list.army, name="Plain Squad"), position=2, options={"fanatics": 0})
    units = _units(_game(client, army_list))
    assert (units["Waffen-SS Squad"]["fanatic"], units["Plain Squad"]["fanatic"]) == (True, False)


def test_cederes_blackshirts_are_fanatic(client):
    alice = make_user("alice")
    client.force_login(alice)
    army_list = make_builder_list(alice, entries=1, national_choice="cedere")
    army_list.army.national_rules.add(make_rule(army_list.edition, "cedere-obbedire-combattere"))
    make_entry(army_list, make_unit(army_list.army, name="Blackshirt 'M' Battalion Squad"), position=5)
    units = _units(_game(client, army_list))
    assert (units["Blackshirt 'M' Battalion Squad"]["fanatic"], units["Rifle Squad"]["fanatic"]) == (True, False)


def test_a_game_stored_without_the_flag_shows_no_fanatics(client):
    alice = make_user("alice")
    client.force_login(alice)
    army_list = make_builder_list(alice, entries=1)
    army_list.army.national_rules.add(make_rule(army_list.edition, "death-before-dishonour"))
    game = _game(client, army_list)
    for unit in game.setup["sides"][0]["units"]:
        del unit["fanatic"]  # as stored before the flag
    game.save()
    base = f"/games/{game.pk}/"
    assert NOTE not in client.get(base).text
    key = game.setup["sides"][0]["units"][0]["key"]
    act(client, base, action="pins", unit=key, delta="9", rev="0")
    assert Game.objects.get(pk=game.pk).state().unit(key).destroyed_how == "pins"
