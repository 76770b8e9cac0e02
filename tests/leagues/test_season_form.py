"""An organiser creates and edits a season from the site: its rules and the events that count.
Bad input is said next to its field with what was typed kept; nobody else edits it."""

from __future__ import annotations

import datetime

import pytest

from armybuilder.leagues import views
from armybuilder.leagues.models import Season
from tests.events.factories import make_event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_edition, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    organiser = make_user("orga")
    v3 = make_edition("v3")
    january = make_event(organiser, name="January", date=datetime.date(2026, 1, 10), edition=v3)
    february = make_event(make_user("other"), name="February", date=datetime.date(2026, 2, 14), published=True)
    secret = make_event(make_user("other2"), name="Secret", date=datetime.date(2026, 3, 1))
    old_edition = make_event(organiser, name="Second ed night", edition=make_edition("v2"))
    return {
        "organiser": organiser,
        "v3": v3,
        "january": january,
        "february": february,
        "secret": secret,
        "v2": old_edition,
    }


def _form(club, **changes):
    data = {
        "name": "Club league 2026",
        "edition": club["v3"].pk,
        "best": "3",
        "minimum_events": "2",
        "points_scale": "100",
        "events": [club["january"].pk, club["february"].pk],
        "published": "on",
    }
    data.update(changes)
    return data


def test_an_organiser_creates_a_season_with_their_and_published_events(club):
    client = _client(club["organiser"])
    page = client.get("/seasons/new/").content.decode()
    assert "January" in page and "February" in page
    assert "Secret" not in page  # another organiser's unpublished event is not offered
    response = client.post("/seasons/new/", _form(club))
    season = Season.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/seasons/{season.slug}/"
    assert (season.organiser, season.best, season.minimum_events, season.points_scale, season.published) == (
        club["organiser"],
        3,
        2,
        100,
        True,
    )
    assert set(season.events.values_list("name", flat=True)) == {"January", "February"}
    detail = client.get(response["Location"]).content.decode()
    assert "The season is created." in detail and "Edit the season" in detail
    listed = _client().get("/seasons/").content.decode()
    assert "Club league 2026" in listed


def test_an_unpublished_season_is_listed_for_its_organiser_only(club):
    _client(club["organiser"]).post("/seasons/new/", _form(club, published=""))
    assert "Club league 2026" in _client(club["organiser"]).get("/seasons/").content.decode()
    assert "Club league 2026" not in _client(make_user("visitor")).get("/seasons/").content.decode()
    assert "No published season yet." in _client().get("/seasons/").content.decode()


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"name": ""}, "name", "This field is required."),
        ({"best": "0"}, "best", "greater than or equal to 1"),
        ({"minimum_events": "many"}, "minimum_events", "Enter a whole number."),
        ({"points_scale": "-5"}, "points_scale", "greater than or equal to 0"),
        ({"events": ["999999"]}, "events", "Select a valid choice."),
    ],
)
def test_bad_input_is_said_next_to_its_field_and_kept(club, changes, field, message):
    response = _client(club["organiser"]).post("/seasons/new/", _form(club, **changes))
    assert response.status_code == 400
    page = response.content.decode()
    error = page.split(f'id="id_{field}-error"')[1].split("</")[0]
    assert message in error
    assert 'value="Club league 2026"' in page or changes.get("name") == ""
    assert not Season.objects.exists()


def test_an_event_of_another_edition_is_refused_by_name(club):
    response = _client(club["organiser"]).post("/seasons/new/", _form(club, events=[club["v2"].pk]))
    assert response.status_code == 400
    assert "Not of the season&#x27;s edition: Second ed night." in response.content.decode()


def test_the_organiser_edits_the_season(club):
    client = _client(club["organiser"])
    client.post("/seasons/new/", _form(club))
    season = Season.objects.get()
    page = client.get(f"/seasons/{season.slug}/edit/").content.decode()
    assert 'value="Club league 2026"' in page
    response = client.post(f"/seasons/{season.slug}/edit/", _form(club, best="", events=[club["january"].pk]))
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.best is None and list(season.events.values_list("name", flat=True)) == ["January"]
    assert "The season is saved." in client.get(response["Location"]).content.decode()


@pytest.mark.parametrize("role", ["player", "anonymous"])
def test_nobody_else_edits_it(club, role):
    _client(club["organiser"]).post("/seasons/new/", _form(club))
    season = Season.objects.get()
    client = _client(make_user("player") if role == "player" else None)
    for method in ("get", "post"):
        response = getattr(client, method)(f"/seasons/{season.slug}/edit/", _form(club, name="Hijacked"))
        if role == "anonymous":
            assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
        else:
            assert response.status_code == 404
    assert Season.objects.get().name == "Club league 2026"
    assert "Edit the season" not in client.get(f"/seasons/{season.slug}/").content.decode()


def test_creating_a_season_needs_an_account(club):
    response = _client().get("/seasons/new/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_seasons_beyond_the_daily_limit_are_refused_in_words(club):
    for n in range(views.SEASONS_PER_DAY):
        Season.objects.create(organiser=club["organiser"], name=f"Season {n}", edition=club["v3"])
    response = _client(club["organiser"]).post("/seasons/new/", _form(club, name="One too many"))
    assert response.status_code == 429
    page = response.content.decode()
    assert "You have created 10 seasons in the last 24 hours" in page and 'value="One too many"' in page
    assert not Season.objects.filter(name="One too many").exists()
