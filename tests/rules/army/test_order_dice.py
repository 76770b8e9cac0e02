"""Order dice: one per unit in every edition, transports included (rules-notes §16)."""

from __future__ import annotations

import pytest

from rules.army.order_dice import count_order_dice, entry_order_dice, order_dice
from tests.rules.army.builders import make_entry, make_list, make_slot_unit, make_unit


def test_it_gives_one_die_per_unit():
    assert entry_order_dice(make_entry(make_unit(base_models=10, max_models=10))) == 1


@pytest.mark.parametrize("edition", ["v1", "v2", "v3"])
def test_it_counts_a_transport_as_a_unit_with_its_own_die(edition):
    spec = make_list([make_entry(), make_entry(make_slot_unit("transport"))], edition=edition)
    assert order_dice(spec) == 2


def test_it_counts_no_dice_for_an_empty_list():
    assert order_dice(make_list()) == 0


def test_it_counts_dice_of_any_entries():
    assert count_order_dice([make_entry(make_slot_unit(slot)) for slot in ("officer", "tank", "sniper")]) == 3
