"""The community data's shapes in the points rules: per-man swaps, teams inside a unit, shared limits,
whole-unit choices, free units and qualities carried by a variant."""

from __future__ import annotations

import pytest

from rules.army.model import OptionGroupSpec
from rules.army.order_dice import entry_order_dice, order_dice
from rules.army.points import entry_points, option_limit
from rules.army.summary import summarise
from rules.errors import RulesError
from tests.rules.army.builders import make_entry, make_list, make_option, make_unit

EACH = {"inexperienced": 4, "regular": 4, "veteran": 4}


def guards(**kw):
    """A Guards squad: 5 to 10 men at 10 points each (Regular), each may swap his rifle for an SMG
    (+4), an LMG team of 2 men (+20), grenades for the whole squad (+2 a man), two upgrades of three."""
    options = (
        make_option("smg", name="SMG instead of rifle", per_model=True, cost=EACH),
        make_option("lmg-team", name="LMG team", cost={"regular": 20, "veteran": 26}, adds_models=2),
        make_option("grenades", name="Anti-tank grenades", all_models=True, cost={"regular": 2, "veteran": 2}),
        make_option("scope", name="Scope", group="upgrades", cost={"regular": 5, "veteran": 5}),
        make_option("bayonets", name="Bayonets", group="upgrades", cost={"regular": 3, "veteran": 3}),
        make_option("flag", name="Flag", group="upgrades", cost={"regular": 7, "veteran": 7}),
        make_option("panzerfaust", name="Panzerfaust", excludes=("rifle-grenade",), cost={"regular": 5, "veteran": 5}),
        make_option("rifle-grenade", name="Rifle grenade", cost={"regular": 5, "veteran": 5}),
    )
    kw.setdefault("option_groups", (OptionGroupSpec("upgrades", "Upgrades", maximum=2),))
    return make_unit("Guards", options=options, base_cost={"regular": 50, "veteran": 65}, **kw)


def test_a_per_man_swap_is_priced_per_man_up_to_the_men():
    squad = guards()
    assert entry_points(make_entry(squad, models=8, options={"smg": 8})) == 50 + 30 + 8 * 4
    with pytest.raises(RulesError, match="SMG instead of rifle can be taken at most 8 times; it was taken 9"):
        entry_points(make_entry(squad, models=8, options={"smg": 9}))


def test_a_capped_per_man_swap_never_exceeds_the_men():
    capped = make_option("smg", per_model=True, max_count=3)
    assert (option_limit(capped, 10), option_limit(capped, 2)) == (3, 2)


def test_a_team_adds_its_men_priced_as_the_data_prices_it():
    squad = guards()
    entry = make_entry(squad, models=8, options={"lmg-team": 1})
    assert entry_points(entry) == 50 + 30 + 20
    assert entry.total_models == 10
    assert make_entry(squad, models=8).total_models == 8


def test_a_team_adds_no_order_die():
    squad = guards()
    with_team = make_entry(squad, models=8, options={"lmg-team": 1})
    assert entry_order_dice(with_team) == 1
    assert order_dice(make_list([with_team, make_entry(squad)])) == 2


def test_a_whole_unit_choice_is_bought_for_every_man_the_teams_included():
    squad = guards()
    assert entry_points(make_entry(squad, models=8, options={"grenades": 1})) == 80 + 8 * 2
    assert entry_points(make_entry(squad, models=8, options={"grenades": 1, "lmg-team": 1})) == 80 + 20 + 10 * 2


def test_a_shared_group_allows_up_to_its_maximum_and_refuses_beyond():
    squad = guards()
    assert entry_points(make_entry(squad, options={"scope": 1, "flag": 1})) == 50 + 5 + 7
    with pytest.raises(RulesError, match="Upgrades allows at most 2 choices; 3 were taken") as refused:
        entry_points(make_entry(squad, options={"scope": 1, "bayonets": 1, "flag": 1}))
    assert refused.value.code == "option-group-max"


def test_a_per_model_group_allows_one_choice_a_man():
    options = (
        make_option("smg", per_model=True, group="swap", cost=EACH),
        make_option("lmg", name="LMG", per_model=True, group="swap", cost={"regular": 10}),
    )
    squad = make_unit(options=options, option_groups=(OptionGroupSpec("swap", "Swap a rifle", 0, 1, per_model=True),))
    assert entry_points(make_entry(squad, models=5, options={"smg": 3, "lmg": 2})) == 50 + 12 + 20
    with pytest.raises(RulesError, match="Swap a rifle allows at most 5 choices; 6 were taken"):
        entry_points(make_entry(squad, models=5, options={"smg": 3, "lmg": 3}))


