from __future__ import annotations

import csv
import datetime
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armybuilder.events.models import Entrant, Event, Pairing, Result, Round
from armybuilder.leagues.models import LeagueGame, PlayerProfile, RatingStep, Season
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_edition, make_user

pytestmark = pytest.mark.django_db


def _played_event(organiser, players, outcomes, *, day, name):
    """An event of one published round: players[0] v players[1], players[2] v players[3] ..."""
    event = make_event(organiser, name=name, date=day, published=True)
    entrants = [make_entrant(event, user) for user in players]
    round_ = Round.objects.create(event=event, number=1, published=True)
    for table, outcome in enumerate(outcomes, start=1):
        a, b = entrants[2 * table - 2], entrants[2 * table - 1]
        pairing = Pairing.objects.create(round=round_, table=table, player_a=a, player_b=b, position=table)
        Result.objects.create(pairing=pairing, outcome=outcome, confirmed=True)
    return event


@pytest.fixture
def season():
    organiser = make_user("orga")
    anne, bob, carl, dora = (make_user(n, first_name=n.title()) for n in ("anne", "bob", "carl", "dora"))
    e1 = _played_event(organiser, [anne, bob, carl, dora], ["a", "b"], day=datetime.date(2026, 1, 10), name="January")
    e2 = _played_event(organiser, [bob, anne], ["draw"], day=datetime.date(2026, 2, 14), name="February")
    s = Season.objects.create(organiser=organiser, name="Club league 2026", edition=make_edition("v3"), best=1)
    s.events.set([e1, e2])
    return s


def test_an_unpublished_season_is_the_organisers_only(season):
    assert _client(season.organiser).get(f"/seasons/{season.slug}/").status_code == 200
    assert _client(make_user()).get(f"/seasons/{season.slug}/").status_code == 404
    assert _client().get(f"/seasons/{season.slug}/").status_code == 404
    assert _client().get(f"/api/seasons/{season.slug}/").status_code == 404


@pytest.mark.parametrize("role", ["organiser", "other", "anonymous"])
def test_a_published_season_shows_counted_and_dropped_results(season, role):
    Season.objects.filter(pk=season.pk).update(published=True)
    user = {"organiser": season.organiser, "other": make_user(), "anonymous": None}[role]
    page = _client(user).get(f"/seasons/{season.slug}/").content.decode()
    assert "Club league 2026" in page
    # January: Anne beat Bob, Dora beat Carl: Anne and Dora share 1st of 4 (100), Bob and Carl 3rd (50).
    # February: Anne and Bob draw: both 1st of 2 (100). Best 1 counts, so Anne's other 100 is dropped.
    assert '<del class="dropped"' in page


def test_the_season_api(season):
    Season.objects.filter(pk=season.pk).update(published=True)
    data = _client().get(f"/api/seasons/{season.slug}/").json()
    table = {row["player"]: (row["place"], row["total"]) for row in data["standings"]}
    assert table == {"Anne": (1, 100), "Bob": (1, 100), "Dora": (3, 100), "Carl": (4, 50)}
    anne = next(row for row in data["standings"] if row["player"] == "Anne")
    assert [(r["event"].split("-")[0], r["points"], r["counted"]) for r in anne["results"]] == [
        ("january", 100, True),
        ("february", 100, False),
    ]
    assert "@" not in str(data)  # no e-mail address


