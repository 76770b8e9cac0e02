"""A poll from a phone far behind a long game is answered within a second of CPU.

A stale poll of a 5,000-action game took 1.31 s of CPU: ``Game.since`` read and replayed every
action after the phone's board (5,000 payloads, twice) and the answer rendered 5,000 new log
lines. A phone more than ``SINCE_MOST`` actions behind now gets the whole board, which is the
last snapshot and fewer than ``SNAPSHOT_EVERY`` actions replayed.
"""

from __future__ import annotations

import time

import pytest

from armybuilder.games.models import SINCE_MOST, Game, GameAction
from rules.game.engine import SNAPSHOT_EVERY, Action, apply, log_entry_to_data, state_to_data
from tests.games.phone import shown
from tests.games.test_long_games import Replays, a_game

pytestmark = pytest.mark.django_db

ACTIONS = 5000  # ACTIONS_MAX: the longest game Muster keeps
CPU_SECONDS = 1.0
HX = {"HX-Request": "true"}


def long_game(game: Game, count: int) -> None:
    """``count`` pins actions stored as ``game_act`` stores them (a snapshot every SNAPSHOT_EVERY-th),
    written at once: playing them one by one through the service would take minutes."""
    state = game.state(log=False)
    unit = game.setup["sides"][0]["units"][0]["key"]
    rows = []
    for seq in range(1, count + 1):
        action = Action("pins", side="a", unit=unit, data={"delta": 1 if seq % 2 else -1})
        apply(state, action)
        rows.append(
            GameAction(
                game=game,
                seq=seq,
                kind=action.kind,
                payload=action.to_data(),
                log=log_entry_to_data(state.log[-1]),
                snapshot=state_to_data(state) if seq % SNAPSHOT_EVERY == 0 else None,
            )
        )
    GameAction.objects.bulk_create(rows, batch_size=500)
    Game.objects.filter(pk=game.pk).update(revision=count + 1)


def _poll(client, game: Game, behind: int):
    seen = GameAction.objects.get(game=game, seq=ACTIONS - behind) if behind < ACTIONS else None
    mark = f"{seen.seq}-{seen.pk}" if seen else "0-0"
    # The prints of the board now: the answer's cost is the same whichever rows it sends.
    prints = shown(client, f"/games/{game.pk}/")["prints"]
    url = f"/games/{game.pk}/?since={ACTIONS - behind + 1}&seen={mark}&prints={prints}"
    best = None
    for _attempt in range(3):  # the least of three tries: a shared machine inflates one now and then
        with Replays() as replays:
            start = time.process_time()
            response = client.get(url, headers=HX)
            seconds = time.process_time() - start
        best = seconds if best is None else min(best, seconds)
        if best < CPU_SECONDS:
            break
    return response, best, replays.count


@pytest.fixture
def long(alice_client, alice) -> Game:
    game = a_game(alice_client, alice)
    long_game(game, ACTIONS)
    return game


@pytest.mark.parametrize("behind", [ACTIONS, ACTIONS - 1, 4000, 500, SINCE_MOST + 1])
def test_a_poll_far_behind_gets_the_whole_board_within_a_second(alice_client, long, behind):
    response, seconds, replayed = _poll(alice_client, long, behind)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#game"  # the whole board
    assert f'data-seen="{ACTIONS}-' in response.content.decode()
    assert replayed < SNAPSHOT_EVERY  # from the last snapshot, never from the phone's board
    assert seconds < CPU_SECONDS, seconds


@pytest.mark.parametrize("behind", [1, 10, SINCE_MOST])
def test_a_poll_a_little_behind_gets_only_what_changed_within_a_second(alice_client, long, behind):
    response, seconds, replayed = _poll(alice_client, long, behind)
    assert response.status_code == 200
    assert "HX-Retarget" not in response.headers
    html = response.content.decode()
    assert f'data-seen="{ACTIONS}-' in html
    # Exactly the log lines the phone has not seen.
    assert [n for n in range(ACTIONS - 60, ACTIONS + 1) if f'<li id="log-{n}">' in html] == list(
        range(ACTIONS - behind + 1, ACTIONS + 1)
    )
    assert replayed < 2 * SNAPSHOT_EVERY + SINCE_MOST
    assert seconds < CPU_SECONDS, seconds


def test_no_poll_of_the_longest_game_takes_a_second(alice_client, long):
    """The property, as the resolver's cost bounds state it: whatever board the phone shows (any
    action of the game, none, or a garbled mark), its poll answers within a second of CPU."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    pks = dict(GameAction.objects.filter(game=long).values_list("seq", "pk"))
    prints = shown(alice_client, f"/games/{long.pk}/")["prints"]
    marks = st.one_of(
        st.integers(1, ACTIONS).map(lambda seq: f"{seq}-{pks[seq]}"),
        st.sampled_from(["0-0", "", "x-y", f"1-{pks[2]}", "99999-1"]),
    )

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(mark=marks, since=st.integers(0, ACTIONS + 2))
    def poll(mark: str, since: int) -> None:
        best = None
        for _attempt in range(3):
            start = time.process_time()
            response = alice_client.get(f"/games/{long.pk}/?since={since}&seen={mark}&prints={prints}", headers=HX)
            seconds = time.process_time() - start
            best = seconds if best is None else min(best, seconds)
            if best < CPU_SECONDS:
                break
        assert response.status_code in (200, 204)
        assert best < CPU_SECONDS, (mark, since, best)

    poll()
