"""Every language Muster offers: complete catalogues, and a held count of what is still untranslated.

French is complete; the other languages start from ``makemessages`` (every msgid, msgstr empty) and
are translated over time. ``UNTRANSLATED`` holds, per language, how many UI messages a visitor
would still read in English (an empty or fuzzy msgstr: ``compilemessages`` leaves both out of the
``.mo``). The count may only go down: a new English string without its translations fails here,
and a translation that lowers the count asks for the figure to be lowered, so it cannot creep
back up unnoticed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from tests.test_translations import ROOT, Entry, format_fields, messages, parse_po

# UI messages still untranslated, per language (project and playsheets catalogues together).
UNTRANSLATED = {"fr": 0, "de": 0, "pl": 0, "es": 0, "it": 0}

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]


def catalogues(language: str) -> list[Path]:
    return [
        ROOT / "locale" / language / "LC_MESSAGES" / "django.po",
        ROOT / "armybuilder" / "playsheets" / "locale" / language / "LC_MESSAGES" / "django.po",
    ]


def translated(entry: Entry) -> bool:
    return "fuzzy" not in entry.flags and bool(entry.msgstr) and all(entry.msgstr.values())


def by_key(language: str) -> dict[tuple[str | None, str], list[Entry]]:
    """Every message of the language's catalogues, with each catalogue's entry for it."""
    found: dict[tuple[str | None, str], list[Entry]] = {}
    for path in catalogues(language):
        for entry in messages(path):
            found.setdefault(entry.key, []).append(entry)
    return found


def untranslated(language: str) -> list[str]:
    # Django falls through to the next catalogue when one leaves a message out, so a message
    # translated in either catalogue reaches the page.
    return sorted(entries[0].msgid for entries in by_key(language).values() if not any(translated(e) for e in entries))


def test_it_holds_a_figure_for_every_language_it_offers() -> None:
    assert sorted(UNTRANSLATED) == sorted(LANGUAGES)
    for language in LANGUAGES:
        assert all(path.exists() for path in catalogues(language)), language


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_holds_the_count_of_untranslated_messages(language: str) -> None:
    missing = untranslated(language)
    held = UNTRANSLATED[language]
    assert len(missing) <= held, (
        f"{len(missing) - held} more untranslated UI message(s) in {language} than the {held} held; "
        f"translate them (first ones: {missing[:5]})"
    )
    assert len(missing) >= held, (
        f"{language} now has {len(missing)} untranslated UI messages, fewer than the {held} held: "
        f'lower UNTRANSLATED["{language}"] to {len(missing)} in {Path(__file__).name}'
    )


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "fr"])
def test_it_has_every_french_message_in_every_language(language: str) -> None:
    # French is kept complete by hand; a message added only there means makemessages was not run
    # for the other languages (`make catalogues`), so their translators would never see it.
    french = set(by_key("fr"))
    other = set(by_key(language))
    assert sorted(french - other, key=str) == []
    assert sorted(other - french, key=str) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_names_the_language_and_its_plural_forms_in_the_header(language: str) -> None:
    for path in catalogues(language):
        header = parse_po(path)[0]
        assert header.msgid == "" and "fuzzy" not in header.flags, path
        assert f"Language: {language}\n" in header.msgstr[0], path
        forms = re.search(r"nplurals=(\d+);", header.msgstr[0])
        assert forms, path
        wrong = [
            entry.where
            for entry in messages(path)
            if entry.msgid_plural is not None and set(entry.msgstr) != set(range(int(forms.group(1))))
        ]
        assert wrong == [], path


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_keeps_the_format_fields_of_every_translated_message(language: str) -> None:
    wrong = []
    for path in catalogues(language):
        for entry in messages(path):
            if not translated(entry):
                continue
            if entry.msgid_plural is None:
                if format_fields(entry.msgstr[0]) != format_fields(entry.msgid):
                    wrong.append(entry.where)
                continue
            # A singular form may leave out the count ("Ein Trupp"); every other form keeps all.
            if not format_fields(entry.msgstr[0]) <= format_fields(entry.msgid_plural):
                wrong.append(entry.where)
            for index, text in entry.msgstr.items():
                if index and format_fields(text) != format_fields(entry.msgid_plural):
                    wrong.append(f"{entry.where} [{index}]")
    assert wrong == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_translates_a_message_the_same_way_in_both_catalogues(language: str) -> None:
    contradictions = [
        (key, [entry.msgstr for entry in entries])
        for key, entries in by_key(language).items()
        if len({tuple(sorted(entry.msgstr.items())) for entry in entries if translated(entry)}) > 1
    ]
    assert contradictions == []


def test_it_counts_empty_and_fuzzy_messages_as_untranslated(tmp_path) -> None:
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: de\\n"\n\n'
        'msgid "Done"\nmsgstr "Fertig"\n\n'
        'msgid "Empty"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Guess"\nmsgstr "Vermutung"\n\n'
        'msgid "One"\nmsgid_plural "Many"\nmsgstr[0] "Eins"\nmsgstr[1] ""\n',
        encoding="utf-8",
    )
    assert [entry.msgid for entry in messages(po) if not translated(entry)] == ["Empty", "Guess", "One"]


# The German edition's terms (Warehouse Games' translation of the rulebook, as German reviews and
# players' write-ups quote it: roterdorn.de, magabotato.de); "Pins" is what German players say.
@pytest.mark.parametrize(
    ("msgid", "german"),
    [
        ("Order dice", "Befehlswürfel"),
        ("Order test", "Befehlsprobe"),
        ("Morale check", "Moralprobe"),
        ("Inexperienced", "Unerfahren"),
        ("Regular", "Regulär"),
        ("Veteran", "Veteran"),
        ("Pins", "Pins"),
        ("Pinned", "Niedergehalten"),
        ("Platoon", "Zug"),
        ("Advance", "Vorrücken"),
        ("Run", "Rennen"),
        ("Ambush", "Hinterhalt"),
        ("Rally", "Sammeln"),
        ("Close quarters", "Nahkampf"),
    ],
)
def test_it_uses_the_terms_of_the_german_rulebook(msgid: str, german: str) -> None:
    entries = by_key("de")[(None, msgid)]
    assert {entry.msgstr[0] for entry in entries} == {german}


# The Spanish terms Bolt Action players use (dados de orden, chequeo de orden, Inexperto/Regular/
# Veterano, the orders); pins are "marcadores de supresión"; a platoon is a "pelotón".
@pytest.mark.parametrize(
    ("msgid", "spanish"),
    [
        ("Order dice", "Dados de orden"),
        ("Order test", "Chequeo de orden"),
        ("Morale check", "Chequeo de moral"),
        ("Inexperienced", "Inexperto"),
        ("Regular", "Regular"),
        ("Veteran", "Veterano"),
        ("Pins", "Marcadores de supresión"),
        ("Platoon", "Pelotón"),
        ("Fire", "¡Fuego!"),
        ("Advance", "Avanzar"),
        ("Run", "Correr"),
        ("Ambush", "Emboscada"),
        ("Rally", "Reagrupar"),
        ("Down", "Cuerpo a tierra"),
        ("Close quarters", "Combate cuerpo a cuerpo"),
    ],
)
def test_it_uses_the_terms_spanish_players_use(msgid: str, spanish: str) -> None:
    entries = by_key("es")[(None, msgid)]
    assert {entry.msgstr[0] for entry in entries} == {spanish}


# The Italian terms players use (the Italian edition's order names and qualities as Italian clubs'
# and players' write-ups give them); Italian players keep the English "pin".
@pytest.mark.parametrize(
    ("msgid", "italian"),
    [
        ("Order dice", "Dadi ordine"),
        ("Order test", "Test d'ordine"),
        ("Morale check", "Controllo del morale"),
        ("Inexperienced", "Inesperto"),
        ("Regular", "Regolare"),
        ("Veteran", "Veterano"),
        ("Pins", "Pin"),
        ("Platoon", "Plotone"),
        ("Fire", "Fuoco"),
        ("Advance", "Avanzata"),
        ("Run", "Corsa"),
        ("Ambush", "Imboscata"),
        ("Rally", "Raggruppamento"),
        ("Down", "A terra"),
        ("Close quarters", "Corpo a corpo"),
    ],
)
def test_it_uses_the_terms_italian_players_use(msgid: str, italian: str) -> None:
    entries = by_key("it")[(None, msgid)]
    assert {entry.msgstr[0] for entry in entries} == {italian}


# The terms Polish players use at the table (the orders as the Polish quick-reference sheets name
# them, "kości rozkazów", "test rozkazu", "piny" for pin markers); standard Polish military terms
# (pluton, drużyna) otherwise.
@pytest.mark.parametrize(
    ("msgid", "polish"),
    [
        ("Order dice", "Kości rozkazów"),
        ("Order test", "Test rozkazu"),
        ("Morale check", "Test morale"),
        ("Inexperienced", "Niedoświadczony"),
        ("Regular", "Regularny"),
        ("Veteran", "Weteran"),
        ("Pins", "Piny"),
        ("Pinned", "Przyszpilony"),
        ("Platoon", "Pluton"),
        ("Fire", "Ogień"),
        ("Advance", "Naprzód"),
        ("Run", "Bieg"),
        ("Ambush", "Zasadzka"),
        # "Rajd" (a raid, a motor rally) misread the order; rallying a unit is regrouping it, and the
        # Polish rules reference (fixtures/src/reference_i18n/pl.json) says Przegrupowanie throughout.
        ("Rally", "Przegrupowanie"),
        ("Down", "Padnij"),
        ("Close quarters", "Walka wręcz"),
    ],
)
def test_it_uses_the_terms_polish_players_use(msgid: str, polish: str) -> None:
    entries = by_key("pl")[(None, msgid)]
    assert {entry.msgstr[0] for entry in entries} == {polish}
