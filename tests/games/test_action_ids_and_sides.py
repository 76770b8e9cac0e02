"""Each action counted once, by the player it belongs to.

A send retried or replayed (the same ``action_id``, made on the phone) is stored once; dice a player
typed are marked in the log; in a game started from an event pairing each phone acts for its own side
only, and is refused with a worded 403 when it tries the other's.
"""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from armybuilder.events import services as events
from armybuilder.games.models import Game
from tests.events.factories import make_entrant, make_event
from tests.games.test_views import a_game, act
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


def _units(game: Game, side: int) -> list[str]:
    return [u["key"] for u in game.setup["sides"][side]["units"]]


# --- an action counted once ----------------------------------------------------------------------


def test_the_same_pin_sent_three_times_is_stored_once(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    base, unit = f"/games/{game.pk}/", _units(game, 0)[0]
    action_id = str(uuid.uuid4())
    for _ in range(3):
        response = act(alice_client, base, action="pins", unit=unit, delta="1", action_id=action_id)
        assert response.status_code == 302
    game.refresh_from_db()
    assert game.actions.count() == 1 and game.revision == 1
    assert game.state().unit(unit).pins == 1
    assert str(game.actions.get().client_id) == action_id
    # A new tap (a new id) is a new pin.
    act(alice_client, base, action="pins", unit=unit, delta="1", action_id=str(uuid.uuid4()))
    assert Game.objects.get(pk=game.pk).state().unit(unit).pins == 2


def test_a_replayed_guarded_action_is_not_refused_as_stale_nor_applied_twice(alice_client, alice) -> None:
    """An offline queue sent again after its answer was lost: the draw carried the revision it was made
    on, which its first send moved on; it is recognised by its id, not refused."""
    game = a_game(alice_client, alice)
    base, action_id = f"/games/{game.pk}/", str(uuid.uuid4())
    first = act(alice_client, base, action="record", side="a", rev="0", action_id=action_id)
    again = alice_client.post(
        f"{base}act/",
        {"action": "record", "side": "a", "rev": "0", "action_id": action_id, "seen": "0-0"},
        headers={"HX-Request": "true"},
    )
    assert first.status_code == 302 and again.status_code == 200
    assert "moved on" not in again.text and 'class="message-error' not in again.text
    assert game.actions.count() == 1


def test_the_same_id_in_two_games_is_two_actions(alice_client, alice) -> None:
    one, two = a_game(alice_client, alice), a_game(alice_client, alice)
    action_id = str(uuid.uuid4())
    for game in (one, two):
        act(alice_client, f"/games/{game.pk}/", action="pins", unit=_units(game, 0)[0], delta="1", action_id=action_id)
    assert (one.actions.count(), two.actions.count()) == (1, 1)


def test_a_garbled_action_id_is_refused_with_a_sentence(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    response = act(alice_client, f"/games/{game.pk}/", action="pins", unit=_units(game, 0)[0], action_id="x" * 40)
    assert game.actions.count() == 0
    assert "valid UUID" in alice_client.get(response["Location"]).text


def test_the_page_sends_an_id_with_every_action_and_queues_it_offline() -> None:
    """game.js makes the id (crypto.randomUUID, else 16 random bytes as a version-4 UUID) for every post
    to act/, before the offline queue copies the form: the queue replays the same id."""
    with open("static/js/game.js", encoding="utf-8") as script:
        source = script.read()
    configure = source.index('document.addEventListener("htmx:configRequest"')
    offline_copy = source.index("var entries = new URLSearchParams();", configure)
    assert configure < source.index("params.action_id = newId()", configure) < offline_copy


# --- dice typed by a player ----------------------------------------------------------------------


def _pinned_squad(client, game: Game) -> tuple[str, str]:
    base, unit = f"/games/{game.pk}/", _units(game, 0)[0]
    act(client, base, action="pins", unit=unit, delta="1")
    act(client, base, action="record", side="a", rev="1")
    return base, unit


def test_typed_dice_are_marked_in_the_log(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    base, unit = _pinned_squad(alice_client, game)
    act(alice_client, base, action="order", unit=unit, order="advance", die1="2", die2="3")
    line = game.actions.last().log
    assert line["detail"]["typed"] is True
    page = alice_client.get(base).text
    assert "order test 2+3" in page and " · dice typed by a player" in page
    french = alice_client.get(base, headers={"Accept-Language": "fr"}).text
    assert " · dés saisis par un joueur" in french


def test_dice_muster_or_the_phone_rolled_are_not_marked_typed(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    base, unit = _pinned_squad(alice_client, game)
    act(alice_client, base, action="order", unit=unit, order="advance")  # rolled by Muster
    assert "typed" not in game.actions.last().log["detail"]
    act(alice_client, base, action="pins", unit=unit, delta="1")
    act(alice_client, base, action="record", side="a", rev="4")
    # Rolled by the phone offline: it says which dice fields it rolled.
    act(alice_client, base, action="order", unit=unit, order="fire", die1="1", die2="1", phone_rolled="die1 die2")
    assert "typed" not in game.actions.last().log["detail"]
    assert " · dice typed by a player" not in alice_client.get(base).text


def test_a_typed_die_beside_dice_the_phone_rolled_is_marked(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    unit = _units(game, 0)[0]
    base = f"/games/{game.pk}/"
    act(alice_client, base, action="casualties", unit=unit, delta="1", nco="on", nco_die="4", phone_rolled="die1")
    assert game.actions.last().log["detail"].get("typed") is True


# --- a game from an event pairing: each phone for its own side ---------------------------------


@pytest.fixture
def event_game():
    event = make_event()
    anna, boris = (make_entrant(event, make_user(name)) for name in ("anna", "boris"))
    round_ = events.pair_next_round(event)
    events.publish_round(round_)
    pairing = round_.pairings.get()
    starter = pairing.player_a
    game = events.start_game(pairing, starter)
    starter_client, other_client = Client(), Client()
    starter_client.force_login(starter.user)
    other_client.force_login((pairing.player_b).user)
    assert {anna.pk, boris.pk} == {pairing.player_a_id, pairing.player_b_id}
    return game, starter_client, other_client


def test_a_game_from_a_pairing_is_a_two_phone_game(event_game) -> None:
    game, _starter, _other = event_game
    assert game.two_phones and game.acting_sides(opponent=False) == ("a",)
    assert game.acting_sides(opponent=True) == ("b",)


def test_the_starters_phone_cannot_act_for_the_opponents_units(event_game) -> None:
    game, starter, _other = event_game
    theirs = _units(game, 1)[0]
    response = act(starter, f"/games/{game.pk}/", action="pins", unit=theirs, delta="1")
    assert response.status_code == 403
    assert "You act for your own side only." in response.text
    htmx = starter.post(
        f"/games/{game.pk}/act/",
        {"action": "pins", "unit": theirs, "delta": "1", "seen": "0-0"},
        headers={"HX-Request": "true"},
    )
    assert htmx.status_code == 403 and htmx.text == "You act for your own side only."
    assert game.actions.count() == 0
    mine = _units(game, 0)[0]
    assert act(starter, f"/games/{game.pk}/", action="pins", unit=mine, delta="1").status_code == 302
    assert game.actions.count() == 1


def test_the_opponents_phone_is_refused_the_starters_units_with_a_403(event_game) -> None:
    game, _starter, other = event_game
    link = f"/g/{game.share_token}/"
    response = act(other, link, action="pins", unit=_units(game, 0)[0], delta="1")
    assert response.status_code == 403 and "You act for your own side only." in response.text
    assert act(other, link, action="end_game", result="b", rev="0").status_code == 403
    game.refresh_from_db()
    assert (game.actions.count(), game.result) == (0, "")


def test_the_starter_sees_buttons_for_their_own_units_only(event_game) -> None:
    game, starter, other = event_game
    page = starter.get(f"/games/{game.pk}/").text
    mine, theirs = _units(game, 0)[0], _units(game, 1)[0]

    def tools(html: str, key: str) -> bool:
        row = html[html.index(f'id="u-{key}"') :]
        row = row[: row.index("</li>")]
        return 'class="unit-tools' in row

    assert tools(page, mine) and not tools(page, theirs)
    assert "data-one-phone" not in page  # offline, it follows the game as a two-phone game
    page = other.get(f"/g/{game.share_token}/").text
    assert tools(page, theirs) and not tools(page, mine)


def test_each_player_undoes_only_their_own_action(event_game) -> None:
    game, starter, other = event_game
    act(other, f"/g/{game.share_token}/", action="pins", unit=_units(game, 1)[0], delta="1")
    starter.post(f"/games/{game.pk}/undo/", {"rev": "1"})
    assert game.actions.count() == 1
    assert "Undo" not in starter.get(f"/games/{game.pk}/").text.split('id="game-bar"')[1].split("</section>")[0]
    other.post(f"/g/{game.share_token}/undo/", {"rev": "1"})
    assert game.actions.count() == 0


def test_a_one_phone_game_still_acts_for_both_sides(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    assert not game.two_phones
    act(alice_client, f"/games/{game.pk}/", action="pins", unit=_units(game, 1)[0], delta="1")
    assert game.actions.count() == 1
