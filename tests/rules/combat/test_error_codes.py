"""Every engine error carries a code and params, so a front end can say it in another language."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rules.combat import api
from rules.combat.context import check_int
from rules.errors import RulesError
from tests.rules.combat.builders import MEDIUM_AT_GUN

COMBAT = Path(api.__file__).resolve().parent


def _rules_error_calls():
    for path in sorted(COMBAT.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RulesError":
                yield f"{path.name}:{node.lineno}", {keyword.arg for keyword in node.keywords}


def test_it_gives_every_engine_error_a_code_and_params():
    calls = list(_rules_error_calls())
    assert len(calls) > 20
    assert [where for where, keywords in calls if not {"code", "params"} <= keywords] == []


def test_it_names_the_limit_and_the_value_of_a_number_out_of_range():
    with pytest.raises(RulesError) as caught:
        check_int("target.models", 0, 1, 50)
    assert caught.value.code == "too-small"
    assert caught.value.params == {"field": "target.models", "minimum": 1, "value": 0}


def test_it_keeps_the_code_of_an_error_from_a_weapon_group():
    target = api.TargetInput(kind="infantry", quality="regular", models=10, cover="none")
    with pytest.raises(RulesError, match=r"^groups\[0\]\.order: Medium anti-tank gun is a fixed weapon") as caught:
        api.shooting(
            "v2",
            order="advance",
            firer_quality="regular",
            firer_pins=0,
            groups=[api.ShotGroupInput(MEDIUM_AT_GUN, 1, "normal")],
            target=target,
        )
    assert caught.value.code == "fixed-on-advance"
    assert caught.value.params == {
        "field": "groups[0].order",
        "weapon": "Medium anti-tank gun",
        "weapon_slug": "medium-at-gun",
    }
