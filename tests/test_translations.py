"""The French translation: complete catalogues, and French pages for a visitor who chose French.

The catalogues are read with a small parser of their own (no polib): every entry needs a msgstr, none
may be fuzzy, and a translation keeps the msgid's format fields (%(name)s, {}). The pages go through the test client
with the ``django_language`` cookie (or ``Accept-Language``) set to French; ``make test`` compiles the
catalogues before pytest runs.
"""

from __future__ import annotations

import ast
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from armybuilder.reference.models import Edition
from tests.reference.factories import make_edition, make_weapon

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PO = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
PLAYSHEETS_PO = ROOT / "armybuilder" / "playsheets" / "locale" / "fr" / "LC_MESSAGES" / "django.po"
CATALOGUES = [PROJECT_PO, PLAYSHEETS_PO]

# %(name)s, %(count)d ... and {} / {name}; "%%" is a literal percent sign.
PLACEHOLDER = re.compile(r"%\([^)]+\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]|\{[^{}]*\}")


# --- a small .po parser ---------------------------------------------------------------------------


@dataclass
class Entry:
    line: int
    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def where(self) -> str:
        return f"line {self.line}: {self.msgid[:60]!r}"


def parse_po(path: Path) -> list[Entry]:
    """The live entries of a .po file (obsolete ``#~`` entries are left out), header included."""
    entries: list[Entry] = []
    current: Entry | None = None
    field_name, index = "", 0  # the field that a continuation line ("...") extends

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            if not line and current is not None:
                entries.append(current)
                current = None
            continue
        if line.startswith('"'):
            assert current is not None and field_name, f"{path.name}:{number}: a string outside any field"
            _append(current, field_name, index, ast.literal_eval(line))
            continue
        keyword = line.split(" ", 1)[0]
        starts_entry = line.startswith("#") or keyword in ("msgctxt", "msgid")
        if current is not None and current.msgstr and starts_entry:
            entries.append(current)  # the next entry, even without a blank line between them
            current = None
        if current is None:
            current = Entry(line=number)
        if line.startswith("#"):
            if line.startswith("#,"):
                current.flags.update(flag.strip() for flag in line[2:].split(",") if flag.strip())
            continue
        match = re.fullmatch(r"(msgctxt|msgid|msgid_plural|msgstr)(?:\[(\d+)\])?", keyword)
        assert match, f"{path.name}:{number}: unknown keyword {keyword!r}"
        field_name, index = match.group(1), int(match.group(2) or 0)
        if field_name == "msgstr":
            current.msgstr[index] = ""
        else:
            setattr(current, field_name, "")
        _append(current, field_name, index, ast.literal_eval(line[len(keyword) :].strip()))
    if current is not None:
        entries.append(current)
    return entries


def _append(entry: Entry, field_name: str, index: int, text: str) -> None:
    if field_name == "msgstr":
        entry.msgstr[index] += text
    else:
        setattr(entry, field_name, getattr(entry, field_name) + text)


def messages(path: Path) -> list[Entry]:
    """The entries that are messages: everything but the header (the entry whose msgid is empty)."""
    return [entry for entry in parse_po(path) if entry.msgid]


def format_fields(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text.replace("%%", "")))


# --- the catalogues -------------------------------------------------------------------------------


def test_it_parses_the_catalogues_it_checks() -> None:
    entries = messages(PROJECT_PO)
    by_key = {entry.key: entry for entry in entries}
    assert len(entries) > 500
    assert by_key[(None, "Order test")].msgstr == {0: "Test d'ordre"}
    assert by_key[("pin markers on a unit card", "Pins")].msgstr[0]
    plural = by_key[(None, "%(n)s casualty")]
    assert plural.msgid_plural == "%(n)s casualties"
    assert plural.msgstr == {0: "%(n)s perte", 1: "%(n)s pertes"}
    assert len(messages(PLAYSHEETS_PO)) > 10


