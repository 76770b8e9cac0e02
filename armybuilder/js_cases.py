"""Writing the cases the phone's JavaScript is tested on (tests/js/), as the Python rules answer them.

Each cases file is a JSON object of named parts, most of them lists written one item a line: stable
(unchanged rules write the same bytes) and read in a diff as the cases a change of the rules moved.
Game day's rules (``gameday_js_cases``) and the builder's pricing (``builder_js_cases``) use it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

# Where Node's test runner reads the cases (``node --test tests/js/``).
CASES_DIR = Path(settings.BASE_DIR) / "tests" / "js"


def cases_text(parts: dict[str, Any]) -> str:
    lines = ["{"]
    ordered = sorted(parts.items())
    for i, (name, value) in enumerate(ordered):
        end = "" if i == len(ordered) - 1 else ","
        if isinstance(value, list):
            rows = [json.dumps(case, sort_keys=True, separators=(",", ":")) for case in value]
            lines.append(f"{json.dumps(name)}:[\n" + ",\n".join(rows) + f"\n]{end}")
        else:
            lines.append(f"{json.dumps(name)}:{json.dumps(value)}{end}")
    return "\n".join([*lines, "}"]) + "\n"


class WriteCasesCommand(BaseCommand):
    """A command that writes one cases file: ``path`` by default, from ``parts()``.

    ``text()`` is what the file must hold now: the tests compare the committed file with it.
    """

    path: Path
    parts: Callable[[], dict[str, Any]]

    @classmethod
    def text(cls) -> str:
        return cases_text(cls.parts())

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--output", default=str(self.path), help="where to write the cases (default: %(default)s)")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["output"])
        path.write_text(self.text(), encoding="utf-8")
        self.stdout.write(f"Wrote {path}")
