"""A module's own rule texts: kept apart from Muster's paraphrases, plain and bounded, shown quoted and credited."""

from __future__ import annotations

import json

import pytest

from armybuilder.catalogue.models import Army, Unit
from armybuilder.importers.jobs import repository_credit
from armybuilder.importers.writer import SourceCredit, import_files
from armybuilder.reference.models import SpecialRule, Status
from armydata.builder_module import parse_module
from armydata.github import Repository
from armydata.untrusted import MAX_QUOTED_TEXT
from tests.importers.test_module import MODULE
from tests.importers.test_module_writer import make_v3_chart
from tests.lists.factories import make_entry, make_list, make_user
from tests.playsheets.conftest import Pdf

BUZZ_SAW = "Light and medium machine guns fire one extra shot; Test Book: Pg. 3"


def module(*, quick_orders: str = "Test nation rule text; Test Book: Pg. 1", **changes) -> dict[str, bytes]:
    """The test module with its own credit line, a definition for a unit's rule, and the given changes."""
    data = json.loads(MODULE.read_text())
    data["credit"] = ["Tester; tester@example.org for any questions"]
    germany = data["data"]["factions"][0]
    germany["additionalRules"] = [f"Quick Orders - {quick_orders}", *germany["additionalRules"][1:]]
    data["data"]["keywords"] += [
        {"name": "Hitler's Buzz Saw", "definition": changes.get("buzz_saw", BUZZ_SAW)},
        {"name": "Fixed", "definition": "---"},  # the module's stand-in: no text
        {"name": "Nobody's Rule", "definition": "A rule no unit of the file carries"},
    ]
    return {MODULE.name: json.dumps(data).encode()}


def germany() -> Army:
    return Army.objects.get(name="Germany", origin="module")


# --- reading ------------------------------------------------------------------------------------


def test_the_reader_keeps_national_and_unit_rule_texts_with_the_files_credit():
    catalogue = parse_module(module())
    army = next(a for a in catalogue.armies if a.name == "Germany")
    assert army.rule_texts == {
        "Quick Orders": "Test nation rule text; Test Book: Pg. 1",
        "Steady Nerves": "Another rule; Test Book: Pg. 2",
        "Hitler's Buzz Saw": BUZZ_SAW,
    }
    assert catalogue.credit == "Tester; tester@example.org for any questions"
    # A nation without rules, and the stand-in and unused definitions, bring no text.
    assert next(a for a in catalogue.armies if a.name == "Soviet Union").rule_texts == {}


def test_markup_in_a_rule_text_is_dropped_and_a_long_text_is_cut():
    hostile = 'Pins <b>count</b> twice<script>alert("x")</script> <img src=x onerror=alert(1)>here'
    catalogue = parse_module(module(quick_orders=hostile, buzz_saw="word " * 2000))
    texts = next(a for a in catalogue.armies if a.name == "Germany").rule_texts
    assert texts["Quick Orders"] == 'Pins count twice alert("x") here'
    assert len(texts["Hitler's Buzz Saw"]) == MAX_QUOTED_TEXT
    assert texts["Hitler's Buzz Saw"].endswith("…")


# --- writing ------------------------------------------------------------------------------------


@pytest.fixture
def imported(db):
    make_v3_chart()
    return import_files(module())


def test_the_texts_are_stored_on_the_army_credited_never_as_musters_summary(imported):
    army = germany()
    assert army.source_rule_texts["source"] == {"name": "TTAMBA-Test", "author": "Tester", "url": ""}
    quick = army.national_rules.get(name="Quick Orders")
    buzz = SpecialRule.objects.filter(units__army=army, name="Hitler's Buzz Saw").distinct().get()
    assert army.quoted_rule_text(quick) == "Test nation rule text; Test Book: Pg. 1"
    assert army.quoted_rule_text(buzz) == BUZZ_SAW
    assert army.source_rule_texts["rules"][quick.slug] == "Test nation rule text; Test Book: Pg. 1"
    # Muster's own paraphrase stays empty and the rule unverified: the source's text is not Muster's.
    quick.refresh_from_db()
    assert (quick.summary, quick.status) == ("", Status.UNVERIFIED)
    assert [(rule.name, text) for rule, text in army.national_rules_shown] == [
        ("Quick Orders", "Test nation rule text; Test Book: Pg. 1"),
        ("Steady Nerves", "Another rule; Test Book: Pg. 2"),
    ]
    assert Army.objects.get(name="Soviet Union", origin="module").source_rule_texts == {}


