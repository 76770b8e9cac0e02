"""Properties of the points maths over generated units and entries."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from rules.army.model import QUALITIES
from rules.army.points import entry_points
from tests.rules.army.builders import make_entry, make_option, make_unit

costs = st.fixed_dictionaries({q: st.integers(min_value=0, max_value=500) for q in QUALITIES})


@st.composite
def entries(draw):
    base = draw(st.integers(min_value=1, max_value=10))
    maximum = draw(st.integers(min_value=base, max_value=base + 10))
    options = tuple(
        make_option(f"o{i}", name=f"Option {i}", per_model=draw(st.booleans()), cost=draw(costs))
        for i in range(draw(st.integers(min_value=0, max_value=3)))
    )
    unit = make_unit(
        "Generated",
        base_cost=draw(costs),
        per_model_cost=draw(costs),
        base_models=base,
        max_models=maximum,
        options=options,
    )
    models = draw(st.integers(min_value=base, max_value=maximum))
    taken = {o.key: draw(st.integers(min_value=0, max_value=models if o.per_model else 1)) for o in options}
    return make_entry(unit, quality=draw(st.sampled_from(QUALITIES)), models=models, options=taken)


@given(entries())
def test_it_never_gives_negative_points(entry):
    assert entry_points(entry) >= 0


@given(entries())
def test_it_never_lowers_the_points_when_a_model_is_added(entry):
    assume(entry.models < entry.unit.max_models)
    bigger = make_entry(entry.unit, quality=entry.quality, models=entry.models + 1, options=entry.options)
    assert entry_points(bigger) >= entry_points(entry)
