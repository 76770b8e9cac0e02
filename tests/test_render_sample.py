"""scripts/render_sample.py: what differs between two runs of the same code is replaced, nothing else."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
try:
    import render_sample
finally:
    sys.path.pop(0)


def test_tokens_nonces_ids_and_clocks_are_replaced():
    page = (
        b'<body hx-headers=\'{"x-csrftoken": "bAXoj1l7aM1yTNX2Wtk4KII6rQlN"}\'>'
        b'<input type="hidden" name="csrfmiddlewaretoken" value="k6Ab4akJb4nPxvz5">'
        b'<script nonce="r4nd0m">'
        b'<a href="/events/x/manage/pdf/54041057-70b4-4f64-b7ce-b9a81d5a147d/">'
        b'<input value="http://testserver/g/U_ww0AtwWyNyGc3FxDl3Pw/">'
        b"<time>2026-11-29T21:14:05.123+00:00</time> at 21:14"
    )
    assert render_sample.normalise(page, {}) == (
        b'<body hx-headers=\'{"x-csrftoken": "<csrf>"}\'>'
        b'<input type="hidden" name="csrfmiddlewaretoken" value="<csrf>">'
        b'<script nonce="<nonce>">'
        b'<a href="/events/x/manage/pdf/<uuid>/">'
        b'<input value="http://testserver/g/<share-token>/">'
        b"<time><datetime></time> at <time>"
    )


def test_seeded_slugs_are_named_by_their_role():
    page = b'<a href="/events/demo-event-11-8-players-c49fbd/">Demo event 11 (8 players)</a>'
    names = {"demo-event-11-8-players-c49fbd": "solo"}
    assert render_sample.normalise(page, names) == b'<a href="/events/<solo>/">Demo event 11 (8 players)</a>'


def test_what_the_page_says_is_kept():
    page = b"<td>Demo event 11</td><td>1,250 pts</td><td>Veteran</td><td>4 order dice</td>"
    assert render_sample.normalise(page, {}) == page
