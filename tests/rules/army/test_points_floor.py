"""Points never read below 0, even with options that save points (the rules' own floor).

The forms bound an own unit's costs at 0; these hold whatever a unit's data says: an entry whose
options would take it below 0 is refused with a problem, and a list's total is never negative.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.army.model import QUALITIES
from rules.army.points import entry_points
from rules.army.summary import summarise
from rules.errors import RulesError
from tests.rules.army.builders import make_entry, make_list, make_option, make_unit

savings = st.fixed_dictionaries({q: st.integers(min_value=-2000, max_value=50) for q in QUALITIES})


def test_the_red_teams_entry_is_refused_and_its_list_reads_zero():
    unit = make_unit(
        "Cheat",
        base_cost={"regular": 200},
        per_model_cost={},
        base_models=1,
        max_models=1,
        options=(make_option("discount", cost={"regular": -2000}),),
    )
    entry = make_entry(unit, options={"discount": 1})
    with pytest.raises(RulesError) as refused:
        entry_points(entry)
    assert refused.value.code == "negative-points" and refused.value.params["points"] == -1800
    summary = summarise(make_list([entry], force_org="none", points_limit=200))
    assert summary.points == 0
    assert [problem.params["reason"] for problem in summary.problems] == ["negative-points"]


def test_an_option_that_saves_less_than_the_unit_costs_is_priced_as_before():
    unit = make_unit(
        "Squad",
        base_cost={"regular": 50},
        per_model_cost={},
        base_models=1,
        max_models=1,
        options=(make_option("no-nco", cost={"regular": -10}),),
    )
    assert entry_points(make_entry(unit, options={"no-nco": 1})) == 40


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a shared machine may stall
@given(st.lists(savings, min_size=1, max_size=4), st.integers(min_value=0, max_value=300))
def test_a_list_total_is_never_negative(option_costs, base):
    options = tuple(make_option(f"o{i}", cost=cost) for i, cost in enumerate(option_costs))
    unit = make_unit(
        "Any", base_cost=dict.fromkeys(QUALITIES, base), per_model_cost={}, base_models=1, max_models=1, options=options
    )
    entries = [make_entry(unit, quality=q, options={o.key: 1 for o in options}) for q in QUALITIES]
    summary = summarise(make_list(entries, force_org="none"))
    assert summary.points >= 0
    assert all(points >= 0 for points in summary.entry_points.values())
