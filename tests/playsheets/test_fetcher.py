"""The PDF renderer loads the project's static files only: no network, nothing else on disk."""

from __future__ import annotations

import pytest

from armybuilder.playsheets import pdf

ORIGIN = pdf.STATIC_ORIGIN


@pytest.mark.parametrize(
    "url",
    [
        "https://example.org/playsheets/playsheet.css",
        "http://example.org/playsheets/playsheet.css",
        "http://127.0.0.1:8000/static/playsheets/playsheet.css",
        "file:///etc/passwd",
        f"file://{pdf.settings.BASE_DIR}/static/playsheets/playsheet.css",
        "data:text/css,body{color:red}",
        "ftp://example.org/font.ttf",
    ],
)
def test_it_refuses_anything_but_the_static_origin(url):
    with pytest.raises(pdf.FetchRefused):
        pdf.static_url_fetcher().fetch(url)


@pytest.mark.parametrize(
    "path",
    [
        "../armybuilder/settings.py",
        "playsheets/../../manage.py",
        "playsheets/%2e%2e/%2e%2e/manage.py",
        "/etc/passwd",
        "playsheets\\..\\..\\manage.py",
        "playsheets/missing.css",
        "",
    ],
)
def test_it_refuses_paths_outside_the_static_files(path):
    with pytest.raises(pdf.FetchRefused):
        pdf.static_url_fetcher().fetch(ORIGIN + path)


def test_it_serves_the_playsheet_stylesheet():
    response = pdf.static_url_fetcher().fetch(ORIGIN + "playsheets/playsheet.css")
    assert response.content_type == "text/css"
    assert b"@font-face" in response.read()


def test_it_serves_the_vendored_fonts():
    response = pdf.static_url_fetcher().fetch(ORIGIN + "playsheets/fonts/DejaVuSansCondensed.ttf")
    assert response.read(4) == b"\x00\x01\x00\x00"  # a TrueType font


def test_it_links_the_stylesheet_under_the_static_origin():
    html = pdf.render_html("playsheets/base_print.html", {"paper": "A4", "doc_title": "T", "doc_subtitle": "S"})
    assert f'href="{ORIGIN}playsheets/playsheet.css"' in html
    assert "screen.css" not in html


@pytest.mark.django_db
def test_it_embeds_the_vendored_fonts_in_the_pdf(client, edition, read_pdf):
    pdf_file = read_pdf(client.get("/reference/v3/sheet.pdf"))
    fonts = {}
    for page in pdf_file.reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
            fonts[str(font["/BaseFont"]).split("+", 1)[1]] = "/FontFile2" in descriptor
    assert fonts and all(fonts.values())
    assert all(name.startswith(("Muster-Condensed", "Muster-Display")) for name in fonts)