def test_a_re_import_updates_the_texts_and_a_same_import_changes_nothing(imported):
    stamp = germany().updated_at
    again = import_files(module())
    assert not again.catalogues[0].changed
    assert germany().updated_at == stamp
    rewritten = json.loads(module(quick_orders="Rewritten by the author; Test Book: Pg. 9")[MODULE.name])
    rewritten["data"]["factions"][0]["additionalRules"][1] = "Steady Nerves"  # no text any more
    import_files({MODULE.name: json.dumps(rewritten).encode()})
    army = germany()
    assert army.quoted_rule_text(army.national_rules.get(name="Steady Nerves")) == ""
    assert (
        army.quoted_rule_text(army.national_rules.get(name="Quick Orders"))
        == "Rewritten by the author; Test Book: Pg. 9"
    )
    assert army.updated_at > stamp


def test_a_repositorys_import_credits_the_known_source_with_its_address(db):
    make_v3_chart()
    credit = repository_credit(Repository(owner="PhyrexianQueen", repo="BoltAction3D-WWII", ref="HEAD"))
    assert credit == SourceCredit(
        name="TTAMBA module (BoltAction3D-WWII)",
        author="PhyrexianQueen",
        url="https://github.com/PhyrexianQueen/BoltAction3D-WWII",
    )
    unknown = repository_credit(Repository(owner="someone", repo="data", ref="HEAD"))
    assert unknown == SourceCredit(name="someone/data", author="someone", url="https://github.com/someone/data")
    import_files(module(), credit=credit)
    assert germany().source_credit == {
        "name": "TTAMBA module (BoltAction3D-WWII)",
        "author": "PhyrexianQueen",
        "url": "https://github.com/PhyrexianQueen/BoltAction3D-WWII",
    }


# --- showing ------------------------------------------------------------------------------------

CREDIT = "From TTAMBA-Test by Tester (imported data, not Muster's text)"


@pytest.fixture
def player_list(imported, client):
    user = make_user()
    client.force_login(user)
    army_list = make_list(owner=user, army=germany(), points_limit=1000)
    make_entry(army_list, Unit.objects.get(army=germany(), name="Heer Rifle Squad"), quality="regular", models_count=5)
    return army_list


def test_the_builder_shows_a_national_rules_text_quoted_and_credited(player_list, client):
    page = client.get(f"/lists/{player_list.pk}/").content.decode()
    panel = page[page.index('id="national-rules"') :]
    panel = panel[: panel.index("</details>")]
    assert '<blockquote class="source-quote">' in panel
    assert "<p>Test nation rule text; Test Book: Pg. 1</p>" in panel
    assert CREDIT in panel


def test_the_builder_escapes_markup_stored_in_a_quoted_text(player_list, client):
    army = germany()
    slug = army.national_rules.get(name="Quick Orders").slug
    army.source_rule_texts["rules"][slug] = '<script>alert("x")</script>'
    army.source_rule_texts["source"]["name"] = "<b>Evil</b>"
    army.save(update_fields=["source_rule_texts"])
    page = client.get(f"/lists/{player_list.pk}/").content.decode()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert '<script>alert("x")' not in page
    assert "From &lt;b&gt;Evil&lt;/b&gt; by Tester" in page


def test_the_builder_credits_the_source_in_french(player_list, client):
    client.cookies["django_language"] = "fr"
    page = client.get(f"/lists/{player_list.pk}/").content.decode()
    assert "<p>Test nation rule text; Test Book: Pg. 1</p>" in page
    assert "D’après TTAMBA-Test, par Tester (données importées, pas le texte de Muster)" in page
    assert "imported data, not Muster" not in page


def test_the_printed_rules_quote_the_national_and_unit_rules_texts(player_list, client):
    page = client.get(f"/lists/{player_list.pk}/print/document/", {"parts": ["roster", "summary"]}).content.decode()
    roster = page[page.index('id="part-roster"') : page.index('id="part-summary"')]
    summary = page[page.index('id="part-summary"') :]
    assert "<p>Test nation rule text; Test Book: Pg. 1</p>" in roster
    assert CREDIT in roster
    # The rules this list uses: the squad's own rule with the module's definition of it, credited.
    assert f"<p>{BUZZ_SAW}</p>" in summary
    assert CREDIT in summary


def test_the_roster_pdf_prints_the_quote_with_its_credit(player_list, client):
    response = client.get(f"/lists/{player_list.pk}/roster.pdf?lang=en")
    assert response["Content-Type"] == "application/pdf"
    pdf = Pdf(response.content)
    assert "Quick Orders Test nation rule text; Test Book: Pg. 1" in pdf.text
    assert "From TTAMBA-Test by Tester (imported data, not Muster's text)" in pdf.text
