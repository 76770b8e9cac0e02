"""Game day says a vehicle's damage value beside its models, as the builder and the cards do: the
data's value, a soft-skin's 6+ when an import gives none, and nothing for men and guns."""

from __future__ import annotations

import re

import pytest

from tests.games.test_fanatics import _game, _units
from tests.lists.factories import make_builder_list, make_entry, make_unit, make_user

pytestmark = pytest.mark.django_db


def unit_head(html: str, key: str) -> str:
    match = re.search(rf'id="u-{key}">\s*<div class="unit-head">(.*?)</div>', html, re.S)
    assert match, f"no unit {key}"
    return match.group(1)


def test_each_vehicle_shows_its_damage_value_and_men_show_none(client):
    alice = make_user("alice")
    client.force_login(alice)
    army_list = make_builder_list(alice, entries=1)
    army = army_list.army
    vehicle = {"base_models": 1, "max_models": 1}
    make_entry(army_list, make_unit(army, name="T-34/85", unit_type="vehicle_armoured", damage_value=9, **vehicle))
    # An imported soft-skin whose data gave no damage value: 6+ by the rules.
    truck = make_unit(army, name="ZiS-5 truck", unit_type="vehicle_soft", source="battlescribe", **vehicle)
    make_entry(army_list, truck)
    game = _game(client, army_list)
    units = _units(game)
    assert (units["T-34/85"]["damage_value"], units["ZiS-5 truck"]["damage_value"]) == (9, 6)
    html = client.get(f"/games/{game.pk}/").text
    assert "1/1 models · Damage value 9+" in unit_head(html, units["T-34/85"]["key"])
    assert "Damage value 6+" in unit_head(html, units["ZiS-5 truck"]["key"])
    assert "Damage value" not in unit_head(html, units["Rifle Squad"]["key"])
    french = client.get(f"/games/{game.pk}/", headers={"Accept-Language": "fr"}).text
    assert "Valeur de dégâts 9+" in unit_head(french, units["T-34/85"]["key"])
