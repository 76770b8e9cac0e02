"""Officers: morale bonus, extra orders and command range per edition (rules-notes §13)."""

from __future__ import annotations

import pytest

from rules.army.officers import officer_effect, officer_effects, officer_problems, rank_effect
from rules.errors import RulesError
from tests.rules.army.builders import make_entry, make_list, make_platoon, make_slot_unit, make_unit

LADDER = [
    ("second_lieutenant", 1, 1, 6),
    ("first_lieutenant", 2, 2, 6),
    ("captain", 3, 3, 12),
    ("major", 4, 4, 12),
]


@pytest.mark.parametrize(("rank", "bonus", "orders", "inches"), LADDER)
def test_it_gives_the_2nd_edition_ranks_their_effects(rank, bonus, orders, inches):
    effect = rank_effect("v2", rank)
    assert (effect.morale_bonus, effect.extra_orders, effect.command_range, effect.unverified) == (
        bonus,
        orders,
        inches,
        False,
    )


@pytest.mark.parametrize(("rank", "bonus", "orders", "inches"), LADDER)
def test_it_gives_the_1st_edition_ranks_the_same_ladder_flagged_unverified(rank, bonus, orders, inches):
    effect = rank_effect("v1", rank)
    assert (effect.morale_bonus, effect.extra_orders, effect.command_range, effect.unverified) == (
        bonus,
        orders,
        inches,
        True,
    )


@pytest.mark.parametrize(
    ("rank", "expected"),
    [
        ("platoon_commander", (2, 2, 6)),
        ("company_commander", (4, 4, 12)),
        ("second_lieutenant", (2, 2, 6)),
        ("first_lieutenant", (2, 2, 6)),
        ("captain", (4, 4, 12)),
        ("major", (4, 4, 12)),
    ],
)
def test_it_gives_the_3rd_edition_tiers_confirmed(rank, expected):
    # Confirmed in rules-notes §13 (Nov 2026): no "unverified" badge on a 3rd-edition officer.
    effect = rank_effect("v3", rank)
    assert (effect.morale_bonus, effect.extra_orders, effect.command_range) == expected
    assert not effect.unverified


@pytest.mark.parametrize("edition", ["v1", "v2"])
def test_it_rejects_a_3rd_edition_rank_in_an_earlier_edition(edition):
    with pytest.raises(RulesError, match="Platoon Commander is not a"):
        rank_effect(edition, "platoon_commander")


def test_it_rejects_an_unknown_edition():
    with pytest.raises(RulesError, match="Unknown edition"):
        rank_effect("v9", "major")


def test_it_names_the_platoon_a_3rd_edition_platoon_commander_commands():
    entry = make_entry(make_slot_unit("officer", "v3"), platoon="p1")
    effect = officer_effect("v3", entry, {"p1": "1st Platoon"})
    assert (effect.platoon_key, effect.platoon_name) == ("p1", "1st Platoon")


def test_it_gives_a_company_commander_no_single_platoon():
    entry = make_entry(make_slot_unit("company_commander", "v3"), platoon="p1")
    assert officer_effect("v3", entry, {"p1": "1st Platoon"}).platoon_key is None


def test_it_gives_a_2nd_edition_lieutenant_no_single_platoon():
    entry = make_entry(make_slot_unit("officer", "v2"), platoon="p1")
    assert officer_effect("v2", entry, {"p1": "1st Platoon"}).platoon_key is None


def test_it_rejects_an_entry_that_is_not_an_officer():
    with pytest.raises(RulesError, match="is not an officer"):
        officer_effect("v2", make_entry())


def test_it_lists_the_officers_of_a_list_in_order():
    major = make_unit("Major", slot="company_commander", officer_rank="major", base_models=1, max_models=1)
    lieutenant = make_slot_unit("officer", name="Lt Dan")
    spec = make_list([make_entry(major), make_entry(), make_entry(lieutenant)], [make_platoon()])
    assert [(e.name, e.rank_label, e.morale_bonus) for e in officer_effects(spec)] == [
        ("Major", "Major", 4),
        ("Lt Dan", "Second Lieutenant", 1),
    ]


def test_it_leaves_out_an_officer_whose_rank_the_edition_lacks_and_reports_it():
    entry = make_entry(make_slot_unit("officer", "v3", name="Commander"))
    spec = make_list([entry], edition="v2")
    assert officer_effects(spec) == ()
    assert [p.rule for p in officer_problems(spec)] == ["officer-rank"]
