"""The read-only reference JSON, through the client with literal URLs."""

from __future__ import annotations

import pytest

from tests.reference.factories import make_two_editions

pytestmark = pytest.mark.django_db


@pytest.fixture
def ref():
    return make_two_editions()


def weapon(data: list[dict], slug: str) -> dict:
    (found,) = [item for item in data if item["slug"] == slug]
    return found


def test_it_lists_the_editions(client, ref):
    data = client.get("/api/editions/").json()
    assert [(e["slug"], e["number"], e["name"]) for e in data] == [("v2", 2, "2nd edition"), ("v3", 3, "3rd edition")]


def test_it_lists_each_edition_tables_and_links(client, ref):
    v3 = client.get("/api/editions/").json()[1]
    assert v3["tables"] == ["orders", "vehicle-damage"]
    assert v3["links"]["weapons"] == "/api/editions/v3/weapons/"
    assert v3["links"]["tables"]["orders"] == "/api/editions/v3/orders/"


def test_it_shows_one_edition(client, ref):
    data = client.get("/api/editions/v2/").json()
    assert data["slug"] == "v2" and data["tables"] == ["orders"]


def test_it_returns_a_table_with_columns_and_rows(client, ref):
    data = client.get("/api/editions/v3/orders/").json()
    assert (data["edition"], data["table"], data["title"]) == ("v3", "orders", "Orders")
    assert data["columns"] == ["order", "summary"]
    assert len(data["rows"]) == 3


def test_it_gives_each_row_its_cells_source_status_and_note(client, ref):
    rally = client.get("/api/editions/v3/orders/").json()["rows"][2]
    assert rally == {
        "order": "Rally",
        "summary": "Remove D6 pins",
        "source": "seed 002",
        "status": "unverified",
        "note": "Wording differs",
    }


def test_it_adds_french_cells_where_there_are_some(client, ref):
    fire = client.get("/api/editions/v3/orders/").json()["rows"][0]
    assert fire["order"] == "Fire"
    assert fire["cells_fr"] == {"order": "Feu"}


def test_it_returns_the_weapons_chart_as_a_list(client, ref):
    data = client.get("/api/editions/v3/weapons/").json()
    assert sorted(w["slug"] for w in data) == ["assault-rifle", "hmg", "light-mortar", "mmg", "rifle"]


def test_it_describes_a_weapon(client, ref):
    hmg = weapon(client.get("/api/editions/v3/weapons/").json(), "hmg")
    assert hmg == {
        "name": "HMG",
        "slug": "hmg",
        "category": "heavy",
        "range": 48,
        "shots": "6",
        "pen": 1,
        "special_rules": ["Fixed", "Team"],
        "source": "seed 002",
        "status": "confirmed",
        "note": "",
    }


def test_it_gives_he_weapons_pen_he_a_template_and_a_minimum_range(client, ref):
    mortar = weapon(client.get("/api/editions/v2/weapons/").json(), "light-mortar")
    assert (mortar["pen"], mortar["he_size"], mortar["min_range"]) == ("HE", 1, 6)


def test_it_leaves_out_min_range_and_he_size_where_there_are_none(client, ref):
    rifle = weapon(client.get("/api/editions/v2/weapons/").json(), "rifle")
    assert "min_range" not in rifle and "he_size" not in rifle


def test_it_404s_for_an_unknown_edition(client, ref):
    response = client.get("/api/editions/v9/orders/")
    assert response.status_code == 404
    assert "error" in response.json()


def test_it_404s_for_an_unknown_table(client, ref):
    response = client.get("/api/editions/v2/vehicle-damage/")
    assert response.status_code == 404
    assert "vehicle-damage" in response.json()["error"]


def test_it_404s_weapons_for_an_unknown_edition(client, ref):
    response = client.get("/api/editions/v9/weapons/")
    assert response.status_code == 404
    assert "error" in response.json()


def test_it_is_read_only(client, ref):
    assert client.post("/api/editions/v2/orders/").status_code == 405
