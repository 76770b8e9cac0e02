"""A team event and escalation stages do not mix: each refuses the other in words, nothing changed."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from armybuilder.events import escalation
from armybuilder.events.models import Stage
from tests.events.factories import make_event
from tests.events.team_factories import make_team_event
from tests.events.test_escalation import PLANS, _stages_post
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text(response) -> str:
    return html.unescape(response.content.decode())


def test_a_team_event_refuses_escalation_stages_in_words():
    organiser = make_user("orga")
    event = make_team_event(organiser, teams=2, size=2, rounds=4)
    response = client_for(organiser).post(
        f"/events/{event.slug}/manage/stages/", _stages_post(s1=(500, 1, 2), s2=(750, 3, 4))
    )
    assert response.status_code == 400
    assert "A team event plays one list per player: escalation stages are for individual events." in _text(response)
    assert not Stage.objects.filter(event=event).exists()


def test_an_escalation_event_refuses_a_team_size_in_words():
    organiser = make_user("orga")
    event = make_event(organiser, rounds=4)
    escalation.set_stages(event, PLANS)
    client = client_for(organiser)
    form = client.get(f"/events/{event.slug}/manage/edit/").context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None and name != "allowed_armies"}
    data.update({"edition": event.edition_id, "date": "2026-12-05", "team_size": 3, "list_deadline": ""})
    response = client.post(f"/events/{event.slug}/manage/edit/", data)
    assert response.status_code == 200
    assert "This event has escalation stages: a team event plays one list per player." in _text(response)
    event.refresh_from_db()
    assert not event.team_size
