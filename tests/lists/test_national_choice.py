"""The trait a national rule asks a list's army to choose (the British characteristic, the Italian bonus):
chosen in the builder, kept with the list, exported and imported in JSON, copied, and shown at game day."""

from __future__ import annotations

import json

import pytest

from armybuilder.games.models import Game
from armybuilder.lists.exchange import duplicate_list
from armybuilder.lists.models import ArmyList
from tests.games.test_views import start
from tests.lists.factories import make_builder_list
from tests.resolver.factories import make_rule

pytestmark = pytest.mark.django_db


def _british(owner):
    army_list = make_builder_list(owner, entries=1)
    army_list.army.national_rules.add(make_rule(army_list.edition, "a-national-characteristic"))
    return army_list


def test_the_builder_offers_the_characteristic_and_keeps_the_choice(alice_client, alice):
    army_list = _british(alice)
    base = f"/lists/{army_list.pk}/"
    html = alice_client.get(base).text
    assert 'name="national_choice"' in html and '<option value="rapid-fire">Rapid Fire</option>' in html
    response = alice_client.post(f"{base}national-choice/", {"national_choice": "rapid-fire"})
    assert response.status_code == 302 and response["Location"].endswith("#national-rules")
    army_list.refresh_from_db()
    assert army_list.national_choice == "rapid-fire"
    html = alice_client.get(base).text
    assert '<option value="rapid-fire" selected>' in html and "Kept with the list: Rapid Fire" in html
    french = alice_client.get(base, headers={"Accept-Language": "fr"}).text
    assert "Gardé avec la liste : Tir rapide" in french


def test_a_choice_the_army_does_not_offer_is_refused(alice_client, alice):
    army_list = _british(alice)
    response = alice_client.post(f"/lists/{army_list.pk}/national-choice/", {"national_choice": "cedere"})
    assert response.status_code == 400
    army_list.refresh_from_db()
    assert army_list.national_choice == ""
    plain = make_builder_list(alice, entries=1)  # an army whose rules ask for nothing
    assert 'name="national_choice"' not in alice_client.get(f"/lists/{plain.pk}/").text
    response = alice_client.post(f"/lists/{plain.pk}/national-choice/", {"national_choice": "rapid-fire"})
    assert response.status_code == 400


def test_someone_elses_list_is_not_found(client, alice):
    from tests.lists.factories import make_user

    army_list = _british(alice)
    client.force_login(make_user("mallory"))
    response = client.post(f"/lists/{army_list.pk}/national-choice/", {"national_choice": "rapid-fire"})
    assert response.status_code == 404


def test_the_choice_travels_in_json_and_with_a_copy(alice_client, alice):
    army_list = _british(alice)
    army_list.national_choice = "vengeance"
    army_list.save()
    exported = alice_client.get(f"/lists/{army_list.pk}/export.json").json()
    assert exported["national_choice"] == "vengeance"
    alice_client.post("/lists/import/", {"text": json.dumps(exported)})
    imported = ArmyList.objects.exclude(pk=army_list.pk).get()
    assert imported.national_choice == "vengeance"
    assert duplicate_list(army_list=army_list, name="Copy").national_choice == "vengeance"
    bad = {**exported, "national_choice": "combattere"}
    response = alice_client.post("/lists/import/", {"text": json.dumps(bad)})
    assert "national_choice: &quot;combattere&quot; is not a choice" in response.text
    assert ArmyList.objects.count() == 3  # nothing saved for the refused file


def test_game_day_shows_the_chosen_trait(alice_client, alice):
    army_list = _british(alice)
    army_list.national_choice = "tough-as-boots"
    army_list.save()
    game = Game.objects.get(pk=int(start(alice_client, army_list)["Location"].split("/")[2]))
    assert game.setup["sides"][0]["national_choice"] == "tough-as-boots"
    assert "Chosen for the army: Tough as Boots" in alice_client.get(f"/games/{game.pk}/").text
