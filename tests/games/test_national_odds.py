"""Game day's "odds now" carries the army's national rules: a German MMG rolls six dice."""

from __future__ import annotations

import pytest

from armybuilder.games.models import Game
from tests.games.test_views import start
from tests.lists.factories import make_builder_list, make_entry, make_unit, make_user
from tests.resolver.factories import make_rule, make_weapon

pytestmark = pytest.mark.django_db


def _german_mmg_game(client, owner, *, german=True):
    army_list = make_builder_list(owner, entries=0)
    edition = army_list.edition
    mmg = make_weapon(edition, "mmg", name="MMG", range_max=36, shots="5", category="small-arms")
    make_weapon(edition, "rifle")
    if german:
        army_list.army.national_rules.add(make_rule(edition, "hitler-s-buzzsaw"))
    team = make_unit(army_list.army, name="MMG team", unit_type="team", base_models=3, max_models=3)
    team.weapons.set([mmg])
    entry = make_entry(army_list, team, models_count=3)
    game = Game.objects.get(pk=int(start(client, army_list)["Location"].split("/")[2]))
    return game, f"a{entry.pk}"


def test_odds_now_opens_a_german_mmg_with_its_buzzsaw(client):
    alice = make_user("alice")
    client.force_login(alice)
    game, key = _german_mmg_game(client, alice)
    assert game.setup["odds"][key]["army"] == "germany"
    response = client.get(f"/games/{game.pk}/odds/?firer={key}&target=b1", follow=True)
    assert "army=germany" in response.redirect_chain[0][0]
    html = response.content.decode()
    assert "6 dice" in html and "+1 shot: Hitler&#x27;s Buzzsaw (MMG)" in html


def test_odds_now_for_another_army_rolls_the_chart_shots(client):
    alice = make_user("alice")
    client.force_login(alice)
    game, key = _german_mmg_game(client, alice, german=False)
    response = client.get(f"/games/{game.pk}/odds/?firer={key}&target=b1", follow=True)
    assert "army=" not in response.redirect_chain[0][0] and "5 dice" in response.content.decode()


def test_odds_now_at_a_soviet_unit_brings_its_great_patriotic_war(client):
    alice = make_user("alice")
    client.force_login(alice)
    army_list = make_builder_list(alice, entries=1)
    theirs = make_builder_list(make_user("bob"), entries=1)
    theirs.army.national_rules.add(make_rule(theirs.edition, "the-great-patriotic-war"))
    make_weapon(army_list.edition, "rifle")
    start(client, army_list, opponent="link", opponent_link=f"/s/{theirs.share_token}/")
    game = Game.objects.get()
    firer, target = (side["units"][0]["key"] for side in game.setup["sides"])
    game.setup["odds"][firer]["groups"] = [["rifle", 5]]
    game.save()
    response = client.get(f"/games/{game.pk}/odds/?firer={firer}&target={target}", follow=True)
    assert "target_army=soviet-union" in response.redirect_chain[0][0]
    assert "Re-takes a failed morale check that would destroy it: The Great Patriotic War" in response.content.decode()
