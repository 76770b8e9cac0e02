"""Lists saved before muster-list/2 keep opening: the migration stores a whole-unit option as 1."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from armybuilder.lists.models import ArmyList
from armybuilder.lists.summary import list_summary
from tests.lists.factories import make_army, make_entry, make_list, make_option, make_unit

migration = importlib.import_module("armybuilder.lists.migrations.0003_whole_unit_options_stored_as_one")


@pytest.mark.django_db
def test_whole_unit_counts_of_men_become_one_and_nothing_else_moves():
    army = make_army()
    squad = make_unit(army)
    make_option(squad, slug="grenades", all_models=True, cost_regular=2)
    make_option(squad, slug="smg", per_model=True)
    army_list = make_list(None, army, force_org="none")
    old = make_entry(army_list, squad, models_count=8, options={"grenades": 8, "smg": 3})
    plain = make_entry(army_list, squad, models_count=6, options={"smg": 2})
    loaded = ArmyList.objects.for_builder().get(pk=army_list.pk)
    before = list_summary(loaded).entry_points
    migration.whole_unit_counts_to_one(apps, None)
    old.refresh_from_db()
    plain.refresh_from_db()
    assert (old.options, plain.options) == ({"grenades": 1, "smg": 3}, {"smg": 2})
    # The points read the same: a whole-unit option is bought for every man whatever its count.
    assert list_summary(ArmyList.objects.for_builder().get(pk=army_list.pk)).entry_points == before
