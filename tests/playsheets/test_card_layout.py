"""Unit cards lay their text out without words drawn over each other.

Looked at as pictures (``make playsheet-png``); checked here from the word boxes poppler's
``pdftotext -bbox`` finds in the PDF (poppler-utils, like Debian's chromium, is required).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from html import unescape
from itertools import combinations

import pytest

from tests.lists.factories import make_entry, make_officer
from tests.playsheets.factories import make_playsheet_list

pytestmark = pytest.mark.django_db

WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')


def _pages_of_words(content: bytes) -> list[list[tuple[float, float, float, float, str]]]:
    tool = shutil.which("pdftotext")
    if tool is None:  # a broken environment, not a reason to skip
        raise RuntimeError("poppler-utils is required for the PDF layout tests: apt-get install poppler-utils")
    html = subprocess.run([tool, "-bbox", "-", "-"], input=content, capture_output=True, check=True).stdout.decode()
    return [
        [(float(a), float(b), float(c), float(d), unescape(text)) for a, b, c, d, text in WORD.findall(page)]
        for page in html.split("<page ")[1:]
    ]


def _drawn_over(words) -> list[tuple[str, str]]:
    """Pairs of words whose boxes overlap by more than a third of the smaller one."""
    clashes = []
    for (ax0, ay0, ax1, ay1, a), (bx0, by0, bx1, by1, b) in combinations(words, 2):
        width, height = min(ax1, bx1) - max(ax0, bx0), min(ay1, by1) - max(ay0, by0)
        if width > 0 and height > 0:
            smaller = min((ax1 - ax0) * (ay1 - ay0), (bx1 - bx0) * (by1 - by0))
            if width * height > smaller / 3:
                clashes.append((a, b))
    return clashes


@pytest.mark.parametrize("language", ["en", "fr"])
def test_officer_notes_that_wrap_are_not_drawn_over_each_other(alice_client, alice, edition, language):
    army_list = make_playsheet_list(alice)
    # A second officer: every card in the platoon gets two notes, long enough to wrap.
    second = make_officer(army_list.army, name="Company Commander with a long name", officer_rank="company_commander")
    make_entry(army_list, second, platoon=army_list.platoons.get(), models_count=1, position=9)
    response = alice_client.get(f"/lists/{army_list.pk}/cards.pdf", {"lang": language})
    assert response.status_code == 200
    pages = _pages_of_words(response.content)
    assert sum(len(words) for words in pages) > 100
    for words in pages:
        assert _drawn_over(words) == []


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("kind", ["roster", "playsheet"])
def test_the_other_list_pdfs_draw_no_word_over_another(alice_client, alice, edition, language, kind):
    army_list = make_playsheet_list(alice)
    response = alice_client.get(f"/lists/{army_list.pk}/{kind}.pdf", {"lang": language})
    assert response.status_code == 200
    for words in _pages_of_words(response.content):
        assert _drawn_over(words) == []
