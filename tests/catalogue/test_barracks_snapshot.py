"""The Barracks facts kept in the repository: enough for the generator and the tests, no sentence.

``fixtures/src/barracks_data`` replaces ../shared/data/barracks for everything but its own
regeneration, so a fresh clone (no ../shared beside it) generates the same fixture and runs the
same tests. These tests build upstream folders of their own: they need no ../shared either.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
SNAPSHOT = ROOT / "fixtures" / "src" / "barracks_data"
SENTENCE = "Every man in this unit sings the whole of the national anthem before each turn."
COMPOSITION = "1 NCO and 4 men, who carry their kit in the lorry behind"
ARMAMENT = "The NCO carries a pistol and every other man a rifle, polished for parade."
FREE = "Each such force may add one free gun of its choice beyond its usual artillery."


def _scripts():
    sys.path.insert(0, str(ROOT / "fixtures" / "src"))
    try:
        import barracks_snapshot
        import catalogue_barracks
    finally:
        sys.path.pop(0)
    return barracks_snapshot, catalogue_barracks


@pytest.fixture
def upstream(tmp_path) -> Path:
    """An upstream Barracks folder: the snapshot, with rule, composition and armament sentences added."""
    folder = tmp_path / "barracks"
    shutil.copytree(SNAPSHOT, folder, ignore=shutil.ignore_patterns("sentences.json", "NOTICE.md"))
    shutil.copy(ROOT / "fixtures" / "LICENSE-barracks.md", folder / "LICENSE.md")
    armies = json.loads((folder / "armies.json").read_text(encoding="utf-8"))
    armies["us"]["rules"][0]["description"] = SENTENCE
    free = next(rule for rule in armies["france"]["rules"] if rule.pop("free_units", None))
    free["description"] = FREE  # the number must come from the wording
    (folder / "armies.json").write_text(json.dumps(armies), encoding="utf-8")
    us = json.loads((folder / "units" / "us.json").read_text(encoding="utf-8"))
    squad = us["infantry"]["Infantry Squads and Teams"][0]
    squad["composition"] = {"description": COMPOSITION}
    squad["weapons"]["description"] = ARMAMENT
    ruled = next(unit for units in us["infantry"].values() for unit in units if unit["rules"])
    ruled["rules"][0] = f"{ruled['rules'][0]}: {SENTENCE}"  # as Barracks writes them: name, then text
    (folder / "units" / "us.json").write_text(json.dumps(us), encoding="utf-8")
    return folder


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def test_it_keeps_the_facts_and_no_sentence(upstream, tmp_path):
    snapshot, generator = _scripts()
    out = tmp_path / "snapshot"
    snapshot.write(upstream, out)
    text = "\n".join(path.read_text(encoding="utf-8") for path in out.rglob("*.json"))
    assert "national anthem" not in text and "lorry" not in text and "parade" not in text and "choice" not in text
    # Everything else is as committed: the rule is back to its name, the composition a count,
    # the armament the weapons it names, the free-unit rule its number.
    expected = json.loads((SNAPSHOT / "units" / "us.json").read_text(encoding="utf-8"))
    expected["infantry"]["Infantry Squads and Teams"][0]["composition"] = {"baseSize": 5}
    expected["infantry"]["Infantry Squads and Teams"][0]["weapons"]["description"] = "Pistol, Rifle"
    assert json.loads((out / "units" / "us.json").read_text(encoding="utf-8")) == expected
    assert (out / "armies.json").read_text(encoding="utf-8") == (SNAPSHOT / "armies.json").read_text(encoding="utf-8")
    digests = set(json.loads((out / "sentences.json").read_text(encoding="utf-8"))["digests"])
    for sentence in (SENTENCE, ARMAMENT, FREE, COMPOSITION):  # the tests can still recognise them
        assert snapshot.copied(sentence, digests), sentence
    assert "MIT License" in (out / "NOTICE.md").read_text(encoding="utf-8")
    # The generator makes the same fixture of the snapshot as of the upstream data.
    assert generator.generate(out)[0] == generator.generate(upstream)[0]


def _without_option_names(value):
    """``value`` with the options' names left out: an option is listed by its Barracks name, as a unit is."""
    if isinstance(value, dict):
        return {
            key: [{k: v for k, v in option.items() if k != "name"} for option in item]
            if key == "options"
            else _without_option_names(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_without_option_names(item) for item in value]
    return value


def test_the_committed_snapshot_holds_no_barracks_sentence():
    snapshot, _ = _scripts()
    digests = set(json.loads((SNAPSHOT / "sentences.json").read_text(encoding="utf-8"))["digests"])
    strings = [
        s
        for path in SNAPSHOT.rglob("*.json")
        if path.name != "sentences.json"
        for s in _strings(_without_option_names(json.loads(path.read_text(encoding="utf-8"))))
    ]
    assert len(strings) > 1000
    # Rule names are in Barracks' texts too ("Tough Fighters: ..."): only a run of words counts.
    assert [s for s in strings if len(s.split()) >= snapshot.SHINGLE and snapshot.copied(s, digests)] == []


def test_the_generator_checks_the_snapshot_against_upstream_when_there_is_one(upstream, tmp_path, monkeypatch):
    snapshot, generator = _scripts()
    out = tmp_path / "snapshot"
    snapshot.write(upstream, out)
    monkeypatch.setattr(snapshot, "SNAPSHOT", out)
    monkeypatch.setattr(generator, "DEFAULT_SOURCE", out)
    fixture = tmp_path / "55.json"
    fixture.write_text(generator.generate(out)[0], encoding="utf-8")
    monkeypatch.setattr(generator, "OUTPUT", fixture)

    monkeypatch.setattr(generator, "UPSTREAM", tmp_path / "no-shared-here")
    assert generator.main(["--check"]) == 0  # a fresh clone: the snapshot is all there is
    monkeypatch.setattr(generator, "UPSTREAM", upstream)
    assert generator.main(["--check"]) == 0

    us = json.loads((upstream / "units" / "us.json").read_text(encoding="utf-8"))
    cost = us["infantry"]["Infantry Squads and Teams"][0]["profiles"][0]["cost"]
    cost[next(iter(cost))] += 1  # a new price upstream
    (upstream / "units" / "us.json").write_text(json.dumps(us), encoding="utf-8")
    assert snapshot.stale(upstream, out) == ["units/us.json"]
    assert generator.main(["--check"]) == 1


def test_the_tests_read_the_snapshot_not_shared():
    from tests.catalogue import test_barracks_armies

    assert test_barracks_armies.BARRACKS == SNAPSHOT
    assert "shared" not in str(_scripts()[1].DEFAULT_SOURCE)


def test_a_free_unit_rule_keeps_its_number_not_its_wording():
    snapshot, _ = _scripts()
    assert snapshot.free_units("The army may field <b>two</b> free guns.") == 2
    assert snapshot.free_units("Take 1 spotter of the regular kind for free.") == 1
    assert snapshot.free_units("A free squad joins the force.") == 1
    assert snapshot.free_units("Nothing is given away here, free of charge or otherwise.") is None
    assert snapshot._army_rule({"name": "Gift", "description": "Add three free tanks."}) == {
        "name": "Gift",
        "free_units": 3,
    }
    assert snapshot._army_rule({"name": "Plain", "description": "Men fight hard."}) == {"name": "Plain"}


def test_a_weapon_the_armament_names_in_a_note_is_kept_as_its_mount():
    snapshot, generator = _scripts()
    text = "1 Forward facing launcher of many rockets (treat as heavy mortar)"
    assert snapshot.armament(text) == "1 hull front heavy mortar"
    assert generator.weapon_lines(snapshot.armament(text)) == generator.weapon_lines(text) != []
