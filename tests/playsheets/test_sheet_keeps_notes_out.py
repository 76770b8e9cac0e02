"""The quick-reference sheet prints what players read, never the data's provenance notes.

The 3rd-edition sheet printed "S000's roll-to-damage box is garbled by OCR" (and its French) in a
table's notes column: source identifiers and OCR remarks belong in a row's ``note`` (shown on the
web reference's "Sources"), not in its cells or a table's intro.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import translation
from django.utils.html import strip_tags

from armybuilder.playsheets.context import reference_sheet_context
from armybuilder.playsheets.pdf import SHEET_TEMPLATE, render_html
from armybuilder.reference.models import Edition

FIXTURES = Path(settings.BASE_DIR) / "fixtures"
# The data's source identifiers (S000, REF1, RD1, JK3, BS2...) and remarks on how a source was read.
INTERNAL = re.compile(r"\b(?:S\d{3}|REF\d|RD\d|JK\d|BS\d|BTB)\b|\bOCR\b|rules-notes|garbled")


@pytest.fixture
def reference(db):
    names = ("00_editions.json", "10_v1_reference.json", "20_v2_reference.json", "30_v3_reference.json")
    call_command("loaddata", *(str(FIXTURES / name) for name in names), verbosity=0)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("edition", ["v1", "v2", "v3"])
def test_the_sheet_prints_no_internal_note(reference, edition, language):
    with translation.override(language):
        html = render_html(SHEET_TEMPLATE, reference_sheet_context(Edition.objects.get(slug=edition), paper="a4"))
    text = strip_tags(html)
    assert "Pen" in text or "Pén" in text  # the sheet's tables are there
    assert not INTERNAL.findall(text), [line.strip() for line in text.splitlines() if INTERNAL.search(line)]


def test_the_provenance_is_kept_in_the_rows_note(reference):
    from armybuilder.reference.models import RulesRow

    row = RulesRow.objects.get(table__edition__slug="v3", table__slug="assaulting-vehicles", position=6)
    assert "garbled by OCR" in row.note
    assert "OCR" not in " ".join(map(str, [*row.cells.values(), *row.cells_fr.values()]))
