"""Bonus and penalty points: the organiser gives them (category, points, round, reason) and removes
them; they count in the standings' score, are shown in its breakdown and the API, and move the event's
version. Bad values are said next to their field with everything typed kept; nobody else may."""

from __future__ import annotations

import json

import pytest

from armybuilder.events import services
from armybuilder.events.freshness import event_version
from armybuilder.events.models import Adjustment, Entrant
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """Four players, round 1 played: anna beats boris and carla beats dmitri (3 points each)."""
    event = make_event(make_user("orga"), published=True, rounds=3)
    for name in ("anna", "boris", "carla", "dmitri"):
        make_entrant(event, make_user(name))
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    for pairing in round_.pairings.all():
        services.override_result(pairing, "a", 2, 1)
    return event


def _entrant(event, name: str) -> Entrant:
    return Entrant.objects.get(event=event, user__username=name)


def _post(client, event, **fields):
    data = {"entrant": "", "category": "painting", "amount": "5", "round_number": "", "reason": "Best painted"}
    data.update({key: str(value) for key, value in fields.items()})
    return client.post(f"/events/{event.slug}/manage/adjustments/", data)


def _scores(event) -> dict[str, int]:
    data = json.loads(_client().get(f"/api/events/{event.slug}/standings/").content)
    return {row["entrant"]["name"]: row["score"] for row in data["standings"]}


def test_a_bonus_and_a_penalty_count_in_the_standings_page_and_the_api(event):
    org = _client(event.organiser)
    before = _scores(event)
    winner = next(name for name, score in before.items() if score == 3)
    loser = next(name for name, score in before.items() if score == 0)
    response = _post(org, event, entrant=_entrant(event, loser).pk, category="painting", amount=5)
    assert response.status_code == 302 and response["Location"].endswith("#adjustments")
    page = org.get(response["Location"]).content.decode()
    assert f"+5 points for {loser} (Painting)." in page
    _post(
        org,
        event,
        entrant=_entrant(event, winner).pk,
        category="late-list",
        amount=-2,
        round_number=1,
        reason="List sent after the deadline",
    )
    after = _scores(event)
    assert after[loser] == 5 and after[winner] == 1
    data = json.loads(_client().get(f"/api/events/{event.slug}/standings/").content)
    first = data["standings"][0]
    assert first["entrant"]["name"] == loser and first["place"] == 1
    assert first["adjustment"] == 5
    assert first["adjustments"] == [{"category": "painting", "points": 5, "round": None, "reason": "Best painted"}]
    late = next(row for row in data["standings"] if row["entrant"]["name"] == winner)
    assert late["adjustments"] == [
        {"category": "late-list", "points": -2, "round": 1, "reason": "List sent after the deadline"}
    ]
    standings = _client().get(f"/events/{event.slug}/standings/").content.decode()
    assert "Bonus / penalty" in standings
    row = next(tr for tr in standings.split("<tr>") if f">{winner}<" in tr or f">{winner} " in tr)
    assert "Late list -2 (round 1): List sent after the deadline" in row
    assert "includes the organiser's bonus and penalty points" in standings


def test_without_adjustments_the_standings_have_no_such_column(event):
    standings = _client().get(f"/events/{event.slug}/standings/").content.decode()
    assert "Bonus / penalty" not in standings
    data = json.loads(_client().get(f"/api/events/{event.slug}/standings/").content)
    assert {row["adjustment"] for row in data["standings"]} == {0}


