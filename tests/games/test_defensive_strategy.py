"""Italy's Defensive Strategy at game day: the "who defends?" offer (exact odds, typed, rolled or recorded)
before the first order for a side whose list carries the rule, the D3 emplacements, the enemy's Run refused
and not offered on the first turn, French, undo and the fragments."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.test import Client

from armybuilder.games.models import Game
from tests.games.phone import shown
from tests.games.test_views import act, start
from tests.lists.factories import make_builder_list, make_user
from tests.resolver.factories import make_rule

pytestmark = pytest.mark.django_db


def _game(client, rule: str | None = "defensive-strategy"):
    alice = make_user("alice")
    client.force_login(alice)
    army_list = make_builder_list(alice, entries=1)
    if rule:
        army_list.army.national_rules.add(make_rule(army_list.edition, rule))
    response = start(client, army_list)  # against Bob's three stand-in units, b1 to b3
    game = Game.objects.get(pk=int(response["Location"].split("/")[2]))
    return game, f"/games/{game.pk}/"


def _alice_unit(game) -> str:
    return game.setup["sides"][0]["units"][0]["key"]


def _log(game):
    return Game.objects.get(pk=game.pk).state().log


def test_no_offer_without_the_rule(client):
    _game_, base = _game(client, rule=None)
    html = client.get(base).text
    assert "defence-offer" not in html and "who defends?" not in html


def test_the_roll_rerolls_a_failure_logs_it_and_offers_the_emplacements(client):
    game, base = _game(client)
    html = client.get(base).text
    assert 'id="defence-a"' in html and 'id="defence-b"' not in html
    assert "Defensive Strategy (Alice): who defends?" in html
    assert f"{Fraction(3, 4)}</strong> (75.0 %)" in html and "Alice defends on 4–6 (1/2)" in html
    act(client, base, action="support", side="a", roll="defender", sdie1="2", sdie2="5", rev="0")
    entry = _log(game)[-1]
    assert entry.detail["dice"] == [2, 5] and entry.detail["defends"] is True
    html = client.get(base).text
    assert (
        "Alice: who defends? Die 2 → 5: Alice defends · Defensive Strategy: re-rolled, the second result stands" in html
    )
    assert 'id="defence-a"' not in html and 'id="emplacements-a"' in html
    assert "place them within 12″ of your table edge" in html
    act(client, base, action="support", side="a", roll="emplacements", sdie1="5", rev="1")
    html = client.get(base).text
    assert "Alice: Defensive Strategy, D3 emplacements (die 5): 3 emplacements" in html
    assert 'id="emplacements-a"' not in html
    # Once: a second roll is refused.
    act(client, base, action="support", side="a", roll="emplacements", rev="2")
    assert "This roll is not offered now." in client.get(base).text


def test_recorded_not_defending_and_the_offer_goes_with_the_first_order(client):
    game, base = _game(client)
    act(client, base, action="record", side="b", rev="0")
    act(client, base, action="order", unit="b1", order="run", rev="1")
    html = client.get(base).text
    assert 'id="defence-a"' not in html  # an order was given
    act(client, base, action="support", side="a", roll="defender", defends="no", rev="2")
    assert "This roll is not offered now." in client.get(base).text
    client.post(f"{base}undo/", {"rev": "2"})
    client.post(f"{base}undo/", {"rev": "3"})  # an undo moves the revision on too
    act(client, base, action="support", side="a", roll="defender", defends="no", rev="4")
    html = client.get(base).text
    assert "Defensive Strategy: Bob defends (as the scenario decided)" in html
    assert 'id="emplacements-a"' not in html and "data-no-run" not in html


def test_enemy_run_refused_and_hidden_on_turn_one_allowed_on_turn_two_french_and_undo(client):
    game, base = _game(client)
    act(client, base, action="support", side="a", roll="defender", defends="yes", rev="0")
    html = client.get(base).text
    assert 'data-no-run="b"' in html and "on the first turn its enemy gives no Run order" in html
    act(client, base, action="record", side="b", rev="1")
    act(client, base, action="order", unit="b1", order="run", rev="2")
    assert (
        "Defensive Strategy: on the first turn the defender&#x27;s enemy gives no Run order." in client.get(base).text
    )
    fr = {"Accept-Language": "fr"}
    client.post(f"{base}act/", {"action": "order", "unit": "b1", "order": "run", "rev": "2"}, headers=fr)
    french = client.get(base, headers=fr).text
    assert (
        "Stratégie défensive : au premier tour, l&#x27;ennemi du défenseur ne donne pas l&#x27;ordre Courir." in french
    )
    assert "donc au premier tour son ennemi ne donne pas l'ordre Courir." in french
    assert len(_log(game)) == 2
    act(client, base, action="order", unit="b1", order="advance", rev="2")
    # Alice's side may Run; the rest of the turn, then turn 2: Bob runs.
    act(client, base, action="record", side="a", rev="3")
    act(client, base, action="order", unit=_alice_unit(game), order="run", rev="4")
    act(client, base, action="end_turn", force="on", rev="5")
    html = client.get(base).text
    assert "data-no-run" not in html
    act(client, base, action="record", side="b", rev="6")
    act(client, base, action="order", unit="b2", order="run", rev="7")
    state = Game.objects.get(pk=game.pk).state()
    assert state.turn == 2 and state.units["b2"].order == "run"
    # Undo back to before the defender was recorded: the offer comes back, Run is offered again.
    for rev in range(8, 16):  # an undo moves the revision on too
        client.post(f"{base}undo/", {"rev": str(rev)})
    html = client.get(base).text
    assert _log(game) == [] and 'id="defence-a"' in html and "data-no-run" not in html
    french = client.get(base, headers={"Accept-Language": "fr"}).text
    assert "Stratégie défensive (Alice) : qui défend ?" in french and "Lancer qui défend" in french


def test_the_slot_moves_out_of_band_for_a_tap_and_the_other_phones_poll(client):
    game, base = _game(client)
    htmx = {"HX-Request": "true"}
    bob = Client()
    link = f"/g/{game.share_token}/"
    bobs_board = shown(bob, link)
    data = {"action": "support", "side": "a", "roll": "defender", "defends": "yes", "rev": "0", **shown(client, base)}
    html = client.post(f"{base}act/", data, headers=htmx).content.decode()
    assert '<div id="bombard-slot" hx-swap-oob="true" data-no-run="b" data-print="' in html
    assert 'id="emplacements-a"' in html
    assert not re.findall(r'<li hx-swap-oob="true"[^>]* id="u-', html)
    poll = bob.get(link, {"since": "0", **bobs_board}, headers=htmx).content.decode()
    assert "Defensive Strategy: Alice defends (as the scenario decided)" in poll
    assert 'data-no-run="b"' in poll  # his Run buttons are hidden on his phone too
    assert 'id="emplacements-a"' not in poll  # the share link acts for side b only
