"""Built-in names in every language Muster offers: how many stay English, and the German and Spanish glossaries.

``UNTRANSLATED`` holds, per language, how many distinct built-in army, unit, option, weapon and
rule names a visitor still reads in English; ``UNTRANSLATED_ARMAMENT`` the same for units'
printed armament. French counts the stored ``name_fr`` (filled from ``armydata.glossary_fr``);
the other languages count what ``armydata.names`` composes at render time (German from
``armydata.glossary_de``, Spanish from ``armydata.glossary_es``, Italian from ``armydata.glossary_it``, Polish from
``armydata.glossary_pl``; a language with no
glossary yet, so every name stays English). The figures may only go down: the test fails if one
goes up, and asks for the figure to be lowered when it goes down.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from armydata import glossary_de, glossary_es, glossary_it, glossary_pl
from armydata.names import is_designation, translated_armament, translated_name

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

UNTRANSLATED = {"fr": 0, "de": 0, "pl": 0, "es": 0, "it": 0}
UNTRANSLATED_ARMAMENT = {"fr": 0, "de": 0, "pl": 0, "es": 0, "it": 0}

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]


def _rows():
    for name in BUILT_IN:
        for row in json.loads((ROOT / "fixtures" / name).read_text(encoding="utf-8")):
            if row["model"] in NAMED:
                yield row["model"], row["fields"]


def untranslated_names(language: str) -> set[tuple[str, str]]:
    if language == "fr":
        return {(model, fields["name"]) for model, fields in _rows() if not fields.get("name_fr")}
    return {(model, fields["name"]) for model, fields in _rows() if translated_name(fields["name"], language) is None}


def untranslated_armament(language: str) -> set[str]:
    texts = {
        fields["weapons_text"]: fields.get("weapons_text_fr", "")
        for model, fields in _rows()
        if model == "catalogue.unit"
    }
    texts.pop("", None)
    if language == "fr":
        return {text for text, french in texts.items() if not french}
    return {text for text in texts if translated_armament(text, language) is None}


def _hold(language: str, missing: set, held: int, figure: str) -> None:
    assert len(missing) <= held, (
        f"{len(missing) - held} more built-in name(s) untranslated in {language} than the {held} held "
        f"(add them to its glossary): {sorted(missing, key=str)[:8]}"
    )
    assert len(missing) >= held, (
        f"{language} now has {len(missing)} untranslated, fewer than the {held} held: "
        f'lower {figure}["{language}"] to {len(missing)} in {Path(__file__).name}'
    )


def test_it_holds_a_figure_for_every_language_it_offers() -> None:
    assert sorted(UNTRANSLATED) == sorted(LANGUAGES) == sorted(UNTRANSLATED_ARMAMENT)


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_holds_the_count_of_untranslated_built_in_names(language: str) -> None:
    _hold(language, untranslated_names(language), UNTRANSLATED[language], "UNTRANSLATED")


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_holds_the_count_of_untranslated_armament(language: str) -> None:
    _hold(language, untranslated_armament(language), UNTRANSLATED_ARMAMENT[language], "UNTRANSLATED_ARMAMENT")


def test_the_counts_are_of_real_rows() -> None:
    # A figure of 0 would mean nothing if the fixtures had no names to count.
    names = {(model, fields["name"]) for model, fields in _rows()}
    assert len(names) > 400
    assert len(untranslated_armament("nl")) > 50  # a language with no glossary: every armament counts


@pytest.mark.parametrize(
    ("english", "german"),
    [
        # Whole names and terms.
        ("Heer Grenadier Squad", "Grenadiertrupp (Heer)"),
        ("Inexperienced Infantry Squad", "Unerfahrener Infanterietrupp"),
        ("Assault rifle", "Sturmgewehr"),
        ("Anti-tank grenades (if no Panzerfaust taken)", "Panzerabwehrgranaten (nur ohne Panzerfaust)"),
        # Composed from patterns and terms.
        ("Regular Infantry Squad (Late-War)", "Regulärer Infanterietrupp (späte Kriegsjahre)"),
        ("Pintle-mounted MMG with 360° arc of fire", "MMG auf Pivotlafette mit 360°-Feuerbereich"),
        ("Replace MMG with HMG", "MMG durch HMG ersetzen"),
        ("95mm medium howitzer - replaces AT gun", "Mittlere Haubitze 95mm (ersetzt Panzerabwehrkanone)"),
        ("BT-7 Light Tank", "Leichter Panzer BT-7"),
        ("Horse (Captain / Major only)", "Pferd (nur Hauptmann / Major)"),
        # A designation and a term that compounds.
        ("NKVD Squad", "NKVD-Trupp"),
        ("Fallschirmjäger Squad (Early War)", "Fallschirmjäger-Trupp (frühe Kriegsjahre)"),
        ("PIAT Team", "PIAT-Team"),
        # Designations German players use as they are.
        ("Panzer IV Ausf H", "Panzer IV Ausf H"),
        ("QF 17-pdr", "QF 17-pdr"),
        # Armies and rules.
        ("Germany", "Deutschland"),
        ("Tiger Fear", "Tigerangst"),
    ],
)
def test_it_composes_german_names(english: str, german: str) -> None:
    assert translated_name(english, "de") == german


def test_it_composes_a_units_armament_weapon_by_weapon() -> None:
    assert translated_armament("Pistol, Submachine gun (SMG), Rifle", "de") == "Pistole, Maschinenpistole (SMG), Gewehr"
    assert (
        translated_armament("Medium anti-tank gun (turret, 360°); Medium machine gun (MMG) (hull, front)", "de")
        == "Mittlere Panzerabwehrkanone (Turm, 360°); Mittleres Maschinengewehr (MMG) (Wanne, vorn)"
    )
    # One unknown weapon keeps the whole armament English, never half translated.
    assert translated_armament("Rifle, Flux capacitor", "de") is None


@pytest.mark.parametrize(
    ("english", "italian"),
    [
        # Whole names and terms; Italy's own units keep the Regio Esercito's names.
        ("Heer Grenadier Squad", "Squadra granatieri (Heer)"),
        ("Bersaglieri Infantry Section", "Squadra Bersaglieri"),
        ("Blackshirt 'M' Battalion Squad", "Squadra Camicie Nere (battaglione “M”)"),
        ("Assault rifle", "Fucile d'assalto"),
        ("Anti-tank grenades (if no Panzerfaust taken)", "Granate anticarro (solo senza Panzerfaust)"),
        # Composed from patterns and terms: the adjective and the designation follow the noun.
        ("Regular Infantry Squad (Late-War)", "Squadra di fanteria regolare (fine guerra)"),
        ("Pintle-mounted MMG with 360° arc of fire", "MMG su supporto a perno con arco di tiro a 360°"),
        ("Replace MMG with HMG", "Sostituire MMG con HMG"),
        ("95mm medium howitzer - replaces AT gun", "Obice medio 95mm (sostituisce cannone anticarro)"),
        ("BT-7 Light Tank", "Carro leggero BT-7"),
        ("M11/39 Medium Tank", "Carro medio M11/39"),
        ("Horse (Captain / Major only)", "Cavallo (solo capitano / maggiore)"),
        ("PIAT Team", "Squadra PIAT"),
        # Designations Italian players use as they are.
        ("Panzer IV Ausf H", "Panzer IV Ausf H"),
        ("Semovente 75/18", "Semovente 75/18"),
        # Armies and rules.
        ("Italy", "Italia"),
        ("Tiger Fear", "Paura del Tiger"),
    ],
)
def test_it_composes_italian_names(english: str, italian: str) -> None:
    assert translated_name(english, "it") == italian


def test_it_composes_a_units_armament_in_italian() -> None:
    assert translated_armament("Pistol, Submachine gun (SMG), Rifle", "it") == "Pistola, Mitra (SMG), Fucile"
    assert (
        translated_armament("Medium anti-tank gun (turret, 360°); Medium machine gun (MMG) (hull, front)", "it")
        == "Cannone anticarro medio (torretta, 360°); Mitragliatrice media (MMG) (scafo, fronte)"
    )
    assert translated_armament("Rifle, Flux capacitor", "it") is None


def test_the_italian_glossary_names_a_source_for_every_block() -> None:
    sources = {glossary_it.IT_PLAYERS, glossary_it.REGIO_ESERCITO, glossary_it.MUSTER_IT, glossary_it.MILITARY_IT}
    for blocks in (glossary_it.WHOLE, glossary_it.TERMS):
        assert set(blocks) <= sources
    assert glossary_it.KEEP_SOURCE and glossary_it.PATTERNS_SOURCE


@pytest.mark.parametrize("language", ["de", "es", "fr", "it", "pl"])
@pytest.mark.parametrize("english", ["Flux capacitor", "Pintle-mounted flux capacitor", "Replace MMG with wishes", ""])
def test_a_name_with_an_unknown_word_stays_english(language: str, english: str) -> None:
    assert translated_name(english, language) is None


def test_a_language_without_a_glossary_keeps_every_name_english() -> None:
    assert translated_name("Rifle", "nl") is None  # Dutch: not offered, no glossary
    assert translated_name("Rifle", "de-at") == "Gewehr"  # a regional variant uses its language's glossary


def test_the_german_glossary_names_a_source_for_every_block() -> None:
    assert is_designation("SdKfz 251", "de") and not is_designation("Half-Track", "de")
    for blocks in (glossary_de.WHOLE, glossary_de.TERMS):
        assert set(blocks) <= {glossary_de.DE_RULEBOOK, glossary_de.MUSTER_DE, glossary_de.MILITARY_DE}
    assert glossary_de.KEEP_SOURCE and glossary_de.PATTERNS_SOURCE


@pytest.mark.parametrize(
    ("english", "spanish"),
    [
        # Whole names and terms.
        ("Heer Grenadier Squad", "Escuadra de granaderos (Heer)"),
        ("Inexperienced Infantry Squad", "Escuadra de infantería inexperta"),
        ("Assault rifle", "Fusil de asalto"),
        ("Anti-tank grenades (if no Panzerfaust taken)", "Granadas antitanque (si no se toma Panzerfaust)"),
        # Composed from patterns and terms, the adjective after its noun.
        ("Regular Infantry Squad (Late-War)", "Escuadra de infantería regular (final de la guerra)"),
        ("Pintle-mounted MMG with 360° arc of fire", "MMG sobre afuste de pivote con arco de fuego de 360°"),
        ("Replace MMG with HMG", "Sustituir MMG por HMG"),
        ("95mm medium howitzer - replaces AT gun", "Obús medio 95mm (en lugar de cañón antitanque)"),
        ("BT-7 Light Tank", "Carro ligero BT-7"),
        ("Horse (Captain / Major only)", "Caballo (solo capitán / comandante)"),
        # A designation after its term.
        ("NKVD Squad", "Escuadra NKVD"),
        ("PIAT Team", "Equipo PIAT"),
        # Designations Spanish players use as they are.
        ("Panzer IV Ausf H", "Panzer IV Ausf H"),
        # Armies and rules, as the Spanish interface names them.
        ("Germany", "Alemania"),
        ("Tiger Fear", "Miedo al Tiger"),
        ("Not One Step Back!", "¡Ni un paso atrás!"),
    ],
)
def test_it_composes_spanish_names(english: str, spanish: str) -> None:
    assert translated_name(english, "es") == spanish


def test_it_composes_a_units_armament_in_spanish() -> None:
    assert (
        translated_armament("Medium anti-tank gun (turret, 360°); Medium machine gun (MMG) (hull, front)", "es")
        == "Cañón antitanque medio (torreta, 360°); Ametralladora media (MMG) (casco, frente)"
    )
    assert translated_armament("Rifle, Flux capacitor", "es") is None


def test_the_spanish_glossary_names_a_source_for_every_block() -> None:
    for blocks in (glossary_es.WHOLE, glossary_es.TERMS):
        assert set(blocks) <= {glossary_es.ES_PLAYERS, glossary_es.MUSTER_ES, glossary_es.MILITARY_ES}
    assert glossary_es.KEEP_SOURCE and glossary_es.PATTERNS_SOURCE


@pytest.mark.parametrize(
    ("english", "polish"),
    [
        # Whole names and terms: the adjective agrees with its noun.
        ("Heer Grenadier Squad", "Drużyna grenadierów (Heer)"),
        ("Inexperienced Infantry Squad", "Niedoświadczona drużyna piechoty"),
        ("Assault rifle", "Karabin szturmowy"),
        ("Anti-tank grenades (if no Panzerfaust taken)", "Granaty przeciwpancerne (tylko bez Panzerfausta)"),
        # Composed from patterns and terms, in Polish order: the noun first, its adjective after.
        ("Regular Infantry Squad (Late-War)", "Regularna drużyna piechoty (późny okres wojny)"),
        ("Pintle-mounted MMG with 360° arc of fire", "MMG na obrotnicy z sektorem ostrzału 360°"),
        ("Replace MMG with HMG", "Wymiana MMG → HMG"),
        ("95mm medium howitzer - replaces AT gun", "Haubica średnia 95mm (zastępuje: działo przeciwpancerne)"),
        ("BT-7 Light Tank", "Czołg lekki BT-7"),
        ("Horse (Captain / Major only)", "Koń (tylko kapitan / major)"),
        # A designation and a term: no compound in Polish.
        ("NKVD Squad", "Drużyna NKVD"),
        ("Fallschirmjäger Squad (Early War)", "Drużyna Fallschirmjäger (wczesny okres wojny)"),
        ("PIAT Team", "Zespół PIAT"),
        # Designations Polish players use as they are.
        ("Panzer IV Ausf H", "Panzer IV Ausf H"),
        ("QF 17-pdr", "QF 17-pdr"),
        # Armies and rules.
        ("Germany", "Niemcy"),
        ("Tiger Fear", "Strach przed Tygrysem"),
    ],
)
def test_it_composes_polish_names(english: str, polish: str) -> None:
    assert translated_name(english, "pl") == polish


def test_it_composes_a_units_armament_in_polish() -> None:
    assert (
        translated_armament("Medium anti-tank gun (turret, 360°); Medium machine gun (MMG) (hull, front)", "pl")
        == "Działo przeciwpancerne średnie (wieża, 360°); Ciężki karabin maszynowy (MMG) (kadłub, przód)"
    )
    assert translated_armament("Rifle, Flux capacitor", "pl") is None


def test_the_polish_glossary_names_a_source_for_every_block() -> None:
    for blocks in (glossary_pl.WHOLE, glossary_pl.TERMS):
        assert set(blocks) <= {glossary_pl.PL_PLAYERS, glossary_pl.MUSTER_PL, glossary_pl.MILITARY_PL}
    assert glossary_pl.KEEP_SOURCE and glossary_pl.PATTERNS_SOURCE


@pytest.mark.django_db
def test_a_model_shows_the_name_of_the_active_language() -> None:
    from tests.reference.factories import make_edition, make_weapon

    weapon = make_weapon(make_edition(), name="Assault rifle", name_fr="Fusil d'assaut")
    shown = {}
    for language in ("en", "fr", "de", "es", "it", "pl"):
        with translation.override(language):
            shown[language] = weapon.display_name
    assert shown == {
        "en": "Assault rifle",
        "fr": "Fusil d'assaut",
        "de": "Sturmgewehr",
        "es": "Fusil de asalto",
        "it": "Fucile d'assalto",
        "pl": "Karabin szturmowy",
    }
