"""Two phones that played on offline: each queue merged with what the server has, conflicts settled.

Through the test client: the merge endpoint (``merge/``, the creator's and the share link's), its
refusals (the other side's units, another's game, an unreadable queue), a queue sent twice, and the
one-tap settling of what did not fit.
"""

from __future__ import annotations

import json
import time
import uuid
from urllib.parse import urlencode

import pytest
from django.test import Client

from armybuilder.games.models import Game, GameConflict
from tests.games.test_views import a_game, act
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice_client, alice) -> Game:
    """A two-phone game: Alice's phone acts for side a, the share link for side b (Bob's stand-ins)."""
    game = a_game(alice_client, alice)
    Game.objects.filter(pk=game.pk).update(two_phones=True)
    game.refresh_from_db()
    return game


def units(game: Game, side: int) -> list[str]:
    return [u["key"] for u in game.setup["sides"][side]["units"]]


def item(made_at: int, **fields) -> dict:
    fields.setdefault("action_id", str(uuid.uuid4()))
    return {"body": urlencode(fields, doseq=True), "made_at": made_at}


def send(client, base, queue, *, seen="0-0", now=None, htmx=True):
    data = {"queue": json.dumps(queue), "now": str(now if now is not None else int(time.time() * 1000)), "seen": seen}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"{base}merge/", data, headers=headers)


def lines(game: Game) -> list[str]:
    return [a.kind for a in Game.objects.get(pk=game.pk).actions.order_by("seq")]


def test_a_queue_is_merged_with_the_other_phones_actions_in_the_order_they_happened(alice_client, game) -> None:
    bob, now = Client(), int(time.time() * 1000)
    share = f"/g/{game.share_token}/"
    a1, b1 = units(game, 0)[0], units(game, 1)[0]
    # Bob's phone came back first: a die recorded for side b, and his unit's order.
    bob_queue = [item(now - 9000, action="record", side="b"), item(now - 8000, action="order", unit=b1, order="fire")]
    assert send(bob, share, bob_queue, now=now).status_code == 200
    # Alice's phone, offline meanwhile, pinned her unit between the two.
    assert (
        send(alice_client, f"/games/{game.pk}/", [item(now - 8500, action="pins", unit=a1, delta="1")]).status_code
        == 200
    )
    assert lines(game) == ["merged", "draw", "merged", "pins", "order"]
    state = Game.objects.get(pk=game.pk).state()
    assert (state.unit(a1).pins, state.unit(b1).order) == (1, "fire")


def test_a_phone_clock_set_wrong_is_corrected_by_its_skew(alice_client, game) -> None:
    bob, now = Client(), int(time.time() * 1000)
    a1, b1 = units(game, 0)[0], units(game, 1)[0]
    send(alice_client, f"/games/{game.pk}/", [item(now - 5000, action="pins", unit=a1, delta="1")], now=now)
    # Bob's phone runs an hour fast: its pin, made 10 s ago by its clock, comes before Alice's.
    hour = 3_600_000
    send(bob, f"/g/{game.share_token}/", [item(now + hour - 10_000, action="pins", unit=b1, delta="1")], now=now + hour)
    assert [a.payload.get("unit") for a in Game.objects.get(pk=game.pk).actions.filter(kind="pins")] == [b1, a1]


def test_the_same_die_recorded_on_both_phones_is_kept_as_a_conflict(alice_client, game) -> None:
    bob, now = Client(), int(time.time() * 1000)
    b1 = units(game, 1)[0]
    send(bob, f"/g/{game.share_token}/", [item(now - 9000, action="record", side="b")], now=now)
    response = send(alice_client, f"/games/{game.pk}/", [item(now - 8000, action="record", side="b")], now=now)
    conflict = GameConflict.objects.get(game=game)
    assert (conflict.side, conflict.kind, conflict.die, conflict.code) == ("a", "draw", "b", "pending")
    assert "To settle" in response.text and "the same die recorded on both phones" in response.text
    # Bob still gives his die its order: the game went on with the first record.
    assert act(bob, f"/g/{game.share_token}/", action="order", unit=b1, order="fire").status_code == 302


def test_either_phone_drops_a_die_recorded_twice_with_one_tap(alice_client, game) -> None:
    bob, now = Client(), int(time.time() * 1000)
    send(bob, f"/g/{game.share_token}/", [item(now - 9000, action="record", side="b")], now=now)
    send(alice_client, f"/games/{game.pk}/", [item(now - 8000, action="record", side="b")], now=now)
    conflict = GameConflict.objects.get(game=game)
    page = bob.get(f"/g/{game.share_token}/").text
    assert f'name="conflict" value="{conflict.pk}"' in page  # the bag is the table's: Bob may settle it
    response = bob.post(f"/g/{game.share_token}/settle/", {"conflict": conflict.pk, "how": "dropped"})
    assert response.status_code == 302
    conflict.refresh_from_db()
    assert (conflict.settled, conflict.settled_by) == ("dropped", "b")
    assert lines(game)[-1] == "settled"
    assert "To settle" not in alice_client.get(f"/games/{game.pk}/").text


