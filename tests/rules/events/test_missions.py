from __future__ import annotations

import random

import pytest

from rules.events.missions import Mission, MissionError, find, parse, roll

V3 = """Key Positions / Long edges / Meeting engagement

Envelopment /Short edges/  Prepared positions
key positions / long edges / meeting engagement
Key Positions / Long edges / Meeting engagement
"""


def test_third_edition_missions_have_three_parts_and_are_kept_once_case_aside():
    missions = parse(V3, "v3")
    assert [m.parts for m in missions] == [
        ("Key Positions", "Long edges", "Meeting engagement"),
        ("Envelopment", "Short edges", "Prepared positions"),
    ]
    assert missions[1].label == "Envelopment / Short edges / Prepared positions"


def test_second_edition_missions_are_one_name():
    assert [m.label for m in parse("Top Secret\nDemolition\n", "v2")] == ["Top Secret", "Demolition"]


@pytest.mark.parametrize(
    ("text", "edition", "code", "line"),
    [
        ("Key Positions / Long edges", "v3", "parts", 1),
        ("A / B / C\n\nA / / C", "v3", "empty-part", 3),
        ("Top Secret / Long edges", "v2", "one-part", 1),
        ("A / B / " + "x" * 61, "v3", "too-long", 1),
        ("\n".join(f"Mission {n}" for n in range(25)), "v2", "too-many", 0),
    ],
)
def test_lines_that_are_not_missions_are_refused_with_their_line(text, edition, code, line):
    with pytest.raises(MissionError) as refused:
        parse(text, edition)
    assert (refused.value.code, refused.value.line) == (code, line)


def test_find_ignores_case_and_spaces_and_refuses_an_unknown_mission():
    missions = parse(V3, "v3")
    assert find(missions, "ENVELOPMENT /  short edges / prepared positions") == missions[1]
    assert find(missions, "Envelopment / Long edges / Prepared positions") is None


def test_a_seeded_roll_is_the_same_every_time():
    missions = [Mission((name,)) for name in ("A", "B", "C", "D")]
    first = [roll(missions, random.Random(7)).label for _ in range(3)]
    assert first == [roll(missions, random.Random(7)).label for _ in range(3)]
    assert {roll(missions, random.Random(seed)).label for seed in range(40)} == {"A", "B", "C", "D"}
    with pytest.raises(MissionError):
        roll([], random.Random(1))
