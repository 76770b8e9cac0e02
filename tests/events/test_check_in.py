"""Check-in on the day: the organiser checks players in as they arrive; once anyone is checked in,
a no-show is left out of the pairing, a late arrival is paired from the round after their check-in,
and players already paired stay paired. Nobody but the organiser checks anyone in."""

from __future__ import annotations

import pytest
from django.test import Client

from armybuilder.events import services
from armybuilder.events.models import Entrant, Pairing
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db

NAMES = ("anna", "boris", "carla", "dmitri", "emil")


@pytest.fixture
def event():
    event = make_event(make_user("orga"), published=True, rounds=3)
    for name in NAMES:
        make_entrant(event, make_user(name))
    return event


def _entrant(event, name: str) -> Entrant:
    return Entrant.objects.get(event=event, user__username=name)


def _paired(event, number: int) -> set[str]:
    pairings = Pairing.objects.filter(round__event=event, round__number=number).select_related(
        "player_a__user", "player_b__user"
    )
    return {e.user.username for p in pairings for e in (p.player_a, p.player_b) if e is not None}


def _check_in(client: Client, event, name: str, on: str = "1"):
    return client.post(f"/events/{event.slug}/manage/entrants/{_entrant(event, name).pk}/check-in/", {"on": on})


def _finish_round(round_) -> None:
    services.publish_round(round_)
    for pairing in round_.pairings.all():
        if not pairing.is_bye:
            services.override_result(pairing, "a", 2, 1)


def test_the_organiser_checks_a_player_in_and_the_dashboard_says_so(event):
    org = _client(event.organiser)
    response = _check_in(org, event, "anna")
    assert response.status_code == 302
    assert response["Location"].endswith(f"#entrant-{_entrant(event, 'anna').pk}")
    page = org.get(response["Location"]).content.decode()
    assert "anna is checked in." in page
    assert "1 checked in" in page
    row = page.split(f'id="entrant-{_entrant(event, "anna").pk}"')[1].split("</tr>")[0]
    assert "Checked in" in row and "Undo check-in" in row
    assert _entrant(event, "anna").checked_in


def test_a_check_in_taken_back(event):
    org = _client(event.organiser)
    _check_in(org, event, "anna")
    response = _check_in(org, event, "anna", on="0")
    assert "anna is no longer checked in." in org.get(response["Location"]).content.decode()
    assert not _entrant(event, "anna").checked_in


def test_without_check_in_every_approved_player_is_paired(event):
    services.pair_next_round(event)
    assert _paired(event, 1) == set(NAMES)


def test_a_no_show_is_left_out_and_a_late_arrival_joins_from_the_next_round(event):
    org = _client(event.organiser)
    for name in ("anna", "boris", "carla", "dmitri"):
        _check_in(org, event, name)
    first = services.pair_next_round(event)
    assert _paired(event, 1) == {"anna", "boris", "carla", "dmitri"}  # emil has not arrived
    _finish_round(first)
    _check_in(org, event, "emil")  # emil arrives during round 1
    services.pair_next_round(event)
    assert _paired(event, 2) == set(NAMES)


def test_checking_in_a_late_arrival_mid_event_keeps_everyone_who_played(event):
    # The organiser did not use check-in for round 1, then checks in a newcomer: the players who
    # have played are there, and stay paired.
    late = make_user("zoe")
    first = services.pair_next_round(event)
    _finish_round(first)
    make_entrant(event, late)
    _check_in(_client(event.organiser), event, "zoe")
    services.pair_next_round(event)
    assert _paired(event, 2) == set(NAMES) | {"zoe"}


@pytest.mark.parametrize("role", ["player", "anonymous", "other organiser"])
def test_nobody_but_the_organiser_checks_in(event, role):
    anna = _entrant(event, "anna")
    user = {
        "player": anna.user,
        "anonymous": None,
        "other organiser": make_event(make_user("orga2")).organiser,
    }[role]
    response = _check_in(_client(user), event, "anna")
    assert response.status_code in (302, 404)
    assert response.status_code == 404 or response["Location"].startswith("/accounts/login/")
    assert not _entrant(event, "anna").checked_in


def test_another_events_entrant_is_not_found(event):
    stranger = make_entrant(make_event(event.organiser), make_user("eve"))
    response = _client(event.organiser).post(
        f"/events/{event.slug}/manage/entrants/{stranger.pk}/check-in/", {"on": "1"}
    )
    assert response.status_code == 404 and not Entrant.objects.get(pk=stranger.pk).checked_in


def test_check_in_is_a_post(event):
    response = _client(event.organiser).get(
        f"/events/{event.slug}/manage/entrants/{_entrant(event, 'anna').pk}/check-in/"
    )
    assert response.status_code == 405
