"""Event pages through the test client: the whole flow, and who may see and change what."""

from __future__ import annotations

import json

import pytest

from armybuilder.events import services
from armybuilder.events.models import Entrant, Event, Outcome, Pairing, Result, Submission
from tests.events.factories import make_entrant, make_event, make_player_list
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_army, make_edition, make_user

pytestmark = pytest.mark.django_db


def test_create_join_submit_approve_pair_result_standings():
    organiser = make_user("orga")
    org = _client(organiser)
    edition = make_edition("v3")
    army = make_army(edition=edition, slug="germany", name="Germany")
    response = org.post(
        "/events/new/",
        {
            "name": "Winter Cup",
            "date": "2026-12-05",
            "place": "Club",
            "edition": edition.pk,
            "points_limit": 100,
            "max_order_dice": 5,
            "rounds": 2,
            "score_win": 3,
            "score_draw": 1,
            "score_loss": 0,
            "tiebreaks": "score,sos,dice",
            "allowed_armies": [army.pk],
        },
    )
    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/events/{event.slug}/manage/"
    assert event.organiser == organiser and not event.published

    players = [make_user(f"p{i}") for i in range(4)]
    for index, player in enumerate(players):
        client = _client(player)
        assert client.post(f"/events/{event.slug}/join/").status_code == 302
        units = 3 if index == 0 else 2  # the first one's list is over the points limit
        army_list = make_player_list(player, army, units=units)
        response = client.post(f"/events/{event.slug}/submit/", {"army_list": army_list.pk})
        assert response.status_code == 302
    first = Entrant.objects.get(user=players[0])
    page = _client(players[0]).get(f"/events/{event.slug}/").content.decode()
    assert "Not legal at this event" in page and "the limit is 100" in page

    dashboard = org.get(f"/events/{event.slug}/manage/").content.decode()
    assert dashboard.count("Not legal") == 1 and "The list is 150 points; the limit is 100." in dashboard
    # Sent back with a note, then a legal list is submitted and approved.
    org.post(f"/events/{event.slug}/manage/entrants/{first.pk}/judge/", {"decision": "return", "note": "Too big"})
    assert "Too big" in _client(players[0]).get(f"/events/{event.slug}/").content.decode()
    smaller = make_player_list(players[0], army, units=2)
    _client(players[0]).post(f"/events/{event.slug}/submit/", {"army_list": smaller.pk})
    for entrant in Entrant.objects.filter(event=event):
        org.post(f"/events/{event.slug}/manage/entrants/{entrant.pk}/judge/", {"decision": "approve"})
    assert Submission.objects.filter(status=Submission.Status.APPROVED).count() == 4
    org.post(f"/events/{event.slug}/manage/reveal/", {"on": "1"})
    org.post(f"/events/{event.slug}/manage/publish/", {"on": "1"})

    for number in (1, 2):
        assert org.post(f"/events/{event.slug}/manage/pair/").status_code == 302
        org.post(f"/events/{event.slug}/manage/rounds/{number}/publish/")
        for pairing in Pairing.objects.filter(round__number=number, round__event=event):
            a = _client(pairing.player_a.user)
            b = _client(pairing.player_b.user)
            a.post(
                f"/events/{event.slug}/pairings/{pairing.pk}/result/",
                {"outcome": Outcome.A_WINS, "dice_a": 3, "dice_b": 1},
            )
            assert b.post(f"/events/{event.slug}/pairings/{pairing.pk}/confirm/").status_code == 302
            assert Result.objects.get(pairing=pairing).counts
    standings = _client().get(f"/events/{event.slug}/standings/").content.decode()
    assert "Strength of schedule" in standings
    data = json.loads(_client().get(f"/api/events/{event.slug}/standings/").content)
    assert [row["score"] for row in data["standings"]] == sorted((r["score"] for r in data["standings"]), reverse=True)
    assert data["standings"][0]["score"] == 6 and list(data["standings"][0]) == [
        "place",
        "entrant",
        "score",
        "sos",
        "dice",
        "games",
        "dropped",
        "adjustment",
        "adjustments",
    ]
    rounds = json.loads(_client().get(f"/api/events/{event.slug}/rounds/1/").content)
    assert [p["table"] for p in rounds["pairings"]] == [1, 2]
    assert all(p["result"]["confirmed"] for p in rounds["pairings"])
    csv_text = org.get(f"/events/{event.slug}/manage/entrants.csv").content.decode()
    assert csv_text.splitlines()[0].startswith("player,list,army,points,hash")
    assert len(csv_text.splitlines()) == 5


