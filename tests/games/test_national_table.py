"""Game day applies a Soviet list's Not One Step Back!: the order form offers the commissar's re-roll."""

from __future__ import annotations

from fractions import Fraction

import pytest

from armybuilder.games.models import Game
from tests.games.test_views import act, start
from tests.lists.factories import make_builder_list, make_user
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
