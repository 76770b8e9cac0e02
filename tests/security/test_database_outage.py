"""A database outage answers everyone with Muster's 503 page.

Anonymous readers and /healthz/ got 503s, but signed-in players got the 500 page (61 x 500 on
game actions and /lists/). The outage is every query failing, as when PostgreSQL is unreachable:
Django's ``execute_wrapper`` makes each one raise the error psycopg raises then.
"""

from __future__ import annotations

import contextlib

import pytest
from django.db import OperationalError, connection
from django.test import Client

from tests.lists.factories import make_builder_list, make_user

HX = {"HX-Request": "true"}


def _refused(execute, sql, params, many, context):
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')


@contextlib.contextmanager
def database_down():
    with connection.execute_wrapper(_refused):
        yield


@pytest.fixture
def player(db):
    alice = make_user("alice")
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    return client, alice


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/lists/", "/", "/games/", "/reference/"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_signed_in_player_gets_the_503_page(player, path, language):
    client, _ = player
    with database_down():
        response = client.get(path, headers={"Accept-Language": language})
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    html = response.content.decode()
    assert ("Briefly unavailable" if language == "en" else "Momentanément indisponible") in html


@pytest.mark.django_db
def test_a_signed_in_players_form_post_gets_the_503_page(player):
    client, alice = player
    army_list = make_builder_list(alice, entries=1)
    with database_down():
        response = client.post(f"/lists/{army_list.pk}/duplicate/")
    assert response.status_code == 503


@pytest.mark.django_db
def test_a_signed_in_players_htmx_action_gets_a_503_notice(player):
    client, alice = player
    army_list = make_builder_list(alice, entries=1)
    with database_down():
        response = client.post(f"/lists/{army_list.pk}/duplicate/", headers=HX)
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/plain")


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/reference/v2/", "/api/editions/"])
def test_an_anonymous_reader_gets_the_503_page(path):
    client = Client(raise_request_exception=False)
    with database_down():
        response = client.get(path)
    assert response.status_code == 503


@pytest.mark.django_db
def test_the_rate_limited_login_post_gets_the_503_page_too(settings):
    settings.RATELIMIT_ENABLE = True
    client = Client(raise_request_exception=False)
    with database_down():
        response = client.post("/accounts/login/", {"username": "alice", "password": "x"})
    assert response.status_code == 503


@pytest.mark.django_db
def test_a_signed_in_pdf_request_gets_the_503_page(player, settings):
    settings.RATELIMIT_ENABLE = True  # the PDF limits count per account: they read the session
    client, alice = player
    army_list = make_builder_list(alice, entries=1)
    with database_down():
        response = client.get(f"/lists/{army_list.pk}/roster.pdf")
    assert response.status_code == 503


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True])
def test_a_signed_in_players_game_action_gets_a_503(player, htmx):
    from tests.games.test_views import a_game

    client, alice = player
    game = a_game(client, alice)
    with database_down():
        response = client.post(f"/games/{game.pk}/act/", {"action": "draw", "rev": "0"}, headers=HX if htmx else {})
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
