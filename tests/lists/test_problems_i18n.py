"""Army-list problems in French: every rule the rules code can produce has a French sentence.

The problems are triggered through ``rules.army.summary.summarise`` with the plain builders of
``tests/rules/army``; each one must map to a message that formats with its params.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from armybuilder.lists.problems import MESSAGES, display_problem, localise_params, problem_message
from rules.army.force_org import EDITION_RULES
from rules.army.model import OptionGroupSpec, Problem
from rules.army.summary import summarise
from tests.lists.factories import make_builder_list, make_user
from tests.rules.army.builders import make_entry, make_list, make_option, make_platoon, make_slot_unit, make_unit

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


def _kind_id(kind: str) -> str:
    return kind.replace("_", "-")


def _entries(slot: str, edition: str, count: int, platoon: str | None) -> list:
    unit = make_slot_unit(slot, edition)
    return [make_entry(unit, platoon=platoon) for _ in range(count)]


def _platoon_lists():
    """Lists that break each platoon table of each edition every way it can be broken."""
    for edition, rules in EDITION_RULES.items():
        for kind, table in rules.platoons.items():
            platoon = make_platoon("p1", kind, "1st Platoon")
            core = [] if kind == rules.core_kind else [make_platoon("p0", rules.core_kind, "Core")]
            # Empty: every minimum fails; a unit with no place in the table; too many transports.
            stray = _entries("other", edition, 1, "p1")
            transports = _entries("transport", edition, 2, "p1") if table.transports else []
            yield make_list(stray + transports, [platoon, *core], edition=edition)
            # Every maximum exceeded.
            over = []
            for limit in table.limits:
                if limit.maximum is not None:
                    over += _entries(limit.slots[0], edition, limit.maximum + 1, "p1")
            yield make_list(over, [platoon, *core], edition=edition)
        # A platoon kind the edition does not have, a unit outside any platoon, no core platoon.
        foreign = "rifle_platoon" if edition != "v3" else "reinforced_platoon"
        yield make_list(_entries("infantry", edition, 1, None), [make_platoon("p1", foreign, "Odd")], edition=edition)
        # Support platoons beyond the core ones, two Company Commanders, the tournament limits.
        support_kinds = [kind for kind in rules.platoons if kind != rules.core_kind]
        support = [make_platoon(f"s{i}", kind, f"Support {i}") for i, kind in enumerate(support_kinds)]
        commanders = _entries("company_commander", edition, 2, None)
        yield make_list(
            commanders,
            support,
            edition=edition,
            points_limit=10,
            max_order_dice=0,
            max_platoons=0,
        )


def _entry_lists():
    """Lists with entries whose points cannot be worked out, one for each reason, and a bad officer rank."""
    options = (
        make_option("lmg", group="support"),
        make_option("piat", group="support"),
        make_option("smg", per_model=True),
        make_option("nades", max_count=2),
        make_option("elite", cost={"veteran": 5}),
        make_option("zero", max_count=0),
        make_option("faust", max_count=4),
        make_option("grenades", excludes=("faust",)),
        make_option("scope", group="upgrades"),
        make_option("bayonet", group="upgrades"),
        make_option("ausf-a", group="variant"),
        make_option("free", free_unit=True, free_per_list=1),
    )
    groups = (
        OptionGroupSpec("upgrades", "Upgrades", maximum=1),
        OptionGroupSpec("variant", "Variant", minimum=1, maximum=1),
        OptionGroupSpec("pair", "Pair", minimum=2),
    )
    squad = make_unit(options=options, option_groups=groups)
    fixed = make_unit("Gun", base_models=3, max_models=3)
    bad = [
        make_entry(make_unit("Ghost", base_cost={})),
        make_entry(make_unit("Elite", base_cost={"veteran": 60})),
        make_entry(fixed, models=4),
        make_entry(squad, models=11),
        make_entry(make_unit("Crew", per_model_cost={}), models=6),
        make_entry(squad, options={"nope": 1}),
        make_entry(squad, options={"smg": 1.5}),
        make_entry(squad, options={"smg": -1}),
        make_entry(squad, options={"zero": 1}),
        make_entry(squad, options={"lmg": 2}),
        make_entry(squad, options={"nades": 3}),
        make_entry(squad, options={"elite": 1}),
        make_entry(squad, options={"lmg": 1, "piat": 1}),
        make_entry(squad, options={"faust": 1, "grenades": 1}),
        make_entry(squad, options={"scope": 1, "bayonet": 1, "ausf-a": 1}),
        make_entry(squad, options={"free": 1, "ausf-a": 1}),
        make_entry(squad, options={"free": 1, "ausf-a": 1}),
        make_entry(make_unit("Commander", slot="officer", officer_rank="platoon_commander")),
        # A team whose men count within the squad's size, taken by a squad already at its largest.
        make_entry(
            make_unit("NKVD", options=(make_option("team", adds_models=2, within_size=True),)),
            models=10,
            options={"team": 1},
        ),
        # An option that would take the entry below 0 points (a player's own unit saved before costs
        # were bounded at 0).
        make_entry(
            make_unit("Cheat", options=(make_option("discount", cost={"regular": -2000}),)),
            options={"discount": 1},
        ),
    ]
    yield make_list(bad, force_org="none", edition="v2")


def _problems() -> list[Problem]:
    problems = []
    for spec in [*_platoon_lists(), *_entry_lists()]:
        problems += summarise(spec).problems
    return problems


PROBLEMS = _problems()


def _expected_rule_ids() -> set[str]:
    """The rule ids the force-organisation tables allow, plus the fixed ones."""
    ids = {"unit-outside-platoon", "platoon-kind", "company-commander-max", "points-limit"}
    ids |= {"max-order-dice", "max-platoons", "officer-rank", "entry-points"}
    ids |= {"option-group-min", "free-unit-limit"}
    for rules in EDITION_RULES.values():
        ids.add(f"{_kind_id(rules.core_kind)}-required")
        for kind, table in rules.platoons.items():
            ids.add(f"{_kind_id(kind)}-slot")
            for limit in table.limits:
                if limit.minimum:
                    ids.add(f"{_kind_id(kind)}-{limit.key}-min")
                if limit.maximum is not None:
                    ids.add(f"{_kind_id(kind)}-{limit.key}-max")
            if table.transports:
                ids.add(f"{_kind_id(kind)}-transport-max")
            if rules.support_limited_by_core and kind != rules.core_kind:
                ids.add(f"{_kind_id(kind)}-max")
    return ids


def _error_codes() -> set[str]:
    """Every ``code=`` a RulesError of the army rules is raised with (read from the source)."""
    codes = set()
    for path in (RULES_DIR / "army").glob("*.py"):
        text = path.read_text()
        codes |= set(re.findall(r'code\s*=\s*"([a-z-]+)"', text))
        for pair in re.findall(r'code="([a-z-]+)" if .+? else "([a-z-]+)"', text):
            codes |= set(pair)
    return codes


def test_the_triggered_problems_cover_every_rule_id():
    produced = {problem.rule for problem in PROBLEMS}
    assert produced == _expected_rule_ids()


def test_every_rule_id_has_a_message():
    missing = {problem.rule for problem in PROBLEMS if problem.rule not in MESSAGES}
    assert not missing
    assert _expected_rule_ids() <= set(MESSAGES)


def test_every_entry_points_reason_has_a_message():
    reasons = {problem.params["reason"] for problem in PROBLEMS if problem.rule == "entry-points"}
    assert reasons == _error_codes() - {"rank"}
    assert reasons == set(MESSAGES["entry-points"])


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda problem: f"{problem.rule}:{problem.params.get('reason', '')}")
def test_each_french_message_formats_with_its_params(problem):
    message = problem_message(problem)
    assert message is not None
    with translation.override("fr"):
        str(message % localise_params(problem.params))  # no KeyError
        french = display_problem(problem)
    assert "%(" not in french
    assert french != problem.message
    with translation.override("en"):
        assert display_problem(problem) == problem.message


def test_an_unknown_rule_or_a_missing_param_falls_back_to_the_english_message():
    with translation.override("fr"):
        assert display_problem(Problem("Something odd.", "rules-error")) == "Something odd."
        assert display_problem(Problem("The list is 1,200 points.", "points-limit")) == "The list is 1,200 points."
        partial = Problem("The list is 1,200 points.", "points-limit", params={"points": 1200})
        assert display_problem(partial) == partial.message


def test_the_points_limit_groups_thousands_the_french_way():
    problem = Problem("x", "points-limit", params={"points": 1250, "limit": 1000})
    with translation.override("fr"):
        assert display_problem(problem) == "La liste fait 1\u202f250 points ; la limite est de 1\u202f000."


def test_labels_are_translated():
    [problem] = [p for p in PROBLEMS if p.rule == "reinforced-platoon-infantry-min"][:1]
    with translation.override("fr"):
        text = display_problem(problem)
    assert "Peloton renforcé" in text
    # One French word per concept, as in the catalogue and the rules reference: « escouade ».
    assert "escouades d'infanterie" in text


@pytest.mark.django_db
def test_the_builder_shows_problems_in_french(client):
    alice = make_user("alice")
    army_list = make_builder_list(alice, edition="v2", entries=1, points_limit=10)
    client.force_login(alice)
    client.cookies["django_language"] = "fr"
    response = client.get(f"/lists/{army_list.pk}/")
    problems = response.content.decode().split('id="problems"')[1].split("</section>")[0]
    assert "doit compter 2 escouades d&#x27;infanterie ; il en compte 1." in problems
    assert "la limite est de 10." in problems
    assert "needs 2 infantry sections" not in problems
