"""Game day answers with fragments: a tap or a poll sends only what changed since the
board the phone shows, out of band; the opponent sees no button they cannot use; the back button
never shows a board one action old."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.games.phone import shown
from tests.games.test_views import a_game, act

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def other():
    """The opponent's phone, by the share link (not logged in)."""
    return Client()


def rows(html: str) -> list[str]:
    return re.findall(r'<li hx-swap-oob="true"[^>]* id="u-(\w+)"', html)


def test_a_pin_answers_with_its_row_the_bar_and_the_log_line_only(alice_client, alice) -> None:
    game = a_game(alice_client, alice, entries=12)
    unit = game.setup["sides"][0]["units"][3]["key"]
    response = alice_client.post(
        f"/games/{game.pk}/act/",
        {"action": "pins", "unit": unit, "delta": "1", **shown(alice_client, f"/games/{game.pk}/")},
        headers=HTMX,
    )
    html = response.content.decode()
    assert rows(html) == [unit]
    assert 'id="game"' not in html and 'id="game-sync"' in html and 'id="game-bar" ' in html
    assert re.search(r'hx-swap-oob="afterbegin:#log-lines"><li id="log-1">Turn 1 · [^<]*pins \+1 \(now 1\)', html)
    assert 'data-seen="1-' in html and "HX-Retarget" not in response.headers


def test_a_fragment_is_a_fraction_of_the_board(alice_client, alice) -> None:
    game = a_game(alice_client, alice, entries=30)
    unit = game.setup["sides"][0]["units"][0]["key"]
    board = alice_client.get(f"/games/{game.pk}/").content
    tap = alice_client.post(
        f"/games/{game.pk}/act/",
        {"action": "pins", "unit": unit, **shown(alice_client, f"/games/{game.pk}/")},
        headers=HTMX,
    ).content
    assert len(tap) * 5 < len(board)


def test_a_draw_names_the_units_that_may_take_it_instead_of_sending_their_rows(alice_client, alice) -> None:
    game = a_game(alice_client, alice, entries=3)
    base = f"/games/{game.pk}/"
    mine = [u["key"] for u in game.setup["sides"][0]["units"]]
    act(alice_client, base, action="pins", unit=mine[2], delta="1")
    data = {"action": "record", "side": "a", "rev": "1", **shown(alice_client, f"/games/{game.pk}/")}
    html = alice_client.post(f"{base}act/", data, headers=HTMX).content.decode()
    # The pinned unit's row comes with its order test; the others only get named (game.js gives
    # them the page's order buttons).
    assert rows(html) == [mine[2]] and "order-test" in html
    assert re.search(rf'id="game-awaits" data-units="{mine[0]} {mine[1]} " hidden hx-swap-oob="true"', html)
    data = {"action": "order", "unit": mine[0], "order": "fire", **shown(alice_client, f"/games/{game.pk}/")}
    html = alice_client.post(f"{base}act/", data, headers=HTMX).content.decode()
    assert sorted(rows(html)) == sorted([mine[0], mine[2]])  # the one ordered, the pinned one's test goes
    assert 'id="game-awaits" data-units="" hidden' in html


def test_the_poll_sends_what_the_other_phone_changed(alice_client, alice, other) -> None:
    game = a_game(alice_client, alice, entries=5)
    phone = shown(alice_client, f"/games/{game.pk}/")
    bob1 = game.setup["sides"][1]["units"][0]["key"]
    act(other, f"/g/{game.share_token}/", action="pins", unit=bob1, delta="2")
    response = alice_client.get(f"/games/{game.pk}/", {"since": "0", **phone}, headers=HTMX)
    assert rows(response.content.decode()) == [bob1]


def test_an_undo_takes_its_log_line_off_and_sends_the_row_back(alice_client, alice) -> None:
    game = a_game(alice_client, alice, entries=4)
    base = f"/games/{game.pk}/"
    unit = game.setup["sides"][0]["units"][1]["key"]
    act(alice_client, base, action="pins", unit=unit, delta="1")
    game.refresh_from_db()
    data = {"rev": str(game.revision), **shown(alice_client, f"/games/{game.pk}/")}
    html = alice_client.post(f"{base}undo/", data, headers=HTMX).content.decode()
    assert rows(html) == [unit]
    assert '<li id="log-1" hx-swap-oob="delete"></li>' in html


