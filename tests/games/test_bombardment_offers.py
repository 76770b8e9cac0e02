"""Game day's preparatory bombardment on the bar: any side, before the game's first order, one die per
enemy unit on the table (two with Britain's Bombardment, the die kept chosen per unit), typed or rolled
by Muster, in the log; refusals, French, undo and the share link."""

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


def _game(client, rule: str | None = None):
    alice = make_user("alice")
    client.force_login(alice)
    army_list = make_builder_list(alice, entries=1)
    if rule:
        army_list.army.national_rules.add(make_rule(army_list.edition, rule))
    response = start(client, army_list)  # against Bob's three stand-in units, b1 to b3
    game = Game.objects.get(pk=int(response["Location"].split("/")[2]))
    return game, f"/games/{game.pk}/"


def _keys(game, side):
    return [u["key"] for s in game.setup["sides"] if s["key"] == side for u in s["units"]]


def test_any_side_is_offered_one_die_per_enemy_unit_before_the_first_order(client):
    game, base = _game(client)
    html = client.get(base).text
    assert 'id="bombard-a"' in html and 'id="bombard-b"' in html
    assert "Preparatory bombardment (when the scenario calls one)" in html
    assert 'name="bd1-b1"' in html and 'name="bd2-b1"' not in html  # one die a unit
    assert f"6+ {Fraction(1, 6)} (16.7 %)" in html and f"2+ {Fraction(5, 6)} (83.3 %)" in html
    # Unit 3 is in reserve: left out. Typed dice for the two on the table.
    act(
        client,
        base,
        action="support",
        side="a",
        roll="bombard",
        bunit=["b1", "b2"],
        **{"bd1-b1": "3", "bd1-b2": "5"},
        rev="0",
    )
    entry = Game.objects.get(pk=game.pk).state().log[-1]
    # The dice were typed: the log says so (``typed``).
    assert entry.detail == {"roll": "bombard", "dice": {"b1": [3], "b2": [5]}, "rule": "", "typed": True}
    html = client.get(base).text
    assert "Alice: preparatory bombardment, one die per enemy unit: Unit 1 (3), Unit 2 (5)" in html
    assert "apply each unit's result from your book's chart with its pin and casualty buttons" in html
    assert 'id="bombard-a"' not in html and 'id="bombard-b"' in html  # once a game a side
    assert "bombard-keep-form" not in html  # one die: nothing to choose
    # A second bombardment by the same side is refused, by a forged post too.
    act(client, base, action="support", side="a", roll="bombard", bunit=["b1"], rev="1")
    assert "This side has made its preparatory bombardment: one a game." in client.get(base).text
    # Bob's bombardment, rolled by Muster, on Alice's one unit.
    act(client, base, action="support", side="b", roll="bombard", bunit=_keys(game, "a"), rev="1")
    entry = Game.objects.get(pk=game.pk).state().log[-1]
    assert entry.detail["rolled"] is True and list(entry.detail["dice"]) == _keys(game, "a")
    assert "rolled by Muster" in client.get(base).text


def test_the_offer_goes_with_the_first_order_and_a_late_post_is_refused(client):
    game, base = _game(client)
    act(client, base, action="record", side="b", rev="0")
    assert 'id="bombard-a"' in client.get(base).text  # a die drawn, no order yet
    act(client, base, action="order", unit="b1", order="fire")
    html = client.get(base).text
    assert 'id="bombard-a"' not in html and 'id="bombard-b"' not in html
    act(client, base, action="support", side="a", roll="bombard", bunit=["b1"], rev="2")
    assert "The preparatory bombardment comes before the first order of the game." in client.get(base).text
    assert [e.kind for e in Game.objects.get(pk=game.pk).state().log] == ["draw", "order"]


def test_no_unit_ticked_or_half_typed_dice_are_refused(client):
    game, base = _game(client)
    act(client, base, action="support", side="a", roll="bombard", rev="0")
    assert "Choose the enemy units on the table." in client.get(base).text
    act(client, base, action="support", side="a", roll="bombard", bunit=["b1", "b2"], **{"bd1-b1": "3"}, rev="0")
    assert "Type every die of the bombardment, or none to let Muster roll." in client.get(base).text
    assert Game.objects.get(pk=game.pk).state().log == []


