"""Write the cases the phone's pricing (static/js/builder_pricing.js) is tested on, priced by the rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from rules.army.js_price_cases import price_cases

CASES = Path(settings.BASE_DIR) / "tests" / "js" / "builder_pricing_cases.json"


def cases_text() -> str:
    """The file's text: stable (an unchanged rule writes the same bytes), one case a line, so a change
    of the rules shows in a diff as the cases it moved."""
    written = price_cases()
    rows = [json.dumps(case, sort_keys=True, separators=(",", ":")) for case in written["cases"]]
    tables = json.dumps(written["tables"], indent=1)
    return '{"tables":' + tables + ',\n"cases":[\n' + ",\n".join(rows) + "\n]}\n"


class Command(BaseCommand):
    help = "Write tests/js/builder_pricing_cases.json from rules.army.points, for `node --test tests/js/`."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--output", default=str(CASES), help="where to write the cases (default: %(default)s)")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["output"])
        path.write_text(cases_text(), encoding="utf-8")
        self.stdout.write(f"Wrote {path}")
