"""French names of the built-in data: the glossary's composer, and how many names stay English.

``UNTRANSLATED_MAX`` is the recorded count of built-in unit, option, weapon, rule and army names
with no French: it may only go down. Before the glossary (``armydata.glossary_fr``) the
2nd-edition national armies had 313 of them (219 unit names, 94 option names).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from armydata import glossary_fr
from armydata.french import french_name, is_designation

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = (
    "10_v1_reference.json",
    "20_v2_reference.json",
    "30_v3_reference.json",
    "50_catalogue_v2_generic.json",
    "55_catalogue_v2_barracks.json",
    "60_catalogue_v3_generic.json",
)
NAMED = {"catalogue.army", "catalogue.unit", "catalogue.option", "reference.weapon", "reference.specialrule"}

# The recorded figure: lower it when names get their French, never raise it.
UNTRANSLATED_MAX = 0


def _rows():
    for name in BUILT_IN:
        for row in json.loads((ROOT / "fixtures" / name).read_text(encoding="utf-8")):
            if row["model"] in NAMED:
                yield name, row["model"], row["fields"]


def untranslated() -> set[tuple[str, str]]:
    return {(model, fields["name"]) for _file, model, fields in _rows() if not fields.get("name_fr")}


def test_the_count_of_untranslated_built_in_names_only_goes_down():
    missing = untranslated()
    assert len(missing) <= UNTRANSLATED_MAX, sorted(missing)


def test_the_count_is_of_real_rows():
    # The figure above would be meaningless if the fixtures had no names to count.
    rows = list(_rows())
    assert sum(1 for _f, model, _fields in rows if model == "catalogue.unit") > 300
    assert sum(1 for _f, model, _fields in rows if model == "catalogue.option") > 400


def test_the_barracks_fixture_holds_the_glossarys_french():
    for file, model, fields in _rows():
        if file == "55_catalogue_v2_barracks.json" and model in ("catalogue.unit", "catalogue.option"):
            limit = 120 if model == "catalogue.unit" else 160  # the fields' lengths
            assert fields["name_fr"] == (french_name(fields["name"]) or "")[:limit]


@pytest.mark.parametrize(
    ("english", "french"),
    [
        # The examples.
        ("Assault rifle", "Fusil d'assaut"),
        ("Spotter", "Observateur"),
        ("Anti-tank grenades (if no Panzerfaust taken)", "Grenades antichar (si pas de Panzerfaust)"),
        # Composed from patterns and terms.
        ("Regular Infantry Squad (Late-War)", "Escouade d'infanterie régulière (fin de guerre)"),
        ("Pintle-mounted MMG with 360° arc of fire", "MMG sur affût pivot avec arc de tir à 360°"),
        ("Replace MMG with HMG", "Remplacer MMG par HMG"),
        ("95mm medium howitzer - replaces AT gun", "Obusier moyen 95mm (remplace canon antichar)"),
        ("BT-7 Light Tank", "Char léger BT-7"),
        ("SdKfz 251 Hanomag Half-Track", "Semi-chenillé SdKfz 251 Hanomag"),
        ("Gewehr 43 Sniper Team", "Équipe de tireur d'élite Gewehr 43"),
        ("Horse (Captain / Major only)", "Cheval (capitaine / commandant seulement)"),
        # Designations French players use as they are.
        ("Panzer IV Ausf H", "Panzer IV Ausf H"),
        ("QF 17-pdr", "QF 17-pdr"),
    ],
)
def test_it_composes_french_names(english, french):
    assert french_name(english) == french


@pytest.mark.parametrize("english", ["Flux capacitor", "Pintle-mounted flux capacitor", "Replace MMG with wishes", ""])
def test_a_name_with_an_unknown_word_stays_english(english):
    assert french_name(english) is None


def test_designations_are_words_with_digits_capitals_or_known_names():
    assert is_designation("M4A1 Sherman 75mm")
    assert is_designation("NKVD")
    assert not is_designation("Half-Track")
    assert not is_designation("Rifle")


def test_every_glossary_block_names_its_source():
    for blocks in (glossary_fr.WHOLE, glossary_fr.TERMS):
        for source, entries in blocks.items():
            assert source in (glossary_fr.FR_RULEBOOK, glossary_fr.MUSTER_FR, glossary_fr.MILITARY_FR)
            assert entries and all(english and french for english, french in entries.items())
    assert glossary_fr.KEEP_SOURCE and glossary_fr.PATTERNS_SOURCE
