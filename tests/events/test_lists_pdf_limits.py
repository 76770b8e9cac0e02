"""The organiser's PDF of an event's lists shares the queue fairly: one job per input, a cap, the PDF limits."""

from __future__ import annotations

import pytest
from django.test import Client

from armybuilder.events.models import ListsPdfJob
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


def organiser_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_same_lists_asked_again_are_the_same_job_and_a_new_approval_a_new_one():
    organiser = make_user("orga")
    event = make_event(organiser)
    make_entrant(event, make_user("anna"))
    client = organiser_client(organiser)
    first = client.post(f"/events/{event.slug}/manage/lists.pdf", {"paper": "a4"})["Location"]
    assert client.post(f"/events/{event.slug}/manage/lists.pdf", {"paper": "a4"})["Location"] == first
    assert ListsPdfJob.objects.count() == 1
    # Other options, or another approved list, are another input.
    assert client.post(f"/events/{event.slug}/manage/lists.pdf", {"paper": "letter"})["Location"] != first
    make_entrant(event, make_user("boris"))
    assert client.post(f"/events/{event.slug}/manage/lists.pdf", {"paper": "a4"})["Location"] != first
    assert ListsPdfJob.objects.count() == 3


def test_an_organiser_flooding_the_queue_is_capped_and_told_why(settings):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    organiser = make_user("orga")
    events = [make_event(organiser, name=f"Event {n}") for n in range(4)]
    client = organiser_client(organiser)
    for event in events[:3]:
        assert client.post(f"/events/{event.slug}/manage/lists.pdf")["Location"].startswith(f"/events/{event.slug}/")
    refused = client.post(f"/events/{events[3].slug}/manage/lists.pdf")
    assert refused.status_code == 429
    assert "You already have 3 PDFs or imports being made" in refused.content.decode()
    assert ListsPdfJob.objects.count() == 3
    # Another organiser's job is still taken.
    other = make_user("other")
    theirs = make_event(other, name="Theirs")
    assert organiser_client(other).post(f"/events/{theirs.slug}/manage/lists.pdf").status_code == 302


def test_the_lists_pdf_is_under_the_pdf_limits(settings):
    settings.RATELIMIT_ENABLE = True
    organiser = make_user("orga")
    event = make_event(organiser)
    client = organiser_client(organiser)
    answers = [client.post(f"/events/{event.slug}/manage/lists.pdf").status_code for _ in range(13)]
    assert answers[:12] == [302] * 12
    assert answers[12] == 429
    refused = client.post(f"/events/{event.slug}/manage/lists.pdf")
    assert "Too many requests" in refused.content.decode() and refused["Retry-After"]