def test_it_parses_continuation_lines_flags_and_obsolete_entries(tmp_path) -> None:
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'
        '#: a.py:1\n#, fuzzy, python-format\nmsgid ""\n"Hello "\n"%(name)s"\nmsgstr "Bonjour %(name)s"\n\n'
        'msgctxt "menu"\nmsgid "One"\nmsgid_plural "Many"\nmsgstr[0] ""\nmsgstr[1] "Plusieurs"\n\n'
        '#~ msgid "Gone"\n#~ msgstr "Parti"\n',
        encoding="utf-8",
    )
    header, greeting, plural = parse_po(po)
    assert header.msgid == "" and "Language: fr" in header.msgstr[0]
    assert greeting.msgid == "Hello %(name)s" and greeting.flags == {"fuzzy", "python-format"}
    assert plural.key == ("menu", "One") and plural.msgstr == {0: "", 1: "Plusieurs"}


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_it_has_no_empty_translation(path: Path) -> None:
    empty = [entry.where for entry in messages(path) if not entry.msgstr or not all(entry.msgstr.values())]
    assert empty == []


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_it_has_no_fuzzy_translation(path: Path) -> None:
    assert [entry.where for entry in parse_po(path) if "fuzzy" in entry.flags] == []


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_it_gives_french_plurals_two_forms(path: Path) -> None:
    assert "nplurals=2; plural=(n > 1);" in parse_po(path)[0].msgstr[0]
    wrong = [entry.where for entry in messages(path) if entry.msgid_plural is not None and set(entry.msgstr) != {0, 1}]
    assert wrong == []


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_it_keeps_the_format_fields_of_every_message(path: Path) -> None:
    wrong = []
    for entry in messages(path):
        if entry.msgid_plural is None:
            if format_fields(entry.msgstr[0]) != format_fields(entry.msgid):
                wrong.append(entry.where)
            continue
        # The singular form may leave out the count ("Un des vôtres"); the plural form keeps everything.
        if not format_fields(entry.msgstr[0]) <= format_fields(entry.msgid_plural):
            wrong.append(entry.where)
        if format_fields(entry.msgstr[1]) != format_fields(entry.msgid_plural):
            wrong.append(entry.where)
    assert wrong == []


def test_it_translates_a_message_the_same_way_in_both_catalogues() -> None:
    # The project catalogue (LOCALE_PATHS) wins at run time; the playsheets one must not say otherwise.
    project = {entry.key: entry.msgstr for entry in messages(PROJECT_PO)}
    contradictions = [
        (entry.key, entry.msgstr, project[entry.key])
        for entry in messages(PLAYSHEETS_PO)
        if entry.key in project and project[entry.key] != entry.msgstr
    ]
    assert contradictions == []


@pytest.mark.parametrize(
    ("msgid", "french"),
    [
        ("Fire", "Tirer"),
        ("Advance", "Avancer"),
        ("Order dice", "Dés d'ordre"),
        ("Order test", "Test d'ordre"),
        ("Pinned", "Cloué au sol"),
        ("Soft cover", "Couvert léger"),
        ("Hard cover", "Couvert lourd"),
        ("Inexperienced", "Inexpérimenté"),
        ("Regular", "Régulier"),
        ("Veteran", "Vétéran"),
        ("Close quarters", "Corps à corps"),
        ("Damage value", "Valeur de dégâts"),
    ],
)
def test_it_uses_the_terms_of_the_french_rulebook(msgid: str, french: str) -> None:
    project = {entry.key: entry.msgstr for entry in messages(PROJECT_PO)}
    assert project[(None, msgid)] == {0: french}


# --- French pages ---------------------------------------------------------------------------------


@pytest.fixture
def editions(db):
    """Two editions the calculators know, with French names, and a rifle in each chart."""
    made = {}
    for number, name, name_fr in ((2, "2nd edition", "2e édition"), (3, "3rd edition", "3e édition")):
        edition = make_edition(number=number, name=name, name_fr=name_fr, year=2000 + number)
        make_weapon(edition, name="Rifle", name_fr="Fusil", position=1, pen=0, source="test")
        made[edition.slug] = edition
    return made


def page_text(response) -> str:
    assert response.status_code == 200
    return html.unescape(response.content.decode())


