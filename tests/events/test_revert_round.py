"""The organiser takes back the latest published round after a confirmation: its results are set
aside (kept on the event and counted on the page), it is a draft again to swap, pair again and
publish; an earlier round, a draft or another visitor is refused."""

from __future__ import annotations

import json

import pytest

from armybuilder.events import services
from armybuilder.events.models import Pairing, Result, Round, SetAsideResults
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


def _play(round_, *, confirm_all: bool = True) -> None:
    services.publish_round(round_)
    for pairing in round_.pairings.all():
        if confirm_all:
            services.override_result(pairing, "a", 4, 2)


@pytest.fixture
def event():
    """Six players; round 1 played, round 2 published with two of its three results in."""
    event = make_event(make_user("orga"), published=True, rounds=3)
    for name in ("anna", "boris", "carla", "dmitri", "emil", "fanny"):
        make_entrant(event, make_user(name))
    _play(services.pair_next_round(event))
    second = services.pair_next_round(event)
    services.publish_round(second)
    pairings = list(second.pairings.all())
    services.override_result(pairings[0], "b", 1, 5)
    services.enter_result(pairings[1], pairings[1].player_a, "draw", 3, 3)  # entered, not confirmed
    return event


def _url(event, number: int) -> str:
    return f"/events/{event.slug}/manage/rounds/{number}/revert/"


def test_the_confirmation_says_what_happens_and_changes_nothing(event):
    page = _client(event.organiser).get(_url(event, 2))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Its 2 results will be set aside" in text and '<form method="post"' in text
    assert Round.objects.get(event=event, number=2).published
    assert Result.objects.filter(pairing__round__number=2, pairing__round__event=event).count() == 2


def test_taking_back_the_latest_round_sets_its_results_aside_and_makes_it_a_draft(event):
    org = _client(event.organiser)
    second = Round.objects.get(event=event, number=2)
    first_pairing = second.pairings.order_by("position", "pk").first()
    response = org.post(_url(event, 2))
    assert response.status_code == 302
    page = org.get(response["Location"]).content.decode()
    assert "Round 2 is a draft again: 2 results were set aside." in page
    assert "Results set aside" in page and "Round 2, taken back: 2 results" in page
    second.refresh_from_db()
    assert not second.published
    assert not Result.objects.filter(pairing__round=second).exists()
    assert second.pairings.count() == 3  # the pairings are kept, to swap or publish again
    aside = SetAsideResults.objects.get(event=event)
    assert aside.round_number == 2 and len(aside.results) == 2
    kept = aside.results[0]
    assert kept["player_a"]["id"] == first_pairing.player_a_id and kept["outcome"] == "b"
    assert (kept["dice_a"], kept["dice_b"], kept["by_organiser"]) == (1, 5, True)
    assert aside.results[1]["confirmed"] is False
    # Players no longer see the round; the API knows no such round; standings count round 1 only.
    player = _client(first_pairing.player_a.user)
    assert player.get(f"/events/{event.slug}/rounds/2/").status_code == 404
    assert _client().get(f"/api/events/{event.slug}/rounds/2/").status_code == 404
    data = json.loads(_client().get(f"/api/events/{event.slug}/standings/").content)
    assert {row["games"] for row in data["standings"]} == {1}
    # Published again, results are entered anew.
    services.publish_round(second)
    assert player.get(f"/events/{event.slug}/rounds/2/").status_code == 200


def test_a_draft_taken_back_is_paired_again(event):
    org = _client(event.organiser)
    org.post(_url(event, 2))
    response = org.post(f"/events/{event.slug}/manage/rounds/2/pair-again/", follow=True)
    assert "Round 2 is paired again. Check it, then publish it." in response.content.decode()
    rounds = Round.objects.filter(event=event)
    assert [(r.number, r.published) for r in rounds] == [(1, True), (2, False)]
    assert Pairing.objects.filter(round__event=event, round__number=2).count() == 3


def test_pairing_again_a_published_round_is_refused(event):
    response = _client(event.organiser).post(f"/events/{event.slug}/manage/rounds/2/pair-again/", follow=True)
    assert "This round is published: its pairings can no longer change." in response.content.decode()
    assert Round.objects.get(event=event, number=2).published


def test_an_earlier_round_is_refused_in_words(event):
    org = _client(event.organiser)
    page = org.get(_url(event, 1))
    assert page.status_code == 409
    text = page.content.decode()
    assert (
        "only the latest round can be taken back" in text
        and "<button" not in text.split("<main")[-1].split("Back to the dashboard")[0]
    )
    response = org.post(_url(event, 1), follow=True)
    assert "only the latest round can be taken back" in response.content.decode()
    assert Round.objects.get(event=event, number=1).published
    assert Result.objects.filter(pairing__round__number=1, pairing__round__event=event).count() == 3
    assert not SetAsideResults.objects.exists()


def test_a_draft_round_has_nothing_to_take_back(event):
    org = _client(event.organiser)
    org.post(_url(event, 2))
    assert org.get(_url(event, 2)).status_code == 409
    response = org.post(_url(event, 2), follow=True)
    assert "This round is not published: there is nothing to take back." in response.content.decode()
    assert SetAsideResults.objects.count() == 1


def test_an_unknown_round_is_not_found(event):
    assert _client(event.organiser).post(_url(event, 7)).status_code == 404


def test_the_dashboard_offers_it_for_the_latest_published_round_only(event):
    page = _client(event.organiser).get(f"/events/{event.slug}/manage/").content.decode()
    assert _url(event, 2) in page and _url(event, 1) not in page


@pytest.mark.parametrize("role", ["player", "anonymous", "other organiser"])
def test_nobody_but_the_organiser_takes_a_round_back(event, role):
    player = Pairing.objects.filter(round__event=event).first().player_a.user
    user = {"player": player, "anonymous": None, "other organiser": make_event(make_user("orga2")).organiser}[role]
    client = _client(user)
    for response in (
        client.get(_url(event, 2)),
        client.post(_url(event, 2)),
        client.post(f"/events/{event.slug}/manage/rounds/2/pair-again/"),
    ):
        assert response.status_code in (302, 404)
        assert response.status_code == 404 or response["Location"].startswith("/accounts/login/")
    assert Round.objects.get(event=event, number=2).published
    assert not SetAsideResults.objects.exists()


def test_taking_back_moves_the_event_version(event):
    client = _client()
    first = client.get(f"/api/events/{event.slug}/standings/")
    _client(event.organiser).post(_url(event, 2))
    again = client.get(f"/api/events/{event.slug}/standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200


def test_in_french(event):
    org = _client(event.organiser)
    page = org.get(_url(event, 2), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Annuler la ronde 2" in page and "Ses 2 résultats seront mis de côté" in page
    response = org.post(_url(event, 2), HTTP_ACCEPT_LANGUAGE="fr", follow=True)
    text = response.content.decode()
    assert "La ronde 2 est de nouveau un brouillon : 2 résultats ont été mis de côté." in text
    assert "Ronde 2, annulée : 2 résultats" in text