def test_the_dashboard_lists_them_and_the_organiser_removes_one(event):
    org = _client(event.organiser)
    anna = _entrant(event, "anna")
    _post(org, event, entrant=anna.pk, category="sportsmanship", amount=3, reason="Most sporting")
    adjustment = Adjustment.objects.get()
    page = org.get(f"/events/{event.slug}/manage/").content.decode()
    listed = page.split(f'id="adjustment-{adjustment.pk}"')[1].split("</tr>")[0]
    assert "anna" in listed and "Sportsmanship" in listed and "+3" in listed and "Most sporting" in listed
    response = org.post(f"/events/{event.slug}/manage/adjustments/{adjustment.pk}/remove/", follow=True)
    assert "The points were removed." in response.content.decode()
    assert not Adjustment.objects.exists()
    assert "No bonus or penalty points given yet." in response.content.decode()
    again = org.post(f"/events/{event.slug}/manage/adjustments/{adjustment.pk}/remove/", follow=True)
    assert "These points were already removed." in again.content.decode()


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"amount": "101"}, "amount", "Enter from -100 to 100 points."),
        ({"amount": "-150"}, "amount", "Enter from -100 to 100 points."),
        ({"amount": "0"}, "amount", "Zero points changes nothing: enter a bonus or a penalty."),
        ({"amount": "five"}, "amount", "Enter a whole number of points."),
        ({"amount": ""}, "amount", "Enter the points."),
        ({"round_number": "4"}, "round_number", "Choose a round from 1 to 3, or leave it empty."),
        ({"round_number": "0"}, "round_number", "Choose a round from 1 to 3, or leave it empty."),
        ({"category": "bribery"}, "category", "Choose a category."),
        ({"reason": ""}, "reason", "Say why, for the players."),
        ({"entrant": ""}, "entrant", "Choose a player."),
    ],
)
def test_bad_values_are_said_next_to_their_field_and_kept(event, fields, field, message):
    org = _client(event.organiser)
    typed = {"entrant": _entrant(event, "boris").pk, "amount": "7", "round_number": "2", "reason": "Painted army"}
    typed.update(fields)
    response = _post(org, event, **typed)
    assert response.status_code == 400
    page = response.content.decode()
    form = page.split('class="adjust-form"')[1].split("</form>")[0]
    wrapper = form.split(f'for="adjust-{field}"')[1].split("</div>")[0]
    assert message in wrapper
    # Everything typed is still there.
    if typed["reason"]:
        assert f'value="{typed["reason"]}"' in form
    if typed["amount"]:
        assert f'value="{typed["amount"]}"' in form
    if typed["round_number"]:
        assert f'value="{typed["round_number"]}"' in form
    if typed["entrant"]:
        assert f'value="{typed["entrant"]}" selected' in form
    assert not Adjustment.objects.exists()


def test_another_events_entrant_is_refused_next_to_the_field(event):
    stranger = make_entrant(make_event(event.organiser), make_user("eve"))
    response = _post(_client(event.organiser), event, entrant=stranger.pk)
    assert response.status_code == 400
    assert "Choose a player of this event." in response.content.decode()
    assert not Adjustment.objects.exists()


@pytest.mark.parametrize("role", ["player", "anonymous", "other organiser"])
def test_nobody_but_the_organiser_gives_or_removes_points(event, role):
    anna = _entrant(event, "anna")
    given = Adjustment.objects.create(entrant=anna, category="painting", amount=4, reason="Nice")
    user = {"player": anna.user, "anonymous": None, "other organiser": make_event(make_user("orga2")).organiser}[role]
    client = _client(user)
    for response in (
        _post(client, event, entrant=anna.pk, amount=50),
        client.post(f"/events/{event.slug}/manage/adjustments/{given.pk}/remove/"),
    ):
        assert response.status_code in (302, 404)
        assert response.status_code == 404 or response["Location"].startswith("/accounts/login/")
    assert list(Adjustment.objects.values_list("amount", flat=True)) == [4]


def test_an_organiser_cannot_remove_another_events_points(event):
    other = make_event(make_user("orga2"))
    theirs = Adjustment.objects.create(
        entrant=make_entrant(other, make_user("eve")), category="other", amount=-1, reason="Slow"
    )
    response = _client(event.organiser).post(
        f"/events/{event.slug}/manage/adjustments/{theirs.pk}/remove/", follow=True
    )
    assert "These points were already removed." in response.content.decode()
    assert Adjustment.objects.filter(pk=theirs.pk).exists()


def test_giving_and_removing_points_changes_the_event_version(event):
    first = event_version(event.slug).stamp
    _post(_client(event.organiser), event, entrant=_entrant(event, "anna").pk)
    given = event_version(event.slug).stamp
    assert given != first
    adjustment = Adjustment.objects.get()
    adjustment.amount = 6
    adjustment.save()
    changed = event_version(event.slug).stamp
    assert changed != given
    adjustment.delete()
    assert event_version(event.slug).stamp not in (given, changed)


def test_a_poll_after_points_are_given_is_not_a_304(event):
    client = _client()
    first = client.get(f"/api/events/{event.slug}/standings/")
    assert client.get(f"/api/events/{event.slug}/standings/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    _post(_client(event.organiser), event, entrant=_entrant(event, "dmitri").pk, amount=-3, reason="Rules pack")
    again = client.get(f"/api/events/{event.slug}/standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert {row["entrant"]["name"]: row["adjustment"] for row in json.loads(again.content)["standings"]}["dmitri"] == -3


def test_in_french_the_refusal_and_the_column_are_french(event):
    org = _client(event.organiser)
    org.cookies.load({"django_language": "fr"})
    response = org.post(
        f"/events/{event.slug}/manage/adjustments/",
        {"entrant": _entrant(event, "anna").pk, "category": "painting", "amount": "0", "reason": "Peinture"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert "Zéro point ne change rien" in response.content.decode()
    _post(org, event, entrant=_entrant(event, "anna").pk, amount=2)
    page = _client().get(f"/events/{event.slug}/standings/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Bonus / pénalité" in page and "Peinture +2" in page
