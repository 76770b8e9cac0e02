"""Write the cases the phone's rules (static/js/game_rules.js) are tested on, played by the Python engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from rules.game.js_cases import all_cases

CASES = Path(settings.BASE_DIR) / "tests" / "js" / "gameday_cases.json"


def cases_text() -> str:
    """The file's text: stable, so that an unchanged engine writes the same bytes; one case a line, so
    a change of the engine shows in a diff as the cases it moved."""
    lines = ["{"]
    parts = sorted(all_cases().items())
    for i, (name, value) in enumerate(parts):
        end = "" if i == len(parts) - 1 else ","
        if isinstance(value, list):
            rows = [json.dumps(case, sort_keys=True, separators=(",", ":")) for case in value]
            lines.append(f"{json.dumps(name)}:[\n" + ",\n".join(rows) + f"\n]{end}")
        else:
            lines.append(f"{json.dumps(name)}:{json.dumps(value)}{end}")
    return "\n".join([*lines, "}"]) + "\n"


class Command(BaseCommand):
    help = "Write tests/js/gameday_cases.json from rules.game.engine, for `node --test tests/js/`."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--output", default=str(CASES), help="where to write the cases (default: %(default)s)")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["output"])
        path.write_text(cases_text(), encoding="utf-8")
        self.stdout.write(f"Wrote {path}")
