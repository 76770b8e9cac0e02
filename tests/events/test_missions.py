"""Missions: the organiser types the event's missions (3rd edition: victory condition / deployment
zone / deployment type) and sets or rolls one per round; each pairing shows it and its result records
it. Bad lines and unknown missions are said next to their field, as typed; nobody else may."""

from __future__ import annotations

import json
import random

import pytest

from armybuilder.events import services, views
from armybuilder.events.models import Event, Result, Round
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db

MISSIONS = "Key Positions / Long edges / Meeting engagement\nEnvelopment / Short edges / Prepared positions\n"
FIRST = "Key Positions / Long edges / Meeting engagement"
SECOND = "Envelopment / Short edges / Prepared positions"


@pytest.fixture
def event():
    event = make_event(make_user("orga"), published=True, rounds=3)
    for name in ("anna", "boris", "carla", "dmitri"):
        make_entrant(event, make_user(name))
    services.publish_round(services.pair_next_round(event))
    return event


def _missions(client, event, text: str = MISSIONS):
    return client.post(f"/events/{event.slug}/manage/missions/", {"missions": text})


def _set(client, event, mission: str, action: str = "set", number: int = 1):
    return client.post(f"/events/{event.slug}/manage/rounds/{number}/mission/", {"mission": mission, "action": action})


def test_the_organiser_types_missions_sets_one_and_every_pairing_shows_it(event):
    org = _client(event.organiser)
    response = _missions(org, event)
    assert response.status_code == 302
    assert "2 missions saved." in org.get(response["Location"]).content.decode()
    assert Event.objects.get(pk=event.pk).missions == [
        ["Key Positions", "Long edges", "Meeting engagement"],
        ["Envelopment", "Short edges", "Prepared positions"],
    ]
    page = _set(org, event, "envelopment / short edges / prepared positions")  # case and spaces aside
    assert page.status_code == 302 and page["Location"].endswith("#round-1")
    assert Round.objects.get(event=event, number=1).mission == SECOND
    round_page = _client().get(f"/events/{event.slug}/rounds/1/").content.decode()
    pairings = [chunk.split("</li>")[0] for chunk in round_page.split('<li id="pairing-')[1:]]
    assert len(pairings) == 2 and all(f"Mission: {SECOND}" in chunk for chunk in pairings)
    data = json.loads(_client().get(f"/api/events/{event.slug}/rounds/1/").content)
    assert data["mission"] == SECOND


def test_the_result_records_the_mission_it_was_played_on(event):
    org = _client(event.organiser)
    _missions(org, event)
    _set(org, event, FIRST)
    first, second = Round.objects.get(event=event, number=1).pairings.all()
    services.override_result(first, "a", 2, 1)
    player = second.player_a
    _client(player.user).post(
        f"/events/{event.slug}/pairings/{second.pk}/result/", {"outcome": "draw", "dice_a": "1", "dice_b": "1"}
    )
    assert {r.mission for r in Result.objects.all()} == {FIRST}
    _set(org, event, SECOND)  # a later change leaves the games already played as they were
    assert {r.mission for r in Result.objects.all()} == {FIRST}
    page = _client().get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert f"Mission: {FIRST}" in page.split(f'id="pairing-{first.pk}"')[1].split("</li>")[0]
    csv_rows = org.get(f"/events/{event.slug}/manage/results.csv").content.decode().splitlines()
    assert csv_rows[0].endswith(",mission") and all(row.endswith(FIRST) for row in csv_rows[1:])
    data = json.loads(_client().get(f"/api/events/{event.slug}/rounds/1/").content)
    assert {p["result"]["mission"] for p in data["pairings"]} == {FIRST}


def test_a_roll_uses_the_injected_random_source(event, monkeypatch):
    org = _client(event.organiser)
    _missions(org, event)
    expected = random.Random(3).choice([FIRST, SECOND])
    monkeypatch.setattr(views, "_mission_rng", lambda: random.Random(3))
    response = _set(org, event, "", action="roll")
    assert response.status_code == 302
    assert f"Round 1 plays {expected}." in org.get(response["Location"]).content.decode()
    assert Round.objects.get(event=event, number=1).mission == expected


