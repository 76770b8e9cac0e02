"""An account creates events, joins them and submits lists within a daily limit, said in words when reached;
what the organiser typed is kept."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from armybuilder.events import views
from armybuilder.events.models import Entrant, Event, Seal, Submission
from tests.events.factories import make_event, make_player_list
from tests.lists.factories import make_edition, make_user

pytestmark = pytest.mark.django_db


def test_the_eleventh_event_of_the_day_is_refused_and_the_form_kept():
    user = make_user("busy")
    for _ in range(views.EVENTS_PER_DAY):
        make_event(user)
    client = Client()
    client.force_login(user)
    edition = make_edition("v3")
    form = {
        "name": "One Too Many Cup",
        "date": "2026-12-05",
        "edition": edition.pk,
        "points_limit": 1000,
        "rounds": 3,
        "score_win": 3,
        "score_draw": 1,
        "score_loss": 0,
        "tiebreaks": "score,sos,dice",
    }
    response = client.post("/events/new/", form)
    page = response.content.decode()
    assert response.status_code == 429
    assert "You have created 10 events in the last 24 hours" in page and 'value="One Too Many Cup"' in page
    assert Event.objects.filter(organiser=user).count() == views.EVENTS_PER_DAY
    # Another account is not held back by it.
    other = Client()
    other.force_login(make_user("calm"))
    assert other.post("/events/new/", form).status_code == 302


def test_joins_beyond_the_daily_limit_are_refused_in_words():
    player = make_user("joiner")
    for _ in range(views.JOINS_PER_DAY):
        Entrant.objects.create(event=make_event(), user=player)
    event = make_event()
    client = Client()
    client.force_login(player)
    response = client.post(f"/events/{event.slug}/join/", follow=True)
    assert "You have joined 30 events in the last 24 hours" in response.content.decode()
    assert not Entrant.objects.filter(event=event, user=player).exists()


def _entered(player):
    event = make_event(published=True)
    entrant = Entrant.objects.create(event=event, user=player)
    return event, entrant, make_player_list(player, army=None)


def test_submissions_beyond_the_daily_limit_are_refused_in_words():
    player = make_user("sealer")
    event, entrant, army_list = _entered(player)
    client = Client()
    client.force_login(player)
    assert client.post(f"/events/{event.slug}/submit/", {"army_list": army_list.pk}).status_code == 302
    assert Seal.objects.filter(user=player).count() == 1
    # Seals from more than a day ago do not count; the day's do.
    Seal.objects.bulk_create(Seal(user=player) for _ in range(views.SEALS_PER_DAY - 1))
    Seal.objects.filter(user=player).update(sealed_at=timezone.now() - timedelta(hours=25))
    assert client.post(f"/events/{event.slug}/submit/", {"army_list": army_list.pk}).status_code == 302
    Seal.objects.bulk_create(Seal(user=player) for _ in range(views.SEALS_PER_DAY - 1))
    before = Submission.objects.get(entrant=entrant).submitted_at
    response = client.post(f"/events/{event.slug}/submit/", {"army_list": army_list.pk})
    assert response.status_code == 429
    assert "You have submitted 60 lists in the last 24 hours" in response.content.decode()
    assert Submission.objects.get(entrant=entrant).submitted_at == before
    # Another account is not held back by it.
    other = make_user("calm-sealer")
    other_event, _other_entrant, other_list = _entered(other)
    other_client = Client()
    other_client.force_login(other)
    assert other_client.post(f"/events/{other_event.slug}/submit/", {"army_list": other_list.pk}).status_code == 302
