"""Force organisation read from imported data: the army's own platoon tables replace the edition's.

Limits count the data's categories (units without categories count by slot) and may move with
what else the platoon holds, with the same problem sentences as the built-in tables.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.army.force_org import platoon_problems
from rules.army.model import ForceEntrySpec, ForceLimitSpec, LimitAdjustment
from rules.errors import ForceOrgError
from tests.rules.army.builders import make_entry, make_list, make_platoon, make_slot_unit

HEAVY = ForceEntrySpec(
    kind="heavy_weapons_platoon",
    label="Heavy Weapons Platoon",
    limits=(
        ForceLimitSpec("pc", "Platoon Commander", ("cat-pc",), ("officer",), 1, 1),
        ForceLimitSpec(
            "mg",
            "Machine Gun Team",
            ("cat-mg",),
            ("machine_gun",),
            0,
            5,
            (
                LimitAdjustment("max", "set", 4, "cat-mortar", "equalTo", 4),
                LimitAdjustment("max", "set", 3, "cat-mortar", "atLeast", 5),
            ),
        ),
        ForceLimitSpec("mortar", "Mortar Team", ("cat-mortar",), ("mortar",), 0, 5),
        ForceLimitSpec(
            "transport",
            "Transport",
            ("cat-transport",),
            ("transport",),
            0,
            0,
            (LimitAdjustment("max", "increment", 1, "cat-mg", "per", 1),),
        ),
    ),
)
RIFLE = ForceEntrySpec(
    kind="rifle_platoon",
    label="Rifle Platoon",
    limits=(
        ForceLimitSpec("pc", "Platoon Commander", ("cat-pc",), ("officer",), 1, 1),
        ForceLimitSpec("inf", "Infantry Squad", ("cat-inf",), ("infantry",), 2, 4),
    ),
)
CATEGORIES = {
    "officer": "cat-pc",
    "machine_gun": "cat-mg",
    "mortar": "cat-mortar",
    "infantry": "cat-inf",
    "transport": "cat-transport",
}


def unit_of(slot):
    return replace(make_slot_unit(slot, "v3"), categories=(CATEGORIES[slot],))


def heavy_list(slots, forces=(HEAVY, RIFLE)):
    entries = [make_entry(unit_of(slot), platoon="p1") for slot in slots]
    entries += [make_entry(unit_of(slot), platoon="core") for slot in ("officer", "infantry", "infantry")]
    platoons = [make_platoon("p1", "heavy_weapons_platoon"), make_platoon("core", "rifle_platoon", "Core Platoon")]
    return replace(make_list(entries, platoons, edition="v3", points_limit=10_000), forces=tuple(forces))


def test_a_platoon_within_the_datas_limits_has_no_problem():
    assert platoon_problems(heavy_list(["officer", "machine_gun", "machine_gun", "mortar"])) == []


def test_the_datas_maximum_is_enforced_with_the_built_in_sentence():
    problems = platoon_problems(heavy_list(["officer"] + ["machine_gun"] * 6))
    assert [p.message for p in problems] == [
        "1st Platoon: a Heavy Weapons Platoon allows 0–5 Machine Gun Teams; it has 6 "
        "(Machine gun, Machine gun, Machine gun, Machine gun, Machine gun, Machine gun)."
    ]


@pytest.mark.parametrize(("mortars", "allowed"), [(3, 5), (4, 4), (5, 3)])
def test_a_limit_moves_with_what_else_the_platoon_holds(mortars, allowed):
    at_limit = ["officer"] + ["mortar"] * mortars + ["machine_gun"] * allowed
    assert platoon_problems(heavy_list(at_limit)) == []
    over = platoon_problems(heavy_list([*at_limit, "machine_gun"]))
    assert [p.rule for p in over] == ["heavy-weapons-platoon-mg-max"]
    assert f"allows 0–{allowed} Machine Gun Teams" in over[0].message


def test_a_repeating_limit_grows_with_each_unit_counted():
    assert platoon_problems(heavy_list(["officer", "machine_gun", "transport"])) == []
    problems = platoon_problems(heavy_list(["officer", "mortar", "transport"]))
    assert [p.rule for p in problems] == ["heavy-weapons-platoon-transport-max"]


def test_the_datas_minimum_is_enforced():
    problems = platoon_problems(heavy_list(["machine_gun"]))
    assert [p.message for p in problems] == [
        "1st Platoon: a Heavy Weapons Platoon needs 1 Platoon Commander; it has 0."
    ]


def test_a_unit_in_no_category_of_the_force_has_no_place():
    entries = [make_entry(unit_of("infantry"), platoon="p1")]
    spec = heavy_list(["officer", "machine_gun"])
    spec = replace(spec, entries=spec.entries + tuple(entries))
    assert "heavy-weapons-platoon-slot" in [p.rule for p in platoon_problems(spec)]


def test_units_without_categories_count_by_their_slot():
    entries = [make_entry(make_slot_unit(slot, "v3"), platoon="p1") for slot in ("officer", "machine_gun")]
    spec = replace(heavy_list([]), entries=tuple(entries) + heavy_list([]).entries)
    assert platoon_problems(spec) == []


def test_kinds_the_data_does_not_define_keep_the_built_in_table():
    spec = heavy_list(["officer"] + ["machine_gun"] * 6, forces=(RIFLE,))
    assert [p.rule for p in platoon_problems(spec)] == ["heavy-weapons-platoon-machine-gun-max"]


def test_an_unknown_platoon_kind_in_the_data_is_an_error():
    with pytest.raises(ForceOrgError):
        platoon_problems(heavy_list(["officer"], forces=(replace(HEAVY, kind="bogus"),)))
