"""Roll modifiers named by the combat engine, shown in the active language on the calculator pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from armybuilder.resolver.modifiers import NAMES, modifier_name

ENGINE = Path(__file__).resolve().parents[2] / "rules" / "combat"


def _engine_names() -> set[str]:
    """Every modifier name written as a literal in the engine's ``mods.append((...))`` calls."""
    names = set()
    for source in ENGINE.glob("*.py"):
        for line in source.read_text().splitlines():
            if "mods.append((" in line:
                names |= {text for text in re.findall(r'"([^"{]+)"', line) if text[:1].isupper()}
    return names


def test_every_modifier_the_engine_names_is_translatable():
    names = _engine_names()
    assert {"Long range", "Fire on the move", "Gun shield", "HE Pen", "Pen"} <= names
    assert names <= set(NAMES)


@pytest.mark.parametrize(
    ("name", "french"),
    [
        ("Fire on the move", "Tir en mouvement"),
        ("Long range", "Longue portée"),
        ("Side armour", "Blindage latéral"),
        ("Pinned (2)", "Marqueurs PIN (2)"),
        ("Something new", "Something new"),  # unknown: as the engine wrote it
    ],
)
def test_it_names_modifiers_in_french(name, french):
    with translation.override("fr"):
        assert modifier_name(name) == french
    with translation.override("en"):
        assert modifier_name(name) == name


@pytest.mark.django_db
def test_the_anti_tank_page_lists_its_modifiers_in_french(client, charts):
    client.cookies["django_language"] = "fr"
    url = "/calc/anti-tank/?edition=v3&weapon=medium-at-gun&shots=1&order=advance&damage_value=9&facing=front"
    response = client.get(url)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Tir en mouvement" in text
    assert "Fire on the move" not in text
