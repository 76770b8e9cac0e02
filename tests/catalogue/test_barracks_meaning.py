"""What the built-in 2nd-edition options mean downstream, checked against the Barracks JSON.

test_barracks_armies.py checks that the generated data carries Barracks' meaning (a "Free Unit"
option marked ``free_unit`` with its limit per list, a pistol-only soldier with ``adds_models``,
exclusive groups). This file checks what the rules make of it: a free unit costs nothing (at
base and full size, at every quality Barracks makes it free), a list may have only as many free
units as the national rule grants, the added soldier counts as a model, and a Sherman with both
pintle weapons is refused. The points and model counting are the ``shape`` branch's :
these tests need it merged.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from armybuilder.catalogue.models import Unit
from rules.army.model import EntrySpec, ListSpec
from rules.army.points import entry_points
from rules.army.summary import summarise
from rules.errors import RulesError
from tests.catalogue import test_barracks_armies as armies

NATIONS = armies.NATIONS
national = armies.national  # the built-in armies loaded once per module


def _entry(unit, quality, models, options=None, key=None):
    return EntrySpec(
        key=key or unit.slug,
        name=unit.name,
        unit=unit.to_rules(),
        quality=quality,
        models=models,
        options=options or {},
    )


@pytest.mark.django_db
def test_a_free_unit_costs_nothing_at_every_quality_and_size_barracks_makes_it_free(national):
    checked = 0
    for nation in NATIONS:
        units = Unit.objects.filter(army__edition__slug="v2", army__slug=nation).prefetch_related("options")
        for unit, (_section, _raw, _profile, _extra, others) in zip(
            units, armies.barracks_entries(nation), strict=True
        ):
            for option, raw in zip(unit.options.all(), others, strict=True):
                if not armies._is_free_unit(raw):
                    continue
                for quality in raw["cost"]:
                    for models in {unit.base_models, unit.max_models}:
                        assert entry_points(_entry(unit, quality, models, {option.slug: 1})) == 0, (
                            nation,
                            unit.name,
                            quality,
                            models,
                        )
                        checked += 1
    assert checked > 0


@pytest.mark.django_db
def test_a_free_unit_with_any_set_of_its_options_costs_nothing_or_is_refused(national):
    """Barracks makes the whole unit free, options included; options that clash are still refused."""
    checked = 0
    for nation in NATIONS:
        units = Unit.objects.filter(army__edition__slug="v2", army__slug=nation).prefetch_related("options")
        for unit, (section, raw_unit, _profile, _extra, others) in zip(
            units, armies.barracks_entries(nation), strict=True
        ):
            paired = list(zip(unit.options.all(), others, strict=True))
            free = next((option for option, raw in paired if armies._is_free_unit(raw)), None)
            if free is None:
                continue
            clashes = armies.clashing_pairs(nation, section, raw_unit)
            for quality in next(raw for _o, raw in paired if armies._is_free_unit(raw))["cost"]:
                offered = [(o, raw) for o, raw in paired if o != free and quality in raw["cost"]]
                for models in {unit.base_models, unit.max_models}:
                    for size in range(1, len(offered) + 1):
                        for combo in combinations(offered, size):
                            chosen = {free.slug: 1}
                            for option, raw in combo:
                                count, _points = armies._expected_option_points(
                                    option, raw, quality, models, unit.max_models
                                )
                                chosen[option.slug] = count
                            entry = _entry(unit, quality, models, chosen)
                            names = {" ".join(raw["name"].split()) for _o, raw in combo}
                            if any(pair <= names for pair in clashes):
                                with pytest.raises(RulesError):
                                    entry_points(entry)
                            else:
                                assert entry_points(entry) == 0, (unit.name, quality, models, sorted(names))
                            checked += 1
    assert checked > 0


@pytest.mark.django_db
def test_a_list_has_only_as_many_free_units_as_the_national_rule_grants(national):
    # "One free Inexperienced or Regular artillery unit" (France): the second free gun is a problem.
    light = Unit.objects.get_by_natural_key("v2", "france", "light-artillery")
    medium = Unit.objects.get_by_natural_key("v2", "france", "medium-artillery")
    free_light = _entry(light, "regular", light.base_models, {"free-unit": 1}, key="light")
    paid_medium = _entry(medium, "regular", medium.base_models, key="medium")
    free_medium = _entry(medium, "regular", medium.base_models, {"free-unit": 1}, key="medium")

    one = summarise(ListSpec(edition="v2", force_org="none", points_limit=1000, entries=(free_light, paid_medium)))
    assert (one.points, one.problems) == (medium.base_cost()["regular"], ())

    two = summarise(ListSpec(edition="v2", force_org="none", points_limit=1000, entries=(free_light, free_medium)))
    assert two.problems, "two free guns where the national rule grants one"


@pytest.mark.django_db
def test_a_french_section_with_its_pistol_only_soldier_has_one_more_model(national):
    section = Unit.objects.get_by_natural_key("v2", "france", "regular-infantry-section")
    pistol = section.options.get(name="Additional soldier (pistol only)")
    base = _entry(section, "regular", section.base_models)
    with_pistol = _entry(section, "regular", section.base_models, {pistol.slug: 1})
    assert (base.total_models, with_pistol.total_models) == (5, 6)
    assert entry_points(with_pistol) == entry_points(base) + 7
    # At full size the pistol-only man is the twelfth.
    assert _entry(section, "regular", section.max_models, {pistol.slug: 1}).total_models == 12


@pytest.mark.django_db
def test_a_sherman_with_a_pintle_mmg_and_a_pintle_hmg_is_refused(national):
    sherman = Unit.objects.get_by_natural_key("v2", "us", "m4a1-sherman-75mm")
    both = {"pintle-mounted-mmg": 1, "pintle-mounted-hmg": 1}
    with pytest.raises(RulesError):
        entry_points(_entry(sherman, "regular", 1, both))
    summary = summarise(
        ListSpec(edition="v2", force_org="none", points_limit=1000, entries=(_entry(sherman, "regular", 1, both),))
    )
    assert summary.problems, "a Sherman with both pintle weapons (235 points) has no problem"
