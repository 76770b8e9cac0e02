"""The quick-reference sheet of an edition: content in both languages, paper sizes, and the real data."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from armybuilder.reference.models import RulesTable

pytestmark = pytest.mark.django_db


def test_it_prints_every_table_of_the_edition(client, edition, read_pdf):
    pdf = read_pdf(client.get("/reference/v3/sheet.pdf?lang=en"))
    assert pdf.pages == 1
    assert "Fire Shoot at full effect" in pdf.text
    assert "Point-blank range +2 Firer is pinned −1" in pdf.text
    assert "Regular infantry 4 Medium tank 9" in pdf.text
    assert "Immobilised Roll 5" in pdf.text


def test_it_prints_the_weapons_chart(client, edition, read_pdf):
    pdf = read_pdf(client.get("/reference/v3/sheet.pdf?lang=en"))
    assert 'Rifle 24" 1 – –' in pdf.text
    assert 'Medium anti-tank gun 60" 1 +5 / HE (1") Team' in pdf.text


def test_it_prints_the_sheet_in_french(client, edition, read_pdf):
    pdf = read_pdf(client.get("/reference/v3/sheet.pdf?lang=fr"))
    assert "Aide-mémoire" in pdf.text
    assert "Feu Shoot at full effect" in pdf.text
    assert "Bout portant +2" in pdf.text
    assert 'Canon antichar moyen 60" 1 +5 / HE (1") Équipe' in pdf.text


def test_it_flags_values_the_sources_disagree_on(client, edition, read_pdf):
    pdf = read_pdf(client.get("/reference/v3/sheet.pdf"))
    assert "Vehicle damage?" in pdf.text
    assert "the sources disagree: check your rulebook" in pdf.text


@pytest.mark.parametrize(("paper", "size"), [("a4", (595, 842)), ("letter", (612, 792))])
def test_it_prints_on_the_chosen_paper(client, edition, read_pdf, paper, size):
    pdf = read_pdf(client.get(f"/reference/v3/sheet.pdf?paper={paper}"))
    assert pdf.page_size() == size


def test_it_falls_back_to_a4_and_the_visitors_language_for_unknown_options(client, edition, read_pdf):
    client.cookies["django_language"] = "fr"
    pdf = read_pdf(client.get("/reference/v3/sheet.pdf?paper=tabloid&lang=xx"))
    assert pdf.page_size() == (595, 842)
    assert "Aide-mémoire" in pdf.text


def test_it_404s_for_an_unknown_edition(client, edition):
    assert client.get("/reference/v9/sheet.pdf").status_code == 404


@pytest.mark.parametrize(("lang", "paper"), [("en", "a4"), ("fr", "letter"), ("de", "letter")])
def test_it_fits_the_real_third_edition_sheet_on_two_to_four_pages(client, read_pdf, lang, paper):
    # The tests that load real data: the 3rd edition has the most tables, French and German the
    # longest words and US Letter the shortest page.
    fixtures = Path(settings.BASE_DIR) / "fixtures"
    call_command("loaddata", fixtures / "00_editions.json", fixtures / "30_v3_reference.json", verbosity=0)
    pdf = read_pdf(client.get(f"/reference/v3/sheet.pdf?lang={lang}&paper={paper}"))
    assert 2 <= pdf.pages <= 4
    table = RulesTable.objects.get(edition__slug="v3", slug="turn-sequence")
    title = {"en": table.title, "fr": table.title_fr}.get(lang) or table.translations[lang]["title"]
    assert title.lower() in pdf.lower
