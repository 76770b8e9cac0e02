"""Every form's refusals are Muster's messages next to the fields, never only the browser's bubble."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
FORM = re.compile(r"<form\b[^>]*>", re.S)


def test_every_post_form_leaves_validation_to_the_server():
    # A browser's own check ("Please fill out this field") would stop the form before Muster can
    # say what is wrong in the page's language, next to the field.
    missing = [
        f"{path.relative_to(TEMPLATES)}: {tag[:80]}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for tag in FORM.findall(path.read_text(encoding="utf-8"))
        if 'method="post"' in tag and "novalidate" not in tag
    ]
    assert missing == []


@pytest.mark.django_db
def test_an_empty_sign_in_is_refused_next_to_its_fields(client):
    html = client.post("/accounts/login/", {"username": "", "password": ""}).content.decode()
    assert html.count('class="errorlist"') >= 2
    assert "novalidate" in html
