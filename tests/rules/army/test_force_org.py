"""Force organisation per edition, the "none" setting and the tournament limits.

The tables below restate the rules independently of ``rules.army.force_org`` so that a change
to the data there breaks a test here: 2nd ed's Reinforced Platoon, 3rd ed's Rifle Platoon and
support platoons (v3-force-org.md).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.army.force_org import platoon_problems, tournament_problems, validate
from rules.errors import ForceOrgError
from tests.rules.army.builders import make_entry, make_list, make_platoon, make_slot_unit

# Reinforced Platoon (2nd ed): slot -> how many one platoon may hold.
REINFORCED_MAXIMA = {
    "officer": 1,
    "infantry": 6,
    "company_commander": 1,
    "medic": 1,
    "character": 1,
    "forward_observer": 1,
    "machine_gun": 1,
    "light_mortar": 1,
    "mortar": 1,
    "sniper": 1,
    "flamethrower": 1,
    "anti_tank": 1,
    "artillery": 1,
    "anti_tank_gun": 1,
    "tank": 1,
    "armoured_car": 1,
}
RIFLE_MAXIMA = {
    "officer": 1,
    "infantry": 4,
    "sniper": 1,
    "forward_observer": 1,
    "medic": 1,
    "anti_tank": 1,
    "light_mortar": 2,
    "character": 1,
}
# 3rd-ed support platoons: kind -> (units that make it valid, {slot: maximum}).
SUPPORT = {
    "heavy_weapons_platoon": (
        ["officer", "machine_gun", "mortar"],
        {"officer": 1, "machine_gun": 5, "mortar": 5, "anti_tank": 3},
    ),
    "artillery_platoon": (["officer", "artillery"], {"officer": 1, "artillery": 4, "anti_tank_gun": 4}),
    "armoured_platoon": (["tank"], {}),
    "recce_platoon": (["officer", "infantry"], {"officer": 1, "infantry": 4, "forward_observer": 1, "anti_tank": 1}),
    "engineer_platoon": (["officer", "infantry", "infantry"], {"officer": 1, "infantry": 4, "flamethrower": 3}),
}
# Slots that share one limit (guns in an Artillery Platoon, vehicles in an Armoured Platoon).
SHARED_LIMITS = {
    "heavy_weapons_platoon": [{"machine_gun", "mortar"}],
    "artillery_platoon": [{"artillery", "anti_tank_gun"}],
    "armoured_platoon": [{"tank", "armoured_car"}],
}
# Edition -> its core platoon kind and the units of a minimal valid one.
CORE = {
    "v1": ("reinforced_platoon", ["officer", "infantry", "infantry"]),
    "v2": ("reinforced_platoon", ["officer", "infantry", "infantry"]),
    "v3": ("rifle_platoon", ["officer", "infantry", "infantry"]),
}


def units(slots, edition="v2", platoon="p1"):
    return [make_entry(make_slot_unit(slot, edition), platoon=platoon) for slot in slots]


def platoon_list(edition, kind, slots, extra_platoons=(), extra_entries=()):
    """One platoon of ``kind`` holding ``slots``, plus a valid core platoon when ``kind`` is a support kind."""
    platoons = [make_platoon("p1", kind)]
    entries = units(slots, edition)
    core_kind, core_slots = CORE[edition]
    if kind != core_kind:
        platoons.append(make_platoon("core", core_kind, "Core Platoon"))
        entries += units(core_slots, edition, platoon="core")
    return make_list(
        entries + list(extra_entries), platoons + list(extra_platoons), edition=edition, points_limit=10_000
    )


def rules_of(spec):
    return [problem.rule for problem in platoon_problems(spec)]


@pytest.mark.parametrize("edition", ["v1", "v2", "v3"])
def test_it_accepts_a_minimal_core_platoon(edition):
    kind, slots = CORE[edition]
    assert platoon_problems(platoon_list(edition, kind, slots)) == []


@pytest.mark.parametrize(("slot", "maximum"), REINFORCED_MAXIMA.items())
def test_it_allows_a_reinforced_platoon_its_maximum_of_each_slot(slot, maximum):
    base = ["officer", "infantry", "infantry"]
    slots = base + [slot] * (maximum - base.count(slot))
    assert platoon_problems(platoon_list("v2", "reinforced_platoon", slots)) == []


@pytest.mark.parametrize(("slot", "maximum"), REINFORCED_MAXIMA.items())
def test_it_flags_a_reinforced_platoon_over_its_maximum_of_each_slot(slot, maximum):
    base = ["officer", "infantry", "infantry"]
    slots = base + [slot] * (maximum + 1 - base.count(slot))
    assert len([r for r in rules_of(platoon_list("v2", "reinforced_platoon", slots)) if r.endswith("-max")]) == 1


def test_it_names_the_units_over_a_maximum():
    spec = platoon_list("v2", "reinforced_platoon", ["officer", "infantry", "infantry"])
    snipers = units(["sniper"]) + [
        make_entry(make_slot_unit("sniper", name="Sniper team"), name="Sniper team 2", platoon="p1")
    ]
    spec = make_list(spec.entries + tuple(snipers), spec.platoons)
    assert [p.message for p in platoon_problems(spec)] == [
        "1st Platoon: a Reinforced Platoon allows 0–1 snipers; it has 2 (Sniper, Sniper team 2)."
    ]


@pytest.mark.parametrize(("first", "second"), [("light_mortar", "mortar"), ("artillery", "anti_tank_gun")])
def test_it_counts_a_light_and_a_medium_mortar_or_a_gun_and_an_at_gun_as_one_reinforced_slot(first, second):
    spec = platoon_list("v2", "reinforced_platoon", ["officer", "infantry", "infantry", first, second])
    assert rules_of(spec) == [f"reinforced-platoon-{'mortar' if first == 'light_mortar' else 'artillery'}-max"]


def test_it_requires_two_infantry_sections_in_a_reinforced_platoon():
    spec = platoon_list("v2", "reinforced_platoon", ["officer", "infantry"])
    assert [p.message for p in platoon_problems(spec)] == [
        "1st Platoon: a Reinforced Platoon needs 2 infantry sections; it has 1."
    ]


def test_it_requires_a_lieutenant_in_a_reinforced_platoon():
    spec = platoon_list("v2", "reinforced_platoon", ["infantry", "infantry"])
    assert [p.message for p in platoon_problems(spec)] == [
        "1st Platoon: a Reinforced Platoon needs 1 Lieutenant (2nd or 1st); it has 0."
    ]


def test_it_counts_a_first_lieutenant_as_the_reinforced_platoons_lieutenant():
    first = make_entry(replace(make_slot_unit("officer"), officer_rank="first_lieutenant"), platoon="p1")
    spec = make_list([first, *units(["infantry", "infantry"])], [make_platoon()])
    assert platoon_problems(spec) == []


def test_it_counts_a_major_in_the_captain_or_major_slot():
    major_entry = make_entry(replace(make_slot_unit("officer", name="Major"), officer_rank="major"), platoon="p1")
    spec = platoon_list("v2", "reinforced_platoon", ["officer", "infantry", "infantry", "company_commander"])
    spec = make_list((*spec.entries, major_entry), spec.platoons)
    assert rules_of(spec) == ["reinforced-platoon-senior-officer-max"]


@pytest.mark.parametrize("edition", ["v2", "v3"])
def test_it_allows_one_transport_per_unit_that_can_ride(edition):
    kind, slots = CORE[edition]
    assert platoon_problems(platoon_list(edition, kind, [*slots, "transport", "transport", "transport"])) == []


@pytest.mark.parametrize("edition", ["v2", "v3"])
def test_it_flags_more_transports_than_units_that_can_ride(edition):
    kind, slots = CORE[edition]
    spec = platoon_list(edition, kind, [*slots, "transport", "transport", "transport", "transport"])
    assert rules_of(spec) == [f"{kind.replace('_', '-')}-transport-max"]


def test_it_does_not_let_a_tank_bring_a_transport():
    slots = ["officer", "infantry", "infantry", "tank", "transport", "transport", "transport", "transport"]
    assert rules_of(platoon_list("v2", "reinforced_platoon", slots)) == ["reinforced-platoon-transport-max"]


def test_it_flags_a_unit_whose_slot_a_reinforced_platoon_does_not_have():
    spec = platoon_list("v2", "reinforced_platoon", ["officer", "infantry", "infantry", "other"])
    assert [p.message for p in platoon_problems(spec)] == [
        "1st Platoon: a Reinforced Platoon has no place for Other (a unit outside the platoon slots)."
    ]


@pytest.mark.parametrize(("slot", "maximum"), RIFLE_MAXIMA.items())
def test_it_allows_a_rifle_platoon_its_maximum_of_each_slot(slot, maximum):
    base = ["officer", "infantry", "infantry"]
    slots = base + [slot] * (maximum - base.count(slot))
    assert platoon_problems(platoon_list("v3", "rifle_platoon", slots)) == []


@pytest.mark.parametrize(("slot", "maximum"), RIFLE_MAXIMA.items())
def test_it_flags_a_rifle_platoon_over_its_maximum_of_each_slot(slot, maximum):
    base = ["officer", "infantry", "infantry"]
    slots = base + [slot] * (maximum + 1 - base.count(slot))
    assert [r for r in rules_of(platoon_list("v3", "rifle_platoon", slots)) if r.endswith("-max")] == [
        f"rifle-platoon-{slot.replace('_', '-')}-max"
    ]


@pytest.mark.parametrize(("slots", "rule"), [(["officer", "infantry"], "infantry"), (["infantry"] * 2, "officer")])
def test_it_enforces_the_rifle_platoon_requirements(slots, rule):
    assert rules_of(platoon_list("v3", "rifle_platoon", slots)) == [f"rifle-platoon-{rule}-min"]


@pytest.mark.parametrize("slot", ["machine_gun", "mortar", "flamethrower", "tank", "artillery", "anti_tank_gun"])
def test_it_flags_a_unit_a_rifle_platoon_has_no_place_for(slot):
    spec = platoon_list("v3", "rifle_platoon", ["officer", "infantry", "infantry", slot])
    assert rules_of(spec) == ["rifle-platoon-slot"]


@pytest.mark.parametrize("kind", SUPPORT)
def test_it_accepts_a_minimal_support_platoon(kind):
    assert platoon_problems(platoon_list("v3", kind, SUPPORT[kind][0])) == []


@pytest.mark.parametrize("kind", SUPPORT)
def test_it_enforces_each_support_platoons_requirements(kind):
    minimal = SUPPORT[kind][0]
    for missing in dict.fromkeys(minimal):
        slots = list(minimal)
        slots.remove(missing)
        assert any(r.endswith("-min") for r in rules_of(platoon_list("v3", kind, slots))), (kind, missing)


@pytest.mark.parametrize(("kind", "slot", "maximum"), [(k, s, m) for k, v in SUPPORT.items() for s, m in v[1].items()])
def test_it_enforces_each_support_platoon_maximum(kind, slot, maximum):
    shared = next((group for group in SHARED_LIMITS.get(kind, ()) if slot in group), {slot})
    at_max = [s for s in SUPPORT[kind][0] if s not in shared] + [slot] * maximum
    assert platoon_problems(platoon_list("v3", kind, at_max)) == []
    assert [r for r in rules_of(platoon_list("v3", kind, [*at_max, slot])) if r.endswith("-max")] != []


def test_it_gives_an_armoured_platoon_no_transports():
    assert rules_of(platoon_list("v3", "armoured_platoon", ["tank", "tank", "transport"])) == ["armoured-platoon-slot"]


@pytest.mark.parametrize(("edition", "kind"), [("v2", "rifle_platoon"), ("v3", "reinforced_platoon")])
def test_it_flags_a_platoon_kind_the_edition_does_not_have(edition, kind):
    spec = platoon_list(edition, kind, [])
    assert rules_of(spec) == ["platoon-kind"]


def test_it_explains_a_platoon_kind_the_edition_does_not_have():
    spec = platoon_list("v2", "rifle_platoon", [])
    assert platoon_problems(spec)[0].message == (
        "1st Platoon: a Rifle Platoon is not a 2nd-edition platoon; 2nd-edition lists use Reinforced Platoons."
    )


@pytest.mark.parametrize("edition", ["v1", "v2", "v3"])
def test_it_flags_a_unit_outside_any_platoon(edition):
    kind, slots = CORE[edition]
    spec = platoon_list(edition, kind, slots, extra_entries=[make_entry(make_slot_unit("sniper"), name="Lone sniper")])
    assert [p.message for p in platoon_problems(spec)] == [
        "Lone sniper is not in a platoon; with platoon force organisation every unit belongs to one."
    ]


def test_it_treats_a_unit_in_a_missing_platoon_as_outside_any_platoon():
    spec = platoon_list("v2", "reinforced_platoon", ["officer", "infantry", "infantry"])
    spec = make_list((*spec.entries, make_entry(platoon="gone")), spec.platoons)
    assert rules_of(spec) == ["unit-outside-platoon"]


@pytest.mark.parametrize(("edition", "rule"), [("v2", "reinforced-platoon"), ("v3", "rifle-platoon")])
def test_it_requires_at_least_one_core_platoon(edition, rule):
    assert rules_of(make_list(edition=edition)) == [f"{rule}-required"]


@pytest.mark.parametrize("kind", SUPPORT)
def test_it_limits_each_support_platoon_kind_to_the_number_of_rifle_platoons(kind):
    second = make_platoon("p2", kind, "Second")
    spec = platoon_list("v3", kind, SUPPORT[kind][0], extra_platoons=[second])
    spec = make_list((*spec.entries, *units(SUPPORT[kind][0], "v3", platoon="p2")), spec.platoons, edition="v3")
    assert rules_of(spec) == [f"{kind.replace('_', '-')}-max"]


def test_it_allows_a_3rd_edition_company_commander_outside_the_platoons():
    commander = make_entry(make_slot_unit("company_commander", "v3"))
    spec = platoon_list("v3", "rifle_platoon", CORE["v3"][1], extra_entries=[commander])
    assert platoon_problems(spec) == []


def test_it_allows_a_3rd_edition_company_commander_inside_a_platoon():
    assert platoon_problems(platoon_list("v3", "rifle_platoon", [*CORE["v3"][1], "company_commander"])) == []


def test_it_allows_one_company_commander_per_3rd_edition_list():
    commanders = [make_entry(make_slot_unit("company_commander", "v3"), name=n) for n in ("Alpha", "Bravo")]
    spec = platoon_list("v3", "rifle_platoon", CORE["v3"][1], extra_entries=commanders)
    assert [p.message for p in platoon_problems(spec)] == [
        "The list has 2 Company Commanders (Alpha, Bravo); it allows 0–1."
    ]


def test_it_does_not_check_platoons_when_force_org_is_none():
    loose = [make_entry(make_slot_unit(slot)) for slot in ("sniper", "sniper", "other", "tank")]
    assert platoon_problems(make_list(loose, [make_platoon(kind="rifle_platoon")], force_org="none")) == []


def test_it_rejects_an_unknown_force_org():
    with pytest.raises(ForceOrgError):
        platoon_problems(make_list(force_org="divisions"))


def test_it_rejects_an_unknown_edition():
    with pytest.raises(ForceOrgError):
        platoon_problems(make_list(edition="v9"))


@pytest.mark.parametrize("force_org", ["platoons", "none"])
def test_it_flags_a_list_over_its_points_limit(force_org):
    spec = make_list([make_entry()] * 2, force_org=force_org, points_limit=99)
    assert [p.message for p in tournament_problems(spec)] == ["The list is 100 points; the limit is 99."]


def test_it_writes_large_points_with_thousands_separators():
    spec = make_list(points_limit=1000)
    assert tournament_problems(spec, points=1050)[0].message == "The list is 1,050 points; the limit is 1,000."


def test_it_accepts_a_list_exactly_at_its_points_limit():
    assert tournament_problems(make_list([make_entry()] * 2, points_limit=100)) == []


@pytest.mark.parametrize("force_org", ["platoons", "none"])
def test_it_flags_more_order_dice_than_the_tournament_allows(force_org):
    spec = make_list([make_entry()] * 3, force_org=force_org, max_order_dice=2)
    assert [p.message for p in tournament_problems(spec)] == ["The list has 3 order dice; the limit is 2."]


def test_it_accepts_order_dice_at_the_tournament_limit():
    assert tournament_problems(make_list([make_entry()] * 2, max_order_dice=2)) == []


@pytest.mark.parametrize("force_org", ["platoons", "none"])
def test_it_flags_more_platoons_than_the_tournament_allows(force_org):
    spec = make_list(platoons=[make_platoon("a"), make_platoon("b")], force_org=force_org, max_platoons=1)
    assert [p.message for p in tournament_problems(spec)] == ["The list has 2 platoons; the limit is 1."]


def test_it_accepts_platoons_at_the_tournament_limit():
    assert tournament_problems(make_list(platoons=[make_platoon()], max_platoons=1)) == []


def test_it_puts_the_force_org_problems_before_the_tournament_limits():
    spec = make_list([make_entry()], max_order_dice=0)
    assert [p.rule for p in validate(spec)] == ["unit-outside-platoon", "reinforced-platoon-required", "max-order-dice"]


# 3rd-edition Heavy Weapons Platoon: up to 5 of each kind, at most 8 together, at least 2


@pytest.mark.parametrize(("machine_guns", "mortars"), [(5, 3), (4, 4), (3, 5), (2, 0), (0, 2), (1, 1)])
def test_a_heavy_weapons_platoon_holds_up_to_eight_support_teams(machine_guns, mortars):
    slots = ["officer"] + ["machine_gun"] * machine_guns + ["mortar"] * mortars
    assert platoon_problems(platoon_list("v3", "heavy_weapons_platoon", slots)) == []


def test_a_heavy_weapons_platoon_of_nine_support_teams_is_flagged_in_one_sentence():
    slots = ["officer"] + ["machine_gun"] * 5 + ["mortar"] * 4
    problems = platoon_problems(platoon_list("v3", "heavy_weapons_platoon", slots))
    assert [p.rule for p in problems] == ["heavy-weapons-platoon-support-weapons-max"]
    assert problems[0].message.startswith(
        "1st Platoon: a Heavy Weapons Platoon allows 2–8 machine-gun or mortar teams; it has 9 ("
    )


def test_a_heavy_weapons_platoon_needs_two_support_teams():
    problems = platoon_problems(platoon_list("v3", "heavy_weapons_platoon", ["officer", "mortar"]))
    assert [p.message for p in problems] == [
        "1st Platoon: a Heavy Weapons Platoon needs 2 machine-gun or mortar teams; it has 1."
    ]


def test_a_national_character_never_fills_an_infantry_squad_slot():
    problems = platoon_problems(platoon_list("v3", "rifle_platoon", ["officer", "infantry", "character"]))
    assert [p.rule for p in problems] == ["rifle-platoon-infantry-min"]
