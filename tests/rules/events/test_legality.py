from __future__ import annotations

from datetime import date

from rules.army.model import Problem
from rules.events.legality import EventRules, SealedFacts, check

RULES = EventRules(
    edition="v3",
    points_limit=1000,
    max_order_dice=12,
    max_platoons=2,
    allowed_armies=frozenset({("v3", "germany")}),
    banned_units=frozenset({"tiger"}),
    data_cutoff=date(2026, 1, 1),
)


def _facts(**kwargs) -> SealedFacts:
    values = {
        "edition": "v3",
        "army": ("v3", "germany"),
        "army_name": "Germany",
        "points": 1000,
        "order_dice": 12,
        "platoons": 2,
        "units": (("grenadiers", "Grenadiers"),),
        "army_data_date": date(2025, 6, 1),
    }
    values.update(kwargs)
    return SealedFacts(**values)


def test_a_list_within_every_rule_is_legal():
    assert check(RULES, _facts()) == ()


def test_each_broken_rule_is_one_problem():
    facts = _facts(
        edition="v2",
        army=("v2", "italy"),
        army_name="Italy",
        points=1005,
        order_dice=13,
        platoons=3,
        units=(("tiger", "Tiger I"), ("tiger", "Tiger I")),
        army_data_date=date(2026, 2, 1),
    )
    rules = [p.rule for p in check(RULES, facts)]
    assert rules == [
        "event-edition",
        "event-army",
        "event-data-cutoff",
        "points-limit",
        "max-order-dice",
        "max-platoons",
        "event-banned-unit",
    ]


def test_the_lists_own_caps_give_way_to_the_events_but_its_other_problems_stay():
    own = (
        Problem(message="The list is 1000 points; the limit is 750.", rule="points-limit"),
        Problem(message="A Rifle Platoon needs an officer.", rule="rifle-platoon-officer-min"),
    )
    assert [p.rule for p in check(RULES, _facts(list_problems=own))] == ["rifle-platoon-officer-min"]


def test_no_army_list_and_no_cutoff_allow_everything_of_the_edition():
    rules = EventRules(edition="v3", points_limit=1000)
    assert check(rules, _facts(army=("v3", "usa"), order_dice=40, platoons=9, army_data_date=None)) == ()
