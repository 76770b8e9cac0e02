"""Game day offers the air strike roll (Air Superiority) and the barrage radius roll (Massed Batteries)
to a side whose list carries the rule, with exact odds, typed dice or Muster's roll, in the log."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.test import Client

from armybuilder.games.models import Game
from tests.games.test_views import act, start
from tests.lists.factories import make_builder_list, make_user
from tests.resolver.factories import make_rule

pytestmark = pytest.mark.django_db


def _game(client, rule: str | None):
    alice = make_user("alice")
    client.force_login(alice)
    army_list = make_builder_list(alice, entries=1)
    if rule:
        army_list.army.national_rules.add(make_rule(army_list.edition, rule))
    response = start(client, army_list)
    game = Game.objects.get(pk=int(response["Location"].split("/")[2]))
    return game, f"/games/{game.pk}/"


def test_a_soviet_list_rolls_its_barrage_radius_with_two_dice(client):
    game, base = _game(client, "massed-batteries")
    html = client.get(base).text
    assert 'id="support-radius-a"' in html and 'id="support-air-a"' not in html
    assert "Massed Batteries" in html
    assert f"12″ {Fraction(11, 36)} (30.6 %)" in html and f"7″ {Fraction(1, 36)} (2.8 %)" in html
    act(client, base, action="support", side="a", roll="radius", sdie1="2", sdie2="5", rev="0")
    state = Game.objects.get(pk=game.pk).state()
    expected = {"roll": "radius", "dice": [2, 5], "rule": "massed-batteries", "radius": 11, "typed": True}
    assert state.log[-1].detail == expected
    html = client.get(base).text
    assert "Alice: barrage radius, dice 2, 5, the higher kept (Massed Batteries): 11″" in html
    french = client.get(base, headers={"Accept-Language": "fr"}).text
    assert "rayon du barrage" in french and "Batteries massives" in french


def test_a_us_list_rolls_its_air_strikes_muster_rolling_when_no_die_is_typed(client):
    game, base = _game(client, "air-superiority")
    html = client.get(base).text
    assert 'id="support-air-a"' in html and "(2 calls left)" in html
    assert f"Here it comes! {Fraction(1, 2)} (50.0 %)" in html and f"Rookie pilot {Fraction(1, 6)}" in html
    act(client, base, action="support", side="a", roll="air", rev="0")
    entry = Game.objects.get(pk=game.pk).state().log[-1]
    assert entry.detail["rolled"] is True and len(entry.detail["dice"]) == 1
    assert "rolled by Muster" in client.get(base).text


def test_a_list_without_the_rule_is_offered_nothing_and_a_forged_post_is_refused(client):
    game, base = _game(client, None)
    assert "support-form" not in client.get(base).text
    act(client, base, action="support", side="a", roll="air", sdie1="5", rev="0")
    assert "This roll is not offered now." in client.get(base).text
    assert Game.objects.get(pk=game.pk).state().log == []


def test_a_support_roll_without_its_kind_or_revision_is_refused(client):
    game, base = _game(client, "massed-batteries")
    response = act(client, base, action="support", side="a", roll="radius", sdie1="5", sdie2="6")
    assert response.status_code == 400  # no "rev": refused before any roll
    act(client, base, action="support", side="a", sdie1="5", sdie2="6", rev="0")
    assert "Say which roll" in client.get(base).text
    assert Game.objects.get(pk=game.pk).state().log == []


def test_the_share_link_rolls_for_its_own_side_only(client):
    alice = make_user("alice")
    client.force_login(alice)
    mine = make_builder_list(alice, entries=1)
    mine.army.national_rules.add(make_rule(mine.edition, "massed-batteries"))
    theirs = make_builder_list(make_user("bob"), entries=1)
    theirs.edition = mine.edition
    theirs.save()
    theirs.army.national_rules.add(make_rule(theirs.edition, "air-superiority"))
    start(client, mine, opponent="link", opponent_link=f"http://testserver/s/{theirs.share_token}/", opponent_name="")
    game = Game.objects.get()
    assert 'id="support-radius-a"' in client.get(f"/games/{game.pk}/").text
    bob = Client()
    base = f"/g/{game.share_token}/"
    html = bob.get(base).text
    assert 'id="support-air-b"' in html and 'id="support-radius-a"' not in html
    refused = act(bob, base, action="support", side="a", roll="radius", rev="0")
    assert refused.status_code == 403 and "You act for your own side only." in refused.text
    act(bob, base, action="support", side="b", roll="air", sdie1="4", rev="0")
    entry = Game.objects.get(pk=game.pk).state().log[-1]
    assert (entry.side, entry.detail["outcome"], entry.detail["left"]) == ("b", "arrives", 1)
