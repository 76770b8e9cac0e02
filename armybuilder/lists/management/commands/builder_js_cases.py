"""Write the cases the phone's pricing (static/js/builder_logic.js) is tested on, priced by the rules."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from armybuilder.js_cases import WriteCasesCommand
from armybuilder.js_cases import cases_text as _text
from rules.army.js_price_cases import price_cases

CASES = Path(settings.BASE_DIR) / "tests" / "js" / "builder_pricing_cases.json"


def cases_text() -> str:
    return _text(price_cases())


class Command(WriteCasesCommand):
    help = "Write tests/js/builder_pricing_cases.json from rules.army.points, for `node --test tests/js/`."
    path = CASES
    parts = staticmethod(price_cases)
