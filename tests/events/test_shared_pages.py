"""An event's public pages for a hall of phones: an anonymous visitor's page is one shared copy (no
CSRF token, no cookie, marked for nginx to keep a second), and what every viewer sees alike (the
round's other games, the standings' table) is built once per version of the event, and again as
soon as a result moves it."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpResponse
from django.test import Client, RequestFactory

from armybuilder.events import round_games, services, views
from armybuilder.events.models import Pairing
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """A published event with its lists revealed, round 1 published: four players, two games."""
    event = make_event(make_user(), published=True, rounds=2, lists_revealed=True)
    for _ in range(4):
        make_entrant(event)
    services.publish_round(services.pair_next_round(event))
    return event


def _public_paths(event) -> list[str]:
    entrant = event.entrants.first()
    base = f"/events/{event.slug}/"
    return [base, f"{base}rounds/1/", f"{base}standings/", f"{base}entrants/{entrant.pk}/list/"]


def test_every_public_page_is_one_copy_for_every_anonymous_visitor(event):
    for path in _public_paths(event):
        first, second = Client().get(path), Client().get(path)
        assert first.status_code == 200, path
        assert first.content == second.content, path
        assert first["ETag"] == second["ETag"], path
        assert not first.cookies, f"{path} sets {list(first.cookies)}"
        assert b"csrfmiddlewaretoken" not in first.content and b"x-csrftoken" not in first.content, path
        assert first["X-Accel-Expires"] == "1", path
        assert {"HX-Request", "Cookie", "Accept-Language"} <= {part.strip() for part in first["Vary"].split(",")}, path
        # The language menu asks its own page (which has the token) instead of posting.
        assert b'action="/language/" method="get"' in first.content, path


def test_the_standings_table_asked_by_htmx_is_shared_too(event):
    first = Client().get(f"/events/{event.slug}/standings/", headers={"HX-Request": "true"})
    second = Client().get(f"/events/{event.slug}/standings/", headers={"HX-Request": "true"})
    assert first.content == second.content and first.content.lstrip().startswith(b'<div id="standings"')
    assert first["X-Accel-Expires"] == "1" and not first.cookies


def test_a_signed_in_visitors_page_is_theirs_alone(event):
    player = Client()
    player.force_login(event.entrants.first().user)
    for path in _public_paths(event):
        response = player.get(path)
        assert response.status_code == 200, path
        assert "X-Accel-Expires" not in response, path
        assert b"x-csrftoken" in response.content, path  # htmx's posts carry the token
        assert b'action="/i18n/setlang/" method="post"' in response.content, path


def test_a_page_showing_a_flash_message_is_never_shared(event):
    client = Client()
    storage = CookieStorage(RequestFactory().get("/"))
    storage.add(constants.INFO, "You are signed out.")
    carrier = HttpResponse()
    storage.update(carrier)
    client.cookies["messages"] = carrier.cookies["messages"].value
    response = client.get(f"/events/{event.slug}/standings/")
    assert b"You are signed out." in response.content
    assert "X-Accel-Expires" not in response and "ETag" not in response


def test_the_other_games_are_built_once_per_version_and_again_after_a_result(event):
    url = f"/events/{event.slug}/rounds/1/"
    pairing = Pairing.objects.filter(round__event=event).select_related("player_a__user", "player_b__user").first()
    player_a, player_b = pairing.player_a, pairing.player_b
    a = Client()
    a.force_login(player_a.user)
    with mock.patch.object(views, "public_rows", wraps=round_games.public_rows) as built:
        anonymous = Client().get(url)
        Client().get(url)
        mine = a.get(url)
        assert built.call_count == 1
        services.enter_result(pairing, player_a, "a", 3, 1)
        after = Client().get(url)
        assert built.call_count == 2
    assert b"Waiting for confirmation" not in anonymous.content
    assert b"Waiting for confirmation" in after.content  # the result shows at once, never the old copy
    # The player's own game carries its forms; the other game reads as it does for anyone.
    other = Pairing.objects.filter(round__event=event).exclude(pk=pairing.pk).get()
    assert f'id="p{pairing.pk}-outcome_0"'.encode() in mine.content
    other_row = _row(anonymous.content, other.pk)
    assert other_row and other_row == _row(mine.content, other.pk)
    assert player_b.name.encode() in _row(mine.content, pairing.pk)


def _row(content: bytes, pk: int) -> bytes:
    start = content.index(f'<li id="pairing-{pk}"'.encode())
    return content[start : content.index(b"</li>", start)]


def test_the_standings_are_built_once_per_version_and_again_after_a_result(event):
    url = f"/events/{event.slug}/standings/"
    pairing = Pairing.objects.filter(round__event=event).select_related("player_a", "player_b").first()
    with mock.patch.object(services, "event_standings", wraps=services.event_standings) as worked_out:
        before = Client().get(url)
        Client().get(url, headers={"HX-Request": "true"})
        Client().get(url)
        assert worked_out.call_count == 1
        services.enter_result(pairing, pairing.player_a, "a", 3, 1)
        services.confirm_result(pairing, pairing.player_b)
        after = Client().get(url)
        assert worked_out.call_count == 2
    leader = after.content.split(b"<tbody>")[1].split(b"</tr>")[0]
    assert pairing.player_a.name.encode() in leader and b"<td>3</td>" in leader
    assert b"<td>3</td>" not in before.content.split(b"<tbody>")[1].split(b"</tr>")[0]


def test_hidden_standings_are_kept_apart_from_the_organisers_view(event):
    event.standings_hidden = True
    event.save()
    url = f"/events/{event.slug}/standings/"
    anonymous = Client().get(url)
    organiser = Client()
    organiser.force_login(event.organiser)
    theirs = organiser.get(url)
    assert b"keeping the standings hidden" in anonymous.content
    assert b"Hidden from the players" in theirs.content and b"keeping the standings hidden" not in theirs.content
    assert b"Hidden from the players" not in Client().get(url).content


def test_the_language_page_offers_each_language_by_a_post_with_its_token():
    client = Client()
    page = client.get("/language/", {"language": "fr", "next": "/events/"})
    assert page.status_code == 200
    body = page.content.decode()
    assert 'action="/i18n/setlang/" method="post"' in body and "csrfmiddlewaretoken" in body
    buttons = [part.split('"')[0] for part in body.split('name="language" value="')[1:]]
    assert buttons[0] == "fr" and set(buttons) >= {"en", "fr"}  # the one asked for first
    assert '<input name="next" type="hidden" value="/events/">' in body
    switched = client.post("/i18n/setlang/", {"language": "fr", "next": "/events/"})
    assert switched.status_code == 302 and switched["Location"] == "/events/"
    assert client.cookies["django_language"].value == "fr"


@pytest.mark.parametrize("unsafe", ["https://evil.example/", "//evil.example/", "javascript:alert(1)"])
def test_the_language_page_never_sends_a_visitor_elsewhere(unsafe):
    page = Client().get("/language/", {"next": unsafe, "language": "xx"})
    assert page.status_code == 200
    assert '<input name="next" type="hidden" value="/">' in page.content.decode()


def test_the_api_is_shared_as_well(event):
    for path in ("", "rounds/1/", "standings/"):
        response = Client().get(f"/api/events/{event.slug}/{path}")
        assert response.status_code == 200 and response["X-Accel-Expires"] == "1" and not response.cookies
    assert "X-Accel-Expires" not in Client().get("/api/events/no-such-event/")


def test_a_result_renders_its_own_game_again_not_the_rounds(event):
    url = f"/events/{event.slug}/rounds/1/"
    first, second = Pairing.objects.filter(round__event=event).select_related("player_a", "player_b")
    Client().get(url)
    with mock.patch.object(round_games, "dressed", wraps=round_games.dressed) as drawn:
        services.enter_result(first, first.player_a, "a", 3, 1)
        page = Client().get(url).content
    assert [call.args[0].pk for call in drawn.call_args_list] == [first.pk]
    assert b"Waiting for confirmation" in _row(page, first.pk)
    assert b"Waiting for confirmation" not in _row(page, second.pk)


def test_each_thing_a_game_shows_moves_its_copy(event):
    """What a game's row is drawn from: its result, its round's mission, the event's lists, a name."""
    url = f"/events/{event.slug}/rounds/1/"
    pairing = Pairing.objects.filter(round__event=event).select_related("player_a__user", "round").first()

    def row() -> bytes:
        return _row(Client().get(url).content, pairing.pk)

    assert b"list A" in row()
    event.lists_revealed = False
    event.save()
    assert b"list A" not in row()
    pairing.round.mission = "Hold until relieved"
    pairing.round.save()
    assert b"Hold until relieved" in row()
    user = pairing.player_a.user
    user.first_name = "Renamed"
    user.save()
    pairing.player_a.save()  # a player's name shown moves with their entry, as the version does
    assert b"Renamed" in row()
