"""PDFs are rendered once per version of what they show: a sheet per edition, language and paper
until the rules data changes; a list's PDFs per list revision, language, paper and parts."""

from __future__ import annotations

import pytest

from armybuilder.playsheets import pdf
from armybuilder.reference.models import RulesRow, Weapon

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch):
    """Counts real renders of the sheet (the cache answers the others)."""
    calls = []
    render = pdf.render_pdf

    def counting(template_name, context):
        calls.append(template_name)
        return render(template_name, context)

    monkeypatch.setattr(pdf, "render_pdf", counting)
    return calls


def test_it_renders_the_sheet_only_once(client, edition, renders):
    first = client.get("/reference/v3/sheet.pdf?lang=en&paper=a4")
    second = client.get("/reference/v3/sheet.pdf?lang=en&paper=a4")
    assert len(renders) == 1
    assert second.content == first.content


def test_it_caches_each_language_and_paper_apart(client, edition, renders):
    for query in ("lang=en&paper=a4", "lang=fr&paper=a4", "lang=en&paper=letter", "lang=fr&paper=a4"):
        client.get(f"/reference/v3/sheet.pdf?{query}")
    assert len(renders) == 3


def test_it_renders_again_when_a_table_changes(client, edition, renders, read_pdf):
    client.get("/reference/v3/sheet.pdf")
    row = RulesRow.objects.get(table__slug="hit-modifiers", position=1)
    row.cells = {**row.cells, "value": 3}
    row.save()
    pdf_after = read_pdf(client.get("/reference/v3/sheet.pdf"))
    assert len(renders) == 2
    assert "Point-blank range +3" in pdf_after.text


def test_it_renders_again_when_a_weapon_changes(client, edition, renders):
    client.get("/reference/v3/sheet.pdf")
    Weapon.objects.filter(slug="rifle").update(range_max=30)
    client.get("/reference/v3/sheet.pdf")
    assert len(renders) == 2


def test_it_renders_a_list_pdf_once_per_revision_language_paper_and_kind(alice_client, army_list, renders):
    base = f"/lists/{army_list.pk}"
    for url in (
        "roster.pdf",
        "roster.pdf",
        "roster.pdf?lang=fr",
        "roster.pdf?paper=letter",
        "cards.pdf",
        "print.pdf?parts=roster",  # the same parts as roster.pdf: the same PDF
    ):
        assert alice_client.get(f"{base}/{url}").status_code == 200
    assert len(renders) == 4


def test_a_changed_list_is_never_served_from_the_cache(alice_client, army_list, renders, read_pdf):
    url = f"/lists/{army_list.pk}/roster.pdf"
    alice_client.get(url)
    entry = army_list.entries.order_by("position").first()
    entry.name = "Lauri's men"
    entry.save()  # every write to a list moves its revision
    text = read_pdf(alice_client.get(url)).text
    assert len(renders) == 2
    assert "Lauri's men" in text


def test_the_owner_and_the_share_link_share_the_render(alice_client, client, army_list, renders):
    alice_client.get(f"/lists/{army_list.pk}/roster.pdf")
    alice_client.logout()
    assert client.get(f"/s/{army_list.share_token}/roster.pdf").status_code == 200
    assert len(renders) == 1


def test_a_reload_of_the_sheet_is_a_304_until_the_data_changes(client, edition, renders):
    url = "/reference/v3/sheet.pdf?lang=en&paper=a4"
    first = client.get(url)
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    Weapon.objects.filter(slug="rifle").update(range_max=30)
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 200
    assert len(renders) == 2
