"""A tap's answer builds the game's board once: the phone sends the print of each row and panel it
shows (``prints``), and only those whose print is not the board's now are sent back. Without prints
that can be read, the whole board; never an error."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.test import RequestFactory

from armybuilder.games import board as presenter
from armybuilder.games import views
from tests.games.phone import field, prints_in, shown
from tests.games.test_views import a_game, act

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def rows(html: str) -> list[str]:
    return re.findall(r'<li hx-swap-oob="true"[^>]* id="u-(\w+)"', html)


def whole(response) -> bool:
    return response.get("HX-Retarget") == "#game" and 'id="game"' in response.content.decode()


@pytest.fixture
def boards():
    """Counts the boards the presenter builds."""
    with mock.patch.object(presenter, "board", wraps=presenter.board) as built:
        yield built


def test_a_pin_builds_the_board_once(alice_client, alice, boards) -> None:
    game = a_game(alice_client, alice, entries=4)
    base = f"/games/{game.pk}/"
    unit = game.setup["sides"][0]["units"][1]["key"]
    data = {"action": "pins", "unit": unit, "delta": "1", **shown(alice_client, base)}
    boards.reset_mock()
    response = alice_client.post(f"{base}act/", data, headers=HTMX)
    assert rows(response.content.decode()) == [unit] and boards.call_count == 1


def test_a_poll_after_the_other_phones_tap_builds_the_board_once(alice_client, alice, client, boards) -> None:
    game = a_game(alice_client, alice, entries=3)
    base = f"/games/{game.pk}/"
    phone = shown(alice_client, base)
    theirs = game.setup["sides"][1]["units"][0]["key"]
    act(client, f"/g/{game.share_token}/", action="pins", unit=theirs, delta="1")
    boards.reset_mock()
    response = alice_client.get(base, {"since": "0", **phone}, headers=HTMX)
    assert rows(response.content.decode()) == [theirs] and boards.call_count == 1


def test_an_undo_builds_the_board_once_and_sends_the_row_back(alice_client, alice, boards) -> None:
    game = a_game(alice_client, alice, entries=3)
    base = f"/games/{game.pk}/"
    unit = game.setup["sides"][0]["units"][0]["key"]
    act(alice_client, base, action="pins", unit=unit, delta="2")
    game.refresh_from_db()
    data = {"rev": str(game.revision), **shown(alice_client, base)}
    boards.reset_mock()
    html = alice_client.post(f"{base}undo/", data, headers=HTMX).content.decode()
    assert (rows(html), boards.call_count) == ([unit], 1)
    assert '<li id="log-1" hx-swap-oob="delete"></li>' in html and 'id="game-bar"' in html


def test_an_undo_reads_no_board_before_the_action_goes(alice_client, alice, django_assert_num_queries) -> None:
    # The phone says what it shows: the board before the undo is neither read nor replayed.
    game = a_game(alice_client, alice, entries=3)
    base = f"/games/{game.pk}/"
    act(alice_client, base, action="pins", unit=game.setup["sides"][0]["units"][0]["key"], delta="1")
    game.refresh_from_db()
    data = {"rev": str(game.revision), **shown(alice_client, base)}
    # session, user, game; the undo: lock, snapshot, rows, delete, the state left (snapshot, rows),
    # update, with the transaction's savepoints on the test database; the answer: the game, its last
    # action, its state (snapshot, rows), the last order, whether the opponent acted. Reading the
    # phone's board first took 3 more.
    with django_assert_num_queries(18):
        alice_client.post(f"{base}undo/", data, headers=HTMX)


def test_the_rows_sent_are_those_whose_print_the_phone_does_not_show(alice_client, alice) -> None:
    # The phone missed an answer for another unit (its row still shows an older print): that row
    # comes with the tap's own, whatever the board the phone names.
    game = a_game(alice_client, alice, entries=4)
    base = f"/games/{game.pk}/"
    tapped, missed = (u["key"] for u in game.setup["sides"][0]["units"][:2])
    page = alice_client.get(base).content.decode()
    prints = prints_in(page) | {f"u-{missed}": "A" * presenter.PRINT_CHARS}
    seen = re.search(r'data-seen="([^"]+)"', page).group(1)
    data = {"action": "pins", "unit": tapped, "delta": "1", "seen": seen, "prints": field(prints)}
    html = alice_client.post(f"{base}act/", data, headers=HTMX).content.decode()
    assert sorted(rows(html)) == sorted([tapped, missed])


def test_each_piece_sent_carries_its_new_print(alice_client, alice) -> None:
    game = a_game(alice_client, alice, entries=3)
    base = f"/games/{game.pk}/"
    unit = game.setup["sides"][0]["units"][0]["key"]
    before = shown(alice_client, base)
    html = alice_client.post(
        f"{base}act/", {"action": "record", "side": "a", "rev": "0", **before}, headers=HTMX
    ).content.decode()
    sent = prints_in(html)
    now = prints_in(alice_client.get(base).content.decode())
    assert sent and all(now[key] == value for key, value in sent.items())
    assert sent["game-bar"] != dict(pair.split(":") for pair in before["prints"].split(","))["game-bar"]
    assert f"u-{unit}" not in sent  # unpinned: named in #game-awaits, not sent


@pytest.mark.parametrize(
    "prints",
    [
        None,  # an old page, or a plain client
        "",
        "nothing",
        "game:short",
        "game:AAAAAAAAAAAA,",
        "game:AAAAAAAAAAAA,u-a1",
        "<b>:AAAAAAAAAAAA",
        "game:AAAAAAAAAA==",
        "game:" + "A" * 5000,
        ",".join(f"u-a{i}:AAAAAAAAAAAA" for i in range(600)),  # past views.PRINTS_MOST
    ],
)
def test_prints_missing_or_unreadable_get_the_whole_board(alice_client, alice, prints) -> None:
    game = a_game(alice_client, alice, entries=2)
    base = f"/games/{game.pk}/"
    unit = game.setup["sides"][0]["units"][0]["key"]
    data = {"action": "pins", "unit": unit, "delta": "1", "seen": shown(alice_client, base)["seen"]}
    if prints is not None:
        data["prints"] = prints
    response = alice_client.post(f"{base}act/", data, headers=HTMX)
    assert response.status_code == 200 and whole(response)
    poll = alice_client.get(base, {"since": "0", "seen": "0-0", **({"prints": prints} if prints else {})}, headers=HTMX)
    assert poll.status_code == 200 and whole(poll)


def test_a_turn_gone_by_sends_the_whole_board(alice_client, alice) -> None:
    # The phone's board print (its #game) names its turn: the whole board once the turn changed,
    # after the end of the turn on the other phone, or after its undo.
    game = a_game(alice_client, alice, entries=2)
    base = f"/games/{game.pk}/"
    phone = shown(alice_client, base)
    act(alice_client, base, action="end_turn", force="on", rev="0")
    assert whole(alice_client.get(base, {"since": "0", **phone}, headers=HTMX))
    game.refresh_from_db()
    undo = alice_client.post(f"{base}undo/", {"rev": str(game.revision), **shown(alice_client, base)}, headers=HTMX)
    assert whole(undo) and "End of turn 1" in undo.content.decode()


def test_a_refused_undo_keeps_the_board_and_says_why(alice_client, alice) -> None:
    game = a_game(alice_client, alice, entries=2)
    base = f"/games/{game.pk}/"
    unit = game.setup["sides"][0]["units"][0]["key"]
    act(alice_client, base, action="pins", unit=unit, delta="1")
    phone = shown(alice_client, base)
    act(alice_client, base, action="pins", unit=unit, delta="1")  # another tap moved the game on
    response = alice_client.post(f"{base}undo/", {"rev": "1", **phone}, headers=HTMX)
    html = response.content.decode()
    assert not whole(response) and rows(html) == [unit] and "The game moved on" in html
    assert '<li id="log-2">' in html and 'hx-swap-oob="delete"' not in html


def test_the_prints_read_are_the_ones_game_js_writes() -> None:
    # The string tests/js/game_rules.test.js has printsField write.
    raw = "game:AbCdEf012345,u-a12:zz_-09AZaz12,game-bar:000000000000"
    request = RequestFactory().post("/", {"prints": raw})
    assert views._shown(request) == {"game": "AbCdEf012345", "u-a12": "zz_-09AZaz12", "game-bar": "000000000000"}


def fingerprint() -> tuple:
    """A fingerprint with a fraction, a lazy translation and a dataclass, as a row's and the bar's hold."""
    from fractions import Fraction

    offer = presenter.SupportOffer("a", "Alice", "air", "Air Superiority", 1, [("arrives", Fraction(1, 2), "50 %")])
    return (Fraction(1, 3), presenter.ORDER_LABELS["fire"], (offer,))


def test_a_print_is_the_same_in_every_process() -> None:
    # Two processes of the site must print a board alike: by value, never by repr (a lazy
    # translation's names its address), and a type it cannot print by value is refused.
    code = (
        "import django; django.setup()\n"
        "from armybuilder.games.board import digest\n"
        "from tests.games.test_board_once import fingerprint\n"
        "print(digest(fingerprint()))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "armybuilder.settings", "PYTHONHASHSEED": "random"}
    root = Path(__file__).resolve().parents[2]
    other = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True)
    assert other.stdout.strip() == presenter.digest(fingerprint())
    with pytest.raises(TypeError):
        presenter.digest((object(),))


def test_a_polls_prints_fit_the_request_line_gunicorn_takes() -> None:
    # A poll's prints ride in its URL: past gunicorn's request line, it would be refused outright.
    root = Path(__file__).resolve().parents[2]
    gunicorn = (root / "deploy" / "gunicorn.conf.py").read_text()
    limit = int(re.search(r"^limit_request_line = (\d+)", gunicorn, re.M).group(1))
    most = int(re.search(r"var POLL_PRINTS_MOST = (\d+);", (root / "static/js/game.js").read_text()).group(1))
    rest = len("GET /g/" + "x" * 64 + "/?since=99999&seen=99999-9999999999&prints= HTTP/1.1")
    assert most + rest <= limit