def test_results_csv_is_public_safe_and_private_free(season):
    event = season.events.get(name="January")
    evil = make_user("mallory", first_name="=HYPERLINK(1)")
    Round.objects.filter(event=event).delete()
    entrants = list(event.entrants.order_by("pk"))
    mallory = make_entrant(event, evil)
    round_ = Round.objects.create(event=event, number=1, published=True)
    p = Pairing.objects.create(round=round_, table=1, player_a=mallory, player_b=entrants[0], position=1)
    Result.objects.create(pairing=p, outcome="a", confirmed=True)
    response = _client().get(f"/events/{event.slug}/results.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    text = response.content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["placing", "player", "army", "wins", "draws", "losses", "points"]
    assert rows[1][:2] == ["1", "'=HYPERLINK(1)"]
    assert rows[1][3:] == ["1", "0", "0", "3"]
    assert "@example.org" not in text
    assert "snapshot" not in text


def test_results_csv_of_an_unpublished_event_is_the_organisers_only(season):
    event = season.events.get(name="January")
    type(event).objects.filter(pk=event.pk).update(published=False)
    assert _client().get(f"/events/{event.slug}/results.csv").status_code == 404
    assert _client(make_user()).get(f"/events/{event.slug}/results.csv").status_code == 404
    assert _client(season.organiser).get(f"/events/{event.slug}/results.csv").status_code == 200


def test_recompute_ratings_is_reproducible_and_shown_on_the_players_page(season, capsys):
    call_command("recompute_ratings")
    first = capsys.readouterr().out
    call_command("recompute_ratings")
    assert capsys.readouterr().out == first
    assert "bolt-action/v3: 3 games, 4 players, ratings sum 6000.00" in first
    # Anne beat Bob on 10 January (+16), then drew him 1516 against 1484 (−1.47).
    assert list(RatingStep.objects.filter(user__username="anne").values_list("rating", flat=True)) == [
        Decimal("1516.00"),
        Decimal("1514.53"),
    ]
    page = _client().get("/players/anne/").content.decode()
    assert "1514.53" in page and "January" in page and "February" in page


@pytest.mark.parametrize("role", ["other", "anonymous"])
def test_a_hidden_player_page_is_refused_with_words(season, role):
    anne = season.events.first().entrants.get(user__username="anne").user
    PlayerProfile.objects.create(user=anne, hidden=True)
    response = _client(make_user() if role == "other" else None).get("/players/anne/")
    assert response.status_code == 403
    assert "has chosen to hide their player page" in response.content.decode()


def test_the_player_hides_and_shows_their_page(season):
    anne = season.events.first().entrants.get(user__username="anne").user
    client = _client(anne)
    client.post("/players/anne/visibility/", {"hidden": "1"})
    assert PlayerProfile.objects.get(user=anne).hidden
    assert client.get("/players/anne/").status_code == 200  # the player still sees their own page
    assert _client().get("/players/anne/").status_code == 403
    client.post("/players/anne/visibility/", {"hidden": "0"})
    assert _client().get("/players/anne/").status_code == 200


def test_nobody_else_hides_a_players_page(season):
    assert _client(make_user()).post("/players/anne/visibility/", {"hidden": "1"}).status_code == 404
    assert _client().post("/players/anne/visibility/", {"hidden": "1"}).status_code == 404
    assert not PlayerProfile.objects.filter(hidden=True).exists()


def test_an_unknown_player_is_a_404():
    assert _client().get("/players/nobody/").status_code == 404


def test_the_season_page_in_french(season):
    Season.objects.filter(pk=season.pk).update(published=True)
    client = _client()
    client.cookies["django_language"] = "fr"
    page = client.get(f"/seasons/{season.slug}/").content.decode()
    assert "Le meilleur résultat de chaque joueur compte." in page
    assert "Résultats (ceux écartés sont barrés)" in page


def test_results_in_the_json_api_for_published_events_only(season):
    event = season.events.get(name="January")
    data = _client().get(f"/api/events/{event.slug}/results/").json()
    assert [(r["placing"], r["player"], r["wins"], r["losses"], r["points"]) for r in data["results"]] == [
        (1, "Anne", 1, 0, 3),
        (1, "Dora", 1, 0, 3),
        (3, "Bob", 0, 1, 0),
        (3, "Carl", 0, 1, 0),
    ]
    assert "@example.org" not in str(data)
    type(event).objects.filter(pk=event.pk).update(published=False)
    assert _client().get(f"/api/events/{event.slug}/results/").status_code == 404


def _season_of(size: int, prefix: str):
    """A published season of two events of ``size`` players each (the same players, one round each)
    and one confirmed league game per pair of players."""
    organiser = make_user(f"{prefix}orga")
    players = [make_user(f"{prefix}{n}") for n in range(size)]
    events = [
        _played_event(
            organiser,
            players,
            (["a", "b", "draw"] * size)[: size // 2],
            day=datetime.date(2026, m, 1),
            name=f"{prefix}{m}",
        )
        for m in (3, 4)
    ]
    season = Season.objects.create(
        organiser=organiser, name=f"S{prefix}", edition=events[0].edition, published=True, reports_open=True
    )
    season.events.set(events)
    LeagueGame.objects.bulk_create(
        LeagueGame(
            season=season, player_a=a, player_b=b, outcome="a", played_on=datetime.date(2026, 3, 5), confirmed=True
        )
        for a, b in zip(players[::2], players[1::2], strict=True)
    )
    return season, events[0], players[0], organiser


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


def test_season_player_and_export_queries_are_the_same_for_16_and_200_players():
    counts = []
    for size, prefix in ((16, "s"), (200, "l")):
        season, event, player, organiser = _season_of(size, prefix)
        assert len(_client().get(f"/api/seasons/{season.slug}/").json()["standings"]) == size
        urls = [
            f"/seasons/{season.slug}/",
            f"/api/seasons/{season.slug}/",
            f"/events/{event.slug}/results.csv",
            f"/api/events/{event.slug}/results/",
            f"/players/{player.username}/",
        ]
        counts.append([[_queries(_client(user), url) for url in urls] for user in (None, player, organiser)])
    assert counts[0] == counts[1]


# -- An event whose organiser hides its standings until the prize-giving gives no placing away here --

HIDDEN = "The organiser is keeping the standings hidden until the prize-giving."


def _hide_january(season) -> Event:
    january = season.events.get(name="January")
    Event.objects.filter(pk=january.pk).update(standings_hidden=True)
    return january


@pytest.mark.parametrize("role", ["player", "other", "anonymous"])
def test_the_results_csv_is_refused_in_words_but_to_the_organiser(season, role):
    january = _hide_january(season)
    user = {"player": january.entrants.get(user__username="anne").user, "other": make_user(), "anonymous": None}[role]
    response = _client(user).get(f"/events/{january.slug}/results.csv")
    assert response.status_code == 403
    assert response.content.decode() == HIDDEN
    response = _client(season.organiser).get(f"/events/{january.slug}/results.csv")
    assert response.status_code == 200
    assert response.content.decode().splitlines()[1].startswith("1,Anne,")


def test_the_results_api_says_hidden_and_gives_no_place(season):
    january = _hide_january(season)
    assert _client().get(f"/api/events/{january.slug}/results/").json() == {
        "slug": january.slug,
        "hidden": True,
        "results": [],
    }
    Event.objects.filter(pk=january.pk).update(standings_hidden=False)
    data = _client().get(f"/api/events/{january.slug}/results/").json()
    assert data["hidden"] is False and data["results"][0]["player"] == "Anne"


def test_a_players_page_shows_no_placing_of_a_hidden_event_but_to_its_organiser(season):
    # Anne beat Bob in January (1st, 1/0/0) and drew him in February (0/1/0).
    _hide_january(season)
    page = _client().get("/players/anne/").content.decode()
    assert "January" in page and "0/1/0" in page and "1/0/0" not in page
    assert "1/0/0" in _client(season.organiser).get("/players/anne/").content.decode()


def test_a_season_counts_a_hidden_event_once_its_standings_are_shown(season):
    Season.objects.filter(pk=season.pk).update(published=True)
    january = _hide_january(season)
    data = _client().get(f"/api/seasons/{season.slug}/").json()
    # February alone: Anne and Bob drew, both 1st of 2.
    assert {row["player"]: (row["place"], row["total"]) for row in data["standings"]} == {
        "Anne": (1, 100),
        "Bob": (1, 100),
    }
    page = _client().get(f"/seasons/{season.slug}/").content.decode()
    assert "standings hidden until the prize-giving: not counted yet" in page
    Event.objects.filter(pk=january.pk).update(standings_hidden=False)
    data = _client().get(f"/api/seasons/{season.slug}/").json()
    assert {row["player"] for row in data["standings"]} == {"Anne", "Bob", "Carl", "Dora"}


def test_the_players_page_lists_their_games_at_each_event(season):
    # Anne beat Bob in January's round 1 and drew him in February's; Carl's January game against Dora
    # waits for a counted result; a walk-in Anne meets in March's round 2 after a bye in round 1.
    january = season.events.get(name="January")
    Result.objects.filter(pairing__round__event=january, pairing__player_a__user__username="carl").update(
        confirmed=False
    )
    march = make_event(season.organiser, name="March", date=datetime.date(2026, 3, 14), published=True)
    anne = make_entrant(march, january.entrants.get(user__username="anne").user)
    walter = Entrant.objects.create(event=march, walk_in_name="Walter")
    first = Round.objects.create(event=march, number=1, published=True)
    Pairing.objects.create(round=first, table=1, player_a=anne, player_b=None, position=1)
    second = Round.objects.create(event=march, number=2, published=True)
    pairing = Pairing.objects.create(round=second, table=1, player_a=walter, player_b=anne, position=1)
    Result.objects.create(pairing=pairing, outcome="a", confirmed=True)
    draft = Round.objects.create(event=march, number=3, published=False)
    Pairing.objects.create(round=draft, table=1, player_a=anne, player_b=walter, position=1)

    def games(page: str, event: str) -> list[str]:
        row = page.split(f">{event}</a>")[1].split("</tr>")[0]
        cell = row.split('<ol class="event-games">')[1].split("</ol>")[0]
        return [item.split("</li>")[0] for item in cell.split("<li>")[1:]]

    page = _client().get("/players/anne/").content.decode()
    assert games(page, "January") == ["Round 1 · won against Bob"]
    assert games(page, "February") == ["Round 1 · drew with Bob"]
    assert games(page, "March") == ["Round 1 · bye", "Round 2 · lost to Walter"]  # not the draft's round 3
    assert games(_client().get("/players/carl/").content.decode(), "January") == [
        "Round 1 · against Dora, no result yet"
    ]
    client = _client()
    client.cookies["django_language"] = "fr"
    french = client.get("/players/anne/").content.decode()
    assert games(french, "March") == ["Ronde 1 · exempt", "Ronde 2 · a perdu contre Walter"]


def test_the_season_page_answers_htmx_with_its_standings_alone(season):
    Season.objects.filter(pk=season.pk).update(published=True)
    response = _client().get(f"/seasons/{season.slug}/", headers={"HX-Request": "true"})
    text = response.content.decode()
    assert response.status_code == 200 and "HX-Request" in response["Vary"]
    assert text.lstrip().startswith('<div id="season-standings"') and "<html" not in text
    assert 'hx-trigger="every 60s"' in text and '<del class="dropped"' in text
    page = _client().get(f"/seasons/{season.slug}/").content.decode()
    assert "<html" in page and 'id="season-standings"' in page
