"""A game's cost does not grow with its log: snapshots, a cap on actions, and rate limits on actions.

The red team's 20,000-action game took 2.3–2.9 s a request (its log replayed from the start, twice
per action), and anyone with the share link could add actions without limit. Replays are counted
here, not timed: every call of the engine's ``apply`` while a state is rebuilt is one action
replayed.
"""

from __future__ import annotations

import importlib
import random
import re
from unittest import mock

import pytest
from django.apps import apps
from django.test import Client, override_settings

from armybuilder.games import services, views
from armybuilder.games.models import Game, GameAction
from armybuilder.games.services import game_act, game_undo
from rules.errors import RulesError
from rules.game import engine
from rules.game.engine import SNAPSHOT_EVERY, Action, end_turn, give_order, recorded_draw, replay, state_to_data
from tests.lists.factories import make_builder_list

pytestmark = pytest.mark.django_db


def a_game(client, owner) -> Game:
    army_list = make_builder_list(owner, entries=2)
    data = {"my_name": "Alice", "opponent": "dice", "opponent_name": "Bob", "opponent_dice": "3"}
    response = client.post(f"/games/new/?list={army_list.pk}", data)
    return Game.objects.get(pk=int(re.search(r"/games/(\d+)/", response["Location"]).group(1)))


def pins(game: Game, delta: int = 0) -> None:
    unit = game.setup["sides"][0]["units"][0]["key"]
    game_act(game=game, build=lambda state: Action("pins", side="a", unit=unit, data={"delta": delta}))


class Replays:
    """Counts the actions the engine applies while the block runs."""

    def __enter__(self) -> Replays:
        self.count = 0
        real = engine.apply

        def counting(state, action):
            self.count += 1
            return real(state, action)

        self.patch = mock.patch.object(engine, "apply", counting)
        self.patch.start()
        return self

    def __exit__(self, *exc) -> None:
        self.patch.stop()


@pytest.mark.parametrize("actions", [SNAPSHOT_EVERY - 1, 2 * SNAPSHOT_EVERY + 30])
def test_the_page_and_an_action_replay_fewer_actions_than_a_snapshot_holds(alice_client, alice, actions) -> None:
    game = a_game(alice_client, alice)
    for _ in range(actions):
        pins(game)
    base = f"/games/{game.pk}/"
    with Replays() as page:
        response = alice_client.get(base)
    assert response.status_code == 200
    assert f"Game log ({actions} actions)" in response.content.decode()
    unit = game.setup["sides"][0]["units"][0]["key"]
    with Replays() as post:
        alice_client.post(f"{base}act/", {"action": "pins", "unit": unit, "delta": "1"})
    # The page replays only what follows the last snapshot; the action that state and then the
    # page it answers with (a redirect here: nothing more).
    assert page.count == actions % SNAPSHOT_EVERY
    assert post.count == actions % SNAPSHOT_EVERY
    assert GameAction.objects.filter(game=game).count() == actions + 1
    assert GameAction.objects.filter(game=game, snapshot__isnull=False).count() == (actions + 1) // SNAPSHOT_EVERY


def test_snapshots_and_undo_give_the_state_a_full_replay_gives(alice_client, alice) -> None:
    """Random play and undos, across several snapshots: the state is always the full replay's."""
    game = a_game(alice_client, alice)
    rng = random.Random(23)
    units = [u["key"] for side in game.setup["sides"] for u in side["units"]]

    def build(state):
        choice = rng.random()
        if state.pending:
            unit = rng.choice([u.key for u in state.side_units(state.pending) if u.can_take_order])
            return give_order(state, unit, rng.choice(["fire", "advance", "down", "rally"]), rng)
        if choice < 0.3:
            return recorded_draw(rng.choice([s for s in "ab" if state.dice_in_bag(s)] or ["a"]))
        if choice < 0.8:
            unit = rng.choice(units)
            return Action("pins", side=unit[0], unit=unit, data={"delta": rng.choice([-1, 1, 2])})
        return end_turn(state, rng, force=True)

    undone = 0
    for _step in range(3 * SNAPSHOT_EVERY + 20):
        try:
            if rng.random() < 0.2:
                game_undo(game=game)
                undone += 1
            else:
                game_act(game=game, build=build)
        except RulesError:
            pass  # a destroyed unit, nothing to undo: the game is unchanged
        game.refresh_from_db()
        payloads = GameAction.objects.filter(game=game).values_list("payload", flat=True)
        full = replay(game.rules_setup(), [Action.from_data(p) for p in payloads])
        now = game.state()
        assert state_to_data(now) == state_to_data(full)
        assert now.log == full.log
    assert undone > 10 and GameAction.objects.filter(game=game, snapshot__isnull=False).exists()


