"""Engine errors on the calculator pages: English as the engine wrote it, other languages from the code."""

from __future__ import annotations

import ast
from pathlib import Path

from django.utils import translation

import rules.combat
from armybuilder.resolver.errors import MESSAGES, display_error
from rules.errors import RulesError

FIXED = RulesError(
    "groups[0].order: Medium AT gun is a fixed weapon and cannot fire on an Advance order",
    code="fixed-on-advance",
    params={"field": "groups[0].order", "weapon": "Medium AT gun", "weapon_slug": "medium-at-gun"},
)


def _engine_codes() -> set[str]:
    codes = set()
    for path in Path(rules.combat.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "code" and isinstance(node.value, ast.Constant):
                codes.add(node.value.value)
    return codes


def test_it_has_a_sentence_for_every_code_the_engine_raises():
    codes = _engine_codes()
    assert "fixed-on-advance" in codes
    assert sorted(codes - set(MESSAGES)) == []


def test_it_shows_the_engine_message_without_its_field_in_english():
    with translation.override("en"):
        assert display_error(FIXED) == "Medium AT gun is a fixed weapon and cannot fire on an Advance order"


def test_it_rebuilds_the_message_in_french_with_the_french_weapon_name():
    with translation.override("fr"):
        message = display_error(FIXED, {"medium-at-gun": "Canon antichar moyen"})
    assert message == "Canon antichar moyen est une arme fixe et ne peut pas tirer avec un ordre Avancer."


def test_it_fills_the_numbers_of_a_french_message():
    error = RulesError("shots: must be at most 50, got 60", code="too-large", params={"maximum": 50, "value": 60})
    with translation.override("fr"):
        assert display_error(error) == "Au plus 50, et non 60."


def test_it_falls_back_to_english_for_an_unknown_code():
    error = RulesError("cover: something new went wrong", code="something-new", params={"field": "cover"})
    with translation.override("fr"):
        assert display_error(error) == "something new went wrong"


def test_it_falls_back_to_english_when_a_param_is_missing():
    error = RulesError(
        "order: Gun is a fixed weapon and cannot fire on an Advance order", code="fixed-on-advance", field="order"
    )
    with translation.override("fr"):
        assert display_error(error) == "Gun is a fixed weapon and cannot fire on an Advance order"
