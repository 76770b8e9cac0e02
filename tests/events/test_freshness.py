"""Every public events page and the JSON API answer a repeat poll with 304 while the event is
unchanged, and with the new page (and a new ETag) once a result, a round or a list changes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from armybuilder.events import services
from armybuilder.events.freshness import event_version
from armybuilder.events.models import Result
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = make_event(make_user("orga"), published=True)
    for name in ("anna", "boris", "carla", "dmitri"):
        make_entrant(event, make_user(name))
    services.publish_round(services.pair_next_round(event))
    return event


def _urls(event) -> list[str]:
    entrant = event.entrants.first()
    return [
        f"/events/{event.slug}/",
        f"/events/{event.slug}/rounds/1/",
        f"/events/{event.slug}/standings/",
        f"/api/events/{event.slug}/",
        f"/api/events/{event.slug}/rounds/1/",
        f"/api/events/{event.slug}/standings/",
    ] + ([f"/events/{event.slug}/entrants/{entrant.pk}/list/"] if event.lists_revealed else [])


@pytest.mark.parametrize("viewer", ["anonymous", "player", "organiser"])
def test_a_repeat_poll_is_a_304_until_a_result_changes(event, viewer):
    client = Client()
    if viewer == "player":
        client.force_login(event.entrants.first().user)
    elif viewer == "organiser":
        client.force_login(event.organiser)
    event.lists_revealed = True
    event.save()
    tags = {}
    for url in _urls(event):
        first = client.get(url)
        assert first.status_code == 200 and first.has_header("ETag"), url
        tags[url] = first["ETag"]
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304 and again.content == b"", url
    pairing = event.round_set.get().pairings.first()
    services.override_result(pairing, "a", 2, 1)
    for url in _urls(event):
        changed = client.get(url, HTTP_IF_NONE_MATCH=tags[url])
        assert changed.status_code == 200 and changed["ETag"] != tags[url], url


def test_confirming_a_result_swapping_and_judging_move_the_version(event):
    pairing = event.round_set.get().pairings.select_related("player_a", "player_b").first()
    versions = [event_version(event.slug).stamp]
    services.enter_result(pairing, pairing.player_a, "a", 1, 0)
    versions.append(event_version(event.slug).stamp)
    services.confirm_result(pairing, pairing.player_b)
    versions.append(event_version(event.slug).stamp)
    services.judge(event, pairing.player_a_id, approve=False, note="Check your LMG")
    versions.append(event_version(event.slug).stamp)
    Result.objects.all().delete()
    versions.append(event_version(event.slug).stamp)
    assert len(set(versions)) == len(versions)


def test_the_version_is_one_query_whatever_the_size(event):
    with CaptureQueriesContext(connection) as queries:
        event_version(event.slug)
    assert len(queries) == 1


def test_the_api_never_validates_a_draft_event():
    draft = make_event(make_user("orga"))
    response = Client().get(f"/api/events/{draft.slug}/", HTTP_IF_NONE_MATCH="*")
    assert response.status_code == 404 and not response.has_header("ETag")


def test_two_visitors_never_share_a_pages_etag(event):
    anna, boris = (Client(), Client())
    anna.force_login(event.entrants.get(user__username="anna").user)
    boris.force_login(event.entrants.get(user__username="boris").user)
    url = f"/events/{event.slug}/rounds/1/"
    tag = anna.get(url)["ETag"]
    assert boris.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200
    assert Client().get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_a_page_showing_a_message_gets_no_etag(event):
    pairing = event.round_set.get().pairings.select_related("player_a__user").first()
    client = Client()
    client.force_login(pairing.player_a.user)
    url = f"/events/{event.slug}/rounds/1/"
    client.post(f"/events/{event.slug}/pairings/{pairing.pk}/result/", {"outcome": "nonsense"})
    shown = client.get(url)
    assert "The result was not recorded" in shown.content.decode() and not shown.has_header("ETag")
    again = client.get(url)
    assert "The result was not recorded" not in again.content.decode() and again.has_header("ETag")
