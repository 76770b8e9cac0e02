"""Django's ``{# #}`` comment ends at the end of its line: one that runs over two lines is not a
comment, and the page shows it to every visitor as text. Longer notes use ``{% comment %}``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPENING = re.compile(r"\{#")


def _templates() -> list[Path]:
    return sorted([*(ROOT / "templates").rglob("*.html"), *(ROOT / "armybuilder").rglob("templates/**/*.html")])


def test_no_one_line_comment_runs_over_two_lines():
    broken = []
    for path in _templates():
        text = path.read_text(encoding="utf-8")
        for match in OPENING.finditer(text):
            line_end = text.find("\n", match.start())
            line = text[match.start() : line_end if line_end != -1 else len(text)]
            if "#}" not in line:
                broken.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}")
    assert _templates(), "no template found"
    assert broken == []
