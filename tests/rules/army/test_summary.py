"""summarise(): points, order dice, officers and problems of a whole list, robust to bad entries."""

from __future__ import annotations

from rules.army.summary import summarise
from tests.rules.army.builders import make_entry, make_list, make_platoon, make_slot_unit, make_unit

SQUAD = make_unit("Rifle squad")
LIEUTENANT = make_unit(
    "Second Lieutenant",
    slot="officer",
    officer_rank="second_lieutenant",
    base_cost={"regular": 50},
    base_models=1,
    max_models=3,
)


def valid_platoon(platoon="p1"):
    return [
        make_entry(LIEUTENANT, key="lt", platoon=platoon),
        make_entry(SQUAD, key="a", models=6, platoon=platoon),
        make_entry(SQUAD, key="b", platoon=platoon),
    ]


def test_it_totals_the_points_of_every_entry():
    summary = summarise(make_list(valid_platoon(), [make_platoon()]))
    assert (summary.points, dict(summary.entry_points)) == (160, {"lt": 50, "a": 60, "b": 50})


def test_it_counts_order_dice_and_officers():
    summary = summarise(make_list(valid_platoon(), [make_platoon()]))
    assert (summary.order_dice, [o.rank for o in summary.officers]) == (3, ["second_lieutenant"])


def test_it_reports_a_valid_list_without_problems():
    summary = summarise(make_list(valid_platoon(), [make_platoon()], points_limit=160))
    assert (summary.problems, summary.points_limit) == ((), 160)


def test_it_turns_an_entry_it_cannot_price_into_a_problem_worth_nothing():
    bad = make_entry(SQUAD, key="bad", name="Broken squad", quality="elite", platoon="p1")
    summary = summarise(make_list([*valid_platoon(), bad], [make_platoon()]))
    assert summary.entry_points["bad"] == 0
    assert summary.points == 160
    assert summary.problems[0].message == (
        "Broken squad cannot be elite; it comes as Inexperienced, Regular or Veteran only."
    )


def test_it_still_checks_the_force_organisation_when_an_entry_is_bad():
    bad = make_entry(SQUAD, key="bad", models=99, platoon="p1")
    summary = summarise(make_list([*valid_platoon(), bad, make_entry(key="loose")], [make_platoon()]))
    assert [(p.rule, p.entry_key) for p in summary.problems] == [
        ("entry-points", "bad"),
        ("unit-outside-platoon", "loose"),
    ]


def test_it_reports_an_officer_rank_the_edition_lacks():
    commander = make_entry(make_slot_unit("officer", "v3", name="Commander"), key="c", platoon="p1")
    summary = summarise(make_list([commander, *valid_platoon()[1:]], [make_platoon()]))
    assert summary.problems[0].message.startswith("Commander: Platoon Commander is not a 2nd-edition rank")
    assert summary.officers == ()


def test_it_orders_problems_entries_first_then_force_org_then_tournament_limits():
    bad = make_entry(SQUAD, key="bad", quality="elite", platoon="p1")
    snipers = [make_entry(make_slot_unit("sniper"), platoon="p1") for _ in range(2)]
    spec = make_list([*snipers, *valid_platoon(), bad], [make_platoon()], points_limit=100, max_order_dice=1)
    assert [p.rule for p in summarise(spec).problems] == [
        "entry-points",
        "reinforced-platoon-sniper-max",
        "points-limit",
        "max-order-dice",
    ]


def test_it_gives_the_same_summary_for_the_same_list():
    spec = make_list([*valid_platoon(), make_entry(key="loose")], [make_platoon()], points_limit=10)
    assert summarise(spec) == summarise(spec)


def test_it_names_the_platoon_a_3rd_edition_platoon_commander_commands():
    commander = make_entry(make_slot_unit("officer", "v3"), platoon="p1")
    spec = make_list([commander], [make_platoon(name="Rifles")], edition="v3")
    assert summarise(spec).officers[0].platoon_name == "Rifles"
