"""The shooting API takes the firer's and the target's national rules and says which it applied."""

from __future__ import annotations

import pytest

from tests.resolver.factories import make_weapon
from tests.resolver.test_api import post, shooting_body

pytestmark = pytest.mark.django_db

MMG = [{"weapon": "mmg", "models": 1, "range": "normal"}]


@pytest.fixture
def mmg(charts):
    return make_weapon(charts["v2"]["rifle"].edition, "mmg", name="MMG", range_max=36, shots="5")


def test_a_german_mmg_rolls_six_dice_and_the_answer_names_the_rule(client, mmg):
    body = shooting_body(groups=MMG, firer={"quality": "regular", "pins": 0, "army": "germany"})
    data = post(client, "/api/resolve/shooting/", body).json()
    assert data["groups"][0]["dice"]["pmf"] == {"6": "1"}
    assert data["national_rules"] == [
        {"rule": "hitler-s-buzzsaw", "name": "Hitler's Buzzsaw", "change": "shot", "group": 0}
    ]
    plain = post(client, "/api/resolve/shooting/", shooting_body(groups=MMG)).json()
    assert plain["groups"][0]["dice"]["pmf"] == {"5": "1"} and plain["national_rules"] == []


def test_a_soviet_target_and_an_italian_large_squad(client, charts):
    target = {"kind": "infantry", "quality": "regular", "models": 2, "cover": "none", "army": "soviet-union"}
    body = shooting_body(
        groups=[{"weapon": "rifle", "models": 14, "range": "normal"}],
        firer={"quality": "regular", "pins": 0, "army": "italy"},
        target=target,
    )
    data = post(client, "/api/resolve/shooting/", body).json()
    assert [(r["rule"], r["group"]) for r in data["national_rules"]] == [
        ("large-squads", None),
        ("the-great-patriotic-war", None),
    ]
    assert "2" in data["pins"]["pmf"]


@pytest.mark.parametrize(
    ("firer", "target", "field"),
    [
        ({"army": "narnia"}, {}, "firer.army"),
        ({"gyro": "yes"}, {}, "firer.gyro"),
        ({}, {"army": "germany"}, "target.army"),
    ],
)
def test_it_refuses_an_unknown_army_by_field(client, charts, firer, target, field):
    body = shooting_body(firer={"quality": "regular", "pins": 0, **firer})
    body["target"].update(target)
    response = post(client, "/api/resolve/shooting/", body)
    assert (response.status_code, response.json()["field"]) == (400, field)
