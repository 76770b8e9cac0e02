"""The cases the phone's rules are tested on (tests/js/gameday_cases.json) are what the engine answers now,
and the log lines in them what the server writes now (board.log_line, in English and French).

Node's test runner checks static/js/game_rules.js against the file (``node --test tests/js/``, in
``make test``); this checks the file against rules.game.engine, so changing the engine without the phone
(or the file by hand) fails here, and changing the phone's copy alone fails there."""

from __future__ import annotations

import json
import shutil
import subprocess

from armybuilder.games.management.commands.gameday_js_cases import Command


def test_the_committed_cases_are_the_engines_answers_now():
    assert Command.path.read_text(encoding="utf-8") == Command.text(), (
        "rules.game.engine answers differently: run `manage.py gameday_js_cases`, then `node --test tests/js/`"
    )


def test_the_cases_are_hundreds_over_every_part():
    cases = json.loads(Command.path.read_text(encoding="utf-8"))
    parts = ("orders", "morale", "pins", "damage", "end_turn")
    assert {part: len(cases[part]) > 300 for part in parts} == dict.fromkeys(parts, True)


def test_the_log_cases_are_the_servers_lines_in_english_french_and_polish_for_every_kind_the_phone_writes():
    cases = json.loads(Command.path.read_text(encoding="utf-8"))
    kinds = {case["entry"]["kind"] for case in cases["log"]}
    phone = {"draw", "order", "snap", "pins", "casualties", "damage", "remove", "send_back", "support", "end_turn"}
    assert (kinds, sorted(cases["log_words"])) == (phone, ["en", "fr", "pl"])
    assert all(case["line"]["en"] != case["line"]["fr"] for case in cases["log"])
    # Polish's three plural forms of a casualty are each met (1; 2-4 and 22-24; 5-21).
    polish = {
        case["line"]["pl"].split(": ", 1)[1].split(" (")[0]
        for case in cases["log"]
        if case["entry"]["kind"] == "casualties"
    }
    assert len({line.split(" ", 1)[1] for line in polish if line[0].isdigit()}) >= 3, polish


def test_node_runs_the_phones_rules_against_them():
    assert shutil.which("node"), "Node runs the phone's rules: `scripts/system-deps.sh test` installs it"
    done = subprocess.run(["node", "--test", "tests/js/"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
