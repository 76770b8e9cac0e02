"""GET /api/lists/<share-token>/: a shared list's summary as JSON."""

from __future__ import annotations

import pytest

from tests.lists.factories import make_army, make_edition, make_entry, make_list, make_option, make_unit


def _list():
    army = make_army(edition=make_edition("v2"), slug="germany", name="Germany")
    officer = make_unit(
        army=army,
        slug="leutnant",
        name="Leutnant",
        slot="officer",
        unit_type="headquarters",
        officer_rank="second_lieutenant",
        base_models=1,
        max_models=3,
    )
    squad = make_unit(army=army, slug="grenadiers", name="Grenadiers")
    mg = make_option(squad, slug="mg42", name="MG42", cost_regular=20)
    army_list = make_list(army=army, name="Kampfgruppe", points_limit=400)
    make_entry(army_list, officer, models_count=1, position=0)
    make_entry(army_list, squad, name="Gruppe Müller", models_count=6, options={mg.slug: 1}, position=1)
    return army_list


@pytest.mark.django_db
def test_it_returns_the_summary_keys(client):
    data = client.get(f"/api/lists/{_list().share_token}/").json()
    assert set(data) == {
        "name",
        "edition",
        "army",
        "points",
        "points_limit",
        "order_dice",
        "officers",
        "problems",
        "units",
    }


@pytest.mark.django_db
def test_it_describes_the_list(client):
    data = client.get(f"/api/lists/{_list().share_token}/").json()
    assert (data["name"], data["edition"], data["army"], data["points_limit"]) == ("Kampfgruppe", "v2", "germany", 400)
    assert data["points"] == sum(unit["points"] for unit in data["units"])
    assert data["order_dice"] == 2


@pytest.mark.django_db
def test_it_describes_each_unit(client):
    data = client.get(f"/api/lists/{_list().share_token}/").json()
    assert data["units"][1] == {
        "name": "Gruppe Müller",
        "unit": "grenadiers",
        "quality": "regular",
        "models": 6,
        "options": {"mg42": 1},
        "points": 80,
    }


@pytest.mark.django_db
def test_it_describes_the_officers(client):
    data = client.get(f"/api/lists/{_list().share_token}/").json()
    assert data["officers"] == [
        {"name": "Leutnant", "rank": "second_lieutenant", "morale_bonus": 1, "extra_orders": 1, "command_range": 6}
    ]


@pytest.mark.django_db
def test_it_lists_problems_as_sentences(client):
    army_list = _list()
    army_list.points_limit = 50
    army_list.save(update_fields=["points_limit"])
    data = client.get(f"/api/lists/{army_list.share_token}/").json()
    assert data["problems"]
    assert all(isinstance(problem, str) and problem.endswith(".") for problem in data["problems"])


@pytest.mark.django_db
def test_it_answers_json_404_for_an_unknown_token(client):
    response = client.get("/api/lists/no-such-token/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert "error" in response.json()


@pytest.mark.django_db
def test_it_refuses_to_change_a_list_through_the_api(client):
    assert client.post(f"/api/lists/{_list().share_token}/").status_code == 405
