"""The organiser hides the standings until the prize-giving: players, visitors and the API see no
place (and are told why); the organiser still sees them; showing them again shows everyone."""

from __future__ import annotations

import json

import pytest

from armybuilder.events import services
from armybuilder.events.models import Event
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db

HIDDEN = "The organiser is keeping the standings hidden until the prize-giving."


@pytest.fixture
def event():
    event = make_event(make_user("orga"), published=True)
    for name in ("anna", "boris"):
        make_entrant(event, make_user(name))
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    services.override_result(round_.pairings.get(), "a", 2, 1)
    return event


def _hide(event, on: bool) -> None:
    response = _client(event.organiser).post(f"/events/{event.slug}/manage/hide-standings/", {"on": "1" if on else "0"})
    assert response.status_code == 302


@pytest.mark.parametrize("viewer", ["player", "anonymous", "other organiser"])
def test_hidden_standings_show_nobody_but_the_organiser(event, viewer):
    user = {
        "player": event.entrants.first().user,
        "anonymous": None,
        "other organiser": make_event(make_user("orga2")).organiser,
    }[viewer]
    client = _client(user)
    before = client.get(f"/events/{event.slug}/standings/")
    _hide(event, True)
    page = client.get(f"/events/{event.slug}/standings/", HTTP_IF_NONE_MATCH=before["ETag"])
    text = page.content.decode().split('id="standings"')[1]
    assert page.status_code == 200 and HIDDEN in text and "anna" not in text and "boris" not in text
    data = json.loads(client.get(f"/api/events/{event.slug}/standings/").content)
    assert data["hidden"] is True and data["standings"] == []
    organiser = _client(event.organiser).get(f"/events/{event.slug}/standings/").content.decode()
    assert "Hidden from the players" in organiser and "anna" in organiser
    _hide(event, False)
    assert "anna" in client.get(f"/events/{event.slug}/standings/").content.decode()
    assert json.loads(client.get(f"/api/events/{event.slug}/standings/").content)["hidden"] is False


@pytest.mark.parametrize("role", ["player", "anonymous", "other organiser"])
def test_only_the_organiser_hides_them(event, role):
    user = {
        "player": event.entrants.first().user,
        "anonymous": None,
        "other organiser": make_event(make_user("orga2")).organiser,
    }[role]
    response = _client(user).post(f"/events/{event.slug}/manage/hide-standings/", {"on": "1"})
    assert response.status_code in (302, 404)
    assert response.status_code == 404 or response["Location"].startswith("/accounts/login/")
    assert not Event.objects.get(pk=event.pk).standings_hidden
