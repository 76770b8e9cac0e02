"""League games: players of a season report games between themselves, the opponent confirms, the
organiser enters or deletes any; the games score in the standings, are rated, and show on the pages."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from armybuilder.leagues import views
from armybuilder.leagues.models import LeagueGame, RatingStep, Season
from tests.leagues.test_views import _played_event
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_edition, make_user

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
LAST_WEEK = TODAY - datetime.timedelta(days=7)


@pytest.fixture
def club():
    organiser = make_user("orga", first_name="Olga")
    players = {n: make_user(n, first_name=n.title()) for n in ("anne", "bob", "carl", "dora")}
    season = Season.objects.create(
        organiser=organiser, name="Club league", edition=make_edition("v3"), published=True, reports_open=True
    )
    return {"season": season, "organiser": organiser, **players}


def _report(club, user, **changes):
    data = {"opponent": "bob", "result": "win", "played_on": LAST_WEEK.isoformat(), "mission": "", "turns": ""}
    data.update(changes)
    return _client(user).post(f"/seasons/{club['season'].slug}/games/", data)


def _page(club, user=None):
    return _client(user).get(f"/seasons/{club['season'].slug}/").content.decode()


def _game(club, a, b, outcome="a", *, day=LAST_WEEK, confirmed=False, reported_by=None):
    return LeagueGame.objects.create(
        season=club["season"],
        player_a=club[a],
        player_b=club[b],
        outcome=outcome,
        played_on=day,
        confirmed=confirmed,
        reported_by=reported_by or club[a],
    )


def test_a_player_reports_a_game_and_it_waits_for_the_opponent(club):
    response = _report(club, club["anne"], mission="Hold until relieved", turns="6")
    assert response.status_code == 302 and response["Location"].endswith("#league-games")
    game = LeagueGame.objects.get()
    assert (game.player_a, game.player_b, game.outcome, game.played_on, game.mission, game.turns) == (
        club["anne"],
        club["bob"],
        "a",
        LAST_WEEK,
        "Hold until relieved",
        6,
    )
    assert (game.reported_by, game.confirmed, game.by_organiser) == (club["anne"], False, False)
    page = response.client.get(response["Location"]).content.decode()
    assert "The game is reported: it counts once Bob confirms it." in page
    assert "Anne beat Bob" in page and "Waiting for Bob to confirm." in page and "6 turns" in page
    # Waiting, it does not count: nobody is in the standings yet.
    assert "No result in this season yet." in page


@pytest.mark.parametrize(
    ("role", "confirm", "withdraw", "form"),
    [
        ("anne", False, "Withdraw", True),  # the reporter
        ("bob", True, "Dispute", True),  # the opponent
        ("orga", False, "Delete", True),  # the organiser (the form names both players)
        ("carl", False, None, True),  # another player of the club
        (None, False, None, False),  # anonymous
    ],
)
def test_who_sees_which_buttons_on_a_waiting_game(club, role, confirm, withdraw, form):
    _game(club, "anne", "bob")
    page = _page(club, club["organiser" if role == "orga" else role] if role else None)
    assert "Anne beat Bob" in page
    assert ("/confirm/" in page) is confirm
    for word in ("Withdraw", "Dispute", "Delete"):
        assert (f">{word}</button>" in page) is (word == withdraw)
    assert ('name="opponent"' in page) is form
    assert ('name="player"' in page) is (role == "orga")


def test_the_opponent_confirms_and_the_game_counts(club):
    game = _game(club, "anne", "bob")
    response = _client(club["bob"]).post(f"/seasons/{club['season'].slug}/games/{game.pk}/confirm/")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.confirmed and game.counts
    page = response.client.get(response["Location"]).content.decode()
    assert "The game is confirmed: it counts in the standings." in page
    # A league without events: no column of event results, the league's instead.
    assert "Results (dropped ones struck through)" not in page and "League games (W/D/L)" in page
    data = _client().get(f"/api/seasons/{club['season'].slug}/").json()
    assert [(r["place"], r["player"], r["total"], r["league"]) for r in data["standings"]] == [
        (1, "Anne", 3, {"wins": 1, "draws": 0, "losses": 0, "points": 3}),
        (2, "Bob", 0, {"wins": 0, "draws": 0, "losses": 1, "points": 0}),
    ]


@pytest.mark.parametrize("role", ["anne", "carl", "orga"])
def test_only_the_opponent_confirms(club, role):
    game = _game(club, "anne", "bob")
    user = club["organiser" if role == "orga" else role]
    response = _client(user).post(f"/seasons/{club['season'].slug}/games/{game.pk}/confirm/")
    assert response.status_code == 404
    game.refresh_from_db()
    assert not game.confirmed


def test_anonymous_visitors_are_sent_to_sign_in_and_change_nothing(club):
    game = _game(club, "anne", "bob")
    slug = club["season"].slug
    for url in (f"/seasons/{slug}/games/", f"/seasons/{slug}/games/{game.pk}/confirm/"):
        response = _client().post(url, {"opponent": "carl", "result": "win", "played_on": LAST_WEEK.isoformat()})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert _client().post(f"/seasons/{slug}/games/{game.pk}/withdraw/").status_code == 302
    assert LeagueGame.objects.filter(confirmed=False).count() == 1


@pytest.mark.parametrize("role", ["anne", "bob"])
def test_either_player_withdraws_a_waiting_game(club, role):
    game = _game(club, "anne", "bob")
    response = _client(club[role]).post(f"/seasons/{club['season'].slug}/games/{game.pk}/withdraw/")
    assert response.status_code == 302
    assert not LeagueGame.objects.exists()
    assert "The game is withdrawn: it does not count." in response.client.get(response["Location"]).content.decode()


def test_another_player_withdraws_nothing_and_a_confirmed_game_is_the_organisers_to_delete(club):
    waiting = _game(club, "anne", "bob")
    confirmed = _game(club, "carl", "dora", confirmed=True)
    slug = club["season"].slug
    assert _client(club["carl"]).post(f"/seasons/{slug}/games/{waiting.pk}/withdraw/").status_code == 404
    assert _client(club["carl"]).post(f"/seasons/{slug}/games/{confirmed.pk}/withdraw/").status_code == 404
    assert _client(club["dora"]).post(f"/seasons/{slug}/games/{confirmed.pk}/withdraw/").status_code == 404
    assert LeagueGame.objects.count() == 2
    assert _client(club["organiser"]).post(f"/seasons/{slug}/games/{confirmed.pk}/withdraw/").status_code == 302
    assert list(LeagueGame.objects.all()) == [waiting]


def test_a_game_of_another_season_is_not_reached_through_this_one(club):
    other = Season.objects.create(organiser=club["anne"], name="Other", edition=club["season"].edition)
    game = _game(club, "anne", "bob")
    response = _client(club["bob"]).post(f"/seasons/{other.slug}/games/{game.pk}/confirm/")
    assert response.status_code == 404


def test_the_organiser_enters_a_game_that_counts_at_once(club):
    response = _report(club, club["organiser"], player="carl", opponent="dora", result="draw")
    assert response.status_code == 302
    game = LeagueGame.objects.get()
    assert (game.player_a, game.player_b, game.outcome, game.by_organiser, game.counts) == (
        club["carl"],
        club["dora"],
        "draw",
        True,
        True,
    )
    page = response.client.get(response["Location"]).content.decode()
    assert "The game is entered: it counts in the standings." in page and "Carl and Dora drew" in page
    # Left empty, the first player is the organiser.
    _report(club, club["organiser"], player="", opponent="anne", result="loss")
    game = LeagueGame.objects.get(player_b=club["anne"])
    assert (game.player_a, game.outcome) == (club["organiser"], "b")


def _refused(response, words):
    assert response.status_code == 400
    page = response.content.decode()
    assert words in page
    assert not LeagueGame.objects.exists()
    return page


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"opponent": "anne"}, "You cannot report a game against yourself."),
        ({"opponent": "ANNE"}, "You cannot report a game against yourself."),
        ({"opponent": "nobody"}, "No player has the username “nobody”."),
        ({"opponent": ""}, "This field is required."),
        ({"result": "crushed"}, "Select a valid choice."),
        ({"played_on": "yesterday"}, "Enter a valid date."),
        ({"played_on": (TODAY + datetime.timedelta(days=2)).isoformat()}, "for a day still to come"),
        ({"played_on": "2001-01-01"}, "This season takes games played from"),
        ({"turns": "40"}, "Ensure this value is less than or equal to 12."),
    ],
)
def test_a_report_is_refused_in_words_and_what_was_typed_is_kept(club, changes, words):
    page = _refused(_report(club, club["anne"], **changes), words)
    if changes.get("opponent") not in (None, ""):
        assert f'value="{changes["opponent"]}"' in page


def test_a_closed_or_unpublished_season_takes_no_report_from_players(club):
    Season.objects.filter(pk=club["season"].pk).update(reports_open=False)
    _refused(_report(club, club["anne"]), "This season takes no reported games: ask its organiser.")
    assert 'name="opponent"' not in _page(club, club["anne"])
    Season.objects.filter(pk=club["season"].pk).update(reports_open=True, published=False)
    # An unpublished season is its organiser's only: a player does not even find it.
    assert _report(club, club["anne"]).status_code == 404
    # Its organiser still enters games while preparing it.
    assert _report(club, club["organiser"], player="anne").status_code == 302


def test_the_same_waiting_game_is_not_reported_twice(club):
    assert _report(club, club["anne"]).status_code == 302
    _game_count = LeagueGame.objects.count()
    response = _report(club, club["anne"])
    assert (
        response.status_code == 400 and "already reported and waits for its confirmation" in response.content.decode()
    )
    # Nor by the opponent from their side.
    response = _report(club, club["bob"], opponent="anne", result="loss")
    assert response.status_code == 400
    assert LeagueGame.objects.count() == _game_count == 1
    # A second game that day with another result is a new game; so is the same once confirmed.
    assert _report(club, club["anne"], result="draw").status_code == 302
    LeagueGame.objects.update(confirmed=True)
    assert _report(club, club["anne"]).status_code == 302
    assert LeagueGame.objects.count() == 3


def test_the_organiser_is_refused_a_game_of_one_player(club):
    _refused(_report(club, club["organiser"], player="bob", opponent="bob"), "A game needs two different players.")
    _refused(_report(club, club["organiser"], player="zed", opponent="bob"), "No player has the username “zed”.")


def test_an_account_reports_a_bounded_number_of_games_a_day(club, monkeypatch):
    monkeypatch.setattr(views, "GAMES_PER_DAY", 1)
    assert _report(club, club["anne"]).status_code == 302
    response = _report(club, club["anne"], opponent="carl")
    assert response.status_code == 429
    assert "You have reported 1 games in the last 24 hours" in response.content.decode()
    assert LeagueGame.objects.count() == 1


def test_standings_add_league_points_to_event_points(club):
    anne, bob, carl, dora = (club[n] for n in ("anne", "bob", "carl", "dora"))
    # January: Anne beat Bob, Dora beat Carl: Anne and Dora share 1st of 4 (100), Bob and Carl 3rd (50).
    january = _played_event(club["organiser"], [anne, bob, carl, dora], ["a", "b"], day=LAST_WEEK, name="January")
    club["season"].events.set([january])
    _game(club, "anne", "carl", "a", confirmed=True)  # Anne +3
    _game(club, "bob", "dora", "draw", confirmed=True)  # Bob +1, Dora +1
    _game(club, "carl", "anne", "a")  # waiting: does not count
    data = _client().get(f"/api/seasons/{club['season'].slug}/").json()
    assert [(r["place"], r["player"], r["total"], r["league"]["points"]) for r in data["standings"]] == [
        (1, "Anne", 103, 3),
        (2, "Dora", 101, 1),
        (3, "Bob", 51, 1),
        (4, "Carl", 50, 0),
    ]
    assert data["rules"]["league_points"] == {"win": 3, "draw": 1, "loss": 0}
    assert sorted((g["player_a"], g["player_b"], g["outcome"]) for g in data["league_games"]) == [
        ("Anne", "Carl", "a"),
        ("Bob", "Dora", "draw"),
    ]
    assert "@" not in str(data)
    page = _page(club)
    assert "League games (W/D/L)" in page and "103" in page


def test_the_seasons_own_points_per_game(club):
    Season.objects.filter(pk=club["season"].pk).update(points_win=2, points_draw=1, points_loss=1)
    _game(club, "anne", "bob", "a", confirmed=True)
    _game(club, "anne", "bob", "draw", confirmed=True)
    data = _client().get(f"/api/seasons/{club['season'].slug}/").json()
    assert [(r["player"], r["total"]) for r in data["standings"]] == [("Anne", 3), ("Bob", 2)]


def test_ratings_count_confirmed_league_games_with_event_games(club, capsys):
    anne, bob = club["anne"], club["bob"]
    day = datetime.date(2026, 1, 10)
    _played_event(club["organiser"], [anne, bob], ["a"], day=day, name="January")
    _game(club, "anne", "bob", "a", day=day, confirmed=True)
    _game(club, "bob", "anne", "a", day=day)  # waiting: not rated
    unpublished = Season.objects.create(organiser=club["organiser"], name="Draft", edition=club["season"].edition)
    LeagueGame.objects.create(
        season=unpublished, player_a=bob, player_b=anne, outcome="a", played_on=day, confirmed=True
    )
    call_command("recompute_ratings")
    assert "bolt-action/v3: 2 games, 2 players, ratings sum 3000.00" in capsys.readouterr().out
    # Both games of 10 January are rated from 1500 each: Anne +16 twice.
    assert list(RatingStep.objects.filter(user=anne).values_list("rating", "games")) == [(Decimal("1532.00"), 2)]


def _enter(season, games):
    for a, b, outcome, day in games:
        LeagueGame.objects.create(season=season, player_a=a, player_b=b, outcome=outcome, played_on=day, confirmed=True)


def test_the_same_league_games_give_the_same_ratings_in_any_order_of_entry(club, capsys):
    anne, bob, carl, dora = (club[n] for n in ("anne", "bob", "carl", "dora"))
    d1, d2, d3 = (datetime.date(2026, 3, d) for d in (1, 8, 15))
    games = [
        (anne, bob, "a", d1),
        (carl, dora, "draw", d1),
        (anne, carl, "b", d2),
        (bob, dora, "a", d2),
        (dora, anne, "a", d3),
        (bob, carl, "draw", d3),
        (anne, bob, "a", d3),
    ]
    results = []
    for order in (games, games[::-1], games[3:] + games[:3]):
        LeagueGame.objects.all().delete()
        _enter(club["season"], order)
        call_command("recompute_ratings")
        out = capsys.readouterr().out
        steps = list(RatingStep.objects.order_by("user_id", "date").values_list("user_id", "date", "rating", "change"))
        results.append((out, steps))
    assert results[0] == results[1] == results[2]
    assert "bolt-action/v3: 7 games, 4 players, ratings sum 6000.00" in results[0][0]


def test_the_players_page_lists_their_league_games(club):
    _game(club, "anne", "bob", "a", confirmed=True)
    _game(club, "carl", "anne", "draw")
    page = _client().get("/players/anne/").content.decode()
    assert "won against Bob" in page and "drew with Carl" in page and "waiting for confirmation" in page
    assert "Club league" in page
    bob = _client().get("/players/bob/").content.decode()
    assert "lost to Anne" in bob
    # A game of an unpublished season is its organiser's business only.
    Season.objects.filter(pk=club["season"].pk).update(published=False)
    assert "won against Bob" not in _client().get("/players/anne/").content.decode()
    assert "No league game yet." in _client().get("/players/anne/").content.decode()


def test_the_season_page_costs_the_same_queries_with_more_games():
    counts = []
    for n in (2, 20):
        organiser = make_user()
        season = Season.objects.create(
            organiser=organiser, name=f"S{n}", edition=make_edition("v3"), published=True, reports_open=True
        )
        players = [make_user() for _ in range(n)]
        for i in range(n):
            a, b = players[i], players[(i + 1) % n]
            LeagueGame.objects.create(
                season=season, player_a=a, player_b=b, outcome="a", played_on=LAST_WEEK, confirmed=i % 2 == 0
            )
        for user in (None, players[1], organiser):
            with CaptureQueriesContext(connection) as page:
                assert _client(user).get(f"/seasons/{season.slug}/").status_code == 200
            with CaptureQueriesContext(connection) as api:
                assert _client(user).get(f"/api/seasons/{season.slug}/").status_code == 200
            counts.append((n, len(page), len(api)))
    assert [c[1:] for c in counts[:3]] == [c[1:] for c in counts[3:]]


def test_the_organiser_sets_the_league_in_the_season_form(club):
    season = club["season"]
    data = {
        "name": "Club league",
        "edition": season.edition.pk,
        "minimum_events": "1",
        "points_scale": "100",
        "reports_open": "on",
        "points_win": "2",
        "points_draw": "1",
        "points_loss": "0",
        "published": "on",
    }
    client = _client(club["organiser"])
    assert client.post(f"/seasons/{season.slug}/edit/", data).status_code == 302
    season.refresh_from_db()
    assert (season.reports_open, season.points_win, season.points_draw, season.points_loss) == (True, 2, 1, 0)
    response = client.post(f"/seasons/{season.slug}/edit/", {**data, "points_draw": "5"})
    assert response.status_code == 400
    assert response.content.decode().count("A win scores at least a draw, and a draw at least a loss.") == 1
    # Left out, the points are the usual 3/1/0.
    data = {k: v for k, v in data.items() if not k.startswith("points_") or k == "points_scale"}
    assert client.post(f"/seasons/{season.slug}/edit/", data).status_code == 302
    season.refresh_from_db()
    assert (season.points_win, season.points_draw, season.points_loss) == (3, 1, 0)
    # The database holds the order too (the admin, a script).
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.filter(pk=season.pk).update(points_win=0, points_draw=1)


def test_the_league_in_french(club):
    _game(club, "anne", "bob", "a")
    client = _client(club["bob"])
    client.cookies["django_language"] = "fr"
    page = client.get(f"/seasons/{club['season'].slug}/").content.decode()
    assert "Parties de ligue" in page and "Anne a battu Bob" in page
    assert "En attente de la confirmation de Bob." in page
    # The date input's value is ISO in any language (a browser's date input reads no other).
    assert f'name="played_on" value="{timezone.localdate().isoformat()}"' in page
    assert ">Confirmer</button>" in page and ">Contester</button>" in page and "Déclarer la partie" in page
    response = client.post(f"/seasons/{club['season'].slug}/games/", {"opponent": "bob", "result": "win"})
    assert "Vous ne pouvez pas déclarer une partie contre vous-même." in response.content.decode()
