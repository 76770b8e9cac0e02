"""The print preview page: the options as a GET form, the framed preview and the download links."""

from __future__ import annotations

import re

import pytest

from tests.lists.factories import make_entry, make_unit

pytestmark = pytest.mark.django_db


def checked(html: str, name: str, value: str) -> bool:
    """Whether the form's input ``name``=``value`` is ticked."""
    tag = re.search(rf'<input[^>]*name="{name}" value="{value}"[^>]*>', html)
    assert tag, f"no input {name}={value}"
    return " checked" in tag.group(0)


def test_it_shows_the_options_form_with_the_defaults(alice_client, army_list):
    html = alice_client.get(f"/lists/{army_list.pk}/print/").content.decode()
    assert f'<form method="get" action="/lists/{army_list.pk}/print/"' in html
    assert checked(html, "paper", "a4") and checked(html, "lang", "en")
    assert [checked(html, "parts", part) for part in ("roster", "summary", "cards", "reference")] == [
        True,
        True,
        True,
        False,
    ]


def test_it_keeps_the_chosen_options(alice_client, army_list):
    html = alice_client.get(f"/lists/{army_list.pk}/print/?paper=letter&lang=fr&parts=cards").content.decode()
    assert checked(html, "paper", "letter") and checked(html, "lang", "fr")
    assert checked(html, "parts", "cards") and not checked(html, "parts", "roster")


def test_it_frames_the_same_html_as_the_pdf(alice_client, army_list):
    html = alice_client.get(f"/lists/{army_list.pk}/print/?paper=letter&lang=fr&parts=cards").content.decode()
    assert f'src="/lists/{army_list.pk}/print/document/?paper=letter&amp;lang=fr&amp;parts=cards"' in html


def test_it_links_the_pdf_download_with_the_same_options(alice_client, army_list):
    html = alice_client.get(f"/lists/{army_list.pk}/print/?lang=fr&parts=roster&parts=reference").content.decode()
    query = "paper=a4&amp;lang=fr&amp;parts=roster&amp;parts=reference&amp;download=1"
    assert f'href="/lists/{army_list.pk}/print.pdf?{query}"' in html
    assert f'formaction="/lists/{army_list.pk}/print.pdf"' in html


def test_it_links_the_editions_quick_reference_sheet(alice_client, army_list):
    html = alice_client.get(f"/lists/{army_list.pk}/print/?lang=fr&paper=letter").content.decode()
    assert 'href="/reference/v3/sheet.pdf?paper=letter&amp;lang=fr"' in html


def test_it_uses_share_link_urls_on_the_shared_page(client, army_list):
    html = client.get(f"/s/{army_list.share_token}/print/").content.decode()
    assert f'src="/s/{army_list.share_token}/print/document/?' in html
    assert f"/lists/{army_list.pk}/" not in html


def test_it_serves_the_preview_document_to_its_own_frame_only(alice_client, army_list):
    response = alice_client.get(f"/lists/{army_list.pk}/print/document/?parts=cards&lang=fr")
    assert response["X-Frame-Options"] == "SAMEORIGIN"
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert 'href="/static/playsheets/playsheet.css"' in html and 'href="/static/playsheets/screen.css"' in html
    assert "Escouade de fusiliers" in html


@pytest.mark.parametrize("parts", ["roster", "cards"])
def test_it_prints_a_units_armament_in_french(alice_client, army_list, parts):
    # A unit with no weapon profiles shows its printed armament instead of a weapons table.
    medic = make_unit(army_list.army, name="Medic", weapons_text="Pistol or none", weapons_text_fr="Pistolet ou aucune")
    make_entry(army_list, medic, models_count=1, position=9)
    html = alice_client.get(f"/lists/{army_list.pk}/print/document/?parts={parts}&lang=fr").content.decode()
    assert "Pistolet ou aucune" in html
    assert "Pistol or none" not in html


def test_it_prints_a_units_armament_in_english(alice_client, army_list):
    medic = make_unit(army_list.army, name="Medic", weapons_text="Pistol or none", weapons_text_fr="Pistolet ou aucune")
    make_entry(army_list, medic, models_count=1, position=9)
    html = alice_client.get(f"/lists/{army_list.pk}/print/document/?parts=cards&lang=en").content.decode()
    assert "Pistol or none" in html
