"""The game page: Britain's Vengeance on the order form and an NCO killed with a squad's casualties
(Germany's Initiative Training): offers, odds, log lines, refusals, French."""

from __future__ import annotations

from fractions import Fraction

import pytest

from armybuilder.games.models import Game
from tests.games.phone import shown
from tests.games.test_views import act, start
from tests.lists.factories import make_builder_list, make_user
from tests.resolver.factories import make_rule

pytestmark = pytest.mark.django_db


def _game(client, owner, *, rules=(), choice="", edition="v2"):
    army_list = make_builder_list(owner, entries=1, edition=edition)
    for slug in rules:
        army_list.army.national_rules.add(make_rule(army_list.edition, slug))
    if choice:
        army_list.national_choice = choice
        army_list.save(update_fields=["national_choice"])
    game = Game.objects.get(pk=int(start(client, army_list)["Location"].split("/")[2]))
    return game, game.setup["sides"][0]["units"][0]["key"], f"/games/{game.pk}/"


def _pinned(client, base, key, pins):
    act(client, base, action="pins", unit=key, delta=str(pins), rev="0")
    act(client, base, action="record", side="a", rev="1")


def test_a_british_squad_that_chose_vengeance_may_lose_a_pin_before_its_order(client):
    alice = make_user("alice")
    client.force_login(alice)
    game, key, base = _game(client, alice, rules=("a-national-characteristic",), choice="vengeance")
    _pinned(client, base, key, 1)
    html = client.get(base).text
    # Regular, one pin: 26/36 as it is, 30/36 without it: 7/9 with the die.
    assert "Vengeance (enemy within 12″)" in html
    assert f'class="vengeance-odds">{Fraction(7, 9)}<' in html and "(77.8 %)" in html
    act(client, base, action="order", unit=key, order="fire", vengeance="on", vengeance_die="5", die1="5", die2="4")
    unit = Game.objects.get(pk=game.pk).state().unit(key)
    assert (unit.order, unit.pins) == ("fire", 0)  # 5+4 passes at 9 once the pin is gone
    html = client.get(base).text
    assert "Vengeance 5: a pin lost (1 → 0) · order test 5+4 against 9 · passed" in html
    french = client.get(base, headers={"Accept-Language": "fr"}).text
    assert "Vengeance 5 : un marqueur perdu (1 → 0)" in french


def test_a_vengeance_die_rolled_by_muster_is_logged(client):
    alice = make_user("alice")
    client.force_login(alice)
    game, key, base = _game(client, alice, rules=("a-national-characteristic",), choice="vengeance")
    _pinned(client, base, key, 2)
    act(client, base, action="order", unit=key, order="advance", vengeance="on", die1="1", die2="1")
    line = Game.objects.get(pk=game.pk).actions.order_by("-seq").first()
    die = line.payload["data"]["vengeance"]
    assert line.payload["data"]["vengeance_rolled"] and 1 <= die <= 6
    expected = "a pin lost (2 → 1)" if die >= 4 else "the pins stay"
    assert f"Vengeance {die}: {expected}" in client.get(base).text


def test_no_vengeance_box_without_the_choice_and_a_forged_one_is_refused(client):
    alice = make_user("alice")
    client.force_login(alice)
    game, key, base = _game(client, alice, rules=("a-national-characteristic",), choice="rapid-fire")
    _pinned(client, base, key, 1)
    html = client.get(base).text
    assert 'name="vengeance"' not in html and "vengeance-odds" not in html
    act(client, base, action="order", unit=key, order="fire", vengeance="on", vengeance_die="5", die1="1", die2="1")
    assert "Vengeance does not act on this unit." in client.get(base).text
    assert Game.objects.get(pk=game.pk).state().unit(key).order is None
    client.post(
        f"{base}act/",
        {"action": "order", "unit": key, "order": "fire", "vengeance": "on", "die1": "1", "die2": "1"},
        headers={"Accept-Language": "fr"},
    )
    assert "Vengeance n&#x27;agit pas sur cette unité." in client.get(base, headers={"Accept-Language": "fr"}).text


