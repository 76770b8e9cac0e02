"""Parts fitted to their pages: no roster ends with one row alone on a page, and the French
playsheet takes the pages the English one does (``pdf.fitted``)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from armybuilder.playsheets import pdf
from tests.playsheets.factories import make_playsheet_list

pytestmark = pytest.mark.django_db


def roster_html(rows: int) -> str:
    """A bare roster part of ``rows`` units, styled by the real print stylesheet."""
    body = "".join(
        f"<tr><th><span class='unit-name'>Rifle squad {n}</span><span class='unit-meta'>Infantry</span></th>"
        f"<td>Regular</td><td>10</td><td>Rifles, SMG</td><td>–</td><td>100</td></tr>"
        for n in range(rows)
    )
    return (
        f"<html><head><link rel='stylesheet' href='{pdf.STATIC_ORIGIN}playsheets/playsheet.css'></head><body>"
        "<div id='page-area' class='page-area'></div><section id='part-roster' class='part part-roster'>"
        f"<table class='data roster-table'><tbody>{body}</tbody></table>"
        "</section></body></html>"
    )


def roster_pages(html: str, *, fit: bool) -> list[float]:
    fonts = pdf.font_config()
    document = pdf.fitted(html, fonts) if fit else pdf._layout(html, fonts)
    return pdf._part_pages(document)["part-roster"]


def test_a_roster_that_spills_one_row_is_fitted_to_one_page_less():
    # The longest roster that fits one page untightened, and one row more.
    rows = 10
    while len(roster_pages(roster_html(rows + 1), fit=False)) == 1:
        rows += 1
    spilled = roster_pages(roster_html(rows + 1), fit=False)
    assert len(spilled) == 2 and spilled[-1] < pdf.FIT_FILL  # the bug: one row on its own page
    assert len(roster_pages(roster_html(rows + 1), fit=True)) == 1


def test_rows_that_spill_take_the_two_before_them_along():
    # Where tightening cannot save the page, a page still never starts with one row alone.
    rows = 10
    while len(roster_pages(roster_html(rows), fit=False)) == 1:
        rows += 1
    first, last = roster_pages(roster_html(rows), fit=False)
    row_height = first / (rows - 1)
    assert last > 2.5 * row_height


def test_a_roster_that_needs_two_pages_keeps_them():
    rows = 10
    while len(roster_pages(roster_html(rows), fit=False)) == 1:
        rows += 1
    rows += rows // 2  # half a page more: nothing to save
    assert len(roster_pages(roster_html(rows), fit=True)) == 2


def pages(content: bytes) -> int:
    return len(PdfReader(io.BytesIO(content)).pages)


@pytest.mark.parametrize("squads", [2, 14])
def test_the_french_a4_playsheet_takes_the_pages_the_english_one_does(alice_client, alice, edition, squads):
    army_list = make_playsheet_list(alice, squads=squads)
    url = f"/lists/{army_list.pk}/playsheet.pdf?paper=a4"
    english = alice_client.get(f"{url}&lang=en")
    french = alice_client.get(f"{url}&lang=fr")
    assert pages(french.content) == pages(english.content)


def test_the_french_a4_quick_reference_takes_the_pages_the_english_one_does(client, settings):
    # The 2nd edition's sheet, real data: its French A4 sheet spilled a quarter page onto a 4th page.
    fixtures = Path(settings.BASE_DIR) / "fixtures"
    call_command("loaddata", fixtures / "00_editions.json", fixtures / "20_v2_reference.json", verbosity=0)
    english = client.get("/reference/v2/sheet.pdf?lang=en&paper=a4")
    french = client.get("/reference/v2/sheet.pdf?lang=fr&paper=a4")
    assert pages(french.content) == pages(english.content) == 3