@pytest.fixture
def cast():
    """An event of four approved players paired in a published round 1, lists hidden, event published."""
    organiser = make_user("organiser")
    event = make_event(organiser, published=True)
    entrants = [make_entrant(event, make_user(f"player{i}")) for i in range(4)]
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    pairing = round_.pairings.get(table=1)
    me = pairing.player_a
    opponent = pairing.player_b
    stranger_entrant = next(e for e in entrants if e.pk not in (me.pk, opponent.pk))
    return {
        "event": event,
        "organiser": organiser,
        "me": me,
        "opponent": opponent,
        "other_entrant": stranger_entrant,
        "pairing": pairing,
        "other_user": make_user("nobody"),
    }


ORGANISER_PAGES = ["manage/", "manage/edit/", "manage/entrants.csv"]


@pytest.mark.parametrize("role", ["me", "opponent", "other_user", "anonymous"])
def test_only_the_organiser_reaches_the_organisers_pages(cast, role):
    event = cast["event"]
    user = None if role == "anonymous" else getattr(cast[role], "user", cast[role])
    client = _client(user)
    for page in ORGANISER_PAGES:
        response = client.get(f"/events/{event.slug}/{page}")
        assert response.status_code in (404, 302), page
        if response.status_code == 302:  # anonymous: to the log-in page
            assert response["Location"].startswith("/accounts/login/")
    for action in ["manage/pair/", "manage/reveal/", "manage/publish/", "manage/rounds/1/publish/"]:
        response = client.post(f"/events/{event.slug}/{action}", {"on": "1"})
        assert response.status_code in (404, 302)
        assert response.status_code == 404 or response["Location"].startswith("/accounts/login/")
    entrant = cast["me"]
    client.post(f"/events/{event.slug}/manage/entrants/{entrant.pk}/judge/", {"decision": "return"})
    client.post(
        f"/events/{event.slug}/manage/pairings/{cast['pairing'].pk}/override/",
        {"outcome": "a", "dice_a": 1, "dice_b": 1},
    )
    event.refresh_from_db()
    assert not event.lists_revealed
    assert Submission.objects.get(entrant=entrant).status == Submission.Status.APPROVED
    assert not Result.objects.exists()


def test_the_organiser_reaches_every_page(cast):
    client = _client(cast["organiser"])
    event = cast["event"]
    for page in ORGANISER_PAGES:
        assert client.get(f"/events/{event.slug}/{page}").status_code == 200
    for entrant in (cast["me"], cast["opponent"], cast["other_entrant"]):
        assert client.get(f"/events/{event.slug}/entrants/{entrant.pk}/list/").status_code == 200
    response = client.post(
        f"/events/{event.slug}/manage/pairings/{cast['pairing'].pk}/override/",
        {"outcome": "draw", "dice_a": 2, "dice_b": 2},
    )
    assert response.status_code == 302 and Result.objects.get().by_organiser


@pytest.mark.parametrize("role", ["other_entrant", "other_user", "anonymous"])
def test_only_the_players_of_a_game_enter_or_confirm_its_result(cast, role):
    user = None if role == "anonymous" else getattr(cast[role], "user", cast[role])
    client = _client(user)
    url = f"/events/{cast['event'].slug}/pairings/{cast['pairing'].pk}/"
    client.post(url + "result/", {"outcome": "a", "dice_a": 1, "dice_b": 0})
    assert not Result.objects.exists()
    services.enter_result(cast["pairing"], cast["me"], "a", 1, 0)
    client.post(url + "confirm/")
    assert not Result.objects.get().confirmed


def test_the_opponent_confirms_and_the_enterer_cannot(cast):
    url = f"/events/{cast['event'].slug}/pairings/{cast['pairing'].pk}/"
    _client(cast["me"].user).post(url + "result/", {"outcome": "a", "dice_a": 1, "dice_b": 0})
    _client(cast["me"].user).post(url + "confirm/")
    assert not Result.objects.get().confirmed
    _client(cast["opponent"].user).post(url + "confirm/")
    assert Result.objects.get().confirmed