def test_an_nco_killed_costs_a_squad_one_on_its_order_tests(client):
    alice = make_user("alice")
    client.force_login(alice)
    game, key, base = _game(client, alice)
    html = client.get(base).text
    assert f'id="nco-{key}"' in html and "NCO killed" in html and 'name="nco_die"' not in html
    act(client, base, action="casualties", unit=key, delta="1", nco="on")
    state = Game.objects.get(pk=game.pk).state()
    assert state.unit(key).nco_lost
    html = client.get(base).text
    assert "1 casualty (4 left) · NCO killed: −1 to its order tests" in html
    assert 'class="badge badge-nco">NCO lost (−1)<' in html and f'id="nco-{key}"' not in html
    act(client, base, action="pins", unit=key, delta="1", rev="1")
    act(client, base, action="record", side="a", rev="2")
    html = client.get(base).text
    # Regular, one pin, no NCO: 7 or less, 21/36.
    assert f'class="order-odds">{Fraction(21, 36)}<' in html and 'data-morale="8"' in html
    french = client.get(base, headers={"Accept-Language": "fr"}).text
    assert "Sous-officier perdu (−1)" in french and "Sous-officier tué : −1 à ses tests d&#x27;ordre" in french


@pytest.mark.parametrize(
    ("die", "line", "lost"), [("1", "the NCO is lost", True), ("4", "another man takes over", False)]
)
def test_initiative_training_rolls_for_a_german_squad_s_nco(client, die, line, lost):
    alice = make_user("alice")
    client.force_login(alice)
    game, key, base = _game(client, alice, rules=("initiative-training",))
    assert 'name="nco_die"' in client.get(base).text
    act(client, base, action="casualties", unit=key, delta="2", nco="on", nco_die=die)
    state = Game.objects.get(pk=game.pk).state()
    assert state.unit(key).nco_lost is lost
    html = client.get(base).text
    assert f"2 casualties (3 left) · NCO killed: Initiative Training {die}, {line}" in html
    assert ("badge-nco" in html) is lost
    french = client.get(base, headers={"Accept-Language": "fr"}).text
    assert f"Formation à l&#x27;initiative {die}" in french


def test_an_nco_needs_a_squad_and_a_casualty(client):
    alice = make_user("alice")
    client.force_login(alice)
    game, key, base = _game(client, alice)
    act(client, base, action="casualties", unit=key, delta="-1", nco="on")
    assert "The NCO falls with a casualty: remove at least one model." in client.get(base).text
    act(client, base, action="casualties", unit="b1", delta="1", nco="on")  # a stand-in unit: no men known
    assert Game.objects.get(pk=game.pk).actions.count() == 0
    act(client, base, action="casualties", unit=key, delta="1", nco="on")
    act(client, base, action="casualties", unit=key, delta="1", nco="on")
    assert "This unit has no NCO left to lose." in client.get(base).text
    assert Game.objects.get(pk=game.pk).actions.count() == 1


def test_undo_gives_the_nco_back_and_the_fragment_sends_the_row(client):
    alice = make_user("alice")
    client.force_login(alice)
    game, key, base = _game(client, alice)
    act(client, base, action="casualties", unit=key, delta="1", nco="on")
    # The phone that saw the casualty undoes it through htmx: its row comes back with the NCO.
    response = client.post(f"{base}undo/", {"rev": "1", **shown(client, base)}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and "HX-Retarget" not in response.headers
    assert f'id="u-{key}"' in response.text and f'id="nco-{key}"' in response.text
    assert "badge-nco" not in response.text
    assert not Game.objects.get(pk=game.pk).state().unit(key).nco_lost
    # And the other way: a poll from the board before the casualty gets the row with the NCO lost.
    before = shown(client, base)
    act(client, base, action="casualties", unit=key, delta="1", nco="on")
    poll = client.get(base, {"since": "2", **before}, headers={"HX-Request": "true"})
    assert "HX-Retarget" not in poll.headers
    assert f'id="u-{key}"' in poll.text and "badge-nco" in poll.text


def test_a_lost_nco_alone_moves_the_row_s_fingerprint(client):
    from armybuilder.games import board as presenter

    alice = make_user("alice")
    client.force_login(alice)
    game, key, _base = _game(client, alice)
    before = game.state(log=False)
    after = game.state(log=False)
    after.unit(key).nco_lost = True  # nothing else differs: the row must still be sent again
    old = presenter.row_fingerprints(presenter.board(game, before, opponent=False, log=[]))
    new = presenter.row_fingerprints(presenter.board(game, after, opponent=False, log=[]))
    assert {k for k in new if new[k] != old[k]} == {key}
