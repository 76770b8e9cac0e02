"""``distinct_names``: the one place a list's shared names get their numbers."""

from __future__ import annotations

from rules.army.names import ENTRY_FORMAT, PLATOON_FORMAT, distinct_names


def test_a_name_used_once_stays_as_it_is():
    assert distinct_names([(1, "Rifle Squad"), (2, "Medium Tank")]) == {1: "Rifle Squad", 2: "Medium Tank"}


def test_shared_unit_names_are_numbered_in_list_order():
    names = distinct_names(
        [(7, "Regular Infantry Squad (Late-War)"), (3, "Sniper Team"), (5, "Regular Infantry Squad (Late-War)")],
        ENTRY_FORMAT,
    )
    assert names == {
        7: "Regular Infantry Squad (Late-War) #1",
        3: "Sniper Team",
        5: "Regular Infantry Squad (Late-War) #2",
    }


def test_platoons_read_as_reinforced_platoon_2():
    names = distinct_names([("a", "Reinforced Platoon"), ("b", "Reinforced Platoon")], PLATOON_FORMAT)
    assert names == {"a": "Reinforced Platoon 1", "b": "Reinforced Platoon 2"}


def test_names_differing_in_case_or_spacing_count_as_the_same():
    assert distinct_names([(1, "Rifle Squad"), (2, "rifle  squad")]) == {1: "Rifle Squad #1", 2: "rifle  squad #2"}


def test_a_number_another_item_already_has_is_skipped():
    names = distinct_names(
        [(1, "Reinforced Platoon"), (2, "Reinforced Platoon 1"), (3, "Reinforced Platoon")], PLATOON_FORMAT
    )
    assert names == {1: "Reinforced Platoon 2", 2: "Reinforced Platoon 1", 3: "Reinforced Platoon 3"}
    assert len(set(names.values())) == 3


def test_every_result_is_distinct_when_three_share_a_name():
    names = distinct_names([(i, "Jeep") for i in range(3)])
    assert list(names.values()) == ["Jeep #1", "Jeep #2", "Jeep #3"]
