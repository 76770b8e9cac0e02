"""An event's banned units name units of the data or the organiser's own, never another player's.

The form resolved any unit of the edition by name, so an organiser typing another player's own
unit's name banned it, and the event's API then showed its slug, which carries its owner's
account number.
"""

from __future__ import annotations

import pytest
from django.test import Client

from armybuilder.events.models import Event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_army, make_edition, make_unit, make_user

pytestmark = pytest.mark.django_db


def _event_data(edition, army, banned: str) -> dict:
    return {
        "name": "Winter Cup",
        "date": "2026-12-05",
        "place": "Club",
        "edition": edition.pk,
        "points_limit": 1000,
        "max_order_dice": 12,
        "rounds": 2,
        "score_win": 3,
        "score_draw": 1,
        "score_loss": 0,
        "tiebreaks": "score,sos,dice",
        "allowed_armies": [army.pk],
        "banned": banned,
    }


@pytest.fixture
def world():
    edition = make_edition("v3")
    army = make_army(edition=edition, slug="germany", name="Germany")
    organiser, bob = make_user("orga"), make_user("bob")
    return {
        "edition": edition,
        "army": army,
        "organiser": organiser,
        "builtin": make_unit(army=army, slug="tiger-i", name="Tiger I"),
        "bobs": make_unit(army=army, slug=f"own-{bob.pk}-secret-tank", name="Secret Tank", owner=bob),
        "mine": make_unit(army=army, slug=f"own-{organiser.pk}-my-tank", name="My Tank", owner=organiser),
    }


def test_another_players_own_unit_is_not_found_by_its_name_or_slug(world):
    org = _client(world["organiser"])
    for name in ("Secret Tank", world["bobs"].slug):
        response = org.post("/events/new/", _event_data(world["edition"], world["army"], name))
        assert response.status_code == 200
        assert f"No unit of the edition is called: {name}." in response.content.decode()
    assert not Event.objects.exists()


def test_units_of_the_data_and_the_organisers_own_are_banned(world):
    org = _client(world["organiser"])
    response = org.post("/events/new/", _event_data(world["edition"], world["army"], "Tiger I\nMy Tank"))
    assert response.status_code == 302
    event = Event.objects.get()
    assert set(event.banned_units.all()) == {world["builtin"], world["mine"]}
    # Editing keeps the organiser's own unit found (the form knows whose event it is).
    response = org.post(f"/events/{event.slug}/manage/edit/", _event_data(world["edition"], world["army"], "My Tank"))
    assert response.status_code == 302
    assert list(event.banned_units.all()) == [world["mine"]]


def test_the_api_never_shows_another_players_unit_banned_before_the_fix(world):
    org = _client(world["organiser"])
    assert org.post("/events/new/", _event_data(world["edition"], world["army"], "Tiger I")).status_code == 302
    event = Event.objects.get()
    event.published = True
    event.save()
    event.banned_units.add(world["bobs"])  # as the old form saved it
    data = Client().get(f"/api/events/{event.slug}/").json()
    assert data["rules"]["banned_units"] == ["tiger-i"]
    assert world["bobs"].slug not in str(data)
