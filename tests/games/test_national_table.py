"""Game day applies the lists' national rules: Not One Step Back!, Tiger Fear, Avanti Savoia! and
Communication Breakdown!."""

from __future__ import annotations

from fractions import Fraction

import pytest

from armybuilder.games.models import Game
from tests.games.test_views import act, start
from tests.lists.factories import make_builder_list, make_entry, make_unit, make_user
from tests.resolver.factories import make_rule

pytestmark = pytest.mark.django_db


def _pinned_soviet_squad(client, owner, *, soviet=True):
    army_list = make_builder_list(owner, entries=1)
    if soviet:
        army_list.army.national_rules.add(make_rule(army_list.edition, "not-one-step-back"))
    game = Game.objects.get(pk=int(start(client, army_list)["Location"].split("/")[2]))
    key = game.setup["sides"][0]["units"][0]["key"]
    base = f"/games/{game.pk}/"
    act(client, base, action="pins", unit=key, delta="3", rev="0")
    act(client, base, action="record", side="a", rev="1")
    return game, key, base


def test_a_soviet_squad_near_a_commissar_re_takes_its_failed_test(client):
    alice = make_user("alice")
    client.force_login(alice)
    game, key, base = _pinned_soviet_squad(client, alice)
    assert game.setup["sides"][0]["rules"] == ["not-one-step-back"]
    models = game.setup["sides"][0]["units"][0]["models"]
    html = client.get(base).text
    # Regular, three pins: 6 or less, 15/36 at once; with the re-roll 15/36 + 21/36 x 15/36.
    assert "Within 6″ of a commissar (Not One Step Back!)" in html
    assert f'class="commissar-odds">{Fraction(855, 1296)}<' in html
    act(
        client,
        base,
        action="order",
        unit=key,
        order="fire",
        die1="5",
        die2="5",
        commissar="on",
        reroll1="1",
        reroll2="2",
    )
    state = Game.objects.get(pk=game.pk).state()
    unit = state.unit(key)
    assert (unit.order, unit.pins, unit.models) == ("fire", 2, models - 1)
    html = client.get(base).text
    assert f"failed 5+5: the commissar removes a man ({models - 1} left) and re-rolls" in html
    french = client.get(base, headers={"Accept-Language": "fr"}).text
    assert "le commissaire retire un homme" in french


def test_other_armies_get_no_commissar_box_and_cannot_claim_one(client):
    alice = make_user("alice")
    client.force_login(alice)
    game, key, base = _pinned_soviet_squad(client, alice, soviet=False)
    assert "commissar" not in client.get(base).text
    act(client, base, action="order", unit=key, order="fire", die1="5", die2="5", commissar="on", rev="2")
    assert "Not One Step Back! does not apply to this unit." in client.get(base).text  # the refusal, as a message
    assert Game.objects.get(pk=game.pk).state().unit(key).order is None


def _game(client, army_list, **data):
    response = start(client, army_list, **data)
    return Game.objects.get(pk=int(response["Location"].split("/")[2]))


def test_tiger_fear_box_for_the_enemy_of_a_german_list_with_armour(client):
    alice = make_user("alice")
    client.force_login(alice)
    mine = make_builder_list(alice, entries=1)
    theirs = make_builder_list(make_user("bob"), entries=0)
    theirs.army.national_rules.add(make_rule(theirs.edition, "tiger-fear"))
    tank = make_unit(theirs.army, name="Tiger I", unit_type="vehicle_armoured", slot="tanks", damage_value=10)
    make_entry(theirs, tank, models_count=1)
    game = _game(client, mine, opponent="link", opponent_link=f"/s/{theirs.share_token}/")
    key = game.setup["sides"][0]["units"][0]["key"]
    base = f"/games/{game.pk}/"
    act(client, base, action="record", side="a", rev="0")
    html = client.get(base).text
    # Unpinned, no test; near the Tiger: as if one pin, 8 or less on 2D6.
    assert "(Tiger Fear): tested as if with one more pin" in html
    assert f'class="tiger-odds">{Fraction(26, 36)}<' in html
    act(client, base, action="order", unit=key, order="advance", tiger_fear="on", die1="4", die2="4", rev="1")
    state = Game.objects.get(pk=game.pk).state()
    assert (state.unit(key).order, state.unit(key).pins) == ("advance", 0)
    assert "Tiger Fear: one more pin for the test" in client.get(base).text


def test_avanti_savoia_counts_in_an_italian_order_test(client):
    alice = make_user("alice")
    client.force_login(alice)
    italians = make_builder_list(alice, entries=1)
    italians.army.national_rules.add(make_rule(italians.edition, "avanti-savoia"))
    game = _game(client, italians)
    key = game.setup["sides"][0]["units"][0]["key"]
    base = f"/games/{game.pk}/"
    for rev, unit in enumerate(("b1", "b2", "b3")):
        act(client, base, action="remove", unit=unit, rev=str(rev))
    act(client, base, action="end_turn", force="on", rev="3")  # compared as the next turn begins
    act(client, base, action="pins", unit=key, delta="1", rev="4")
    act(client, base, action="record", side="a", rev="5")
    html = client.get(base).text
    # Three enemy units down, none of ours: morale 9 - 1 pin + 2 = 10, 33/36.
    assert "Avanti Savoia!: morale +2" in html and f'class="order-odds">{Fraction(33, 36)}<' in html


def test_communication_breakdown_sends_the_first_french_die_back(client):
    alice = make_user("alice")
    client.force_login(alice)
    french = make_builder_list(alice, entries=1)
    french.army.national_rules.add(make_rule(french.edition, "communication-breakdown"))
    game = _game(client, french)
    base = f"/games/{game.pk}/"
    # Before a die is drawn, the page keeps the form only as the offline copy (data-side="?", inert).
    html = client.get(base).text
    assert 'class="send-back-form" data-side="a"' not in html and 'data-side="?"' in html
    act(client, base, action="record", side="a", rev="0")
    assert 'class="send-back-form" data-side="a"' in client.get(base).text
    assert "Send it back to the bag (Communication Breakdown)" in client.get(base).text
    act(client, base, action="send_back", rev="1")
    state = Game.objects.get(pk=game.pk).state()
    assert (state.pending, state.sent_back) == (None, True)
    html = client.get(base).text
    assert "Communication Breakdown: Alice&#x27;s die goes back in the bag" in html
    assert "Send it back to the bag" not in html


def test_an_army_without_communication_breakdown_carries_no_offline_send_back(client):
    alice = make_user("alice")
    client.force_login(alice)
    game = _game(client, make_builder_list(alice, entries=1))
    assert 'id="send-back-template"' not in client.get(f"/games/{game.pk}/").text


def test_a_japanese_squad_banzai_charges_without_a_test(client):
    alice = make_user("alice")
    client.force_login(alice)
    japanese = make_builder_list(alice, entries=1)
    japanese.army.national_rules.add(make_rule(japanese.edition, "banzai-charge"))
    game = _game(client, japanese)
    key = game.setup["sides"][0]["units"][0]["key"]
    base = f"/games/{game.pk}/"
    act(client, base, action="pins", unit=key, delta="2", rev="0")
    act(client, base, action="record", side="a", rev="1")
    assert "Banzai Charge: with Run" in client.get(base).text
    act(client, base, action="order", unit=key, order="run", banzai="on", die1="6", die2="6", rev="2")
    unit = Game.objects.get(pk=game.pk).state().unit(key)
    assert (unit.order, unit.pins) == ("run", 1)  # typed dice ignored: no test, no FUBAR
    assert "Banzai Charge: passed without a roll" in client.get(base).text
