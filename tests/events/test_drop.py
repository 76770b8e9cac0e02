"""The organiser drops a player from a round on: not paired from then, kept in the standings as
dropped with the games they played; bad input is said next to the field, and nobody else may."""

from __future__ import annotations

import json

import pytest

from armybuilder.events import services
from armybuilder.events.models import Entrant, Pairing, Result
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = make_event(make_user("orga"), published=True, rounds=3)
    for name in ("anna", "boris", "carla", "dmitri"):
        make_entrant(event, make_user(name))
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    for pairing in round_.pairings.all():
        services.override_result(pairing, "a", 2, 1)
    return event


def test_a_dropped_player_is_not_paired_again_and_stays_in_the_standings(event):
    org = _client(event.organiser)
    dmitri = Entrant.objects.get(event=event, user__username="dmitri")
    response = org.post(f"/events/{event.slug}/manage/entrants/{dmitri.pk}/drop/", {"from_round": "2"})
    assert response.status_code == 302
    page = org.get(response["Location"]).content.decode()
    assert "dmitri is dropped from round 2 on" in page and "Dropped from round 2" in page
    dmitri.refresh_from_db()
    assert dmitri.dropped and dmitri.dropped_from == 2
    services.pair_next_round(event)
    second = Pairing.objects.filter(round__number=2, round__event=event)
    assert dmitri.pk not in {key for p in second for key in (p.player_a_id, p.player_b_id)}
    standings = _client().get(f"/events/{event.slug}/standings/").content.decode()
    row = next(tr for tr in standings.split("<tr>") if "dmitri" in tr)
    assert "dropped" in row
    data = json.loads(_client().get(f"/api/events/{event.slug}/standings/").content)
    assert [row["dropped"] for row in data["standings"] if row["entrant"]["name"] == "dmitri"] == [True]
    played = Result.objects.filter(pairing__round__number=1).count()
    assert played == 2  # their round-1 game still counts


def test_a_drop_taken_back_pairs_the_player_again(event):
    org = _client(event.organiser)
    dmitri = Entrant.objects.get(event=event, user__username="dmitri")
    org.post(f"/events/{event.slug}/manage/entrants/{dmitri.pk}/drop/", {"from_round": "2"})
    response = org.post(f"/events/{event.slug}/manage/entrants/{dmitri.pk}/reinstate/")
    assert "dmitri is back" in org.get(response["Location"]).content.decode()
    services.pair_next_round(event)
    second = Pairing.objects.filter(round__number=2, round__event=event)
    assert dmitri.pk in {key for p in second for key in (p.player_a_id, p.player_b_id)}


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1", "Choose a round from 2 (the next to be paired) to 3."),
        ("4", "Choose a round from 2 (the next to be paired) to 3."),
        ("two", "Enter a round number."),
        ("", "Enter a round number."),
    ],
)
def test_a_bad_round_is_said_next_to_the_field_and_kept(event, typed, message):
    org = _client(event.organiser)
    dmitri = Entrant.objects.get(event=event, user__username="dmitri")
    response = org.post(f"/events/{event.slug}/manage/entrants/{dmitri.pk}/drop/", {"from_round": typed})
    assert response.status_code == 400
    row = response.content.decode().split(f'id="entrant-{dmitri.pk}"')[1].split("</tr>")[0]
    assert message in row and f'value="{typed}"' in row if typed else message in row
    assert not Entrant.objects.get(pk=dmitri.pk).dropped


def test_dropping_twice_is_refused_in_words(event):
    org = _client(event.organiser)
    dmitri = Entrant.objects.get(event=event, user__username="dmitri")
    org.post(f"/events/{event.slug}/manage/entrants/{dmitri.pk}/drop/", {"from_round": "3"})
    response = org.post(f"/events/{event.slug}/manage/entrants/{dmitri.pk}/drop/", {"from_round": "2"}, follow=True)
    assert "This player is already dropped." in response.content.decode()
    assert Entrant.objects.get(pk=dmitri.pk).dropped_from == 3


@pytest.mark.parametrize("role", ["player", "anonymous", "other organiser"])
def test_nobody_but_the_organiser_drops_or_brings_back(event, role):
    dmitri = Entrant.objects.get(event=event, user__username="dmitri")
    user = {
        "player": dmitri.user,
        "anonymous": None,
        "other organiser": make_event(make_user("orga2")).organiser,
    }[role]
    client = _client(user)
    for action in ("drop", "reinstate"):
        response = client.post(f"/events/{event.slug}/manage/entrants/{dmitri.pk}/{action}/", {"from_round": "2"})
        assert response.status_code in (302, 404)
        assert response.status_code == 404 or response["Location"].startswith("/accounts/login/")
    assert not Entrant.objects.get(pk=dmitri.pk).dropped


def test_another_events_entrant_is_not_found(event):
    other = make_event(event.organiser)
    stranger = make_entrant(other, make_user("eve"))
    response = _client(event.organiser).post(
        f"/events/{event.slug}/manage/entrants/{stranger.pk}/drop/", {"from_round": "2"}
    )
    assert response.status_code == 404 and not Entrant.objects.get(pk=stranger.pk).dropped
