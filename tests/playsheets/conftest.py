"""Playsheet fixtures: a clean cache (sheets are cached), the rules world, and PDF text helpers."""

from __future__ import annotations

import io

import pytest
from django.core.cache import cache

from tests.playsheets.factories import make_playsheet_list, make_rules_edition


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def edition(db):
    return make_rules_edition()


@pytest.fixture
def army_list(alice, edition):
    return make_playsheet_list(alice)


class Pdf:
    """A PDF response's pages and text, read with pypdf."""

    def __init__(self, content: bytes) -> None:
        from pypdf import PdfReader

        self.content = content
        self.reader = PdfReader(io.BytesIO(content))
        self.pages = len(self.reader.pages)
        # Extraction may break lines anywhere; one space-joined string is what the asserts need.
        self.text = " ".join(" ".join((page.extract_text() or "").split()) for page in self.reader.pages)
        # Headings and labels are set in capitals by the stylesheet: compare without case.
        self.lower = self.text.casefold()

    def page_size(self) -> tuple[int, int]:
        box = self.reader.pages[0].mediabox
        return round(float(box.width)), round(float(box.height))


@pytest.fixture
def read_pdf():
    def read(response) -> Pdf:
        assert response.status_code == 200
        assert response["Content-Type"] == "application/pdf"
        assert response.content.startswith(b"%PDF-")
        return Pdf(response.content)

    return read
