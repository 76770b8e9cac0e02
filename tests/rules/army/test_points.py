"""Points of one entry: base cost, extra models, per-model and per-unit options, and each error."""

from __future__ import annotations

import pytest

from rules.army.points import entry_points, option_conflicts
from rules.errors import RulesError
from tests.rules.army.builders import make_entry, make_option, make_unit

SMG = make_option("smg", name="SMG", per_model=True, cost={"inexperienced": 3, "regular": 3, "veteran": 3})
LMG = make_option("lmg", name="LMG", cost={"inexperienced": 15, "regular": 20, "veteran": 25})
PINTLE = make_option("pintle-mmg", name="Pintle MMG", cost={"regular": 15}, max_count=3)
NCO_SMG = make_option("nco-smg", name="NCO SMG", cost={"regular": 3}, group="nco-weapon")
NCO_RIFLE = make_option("nco-rifle", name="NCO rifle", cost={"regular": 0}, group="nco-weapon")
SQUAD = make_unit("Rifle squad", options=(SMG, LMG, PINTLE, NCO_SMG, NCO_RIFLE))


def test_it_costs_the_base_models_at_the_quality():
    assert entry_points(make_entry(SQUAD, quality="veteran")) == 65


@pytest.mark.parametrize(("quality", "expected"), [("inexperienced", 35 + 3 * 7), ("regular", 80), ("veteran", 104)])
def test_it_adds_the_per_model_cost_for_each_model_beyond_the_base(quality, expected):
    assert entry_points(make_entry(SQUAD, quality=quality, models=8)) == expected


def test_it_charges_a_per_model_option_once_per_model_taking_it():
    assert entry_points(make_entry(SQUAD, options={"smg": 4})) == 50 + 4 * 3


def test_it_charges_a_per_unit_option_its_flat_cost_at_the_quality():
    assert entry_points(make_entry(SQUAD, quality="veteran", options={"lmg": 1})) == 65 + 25


def test_it_charges_a_per_unit_option_taken_several_times_for_each_time():
    assert entry_points(make_entry(SQUAD, options={"pintle-mmg": 3})) == 50 + 45


def test_it_ignores_options_taken_zero_times():
    assert entry_points(make_entry(SQUAD, options={"lmg": 0, "nco-smg": 0, "nco-rifle": 0})) == 50


def test_it_adds_models_and_options_together():
    entry = make_entry(SQUAD, models=10, options={"smg": 10, "lmg": 1, "nco-smg": 1})
    assert entry_points(entry) == 50 + 5 * 10 + 10 * 3 + 20 + 3


def test_it_rejects_a_quality_the_unit_does_not_offer():
    medic = make_unit("Medic", base_cost={"regular": 23, "veteran": 30})
    with pytest.raises(RulesError, match="Medic cannot be Inexperienced; it comes as Regular or Veteran only."):
        entry_points(make_entry(medic, quality="inexperienced"))


def test_it_rejects_a_unit_with_no_cost_at_all():
    with pytest.raises(RulesError, match="no points value at any quality"):
        entry_points(make_entry(make_unit("Empty", base_cost={})))


@pytest.mark.parametrize("models", [4, 11])
def test_it_rejects_a_model_count_outside_base_to_max(models):
    with pytest.raises(RulesError, match=f"Rifle squad has {models} models; it must have 5 to 10."):
        entry_points(make_entry(SQUAD, models=models))


def test_it_says_exactly_for_a_fixed_size_unit():
    team = make_unit("Sniper team", base_models=2, max_models=2)
    with pytest.raises(RulesError, match="it must have exactly 2"):
        entry_points(make_entry(team, models=3))


def test_it_rejects_extra_models_without_a_per_model_cost():
    unit = make_unit("Officer", per_model_cost={"veteran": 13}, base_models=1, max_models=3)
    with pytest.raises(RulesError, match="no cost for extra models at Regular"):
        entry_points(make_entry(unit, models=2))


