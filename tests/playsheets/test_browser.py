"""In a real browser: the print preview's options, its framed preview and the PDF download."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.playsheets.factories import alice_with_a_list, make_playsheet_list, make_rules_edition


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_changes_an_option_previews_it_and_downloads_the_pdf(django_db_setup, live_server, browser_context, page):
    # django_db_setup first: the test database must exist before Playwright starts its event loop.
    army_list = alice_with_a_list(browser_context, live_server)

    page.goto(f"/lists/{army_list.pk}/print/")
    preview = page.frame_locator("iframe.preview-frame")
    preview.locator("text=Rifle Squad").first.wait_for()

    page.check("input[name=lang][value=fr]")
    page.check("input[name=parts][value=reference]")
    page.click("button:has-text('Update preview')")
    page.wait_for_url("**/print/?*lang=fr*")
    preview.locator("text=Escouade de fusiliers").first.wait_for()
    assert preview.locator("h1:has-text('Aide-mémoire')").count() == 1

    with page.expect_download() as download_info:
        page.click("#download-pdf")
    download = download_info.value
    assert download.suggested_filename == "sisu-company-print-fr-a4.pdf"
    with open(download.path(), "rb") as file:
        content = file.read()
    assert content.startswith(b"%PDF-")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    assert "Escouade de fusiliers" in text and "Aide-mémoire" in text


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_works_without_javascript(django_db_setup, live_server, new_browser_context):
    make_rules_edition()
    army_list = make_playsheet_list(None)
    visitor = new_browser_context(java_script_enabled=False).new_page()

    visitor.goto(f"/s/{army_list.share_token}/print/")
    visitor.check("input[name=paper][value=letter]")
    visitor.uncheck("input[name=parts][value=summary]")
    visitor.click("button:has-text('Update preview')")
    visitor.wait_for_url("**/print/?*paper=letter*")
    src = visitor.get_attribute("iframe.preview-frame", "src")
    assert src == f"/s/{army_list.share_token}/print/document/?paper=letter&lang=en&parts=roster&parts=cards"

    with visitor.expect_download() as download_info:
        visitor.click("#download-pdf")
    with open(download_info.value.path(), "rb") as file:
        assert file.read(5) == b"%PDF-"