def test_an_order_for_a_unit_destroyed_meanwhile_is_settled_by_its_side_only(alice_client, game) -> None:
    bob, now = Client(), int(time.time() * 1000)
    b1 = units(game, 1)[0]
    send(alice_client, f"/games/{game.pk}/", [item(now - 9000, action="record", side="b")], now=now)
    # Bob's phone (offline) removed his unit after the die; Alice never saw it, and pinned nothing.
    send(bob, f"/g/{game.share_token}/", [item(now - 8000, action="remove", unit=b1)], now=now)
    send(bob, f"/g/{game.share_token}/", [item(now - 7000, action="pins", unit=b1, delta="1")], seen="0-0", now=now)
    conflict = GameConflict.objects.get(game=game)
    assert (conflict.kind, conflict.code, conflict.unit) == ("pins", "destroyed", b1)
    page = alice_client.get(f"/games/{game.pk}/").text
    assert "Waiting for your opponent to settle it." in page and 'name="how"' not in page
    refused = alice_client.post(f"/games/{game.pk}/settle/", {"conflict": conflict.pk, "how": "dropped"})
    assert refused.status_code == 403 and "You act for your own side only." in refused.text
    assert not GameConflict.objects.get(pk=conflict.pk).settled


def test_apply_it_now_that_still_does_not_fit_says_why_and_stays(alice_client, game) -> None:
    bob, now = Client(), int(time.time() * 1000)
    b1 = units(game, 1)[0]
    send(bob, f"/g/{game.share_token}/", [item(now - 8000, action="remove", unit=b1)], now=now)
    send(bob, f"/g/{game.share_token}/", [item(now - 7000, action="pins", unit=b1, delta="1")], now=now)
    conflict = GameConflict.objects.get(game=game)
    response = bob.post(f"/g/{game.share_token}/settle/", {"conflict": conflict.pk, "how": "applied"}, follow=True)
    assert "This unit is destroyed." in response.text
    assert not GameConflict.objects.get(pk=conflict.pk).settled


def test_apply_it_now_applies_the_action_to_the_game_as_it_is(alice_client, game) -> None:
    bob, now = Client(), int(time.time() * 1000)
    send(bob, f"/g/{game.share_token}/", [item(now - 9000, action="record", side="b")], now=now)
    send(alice_client, f"/games/{game.pk}/", [item(now - 8000, action="record", side="b")], now=now)
    b1 = units(game, 1)[0]
    act(bob, f"/g/{game.share_token}/", action="order", unit=b1, order="fire")
    conflict = GameConflict.objects.get(game=game)
    alice_client.post(f"/games/{game.pk}/settle/", {"conflict": conflict.pk, "how": "applied"})
    assert GameConflict.objects.get(pk=conflict.pk).settled == "applied"
    last = Game.objects.get(pk=game.pk).actions.order_by("-seq").first()
    assert (last.kind, last.log["detail"].get("settled")) == ("draw", True)


def test_what_did_not_fit_the_first_phone_back_is_tried_again_with_the_second(alice_client, game) -> None:
    """Alice recorded Bob's die, then her own and gave it an order; Bob's phone held Bob's order for
    his die. Alice's phone came back first: her die did not fit (Bob's was still waiting for its
    order). Once Bob's queue comes, everything fits in the order it happened but the die recorded twice."""
    bob, now = Client(), int(time.time() * 1000)
    a1, b1 = units(game, 0)[0], units(game, 1)[0]
    alice_queue = [
        item(now - 9000, action="record", side="b"),
        item(now - 7000, action="record", side="a"),
        item(now - 6000, action="order", unit=a1, order="fire"),
    ]
    send(alice_client, f"/games/{game.pk}/", alice_queue, now=now)
    assert GameConflict.objects.filter(game=game).count() == 2
    bob_queue = [item(now - 8900, action="record", side="b"), item(now - 8000, action="order", unit=b1, order="down")]
    send(bob, f"/g/{game.share_token}/", bob_queue, now=now)
    left = GameConflict.objects.get(game=game)
    assert (left.side, left.kind, left.code) == ("b", "draw", "pending")
    assert lines(game) == ["merged", "draw", "merged", "order", "draw", "order"]
    state = Game.objects.get(pk=game.pk).state()
    assert (state.unit(a1).order, state.unit(b1).order) == ("fire", "down")


