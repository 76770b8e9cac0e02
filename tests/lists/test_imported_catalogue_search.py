"""The builder's catalogue reads and finds imported units as players say them.

A squad reads "Squad · 5–11 models"; "Commissar" finds the data's "Commisar", "Guards" the
"Guard Squad", "officer" every officer and "lieutenant" the lieutenants (the 3rd edition's
Platoon Commander among them), wherever the data's names leave the rank out.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from armybuilder.catalogue.models import Origin
from tests.lists.factories import make_army, make_edition, make_list, make_unit

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.fixture
def soviet_list(alice):
    army = make_army(edition=make_edition("v3"), name="Armies of the soviet union", origin=Origin.BATTLESCRIBE)
    units = {
        "squad": make_unit(army, name="Guard Squad", base_models=5, max_models=11),
        "smg": make_unit(army, name="Submachine Gun Squad", base_models=5, max_models=11),
        "commisar": make_unit(
            army, name="Commisar", unit_type="headquarters", slot="character", base_models=1, max_models=5
        ),
        "mmg": make_unit(
            army, name="Maxim MMG Team", unit_type="team", slot="machine_gun", base_models=3, max_models=3
        ),
    }
    for key, name, rank in (
        ("second", "Second Lieutenant", "second_lieutenant"),
        ("first", "First Lieutenant", "first_lieutenant"),
        ("captain", "Captain", "captain"),
        ("major", "Major", "major"),
        ("platoon", "Platoon Commander", "platoon_commander"),
    ):
        units[key] = make_unit(
            army, name=name, unit_type="headquarters", slot="officer", officer_rank=rank, base_models=1, max_models=3
        )
    return make_list(alice, army, name="Red Guards"), units


def _found(client, army_list, query: str) -> set[int]:
    response = client.get(f"/lists/{army_list.pk}/catalogue/", {"q": query}, headers=HX)
    assert response.status_code == 200
    return {int(pk) for pk in re.findall(r'id="add-unit-(\d+)"', response.text)}


def _pks(units, *keys: str) -> set[int]:
    return {units[key].pk for key in keys}


def test_a_squad_reads_as_a_squad_and_a_team_as_a_team(alice_client, soviet_list):
    army_list, _units = soviet_list
    page = alice_client.get(f"/lists/{army_list.pk}/").text
    facts = re.findall(r'<span class="catalogue-facts">([^<]*)</span>', page)
    assert "Squad · 5–11 models" in facts
    assert "Team · 3 models" in facts
    with translation.override("fr"):
        page = alice_client.get(f"/lists/{army_list.pk}/", headers={"Accept-Language": "fr"}).text
    facts = re.findall(r'<span class="catalogue-facts">([^<]*)</span>', page)
    assert "Escouade · 5 à 11 figurines" in facts


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Commissar", ("commisar",)),
        ("commissaire", ("commisar",)),  # the glossary's French for the data's name
        ("Guards", ("squad",)),
        ("guard", ("squad",)),
        ("officer", ("second", "first", "captain", "major", "platoon")),
        ("officier", ("second", "first", "captain", "major", "platoon")),
        ("lieutenant", ("second", "first", "platoon")),
        ("captain", ("captain",)),
        ("squads", ("squad", "smg")),
    ],
)
def test_the_search_finds_imported_units_by_players_words(alice_client, soviet_list, query, expected):
    army_list, units = soviet_list
    assert _found(alice_client, army_list, query) == _pks(units, *expected)


def test_a_unit_named_so_comes_before_one_found_by_its_rank(alice_client, soviet_list):
    army_list, units = soviet_list
    response = alice_client.get(f"/lists/{army_list.pk}/catalogue/", {"q": "lieutenant"}, headers=HX)
    order = [int(pk) for pk in re.findall(r'id="add-unit-(\d+)"', response.text)]
    assert order[-1] == units["platoon"].pk
