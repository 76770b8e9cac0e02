"""The rules reference in German, Polish, Spanish and Italian, as complete as in French.

Every text the data has in French (a table's title, intro and column labels, a row's cells, a
special rule's name and summary) has its text in each other language, kept as data in
fixtures/src/reference_i18n/<language>.json and built into the fixtures. The figure of what is
missing is held per language: it may only go down.
"""

from __future__ import annotations

import pytest
from django.utils.html import escape

from armybuilder.reference.models import RulesRow, RulesTable, SpecialRule
from tests.builtin_data import module_data

LANGUAGES = ("de", "pl", "es", "it")
UNTRANSLATED = {"de": 0, "pl": 0, "es": 0, "it": 0}


loaded = module_data(reference=True)


def untranslated(language: str) -> list[str]:
    missing = []
    for table in RulesTable.objects.select_related("edition"):
        text = table.translations.get(language, {})
        where = f"{table.edition.slug}/{table.slug}"
        if table.title_fr and not text.get("title"):
            missing.append(f"{where} title")
        if table.intro_fr and not text.get("intro"):
            missing.append(f"{where} intro")
        for column in table.columns:
            if column.get("fr") and column["fr"] != column["en"] and not column.get(language):
                missing.append(f"{where} column {column['key']}")
    for row in RulesRow.objects.select_related("table__edition"):
        text = row.translations.get(language, {})
        for key in row.cells_fr:
            if not text.get(key):
                missing.append(f"{row.table.edition.slug}/{row.table.slug}/{row.position} {key}")
    for rule in SpecialRule.objects.select_related("edition"):
        text = rule.translations.get(language, {})
        for field in ("name", "summary"):
            if getattr(rule, f"{field}_fr") and not text.get(field):
                missing.append(f"{rule.edition.slug}/{rule.slug} {field}")
    return missing


@pytest.mark.django_db
def test_it_holds_the_count_of_untranslated_reference_text(loaded):
    # One load of the reference data for all four languages: loading it is the slow part.
    for language in LANGUAGES:
        missing = untranslated(language)
        held = UNTRANSLATED[language]
        assert len(missing) <= held, f"{len(missing) - held} more untranslated than held in {language}: {missing[:5]}"
        assert len(missing) == held, f"{held - len(missing)} fewer untranslated in {language}: lower the held figure"


def _table_text(language: str, edition: str, slug: str) -> tuple[str, str]:
    table = RulesTable.objects.get(edition__slug=edition, slug=slug)
    row = table.rows.exclude(cells_fr={}).order_by("position").first()
    key = next(iter(row.cells_fr))
    return table.translations[language]["title"], row.translations[language][key]


@pytest.mark.django_db
def test_a_topic_page_reads_in_the_visitors_language(client, loaded):
    english = RulesTable.objects.get(edition__slug="v3", slug="orders")
    for language in LANGUAGES:
        title, cell = _table_text(language, "v3", "orders")
        client.cookies["django_language"] = language
        page = client.get("/reference/v3/orders/").content.decode()
        assert escape(title) in page and escape(cell) in page, language
        assert escape(english.intro) not in page, language  # the intro is in the visitor's language too


@pytest.mark.django_db
def test_the_api_carries_the_other_languages(client, loaded):
    data = client.get("/api/editions/v3/orders/").json()
    assert set(LANGUAGES) <= set(data["translations"])
    assert all(set(LANGUAGES) <= set(row.get("translations", {})) for row in data["rows"] if row.get("cells_fr"))
