"""The organiser starts, pauses, resumes and lengthens a round's timer; every player's round page
says when the round ends and when the last turn should start (in text, and counted down by a static
script); refusals (a finished round, a draft, a bad number) are said next to the field, as typed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from armybuilder.events import services
from armybuilder.events.models import Round
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = make_event(make_user("orga"), published=True, rounds=3, last_turn_minutes=20)
    for name in ("anna", "boris", "carla", "dmitri"):
        make_entrant(event, make_user(name))
    services.publish_round(services.pair_next_round(event))
    return event


def _url(event, number: int = 1) -> str:
    return f"/events/{event.slug}/manage/rounds/{number}/timer/"


def _round(event, number: int = 1) -> Round:
    return Round.objects.get(event=event, number=number)


def _timer_section(page: str) -> str:
    return page.split('id="timer"')[1].split("</section>")[0]


def test_started_the_players_page_says_the_end_and_the_last_turn_without_javascript(event):
    org = _client(event.organiser)
    response = org.post(_url(event), {"action": "start", "minutes": "90"})
    assert response.status_code == 302 and response["Location"].endswith("/rounds/1/#timer")
    round_ = _round(event)
    assert round_.timer_length == 90 and round_.timer_started_at is not None
    end = round_.timer_started_at + timedelta(minutes=90)
    player = _client(round_.pairings.first().player_a.user)
    page = player.get(f"/events/{event.slug}/rounds/1/").content.decode()
    section = _timer_section(page)
    assert f'The round ends at <time datetime="{end.isoformat()}"' in section
    assert end.strftime("%H:%M UTC") in section
    last = end - timedelta(minutes=20)
    assert "The last turn should start by" in section and last.strftime("%H:%M UTC") in section
    assert "data-countdown" in section and f'data-timer-end="{end.isoformat()}"' in section
    assert "/static/events/timer.js" in page and "<script>" not in page  # no inline script (CSP)
    assert "Start the timer" not in page and "Pause the timer" not in page  # controls: organiser only


def test_pause_resume_and_add_move_the_end(event):
    org = _client(event.organiser)
    org.post(_url(event), {"action": "start", "minutes": "60"})
    org.post(_url(event), {"action": "pause"})
    round_ = _round(event)
    assert round_.timer_paused_at is not None
    page = org.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "The round timer is paused." in page and "60 minutes left." in page and "Resume the timer" in page
    # Ten minutes spent paused, as if the pause had started earlier.
    Round.objects.filter(pk=round_.pk).update(timer_paused_at=round_.timer_paused_at - timedelta(minutes=10))
    org.post(_url(event), {"action": "resume"})
    round_.refresh_from_db()
    assert round_.timer_paused_at is None and round_.timer_paused_total >= timedelta(minutes=10)
    org.post(_url(event), {"action": "add", "minutes": "5"})
    round_.refresh_from_db()
    assert round_.timer_length == 65
    assert round_.timer().end() == round_.timer_started_at + timedelta(minutes=65) + round_.timer_paused_total


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"action": "start", "minutes": "0"}, "A round lasts from 1 to 600 minutes."),
        ({"action": "start", "minutes": "601"}, "A round lasts from 1 to 600 minutes."),
        ({"action": "start", "minutes": "soon"}, "Enter a whole number of minutes."),
        ({"action": "start", "minutes": ""}, "Enter the round&#x27;s length in minutes."),
    ],
)
def test_a_bad_length_is_said_next_to_the_field_as_typed(event, data, message):
    response = _client(event.organiser).post(_url(event), data)
    assert response.status_code == 400
    section = _timer_section(response.content.decode())
    field = section.split('for="timer-minutes"')[1].split("</form>")[0]
    assert message in field
    if data["minutes"]:
        assert f'value="{data["minutes"]}"' in field
    assert _round(event).timer_started_at is None


def test_adding_too_many_minutes_is_said_next_to_the_field(event):
    org = _client(event.organiser)
    org.post(_url(event), {"action": "start", "minutes": "60"})
    response = org.post(_url(event), {"action": "add", "minutes": "500"})
    assert response.status_code == 400
    field = _timer_section(response.content.decode()).split('for="timer-minutes"')[1].split("</form>")[0]
    assert "Add from 1 to 120 minutes at a time." in field and 'value="500"' in field
    assert _round(event).timer_length == 60


def test_actions_out_of_order_are_refused_in_words(event):
    org = _client(event.organiser)
    response = org.post(_url(event), {"action": "pause"})
    assert response.status_code == 400 and "Start the timer first." in _timer_section(response.content.decode())
    org.post(_url(event), {"action": "start", "minutes": "60"})
    again = org.post(_url(event), {"action": "resume"})
    assert "The timer is running: there is nothing to resume." in _timer_section(again.content.decode())


def test_a_timer_on_a_finished_round_is_refused_in_words(event):
    round_ = _round(event)
    for pairing in round_.pairings.all():
        services.override_result(pairing, "a", 1, 0)
    response = _client(event.organiser).post(_url(event), {"action": "start", "minutes": "90"})
    assert response.status_code == 400
    section = _timer_section(response.content.decode())
    assert "This round is finished" in section and 'value="90"' in section
    assert _round(event).timer_started_at is None


def test_a_timer_on_a_draft_is_refused_in_words(event):
    round_ = _round(event)
    for pairing in round_.pairings.all():
        services.override_result(pairing, "a", 1, 0)
    services.pair_next_round(event)
    response = _client(event.organiser).post(_url(event, 2), {"action": "start", "minutes": "90"})
    assert "Publish the round before starting its timer" in _timer_section(response.content.decode())
    # Round 1 is now finished: a later round is paired.
    earlier = _client(event.organiser).post(_url(event, 1), {"action": "start", "minutes": "90"})
    assert "This round is finished" in earlier.content.decode()


@pytest.mark.parametrize("role", ["player", "anonymous", "other organiser"])
def test_nobody_but_the_organiser_runs_the_timer(event, role):
    player = _round(event).pairings.first().player_a.user
    user = {"player": player, "anonymous": None, "other organiser": make_event(make_user("orga2")).organiser}[role]
    response = _client(user).post(_url(event), {"action": "start", "minutes": "90"})
    assert response.status_code in (302, 404)
    assert response.status_code == 404 or response["Location"].startswith("/accounts/login/")
    assert _round(event).timer_started_at is None


def test_a_timer_change_is_not_a_304(event):
    player = _client(_round(event).pairings.first().player_a.user)
    first = player.get(f"/events/{event.slug}/rounds/1/")
    assert player.get(f"/events/{event.slug}/rounds/1/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    _client(event.organiser).post(_url(event), {"action": "start", "minutes": "90"})
    assert player.get(f"/events/{event.slug}/rounds/1/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_an_ended_timer_keeps_saying_its_end(event):
    round_ = _round(event)
    started = timezone.now() - timedelta(minutes=100)
    Round.objects.filter(pk=round_.pk).update(timer_length=90, timer_started_at=started)
    page = _client().get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert (started + timedelta(minutes=90)).strftime("%H:%M UTC") in _timer_section(page)


def test_the_event_form_sets_the_last_turn_minutes_and_keeps_15_when_empty(event):
    org = _client(event.organiser)
    data = {
        "name": event.name,
        "date": "2026-12-05",
        "edition": event.edition.pk,
        "points_limit": 1000,
        "rounds": 3,
        "score_win": 3,
        "score_draw": 1,
        "score_loss": 0,
        "tiebreaks": "score,sos,dice",
        "last_turn_minutes": "25",
    }
    response = org.post(f"/events/{event.slug}/manage/edit/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    event.refresh_from_db()
    assert event.last_turn_minutes == 25
    data["last_turn_minutes"] = ""
    org.post(f"/events/{event.slug}/manage/edit/", data)
    event.refresh_from_db()
    assert event.last_turn_minutes == 15
    data["last_turn_minutes"] = "500"
    refused = org.post(f"/events/{event.slug}/manage/edit/", data)
    assert refused.status_code == 200 and "120" in refused.content.decode()