@pytest.mark.parametrize("role", ["opponent", "other_entrant", "other_user", "anonymous"])
def test_hidden_lists_never_leak(cast, role):
    event = cast["event"]
    user = None if role == "anonymous" else getattr(cast[role], "user", cast[role])
    client = _client(user)
    me = cast["me"]
    sealed = me.submission
    secret_unit = sealed.facts["units"][0][1]
    assert client.get(f"/events/{event.slug}/entrants/{me.pk}/list/").status_code == 404
    for url in [
        f"/events/{event.slug}/",
        f"/events/{event.slug}/rounds/1/",
        f"/events/{event.slug}/standings/",
        f"/api/events/{event.slug}/",
        f"/api/events/{event.slug}/rounds/1/",
        f"/api/events/{event.slug}/standings/",
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        text = response.content.decode()
        assert secret_unit not in text and sealed.hash not in text and sealed.list_name not in text, url
        # Validated by the event's version (a repeat poll is a 304), never kept without asking.
        assert response.has_header("ETag") and "no-cache" in response["Cache-Control"]
    # A problem names the list's units: before the lists are revealed, the API says only "not legal".
    banned = me.submission.army_list.entries.first().unit
    event.banned_units.set([banned])
    data = json.loads(client.get(f"/api/events/{event.slug}/").content)
    mine = next(item for item in data["entrants"] if item["id"] == me.pk)
    assert mine["legal"] is False and "problems" not in mine
    assert secret_unit not in json.dumps(data)
    # Revealed: now they see it.
    Event.objects.filter(pk=event.pk).update(lists_revealed=True)
    response = client.get(f"/events/{event.slug}/entrants/{me.pk}/list/")
    assert response.status_code == 200 and secret_unit in response.content.decode()


def test_a_player_sees_their_own_sealed_list(cast):
    me = cast["me"]
    response = _client(me.user).get(f"/events/{cast['event'].slug}/entrants/{me.pk}/list/")
    assert response.status_code == 200 and me.submission.hash[:12] in response.content.decode()


def test_unpublished_event_is_not_in_the_api_nor_its_standings_for_strangers(cast):
    event = cast["event"]
    Event.objects.filter(pk=event.pk).update(published=False)
    for page in ["", "standings/", "rounds/1/"]:
        url = f"/api/events/{event.slug}/{page}"
        assert _client().get(url).status_code == 404
    assert _client().get(f"/events/{event.slug}/standings/").status_code == 404
    assert _client(cast["other_user"]).get(f"/events/{event.slug}/rounds/1/").status_code == 404
    assert _client(cast["me"].user).get(f"/events/{event.slug}/standings/").status_code == 200


def test_a_player_changes_only_their_own_submission(cast):
    me = cast["me"]
    other_list = make_player_list(cast["opponent"].user)
    _client(me.user).post(f"/events/{cast['event'].slug}/submit/", {"army_list": other_list.pk})
    assert Submission.objects.get(entrant=me).army_list_id != other_list.pk


def test_bad_result_input_is_refused_with_a_message(cast):
    url = f"/events/{cast['event'].slug}/pairings/{cast['pairing'].pk}/result/"
    response = _client(cast["me"].user).post(url, {"outcome": "a", "dice_a": "lots"}, follow=True)
    assert response.status_code == 200
    assert "The result was not recorded" in response.content.decode()
    assert not Result.objects.exists()


@pytest.mark.parametrize("turns", ["0", "13", "six", "-1"])
def test_turns_outside_a_game_are_refused(cast, turns):
    url = f"/events/{cast['event'].slug}/pairings/{cast['pairing'].pk}/result/"
    form = {"outcome": "a", "dice_a": "2", "dice_b": "1", "turns": turns}
    response = _client(cast["me"].user).post(url, form, follow=True)
    assert "The result was not recorded" in response.content.decode()
    assert not Result.objects.exists()


@pytest.mark.parametrize(("turns", "kept"), [("6", 6), ("", None)])
def test_turns_played_are_kept_or_left_unsaid(cast, turns, kept):
    url = f"/events/{cast['event'].slug}/pairings/{cast['pairing'].pk}/result/"
    form = {"outcome": "a", "dice_a": "2", "dice_b": "1", "turns": turns}
    _client(cast["me"].user).post(url, form)
    assert Result.objects.get().turns == kept
    data = _client().get(f"/api/events/{cast['event'].slug}/rounds/1/").json()
    played = [p["result"] for p in data["pairings"] if p["result"] and not p["result"].get("bye")]
    assert [r["turns_played"] for r in played] == [kept]


def test_french_pages(cast):
    event = cast["event"]
    other_army = make_army(edition=make_edition("v3"), name="Italie")
    event.allowed_armies.set([cast["me"].submission.army_list.army])
    Event.objects.filter(pk=event.pk).update(points_limit=10)
    late = make_entrant(event, make_user("late"), army=other_army, approve=False)
    client = _client(cast["organiser"])
    client.cookies["django_language"] = "fr"
    dashboard = client.get(f"/events/{event.slug}/manage/").content.decode()
    assert "Révéler les listes" in dashboard
    assert "Italie ne fait pas partie des armées de l&#x27;événement." in dashboard
    assert "La liste fait 50 points ; la limite est de 10." in dashboard
    assert f"entrant-{late.pk}" in dashboard
    assert "Ronde 1" in client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "Force du calendrier" in client.get(f"/events/{event.slug}/standings/").content.decode()


def test_the_builder_shows_legal_for_the_event_as_the_list_is_now(cast):
    me = cast["me"]
    army_list = me.submission.army_list
    client = _client(me.user)
    builder = client.get(f"/lists/{army_list.pk}/").content.decode()
    assert f'hx-get="/events/for-list/{army_list.pk}/"' in builder
    fragment = client.get(f"/events/for-list/{army_list.pk}/").content.decode()
    assert f"Legal for {cast['event'].name}." in fragment
    Event.objects.filter(pk=cast["event"].pk).update(points_limit=10)
    fragment = client.get(f"/events/for-list/{army_list.pk}/").content.decode()
    assert f"Not legal for {cast['event'].name}" in fragment and "the limit is 10" in fragment
    # Another visitor's list: a 404, like every list page.
    assert _client(cast["opponent"].user).get(f"/events/for-list/{army_list.pk}/").status_code == 404
    # A list not submitted anywhere shows nothing.
    other = make_player_list(me.user)
    assert "egal for" not in client.get(f"/events/for-list/{other.pk}/").content.decode()


def test_a_list_submitted_to_no_event_makes_the_builder_fetch_nothing():
    event = make_event()
    user = make_user("solo")
    army_list = make_player_list(user, points_limit=60)  # one 50-point squad: a second is too many
    client = _client(user)
    marker = f'hx-get="/events/for-list/{army_list.pk}/"'
    page = client.get(f"/lists/{army_list.pk}/")
    assert page.status_code == 200 and marker not in page.content.decode()
    # The problems panel the builder sends again after a change: no marker, so no request, either.
    entry = army_list.entries.get()
    response = client.post(f"/lists/{army_list.pk}/entries/{entry.pk}/duplicate/", headers={"HX-Request": "true"})
    assert response.status_code == 200 and 'id="problems"' in response.content.decode()
    assert "/events/for-list/" not in response.content.decode()
    # Submitted: the reload the browser makes with the ETag it kept is a new page, with the marker.
    etag = client.get(f"/lists/{army_list.pk}/")["ETag"]
    assert client.get(f"/lists/{army_list.pk}/", headers={"If-None-Match": etag}).status_code == 304
    client.post(f"/events/{event.slug}/join/")
    client.post(f"/events/{event.slug}/submit/", {"army_list": army_list.pk})
    assert Submission.objects.filter(army_list=army_list).exists()
    client.get(f"/events/{event.slug}/")  # where the redirect leads: its message is read there
    reload = client.get(f"/lists/{army_list.pk}/", headers={"If-None-Match": etag})
    assert reload.status_code == 200 and marker in reload.content.decode()
    # And the panel sent again after a change fetches it again.
    response = client.post(f"/lists/{army_list.pk}/entries/{entry.pk}/remove/", headers={"HX-Request": "true"})
    assert response.status_code == 200 and 'id="problems"' in response.content.decode()
    assert marker in response.content.decode()
    # Another list of the same player, submitted nowhere, still fetches nothing.
    other = make_player_list(user)
    assert "/events/for-list/" not in client.get(f"/lists/{other.pk}/").content.decode()
    # Signed in on another device: the list is submitted there too.
    assert marker in _client(user).get(f"/lists/{army_list.pk}/").content.decode()


def test_a_list_sealed_on_another_device_shows_in_a_session_already_open():
    """The builder asks the database, not the session: a list sealed from a phone shows on the
    desktop signed in before, without opening the event's page there."""
    event = make_event()
    user = make_user("two-phones")
    army_list = make_player_list(user, points_limit=60)  # one 50-point squad: a second is too many
    phone, desktop = _client(user), _client(user)
    marker = f'hx-get="/events/for-list/{army_list.pk}/"'
    assert marker not in desktop.get(f"/lists/{army_list.pk}/").content.decode()
    phone.post(f"/events/{event.slug}/join/")
    phone.post(f"/events/{event.slug}/submit/", {"army_list": army_list.pk})
    page = desktop.get(f"/lists/{army_list.pk}/").content.decode()
    assert marker in page
    fragment = desktop.get(f"/events/for-list/{army_list.pk}/").content.decode()
    assert f"Legal for {event.name}." in fragment
    # The panel the builder sends again after a change (a second squad, too many points) carries it too.
    entry = army_list.entries.get()
    panel = desktop.post(f"/lists/{army_list.pk}/entries/{entry.pk}/duplicate/", headers={"HX-Request": "true"})
    assert 'id="problems"' in panel.content.decode() and marker in panel.content.decode()


def test_the_standings_table_refreshes_itself(cast):
    event = cast["event"]
    page = _client().get(f"/events/{event.slug}/standings/").content.decode()
    assert 'hx-trigger="every 20s"' in page and "<html" in page
    fragment = _client().get(f"/events/{event.slug}/standings/", headers={"HX-Request": "true"}).content.decode()
    assert fragment.lstrip().startswith('<div id="standings"') and "<html" not in fragment
    assert fragment.count("<tr>") == 5  # the head and four players


def test_the_admin_pages_open(cast, admin_client):
    for model in ("event", "entrant", "submission", "round", "result"):
        assert admin_client.get(f"/admin/events/{model}/").status_code == 200
    assert admin_client.get(f"/admin/events/event/{cast['event'].pk}/change/").status_code == 200
    assert admin_client.get(f"/admin/events/submission/{cast['me'].submission.pk}/change/").status_code == 200


def test_the_standings_columns_follow_the_events_tiebreak_order(cast):
    event = cast["event"]
    Event.objects.filter(pk=event.pk).update(tiebreaks="score,dice,sos")
    page = _client().get(f"/events/{event.slug}/standings/").content.decode()
    assert page.index("Enemy order dice destroyed") < page.index("Strength of schedule")
    data = json.loads(_client().get(f"/api/events/{event.slug}/standings/").content)
    assert data["tiebreaks"] == ["score", "dice", "sos"]
    assert list(data["standings"][0]) == [
        "place",
        "entrant",
        "score",
        "dice",
        "sos",
        "games",
        "dropped",
        "adjustment",
        "adjustments",
    ]


def test_the_round_page_links_only_the_lists_its_reader_can_open(cast):
    """Before the reveal a player's round page linked their opponent's sealed list, which answered 404."""
    import re

    event, me, opponent = cast["event"], cast["me"], cast["opponent"]
    url = f"/events/{event.slug}/rounds/1/"

    def linked(user) -> set[int]:
        page = _client(user).get(url).content.decode()
        found = {int(pk) for pk in re.findall(rf"/events/{event.slug}/entrants/(\d+)/list/", page)}
        for pk in found:  # every link the page offers opens
            assert _client(user).get(f"/events/{event.slug}/entrants/{pk}/list/").status_code == 200
        return found

    assert me.pk in linked(me.user) and opponent.pk not in linked(me.user)
    assert opponent.pk in linked(opponent.user) and me.pk not in linked(opponent.user)
    assert linked(cast["other_user"]) == set()
    assert {me.pk, opponent.pk} <= linked(cast["organiser"])
    Event.objects.filter(pk=event.pk).update(lists_revealed=True)
    assert {me.pk, opponent.pk} <= linked(me.user)