@pytest.mark.django_db
def test_it_shows_the_home_page_in_french(fr_client) -> None:
    text = page_text(fr_client.get("/"))
    assert '<html lang="fr"' in text
    assert "Composez vos listes d'armée Bolt Action" in text
    assert "Référence des règles" in text
    assert "Mes listes" in text
    assert "Build Bolt Action army lists" not in text


@pytest.mark.django_db
def test_it_follows_the_accept_language_header(client) -> None:
    text = page_text(client.get("/", headers={"accept-language": "fr-FR,fr;q=0.9"}))
    assert "Composez vos listes d'armée Bolt Action" in text


@pytest.mark.django_db
def test_it_stays_in_english_without_a_choice(client) -> None:
    text = page_text(client.get("/"))
    assert "Build Bolt Action army lists" in text
    assert "Composez vos listes" not in text


def test_it_shows_the_reference_index_in_french(fr_client, editions) -> None:
    text = page_text(fr_client.get("/reference/"))
    assert "Toutes les tables de référence rapide de chaque édition." in text
    assert "3e édition" in text
    assert "Aide-mémoire à imprimer (PDF) :" in text
    assert "Lettre US" in text
    assert "US Letter" not in text


@pytest.mark.django_db
def test_it_shows_my_lists_in_french(fr_client) -> None:
    text = page_text(fr_client.get("/lists/"))
    assert "Nouvelle liste" in text
    assert "Importer une liste" in text
    assert "Aucune liste pour l'instant" in text


def test_it_shows_the_new_list_form_in_french(fr_client, editions) -> None:
    from armybuilder.catalogue.models import Army

    # Only an edition with an army is offered; the other says, in French, that it has none.
    Army.objects.create(edition=Edition.objects.get(slug="v3"), slug="finland", name="Finland", source="test")
    text = page_text(fr_client.get("/lists/new/"))
    assert "2e édition : référence des règles et probabilités seulement" in text
    assert "Choisissez une édition" in text
    assert "Limite de points" in text
    assert "Créer la liste" in text
    # The edition select names the editions in French too.
    assert ">3e édition</option>" in text
    assert ">3rd edition</option>" not in text


def test_it_shows_the_shooting_calculator_in_french(fr_client, editions) -> None:
    text = page_text(fr_client.get("/calc/shooting/?edition=v3"))
    assert "Probabilités de tir" in text
    assert ">Tirer</option>" in text
    assert "Marqueurs PIN sur le tireur" in text
    assert "Figurines sous le gabarit" in text
    assert "Couvert léger" in text
    assert "Fusil" in text


def test_it_shows_the_order_test_calculator_in_french(fr_client, editions) -> None:
    text = page_text(fr_client.get("/calc/order-test/?edition=v2"))
    assert "Probabilités du test d'ordre" in text
    assert "Ordre donné" in text
    assert "Sous-lieutenant" in text  # the officer ranks offered for the chosen edition
    assert "2nd Lieutenant" not in text


def test_it_shows_the_order_dice_calculator_in_french(fr_client, editions) -> None:
    text = page_text(fr_client.get("/calc/order-dice/?edition=v3"))
    assert "Dés d'ordre et réglage du tir" in text
    assert "Le prochain dé est à vous" in text
    assert "Réglage du tir" in text


def test_it_names_unverified_rules_in_french(fr_client, editions) -> None:
    # From a defensive position the later rounds' order (unverified) can change the 3rd-edition odds.
    text = page_text(fr_client.get("/calc/close-quarters/?edition=v3&defensive_position=on"))
    assert "Règle non vérifiée" in text
    assert "pourrait modifier l'issue du combat" in text
    assert "Later close-quarters rounds" not in text
    assert "Both sides strike at the same time." not in text


@pytest.mark.django_db
def test_it_shows_the_login_page_in_french(fr_client) -> None:
    text = page_text(fr_client.get("/accounts/login/"))
    assert "Se connecter" in text
    assert "Mot de passe oublié ?" in text
    assert "Pas encore de compte ?" in text
    assert "Forgot your password?" not in text
