"""In a real browser, phone-sized (390x844), through htmx: a British squad's Vengeance die before its
order, and a German squad's NCO killed with Initiative Training's die; then both played offline on a
one-phone game, with the phone's dice sent and replayed the same by the server."""

from __future__ import annotations

import pytest

from armybuilder.games.models import Game
from tests.conftest import PHONE_CONTEXT, log_in, wait_until
from tests.games.test_views import start
from tests.lists.factories import make_builder_list, make_user
from tests.resolver.factories import make_rule


def _phone_game(live_server, new_browser_context, *, rules=(), choice=""):
    alice = make_user("alice")
    army_list = make_builder_list(alice, entries=1)  # 2nd edition: one Regular squad of five
    for slug in rules:
        army_list.army.national_rules.add(make_rule(army_list.edition, slug))
    if choice:
        army_list.national_choice = choice
        army_list.save(update_fields=["national_choice"])
    context = new_browser_context(**PHONE_CONTEXT)
    client = log_in(context, live_server, alice)
    game = Game.objects.get(pk=int(start(client, army_list)["Location"].split("/")[2]))
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    return context, page, game, page.locator(f"#u-{game.setup['sides'][0]['units'][0]['key']}")


def _step(page, action) -> None:
    before = page.locator("#game-sync").get_attribute("data-revision")
    action()
    wait_until(page, "r => document.querySelector('#game-sync').dataset.revision !== r", before)


def _tools(squad):
    if squad.locator("details.unit-tools").get_attribute("open") is None:
        squad.locator("details.unit-tools summary").click()  # a tap's answer keeps it as it was
    return squad


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_vengeance_die_on_the_phone(live_server, new_browser_context):
    _context, page, game, squad = _phone_game(
        live_server, new_browser_context, rules=("a-national-characteristic",), choice="vengeance"
    )
    _step(page, lambda: _tools(squad).get_by_role("button", name="Add a pin").click())
    _step(page, lambda: page.click("button[name=side][value=a]"))
    assert squad.locator(".vengeance-odds").inner_text() == "7/9"  # (26/36 + 30/36) / 2
    squad.locator("input[name=vengeance]").check()
    squad.locator("input[name=vengeance_die]").fill("4")
    squad.locator("input[name=die1]").fill("5")
    squad.locator("input[name=die2]").fill("4")
    _step(page, lambda: squad.locator("button[name=order][value=fire]").click())
    # 5+4 fails at 8 with the pin; Vengeance's 4 took it first, so it passes at 9.
    assert squad.locator(".badge-order").inner_text() == "Fire"
    assert squad.locator(".badge-pins").count() == 0
    assert "Vengeance 4: a pin lost (1 → 0)" in page.locator("#last-order").inner_text()
    assert Game.objects.get(pk=game.pk).actions.last().payload["data"]["vengeance"] == 4


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_nco_killed_on_the_phone(live_server, new_browser_context):
    _context, page, game, squad = _phone_game(live_server, new_browser_context, rules=("initiative-training",))
    _tools(squad).locator("input[name=nco]").check()
    squad.locator("input[name=nco_die]").fill("1")
    _step(page, lambda: squad.get_by_role("button", name="Remove a model (casualty)").click())
    assert squad.locator(".badge-nco").inner_text() == "NCO lost (−1)"
    assert squad.locator("input[name=nco]").count() == 0  # lost once: no box any more
    assert squad.get_attribute("data-morale") == "8"
    page.locator("#log-count").click()
    assert "NCO killed: Initiative Training 1, the NCO is lost" in page.locator("#log-lines").inner_text()
    # Undo brings the NCO back on the row.
    _step(page, lambda: page.click("#undo"))
    assert squad.locator(".badge-nco").count() == 0 and squad.get_attribute("data-morale") == "9"
    assert not Game.objects.get(pk=game.pk).state().unit(squad.get_attribute("id")[2:]).nco_lost


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_vengeance_and_a_lost_nco_played_offline_keep_their_dice(live_server, new_browser_context):
    context, page, game, squad = _phone_game(
        live_server, new_browser_context, rules=("a-national-characteristic",), choice="vengeance"
    )
    key = squad.get_attribute("id")[2:]
    _step(page, lambda: _tools(squad).get_by_role("button", name="Add a pin").click())
    _step(page, lambda: squad.get_by_role("button", name="Add a pin").click())
    _step(page, lambda: page.click("button[name=side][value=a]"))
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    # Two pins: 7 or less. Vengeance rolled on the phone (typed here: 6) takes one first, so 4+4
    # passes at 8 and takes the other.
    squad.locator("input[name=vengeance]").check()
    squad.locator("input[name=vengeance_die]").fill("6")
    squad.locator("input[name=die1]").fill("4")
    squad.locator("input[name=die2]").fill("4")
    squad.locator("button[name=order][value=fire]").click()
    assert "Order test passed (4+4): Fire" in page.locator("#offline-note").inner_text()
    assert squad.locator(".badge-pins").count() == 0
    # The NCO killed offline (no Initiative Training: no die): the row says so at once.
    _tools(squad).locator("input[name=nco]").check()
    squad.get_by_role("button", name="Remove a model (casualty)").click()
    assert squad.locator(".badge-nco").inner_text() == "NCO lost"
    assert squad.get_attribute("data-morale") == "8"
    assert page.locator("#offline-waiting").inner_text() == "Waiting to be sent: 2"
    # The phone writes the log lines the server will write, Vengeance's and the NCO's included.
    shown = page.locator("#log-lines li.log-queued").all_text_contents()
    assert "Vengeance 6: a pin lost (2 → 1)" in shown[1] and "NCO killed: −1 to its order tests" in shown[0]

    context.set_offline(False)
    wait_until(page, "() => !Object.keys(localStorage).some(k => k.startsWith('muster-queue:'))", timeout=20)
    game = Game.objects.get(pk=game.pk)
    wait_until(page, "r => document.querySelector('#game-sync').dataset.revision === r", str(game.revision))
    order, casualty = game.actions.order_by("seq")[3:5]
    assert (order.payload["data"]["vengeance"], order.payload["data"]["dice"]) == (6, [4, 4])
    assert casualty.payload["data"]["nco"] is True
    unit = game.state().unit(key)
    assert (unit.order, unit.pins, unit.models, unit.nco_lost) == ("fire", 0, 4, True)
    assert page.locator("#offline-conflict").is_hidden()
    assert page.locator("#log-lines li").all_text_contents()[: len(shown)] == shown
    assert squad.locator(".badge-nco").inner_text() == "NCO lost (−1)"  # the server's board now
