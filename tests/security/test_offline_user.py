"""Whose session a response belongs to, for the service worker: after a session ended
without a logout, the worker served the last user's builder offline until a page loaded online."""

from __future__ import annotations

import pytest
from django.conf import settings

from armybuilder.security.headers import USER_COOKIE, USER_HEADER
from tests.lists.factories import make_user


@pytest.mark.django_db
def test_an_anonymous_response_names_no_user(client):
    response = client.get("/ping/")
    assert response[USER_HEADER] == ""
    assert USER_COOKIE not in response.cookies


@pytest.mark.django_db
def test_logging_in_sets_the_companion_cookie_with_the_sessions_lifetime(client):
    alice = make_user("alice")
    response = client.post("/accounts/login/", {"username": "alice", "password": "correct-horse-battery"})
    assert response.status_code == 302
    assert response[USER_HEADER] == str(alice.pk)
    session, companion = response.cookies[settings.SESSION_COOKIE_NAME], response.cookies[USER_COOKIE]
    assert companion.value == str(alice.pk)
    assert companion["max-age"] == session["max-age"] and companion["expires"] == session["expires"]
    assert not companion["httponly"]  # the service worker reads it; it holds nothing but the id


@pytest.mark.django_db
def test_logging_out_deletes_it(client):
    alice = make_user("alice")
    client.force_login(alice)
    response = client.post("/accounts/logout/")
    assert response.cookies[USER_COOKIE]["max-age"] == 0
    assert response[USER_HEADER] == ""


@pytest.mark.django_db
def test_a_signed_in_visitor_without_it_gets_it(client):
    alice = make_user("alice")
    client.force_login(alice)  # a session from before the companion cookie
    response = client.get("/ping/")
    assert response[USER_HEADER] == str(alice.pk)
    assert response.cookies[USER_COOKIE].value == str(alice.pk)
    assert USER_COOKIE not in client.get("/ping/").cookies  # once is enough


@pytest.mark.django_db
def test_a_session_ended_elsewhere_is_named_as_no_one(client):
    from django.contrib.sessions.models import Session

    client.force_login(make_user("alice"))
    Session.objects.all().delete()  # expired and cleared, or ended on another device
    assert client.get("/ping/")[USER_HEADER] == ""