def test_a_game_stops_at_its_most_actions_but_can_still_be_ended(alice_client, alice, monkeypatch) -> None:
    monkeypatch.setattr(services, "ACTIONS_MAX", 3)
    game = a_game(alice_client, alice)
    unit = game.setup["sides"][0]["units"][0]["key"]
    base = f"/games/{game.pk}/"
    for _ in range(3):
        alice_client.post(f"{base}act/", {"action": "pins", "unit": unit, "delta": "1"})
    page = alice_client.post(f"{base}act/", {"action": "pins", "unit": unit, "delta": "1"}, follow=True)
    assert "This game has reached 3 actions, the most one game keeps: end it, or start a new game." in (
        page.content.decode()
    )
    assert GameAction.objects.filter(game=game).count() == 3
    game.refresh_from_db()
    alice_client.post(f"{base}act/", {"action": "end_game", "result": "draw", "rev": str(game.revision)})
    game.refresh_from_db()
    assert (GameAction.objects.filter(game=game).count(), game.result) == (4, "draw")


def test_the_cap_speaks_french(alice_client, alice, monkeypatch) -> None:
    monkeypatch.setattr(services, "ACTIONS_MAX", 1)
    game = a_game(alice_client, alice)
    unit = game.setup["sides"][0]["units"][0]["key"]
    base = f"/games/{game.pk}/"
    alice_client.post(f"{base}act/", {"action": "pins", "unit": unit, "delta": "1"})
    page = alice_client.post(
        f"{base}act/",
        {"action": "pins", "unit": unit, "delta": "1"},
        headers={"HX-Request": "true", "Accept-Language": "fr"},
    )
    assert "Cette partie a atteint 1 actions" in page.content.decode()


@override_settings(RATELIMIT_ENABLE=True)
def test_game_actions_are_rate_limited_per_client(alice_client, alice, monkeypatch) -> None:
    monkeypatch.setattr(views, "ACTION_RATES", ("3/m",))
    game = a_game(alice_client, alice)
    shared = f"/g/{game.share_token}/"
    opponent, neighbour = Client(REMOTE_ADDR="192.0.2.1"), Client(REMOTE_ADDR="192.0.2.2")
    unit_b = game.setup["sides"][1]["units"][0]["key"]

    def rev() -> str:  # guarded actions name the state they were made on
        game.refresh_from_db()
        return str(game.revision)

    statuses = [opponent.post(f"{shared}act/", {"action": "pins", "unit": unit_b, "delta": "1"}).status_code]
    statuses += [opponent.post(f"{shared}undo/", {"rev": rev()}).status_code for _ in range(2)]
    refused = opponent.post(f"{shared}act/", {"action": "pins", "unit": unit_b, "delta": "1", "rev": rev()})
    assert statuses == [302, 302, 302]
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    # Another address, and the game's creator by her account, are not held back by this one.
    assert neighbour.post(f"{shared}act/", {"action": "pins", "unit": unit_b, "delta": "1"}).status_code == 302
    unit_a = game.setup["sides"][0]["units"][0]["key"]
    assert alice_client.post(f"/games/{game.pk}/act/", {"action": "pins", "unit": unit_a}).status_code == 302


def test_the_migration_fills_in_the_log_and_snapshots_of_games_under_way(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    for _ in range(SNAPSHOT_EVERY + 2):
        pins(game, 1 if _ % 2 else -1)
    expected = list(GameAction.objects.filter(game=game).values_list("log", "snapshot"))
    GameAction.objects.filter(game=game).update(log={}, snapshot=None)
    migration = importlib.import_module("armybuilder.games.migrations.0002_action_log_and_snapshots")
    migration.fill_logs_and_snapshots(apps, None)
    assert list(GameAction.objects.filter(game=game).values_list("log", "snapshot")) == expected
    assert expected[SNAPSHOT_EVERY - 1][1] is not None