def test_it_names_the_entry_in_its_errors():
    with pytest.raises(RulesError, match="^Alpha squad has 4 models"):
        entry_points(make_entry(SQUAD, name="Alpha squad", models=4))


def test_it_rejects_an_unknown_option():
    with pytest.raises(RulesError, match="Rifle squad has no option “bazooka”."):
        entry_points(make_entry(SQUAD, options={"bazooka": 1}))


def test_it_limits_a_per_model_option_to_the_number_of_models_by_default():
    with pytest.raises(RulesError, match="SMG can be taken at most 5 times; it was taken 6 times."):
        entry_points(make_entry(SQUAD, options={"smg": 6}))


def test_it_limits_a_per_unit_option_to_once_by_default():
    with pytest.raises(RulesError, match="LMG can be taken at most once; it was taken 2 times."):
        entry_points(make_entry(SQUAD, options={"lmg": 2}))


def test_it_limits_an_option_to_its_max_count():
    with pytest.raises(RulesError, match="Pintle MMG can be taken at most 3 times"):
        entry_points(make_entry(SQUAD, options={"pintle-mmg": 4}))


def test_it_rejects_an_option_whose_max_count_is_zero():
    unit = make_unit("Squad", options=(make_option("none", name="Nothing", max_count=0),))
    with pytest.raises(RulesError, match="Nothing cannot be taken"):
        entry_points(make_entry(unit, options={"none": 1}))


def test_it_rejects_two_options_of_one_exclusive_group():
    with pytest.raises(RulesError, match="NCO SMG and NCO rifle exclude each other; choose one."):
        entry_points(make_entry(SQUAD, options={"nco-rifle": 1, "nco-smg": 1}))


def test_it_rejects_a_negative_option_count():
    with pytest.raises(RulesError, match="LMG cannot be taken -1 times"):
        entry_points(make_entry(SQUAD, options={"lmg": -1}))


def test_it_rejects_an_option_count_that_is_not_a_whole_number():
    with pytest.raises(RulesError, match="not a whole number"):
        entry_points(make_entry(SQUAD, options={"lmg": "1"}))


def test_it_counts_a_true_checkbox_as_one():
    assert entry_points(make_entry(SQUAD, options={"lmg": True})) == 70


def test_it_rejects_an_option_with_no_cost_at_the_quality():
    with pytest.raises(RulesError, match="Pintle MMG has no cost at Veteran"):
        entry_points(make_entry(SQUAD, quality="veteran", options={"pintle-mmg": 1}))


PANZERFAUST = make_option("panzerfaust", name="Panzerfaust", cost={"regular": 5}, max_count=4)
GRENADES = make_option(
    "grenades",
    name="Anti-tank grenades (if no Panzerfaust taken)",
    per_model=True,
    all_models=True,
    cost={"regular": 2},
    excludes=("panzerfaust",),
)
GRENADIERS = make_unit("Grenadier squad", options=(PANZERFAUST, GRENADES))


def test_it_rejects_an_option_taken_with_one_it_excludes():
    with pytest.raises(RulesError, match=r"cannot be taken with Panzerfaust\.") as error:
        entry_points(make_entry(GRENADIERS, options={"grenades": 1, "panzerfaust": 2}))
    assert error.value.code == "option-excludes"
    assert error.value.params["option"] == "Anti-tank grenades (if no Panzerfaust taken)"


def test_either_of_two_exclusive_options_alone_is_priced():
    assert entry_points(make_entry(GRENADIERS, options={"panzerfaust": 2})) == 60
    assert entry_points(make_entry(GRENADIERS, options={"grenades": 1})) == 60


def test_option_conflicts_hold_both_ways_round():
    reverse = make_unit("Reverse squad", options=(make_option("a", excludes=("b",)), make_option("b")))
    assert [(a.key, b.key) for a, b in option_conflicts(reverse.options, {"a": 1, "b": 1})] == [("b", "a")]
    assert option_conflicts(reverse.options, {"a": 1, "b": 0}) == []