def test_a_british_list_rolls_two_dice_a_unit_and_chooses_the_die_kept(client):
    game, base = _game(client, "bombardment")
    html = client.get(base).text
    assert 'name="bd2-b1"' in html and "<strong>Alice · Bombardment</strong>" in html
    assert f"6+ {Fraction(11, 36)} (30.6 %)" in html and f"2+ {Fraction(35, 36)} (97.2 %)" in html
    assert 'name="bd2-' not in html.split('id="bombard-b"')[1]  # Bob's stand-in side has one die a unit
    typed = {"bd1-b1": "2", "bd2-b1": "5", "bd1-b2": "6", "bd2-b2": "1"}
    act(client, base, action="support", side="a", roll="bombard", bunit=["b1", "b2"], **typed, rev="0")
    html = client.get(base).text
    assert (
        "Alice: preparatory bombardment, two dice per enemy unit (Bombardment): Unit 1 (2 · 5), Unit 2 (6 · 1)" in html
    )
    assert 'id="bombard-keep-a"' in html and 'name="keep-b1" value="2"' in html and 'name="keep-b1" value="5"' in html
    assert "none is kept until you choose" in html and "bombard-apply" not in html
    # Every unit needs its die kept; a die not rolled is refused.
    act(client, base, action="support", side="a", roll="bombard-keep", **{"keep-b1": "5"}, rev="1")
    assert "Keep one of its two dice for every unit." in client.get(base).text
    act(client, base, action="support", side="a", roll="bombard-keep", **{"keep-b1": "3", "keep-b2": "6"}, rev="1")
    assert "Keep one of its two dice for every unit." in client.get(base).text
    act(client, base, action="support", side="a", roll="bombard-keep", **{"keep-b1": "5", "keep-b2": "1"}, rev="1")
    entry = Game.objects.get(pk=game.pk).state().log[-1]
    assert entry.detail["kept"] == {"b1": 5, "b2": 1} and entry.detail["rule"] == "bombardment"
    html = client.get(base).text
    assert "Alice: Bombardment, the die kept for each unit: Unit 1: 5 (of 2 · 5), Unit 2: 1 (of 6 · 1)" in html
    assert "bombard-keep-form" not in html and "bombard-apply" in html


def test_undo_gives_the_bombardment_back_and_french(client):
    game, base = _game(client, "bombardment")
    act(client, base, action="support", side="a", roll="bombard", bunit=["b1"], rev="0")
    assert 'id="bombard-keep-a"' in client.get(base).text
    client.post(f"{base}undo/", {"rev": "1"})
    html = client.get(base).text
    assert 'id="bombard-a"' in html and "bombard-keep-form" not in html
    assert Game.objects.get(pk=game.pk).state().log == []
    french = client.get(base, headers={"Accept-Language": "fr"}).text
    assert "Bombardement préparatoire (quand le scénario en prévoit un)" in french
    assert "au moins un des deux dés" in french
    act(
        client,
        base,
        action="support",
        side="a",
        roll="bombard",
        bunit=["b1"],
        **{"bd1-b1": "4", "bd2-b1": "2"},
        rev="2",
    )
    french = client.get(base, headers={"Accept-Language": "fr"}).text
    assert "bombardement préparatoire, deux dés par unité ennemie (Bombardement) : Unit 1 (4 · 2)" in french
    assert "Garder ces dés" in french


def test_the_share_link_bombards_for_its_own_side_only(client):
    game, base = _game(client)
    bob = Client()
    link = f"/g/{game.share_token}/"
    html = bob.get(link).text
    assert 'id="bombard-b"' in html and 'id="bombard-a"' not in html
    refused = act(bob, link, action="support", side="a", roll="bombard", bunit=["b1"], rev="0")
    assert refused.status_code == 403 and "You act for your own side only." in refused.text
    act(bob, link, action="support", side="b", roll="bombard", bunit=_keys(game, "a"), rev="0")
    entry = Game.objects.get(pk=game.pk).state().log[-1]
    assert entry.side == "b" and entry.detail["roll"] == "bombard"


def test_a_tap_and_the_other_phones_poll_get_the_bombardment_slot_out_of_band(client):
    game, base = _game(client, "bombardment")
    htmx = {"HX-Request": "true"}
    bob = Client()
    link = f"/g/{game.share_token}/"
    bobs_board = shown(bob, link)
    data = {"action": "support", "side": "a", "roll": "bombard", "bunit": ["b1"], "rev": "0", **shown(client, base)}
    html = client.post(f"{base}act/", data, headers=htmx).content.decode()
    # Only the slot and the bar change: no unit row is sent again, and the die kept waits for a choice.
    assert '<div id="bombard-slot" hx-swap-oob="true" data-print="' in html and 'id="bombard-keep-a"' in html
    assert not re.findall(r'<li hx-swap-oob="true"[^>]* id="u-', html)
    # Bob's phone, polling by the share link: the log line comes; his slot is not sent again, as
    # nothing in it moved (his own side's offer still stands, Alice's choice of dice is hers).
    poll = bob.get(link, {"since": "0", **bobs_board}, headers=htmx).content.decode()
    assert "preparatory bombardment, two dice per enemy unit" in poll
    assert "bombard-slot" not in poll and "bombard-keep-a" not in poll
    # His own bombardment moves his slot: sent out of band, his offer gone.
    data = {"action": "support", "side": "b", "roll": "bombard", "bunit": _keys(game, "a"), "rev": "1"}
    data.update(shown(bob, link))
    answer = bob.post(f"{link}act/", data, headers=htmx).content.decode()
    assert '<div id="bombard-slot" hx-swap-oob="true" data-print="' in answer and 'id="bombard-b"' not in answer
