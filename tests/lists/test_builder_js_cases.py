"""The cases the phone's pricing is tested on (tests/js/builder_pricing_cases.json) are what the rules answer now.

Node's test runner checks static/js/builder_logic.js against the file (``node --test tests/js/``, in
``make test``); this checks the file against rules.army.points, so changing the rules without the
phone (or the file by hand) fails here, and changing the phone's copy alone fails there."""

from __future__ import annotations

import json

from armybuilder.lists.management.commands.builder_js_cases import Command
from rules.army.js_price_cases import UNITS
from rules.army.price_table import encode


def test_the_committed_cases_are_the_rules_answers_now():
    assert Command.path.read_text(encoding="utf-8") == Command.text(), (
        "rules.army.points answers differently: run `manage.py builder_js_cases`, then `node --test tests/js/`"
    )


def test_the_cases_price_and_refuse_every_unit_shape():
    written = json.loads(Command.path.read_text(encoding="utf-8"))
    assert len(written["cases"]) > 500
    for number, table in enumerate(written["tables"]):
        answers = [case["points"] for case in written["cases"] if case["table"] == number]
        assert any(points is None for points in answers) and any(points is not None for points in answers), table
    # The shapes that need care: a team within the largest size, a free unit, an option saving points.
    assert ":w:2" in written["tables"][1] and ":f:" in written["tables"][2] and "-15" in written["tables"][3]


def test_the_table_encodes_a_unit_as_the_builder_page_carries_it():
    assert encode(UNITS[0]) == "5,10|,50,65|,10,13|smg:,4,4::;lmg-team:,20,26::2;grenades:,2,2:a:;flag:,7,7::"