def test_rolling_without_missions_is_refused_next_to_the_field(event):
    response = _set(_client(event.organiser), event, "", action="roll")
    assert response.status_code == 400
    form = response.content.decode().split('id="round-1"')[1].split("</form>")[0]
    assert "The event has no missions yet: type them under Missions first." in form


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("Key Positions / Long edges / Prepared positions", "This is not one of the event&#x27;s missions"),
        ("", "Type one of the event&#x27;s missions, or roll one."),
    ],
)
def test_an_unknown_mission_is_said_next_to_the_field_as_typed(event, typed, message):
    org = _client(event.organiser)
    _missions(org, event)
    response = _set(org, event, typed)
    assert response.status_code == 400
    form = response.content.decode().split('id="round-1"')[1].split("</form>")[0]
    assert message in form and f'value="{typed}"' in form if typed else message in form
    assert Round.objects.get(event=event, number=1).mission == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Key Positions / Long edges", "Line 1: a mission is three parts separated by /"),
        ("A / B / C\nA / / C", "Line 2: a part of the mission is empty."),
        ("A / B / " + "x" * 61, "Line 1: each part is at most 60 characters."),
    ],
)
def test_a_line_that_is_not_a_mission_is_said_next_to_the_field_as_typed(event, text, message):
    org = _client(event.organiser)
    _missions(org, event)
    response = _missions(org, event, text)
    assert response.status_code == 400
    form = response.content.decode().split('class="missions-form"')[1].split("</form>")[0]
    assert message in form and text.split("\n")[0] in form
    assert len(Event.objects.get(pk=event.pk).missions) == 2  # the missions saved before are kept


def test_second_edition_missions_are_one_name(event):
    event.edition.slug = "v2"
    event.edition.save()
    org = _client(event.organiser)
    assert _missions(org, event, "Top Secret\nDemolition").status_code == 302
    refused = _missions(org, event, "Top Secret / Long edges")
    assert "Line 1: a mission is one scenario name, without /." in refused.content.decode()


@pytest.mark.parametrize("role", ["player", "anonymous", "other organiser"])
def test_nobody_but_the_organiser_sets_missions(event, role):
    player = Round.objects.get(event=event, number=1).pairings.first().player_a.user
    user = {"player": player, "anonymous": None, "other organiser": make_event(make_user("orga2")).organiser}[role]
    client = _client(user)
    for response in (_missions(client, event), _set(client, event, FIRST), _set(client, event, "", "roll")):
        assert response.status_code in (302, 404)
        assert response.status_code == 404 or response["Location"].startswith("/accounts/login/")
    assert Event.objects.get(pk=event.pk).missions == []
    assert Round.objects.get(event=event, number=1).mission == ""


def test_setting_a_mission_moves_the_event_version(event):
    client = _client()
    first = client.get(f"/api/events/{event.slug}/rounds/1/")
    org = _client(event.organiser)
    _missions(org, event)
    _set(org, event, FIRST)
    again = client.get(f"/api/events/{event.slug}/rounds/1/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and json.loads(again.content)["mission"] == FIRST


def test_in_french(event):
    org = _client(event.organiser)
    _missions(org, event)
    response = org.post(
        f"/events/{event.slug}/manage/rounds/1/mission/",
        {"mission": "Nowhere / At all / Ever", "action": "set"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert "Ce n&#x27;est pas une des missions de l&#x27;événement" in response.content.decode()
    _set(org, event, FIRST)
    page = _client().get(f"/events/{event.slug}/rounds/1/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Mission: {FIRST}" in page and "Missions" not in page


def test_a_draft_paired_again_keeps_its_mission(event):
    # The mission belongs to the round, not to its pairings: the organiser who pairs a round again
    # (a draft, or a round taken back) has already told the room what it plays.
    org = _client(event.organiser)
    _missions(org, event)
    for pairing in Round.objects.get(event=event, number=1).pairings.all():
        services.override_result(pairing, "a", 2, 1)
    services.pair_next_round(event)
    _set(org, event, SECOND, number=2)
    response = org.post(f"/events/{event.slug}/manage/rounds/2/pair-again/", follow=True)
    assert "Round 2 is paired again. Check it, then publish it." in response.content.decode()
    assert Round.objects.get(event=event, number=2).mission == SECOND
    services.publish_round(Round.objects.get(event=event, number=2))
    assert f"Mission: {SECOND}" in _client().get(f"/events/{event.slug}/rounds/2/").content.decode()