def test_a_group_the_data_does_not_describe_keeps_its_options_exclusive():
    options = (make_option("lmg", group="support"), make_option("piat", group="support"))
    with pytest.raises(RulesError, match="exclude each other"):
        entry_points(make_entry(make_unit(options=options), options={"lmg": 1, "piat": 1}))


def test_exclusions_hold_both_ways():
    squad = guards()
    for chosen in ({"panzerfaust": 1, "rifle-grenade": 1}, {"rifle-grenade": 1, "panzerfaust": 1}):
        with pytest.raises(RulesError, match="Rifle grenade cannot be taken with Panzerfaust"):
            entry_points(make_entry(squad, options=chosen))


def panzer():
    """A tank offered at Regular and Veteran only through its variant, which carries the prices."""
    variants = (
        make_option("ausf-f", name="Ausf. F", group="variant", cost={"regular": 120, "veteran": 145}),
        make_option("ausf-j", name="Ausf. J", group="variant", cost={"veteran": 160}),
    )
    return make_unit(
        "Panzer III",
        slot="tank",
        base_cost={"regular": 0, "veteran": 0},
        per_model_cost={},
        base_models=1,
        max_models=1,
        options=variants,
        option_groups=(OptionGroupSpec("variant", "Variant", minimum=1, maximum=1),),
    )


def test_a_variant_carries_the_price_at_each_quality_it_is_offered_at():
    tank = panzer()
    assert entry_points(make_entry(tank, options={"ausf-f": 1})) == 120
    assert entry_points(make_entry(tank, quality="veteran", options={"ausf-f": 1})) == 145
    assert entry_points(make_entry(tank, quality="veteran", options={"ausf-j": 1})) == 160
    with pytest.raises(RulesError, match="Ausf. J has no cost at Regular"):
        entry_points(make_entry(tank, options={"ausf-j": 1}))
    with pytest.raises(RulesError, match="Variant allows at most 1 choice; 2 were taken"):
        entry_points(make_entry(tank, quality="veteran", options={"ausf-f": 1, "ausf-j": 1}))


def test_a_required_variant_not_chosen_is_a_list_problem_naming_the_group():
    tank = panzer()
    summary = summarise(make_list([make_entry(tank, key="t1", name="Panzer III")], force_org="none"))
    [problem] = [p for p in summary.problems if p.rule == "option-group-min"]
    assert (problem.message, problem.entry_key) == ("Panzer III: choose one of Variant.", "t1")
    chosen = summarise(make_list([make_entry(tank, options={"ausf-f": 1})], force_org="none"))
    assert not [p for p in chosen.problems if p.rule == "option-group-min"]


def artillery(name: str):
    free = make_option("free-unit", name="Free Unit", cost={"regular": 0}, free_unit=True, free_per_list=1)
    spotter = make_option("spotter", name="Spotter", cost={"regular": 10})
    return make_unit(name, slot="artillery", base_cost={"regular": 75}, per_model_cost={}, base_models=4,
                     max_models=4, options=(free, spotter))  # fmt: skip


def test_a_free_unit_costs_nothing_in_all():
    gun = artillery("Medium Artillery")
    assert entry_points(make_entry(gun, options={"spotter": 1})) == 85
    assert entry_points(make_entry(gun, options={"free-unit": 1, "spotter": 1})) == 0


def test_free_units_beyond_the_limit_per_list_are_a_problem_naming_the_option():
    light, medium = artillery("Light Artillery"), artillery("Medium Artillery")
    one = make_list([make_entry(light, options={"free-unit": 1}), make_entry(medium)], force_org="none")
    assert not [p for p in summarise(one).problems if p.rule == "free-unit-limit"]
    first = make_entry(light, name="Light Artillery", options={"free-unit": 1})
    second = make_entry(medium, name="Medium Artillery", key="second", options={"free-unit": 1})
    summary = summarise(make_list([first, second], force_org="none"))
    [problem] = [p for p in summary.problems if p.rule == "free-unit-limit"]
    assert problem.message == (
        "Free Unit: 2 units are free through it (Light Artillery and Medium Artillery); a list may have 1."
    )
    assert problem.entry_key == "second"
    assert summary.points == 0
