"""HEAD answers wherever GET does.

``require_GET`` allowed GET only, so HEAD answered 405 on every page, /healthz/ and /ping/
included, and monitors that use HEAD saw the site down. Every URL pattern is walked: where GET
is not a 405, HEAD must answer the same status, with no body.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from armybuilder.games.models import Game
from armybuilder.lists.models import Entry, Platoon
from tests.games.test_views import a_game
from tests.lists.factories import make_builder_list, make_user
from tests.resolver.factories import make_chart


def _routes(patterns=None, prefix=""):
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern.name


ROUTES = [(route, name) for route, name in _routes() if not route.startswith("admin/")] + [
    ("admin/login/", "admin:login")
]


@pytest.fixture
def world(db):
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    make_chart("v2")
    army_list = make_builder_list(alice, entries=1)
    game: Game = a_game(client, alice)
    return {
        "client": client,
        "list": army_list,
        "entry": Entry.objects.filter(army_list=army_list).first(),
        "platoon": Platoon.objects.filter(army_list=army_list).first(),
        "game": game,
    }


def _url(route: str, world) -> str:
    army_list, game = world["list"], world["game"]
    pdf = route.endswith(".pdf")  # a PDF's route is checked without rendering one: a missing list
    values = {
        "pk": str(game.pk if route.startswith("games/") else (999999 if pdf else army_list.pk)),
        "entry_pk": str(world["entry"].pk),
        "platoon_pk": str(world["platoon"].pk),
        "edition": "v2",
        "army": army_list.army.slug,
        "table": "weapons",
        "subject": "weapons",
        "topic": "orders",
        "uidb64": "MQ",
        "job": "00000000-0000-4000-8000-000000000000",  # a PDF or import job that does not exist: 404
        "slug": "no-such-event",  # events: every page of an event that does not exist is a 404
        "number": "1",
        "pairing_id": "1",
        "entrant_id": "1",
        "adjustment_id": "1",
        "match_id": "1",
        "code": "no-such-code",
        "kind": "md",  # the forum exports (a regular-expression route)
        "username": "alice",
        "token": "no-such-token" if pdf else (game.share_token if route.startswith("g/") else army_list.share_token),
    }
    if route.startswith("^"):  # a re_path: each named group becomes its value, escapes their character
        route = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: values[m.group(1)], route.strip("^$"))
        return "/" + re.sub(r"\\(.)", r"\1", route)
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], route)


@pytest.mark.django_db
def test_head_answers_wherever_get_does(world):
    client = world["client"]
    checked = []
    for route, name in ROUTES:
        url = _url(route, world)
        get = client.get(url)
        if get.status_code == 405:
            continue  # a POST-only endpoint: HEAD is refused as GET is
        head = client.head(url)
        assert head.status_code == get.status_code, (name, url, get.status_code, head.status_code)
        assert head.content == b"", (name, url)
        checked.append(name)
    # The monitors' endpoints and a sample of pages were among them.
    assert {"healthz", "ping", "home", "ab-list-index", "ab-list-builder", "games-game", "ref-weapons"} <= set(checked)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/healthz/", "/ping/"])
def test_monitors_can_use_head_anonymously(client, path):
    response = client.head(path)
    assert response.status_code == 200
    assert response.content == b""