def test_a_board_the_phone_cannot_bring_up_to_date_comes_whole(alice_client, alice, other) -> None:
    game = a_game(alice_client, alice)
    base = f"/games/{game.pk}/"
    unit = game.setup["sides"][0]["units"][0]["key"]
    act(alice_client, base, action="pins", unit=unit)
    phone = shown(alice_client, base)
    game.refresh_from_db()
    alice_client.post(f"{base}undo/", {"rev": str(game.revision)})  # the action that phone saw is gone
    response = alice_client.get(base, {"since": "1", **phone}, headers=HTMX)
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#game", "outerHTML")
    assert 'id="game"' in response.content.decode()


def test_a_garbled_seen_mark_gets_the_whole_board(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    response = alice_client.get(f"/games/{game.pk}/?since=9&seen=1-x", headers=HTMX)
    assert response.status_code == 200 and response["HX-Retarget"] == "#game"


def test_the_opponent_sees_no_undo_of_the_creators_action(alice_client, alice, other) -> None:
    game = a_game(alice_client, alice)
    shared = f"/g/{game.share_token}/"
    act(alice_client, f"/games/{game.pk}/", action="record", side="a", rev="0")
    theirs, mine = other.get(shared).content.decode(), alice_client.get(f"/games/{game.pk}/").content.decode()
    assert ('id="undo"' in theirs, 'id="undo"' in mine) == (False, True)
    bob1 = game.setup["sides"][1]["units"][0]["key"]
    act(other, shared, action="pins", unit=bob1)
    assert 'id="undo"' in other.get(shared).content.decode()


def test_the_board_is_never_taken_from_the_browsers_cache(alice_client, alice) -> None:
    # The back button after "Odds now" must fetch the board as it is now.
    game = a_game(alice_client, alice)
    response = alice_client.get(f"/games/{game.pk}/")
    assert "no-store" in response["Cache-Control"]


def test_only_a_game_on_one_phone_is_played_offline(alice_client, alice, other) -> None:
    game = a_game(alice_client, alice)
    assert "data-one-phone" in alice_client.get(f"/games/{game.pk}/").content.decode()
    assert "data-one-phone" not in other.get(f"/g/{game.share_token}/").content.decode()
    act(other, f"/g/{game.share_token}/", action="pins", unit=game.setup["sides"][1]["units"][0]["key"])
    page = alice_client.get(f"/games/{game.pk}/").content.decode()
    assert "data-one-phone" not in page and 'id="offline-follow"' in page


def test_the_queued_actions_replay_in_order_and_a_conflict_says_why(alice_client, alice) -> None:
    # What game.js sends when the network is back: each action with the revision the ones before
    # it made. A guarded one whose revision the game passed meanwhile is refused with its reason.
    game = a_game(alice_client, alice)
    base = f"/games/{game.pk}/"
    unit = game.setup["sides"][0]["units"][0]["key"]
    queue = [
        {"action": "record", "side": "a", "rev": "0"},
        {"action": "order", "unit": unit, "order": "fire", "rev": "1"},
        {"action": "pins", "unit": unit, "delta": "1", "rev": "2"},
    ]
    for data in queue:
        html = alice_client.post(f"{base}act/", data, headers=HTMX).content.decode()
        assert 'message-error" role="alert">' not in html  # the bar shows no refusal
    game.refresh_from_db()
    assert (game.revision, [a.kind for a in game.actions.all()]) == (3, ["draw", "order", "pins"])
    stale = alice_client.post(f"{base}act/", {"action": "record", "side": "b", "rev": "1"}, headers=HTMX)
    assert "The game moved on since this page was loaded" in stale.content.decode()


def test_a_fragment_past_a_snapshot_replays_from_it(alice_client, alice, settings) -> None:
    # 60 actions: the phone's board and the game now both resume from the snapshot at 50.
    settings.RATELIMIT_ENABLE = False
    game = a_game(alice_client, alice, entries=2)
    base = f"/games/{game.pk}/"
    first, second = (u["key"] for u in game.setup["sides"][0]["units"])
    for i in range(60):
        act(alice_client, base, action="pins", unit=first, delta="1" if i % 2 == 0 else "-1")
    assert game.actions.filter(snapshot__isnull=False).count() == 1
    data = {"action": "pins", "unit": second, "delta": "2", **shown(alice_client, f"/games/{game.pk}/")}
    html = alice_client.post(f"{base}act/", data, headers=HTMX).content.decode()
    assert rows(html) == [second] and '<li id="log-61">' in html and "now 2" in html


def test_the_offline_notes_speak_french(alice_client, alice, other) -> None:
    game = a_game(alice_client, alice)
    french = {"Accept-Language": "fr"}
    mine = alice_client.get(f"/games/{game.pk}/", headers=french).content.decode()
    theirs = other.get(f"/g/{game.share_token}/", headers=french).content.decode()
    assert "Hors ligne : continuez à jouer" in mine and "En attente d'envoi :" in mine
    assert "Hors ligne : voici le dernier état vu par ce téléphone" in theirs


def test_a_pin_leaves_the_bar_end_of_turn_and_summary_alone_until_they_move(alice_client, alice) -> None:
    game = a_game(alice_client, alice, entries=4)
    unit = game.setup["sides"][0]["units"][1]["key"]
    url = f"/games/{game.pk}/act/"
    alice_client.post(
        url, {"action": "pins", "unit": unit, "delta": "1", **shown(alice_client, f"/games/{game.pk}/")}, headers=HTMX
    )
    html = alice_client.post(
        url, {"action": "pins", "unit": unit, "delta": "1", **shown(alice_client, f"/games/{game.pk}/")}, headers=HTMX
    ).content.decode()
    assert rows(html) == [unit]
    assert ('id="game-bar"' in html, 'id="end-turn"' in html, 'id="summary"' in html) == (False, False, False)
    assert ('id="game-awaits"' in html, 'id="snap-slot"' in html, 'id="log-empty"' in html) == (False, False, False)
    assert "csrfmiddlewaretoken" not in html  # htmx sends the token in a header
    # Seven pins more rout the Regular squad: a unit lost, its die out of the bag.
    html = alice_client.post(
        url, {"action": "pins", "unit": unit, "delta": "7", **shown(alice_client, f"/games/{game.pk}/")}, headers=HTMX
    ).content.decode()
    assert 'id="game-bar"' in html and 'id="summary"' in html and "1 / 4" in html
    # A refusal is said in the bar, which comes with it.
    html = alice_client.post(
        url,
        {"action": "order", "unit": unit, "order": "fire", **shown(alice_client, f"/games/{game.pk}/")},
        headers=HTMX,
    ).content.decode()
    assert 'id="game-bar"' in html and "message-error" in html


def test_a_taps_answer_is_gzipped_and_the_page_keeps_its_etag(alice_client, alice) -> None:
    game = a_game(alice_client, alice, entries=4)
    unit = game.setup["sides"][0]["units"][1]["key"]
    gzip = {"Accept-Encoding": "gzip"}
    tap = alice_client.post(
        f"/games/{game.pk}/act/",
        {"action": "pins", "unit": unit, **shown(alice_client, f"/games/{game.pk}/")},
        headers=HTMX | gzip,
    )
    page = alice_client.get(f"/games/{game.pk}/", headers=gzip)
    assert (tap.headers.get("Content-Encoding"), page.headers.get("Content-Encoding")) == ("gzip", None)
    assert alice_client.get(f"/games/{game.pk}/", headers={"If-None-Match": page["ETag"]}).status_code == 304


def test_a_pin_tap_reads_the_game_once_and_its_actions_once_after_writing(
    alice_client, alice, django_assert_num_queries
) -> None:
    # The action written, its answer reads the actions since the phone's board (the snapshot and
    # the rows after it) and nothing else: the last order and whether the opponent acted are
    # among them when the game has no snapshot yet, and the game is not read again.
    game = a_game(alice_client, alice, entries=4)
    unit = game.setup["sides"][0]["units"][1]["key"]
    url = f"/games/{game.pk}/act/"
    alice_client.post(
        url, {"action": "pins", "unit": unit, "delta": "1", **shown(alice_client, f"/games/{game.pk}/")}, headers=HTMX
    )
    phone = shown(alice_client, f"/games/{game.pk}/")
    # session, user, game; the write: lock, snapshot, rows, insert, update (with the transaction's
    # savepoints on the test database); the answer: snapshot and rows.
    with django_assert_num_queries(12):
        alice_client.post(url, {"action": "pins", "unit": unit, "delta": "1", **phone}, headers=HTMX)


def test_a_die_drawn_moves_the_bar_not_the_summary(alice_client, alice) -> None:
    game = a_game(alice_client, alice, entries=4)
    html = alice_client.post(
        f"/games/{game.pk}/act/",
        {"action": "record", "side": "a", "rev": "0", **shown(alice_client, f"/games/{game.pk}/")},
        headers=HTMX,
    ).content.decode()
    assert 'id="game-bar"' in html and 'id="summary"' not in html
