"""Turning weapons-chart rows and list entries into the calculator's inputs."""

from __future__ import annotations

import pytest

from armybuilder.catalogue.models import Option
from armybuilder.resolver.adapters import firer_from_entry, target_from_entry, to_rules_weapon
from tests.resolver.factories import make_entry, make_list, make_unit

pytestmark = pytest.mark.django_db


def test_it_reads_the_special_rules_into_flags(charts):
    weapon = to_rules_weapon(charts["v2"]["medium-at-gun"])
    assert (weapon.team, weapon.fixed, weapon.pen, weapon.he_size) == (True, True, 5, 1)


def test_it_marks_shaped_charges(charts):
    assert to_rules_weapon(charts["v2"]["panzerfaust"]).shaped_charge


def test_it_fires_each_weapon_of_a_team_once(charts):
    weapons = charts["v2"]
    team = make_unit(weapons["lmg"].edition, weapons=(weapons["medium-at-gun"],), unit_type="artillery")
    prefill = firer_from_entry(make_entry(make_list(), team, models_count=3))
    assert [(g.weapon, g.models) for g in prefill.groups] == [("medium-at-gun", 1)]


def test_it_moves_models_to_a_weapon_an_option_grants(charts):
    weapons = charts["v2"]
    unit = make_unit(weapons["rifle"].edition, weapons=(weapons["rifle"],))
    Option.objects.create(unit=unit, slug="smgs", name="SMGs", per_model=True, grants_weapon=weapons["smg"])
    entry = make_entry(make_list(), unit, models_count=8, options={"smgs": 3})
    assert [(g.weapon, g.models) for g in firer_from_entry(entry).groups] == [("rifle", 5), ("smg", 3)]


def test_it_takes_the_quality_and_edition_of_the_entry(charts):
    weapons = charts["v3"]
    unit = make_unit(weapons["rifle"].edition, weapons=(weapons["rifle"],))
    prefill = firer_from_entry(make_entry(make_list(edition=weapons["rifle"].edition), unit, quality="inexperienced"))
    assert (prefill.edition, prefill.quality) == ("v3", "inexperienced")


def test_it_treats_an_armoured_transport_as_armour(charts):
    unit = make_unit(unit_type="transport", slot="transport", damage_value=7)
    target = target_from_entry(make_entry(make_list(), unit, models_count=1))
    assert (target.kind, target.damage_value) == ("armoured", 7)


def test_it_gives_infantry_targets_no_damage_value(charts):
    unit = make_unit()
    target = target_from_entry(make_entry(make_list(), unit, models_count=6, quality="veteran"))
    assert (target.kind, target.quality, target.models, target.damage_value) == ("infantry", "veteran", 6, None)


def test_a_soft_skin_the_data_gives_no_damage_value_is_a_6_plus_target(charts):
    unit = make_unit(unit_type="vehicle_soft", slot="transport", damage_value=None)
    target = target_from_entry(make_entry(make_list(), unit, models_count=1))
    assert (target.kind, target.damage_value) == ("soft_skin", 6)


def test_an_armoured_vehicle_the_data_gives_no_damage_value_is_not_given_a_guessed_one(charts):
    unit = make_unit(unit_type="vehicle_armoured", slot="tank", damage_value=None)
    target = target_from_entry(make_entry(make_list(), unit, models_count=1))
    assert (target.kind, target.damage_value) == ("armoured", None)