def test_the_same_end_of_turn_on_both_phones_ends_one_turn_and_the_other_waits(alice_client, game) -> None:
    bob, now = Client(), int(time.time() * 1000)
    send(alice_client, f"/games/{game.pk}/", [item(now - 9000, action="end_turn", force="on", turn="1")], now=now)
    send(bob, f"/g/{game.share_token}/", [item(now - 8000, action="end_turn", force="on", turn="1")], now=now)
    conflict = GameConflict.objects.get(game=game)
    assert (conflict.kind, conflict.code, conflict.side) == ("end_turn", "turn-ended", "b")
    assert Game.objects.get(pk=game.pk).turn == 2
    page = alice_client.get(f"/games/{game.pk}/").text
    assert "the same end of turn on both phones?" in page and "Drop it: the turn had already ended" in page


def test_a_queue_sent_again_is_applied_once(alice_client, game) -> None:
    now = int(time.time() * 1000)
    queue = [item(now - 2000, action="record", side="a"), item(now - 1000, action="record", side="a")]
    send(alice_client, f"/games/{game.pk}/", queue, now=now)
    before = (lines(game), GameConflict.objects.count(), Game.objects.get(pk=game.pk).revision)
    again = send(alice_client, f"/games/{game.pk}/", queue, now=now)
    assert again.status_code == 200
    assert (lines(game), GameConflict.objects.count(), Game.objects.get(pk=game.pk).revision) == before


def test_an_id_twice_in_one_queue_is_one_action(alice_client, game) -> None:
    twice = item(1000, action="pins", unit=units(game, 0)[0], delta="1")
    assert send(alice_client, f"/games/{game.pk}/", [twice, twice]).status_code == 200
    assert lines(game) == ["merged", "pins"]


def test_an_action_for_the_other_sides_unit_refuses_the_whole_queue(alice_client, game) -> None:
    now = int(time.time() * 1000)
    a1, b1 = units(game, 0)[0], units(game, 1)[0]
    queue = [item(now - 2000, action="pins", unit=a1, delta="1"), item(now - 1000, action="pins", unit=b1, delta="1")]
    response = send(alice_client, f"/games/{game.pk}/", queue, now=now)
    assert response.status_code == 403 and "You act for your own side only." in response.text
    assert lines(game) == [] and Game.objects.get(pk=game.pk).revision == 0


def test_another_players_game_is_not_found(game) -> None:
    carol = Client()
    carol.force_login(make_user("carol"))
    response = send(carol, f"/games/{game.pk}/", [item(1, action="record", side="a")])
    assert response.status_code == 404


def test_another_players_conflict_is_not_found(alice_client, game) -> None:
    now = int(time.time() * 1000)
    queue = [item(now - 2000, action="record", side="a"), item(now - 1000, action="record", side="a")]
    send(alice_client, f"/games/{game.pk}/", queue, now=now)
    conflict = GameConflict.objects.get(game=game)
    carol = Client()
    carol.force_login(make_user("carol"))
    response = carol.post(f"/games/{game.pk}/settle/", {"conflict": conflict.pk, "how": "dropped"})
    assert response.status_code == 404 and not GameConflict.objects.get(pk=conflict.pk).settled


@pytest.mark.parametrize(
    ("queue", "words"),
    [
        ("not json", "cannot be read"),
        ("[]", "Send from 1 to 500 actions"),
        (json.dumps([{"body": "action=pins", "made_at": "soon"}]), "Action 1 sent cannot be read."),
        (json.dumps([{"body": "action=pins&scenario=" + "x" * 4000, "made_at": 1}]), "Action 1 sent cannot be read."),
        (json.dumps([{"body": "action=fly", "made_at": 1}]), "Action 1 sent is refused"),
        (json.dumps([{"body": "action=record&side=a", "made_at": 1}]), "it has no id"),
    ],
)
def test_a_queue_that_cannot_be_read_is_refused_with_a_sentence_and_nothing_stored(
    alice_client, game, queue, words
) -> None:
    data = {"queue": queue, "now": str(int(time.time() * 1000)), "seen": "0-0"}
    response = alice_client.post(f"/games/{game.pk}/merge/", data, headers={"HX-Request": "true"})
    assert response.status_code == 400 and words in response.text
    assert lines(game) == [] and GameConflict.objects.count() == 0


def test_a_one_phone_game_sends_its_actions_one_by_one(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    response = send(alice_client, f"/games/{game.pk}/", [item(1, action="record", side="a")])
    assert response.status_code == 400 and "send each action" in response.text


def test_without_javascript_a_merge_redirects_to_the_board(alice_client, game) -> None:
    response = send(alice_client, f"/games/{game.pk}/", [item(1, action="record", side="a")], htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"


def test_the_log_says_what_was_merged(alice_client, game) -> None:
    now = int(time.time() * 1000)
    queue = [item(now - 2000, action="record", side="a"), item(now - 1000, action="record", side="a")]
    page = send(alice_client, f"/games/{game.pk}/", queue, now=now).text
    assert "Merged: 1 action played offline on" in page and "1 to settle" in page
