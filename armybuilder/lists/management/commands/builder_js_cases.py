"""Write the cases the phone's pricing (static/js/builder_logic.js) is tested on, priced by the rules."""

from __future__ import annotations

from armybuilder.js_cases import CASES_DIR, WriteCasesCommand
from rules.army.js_price_cases import price_cases


class Command(WriteCasesCommand):
    help = "Write tests/js/builder_pricing_cases.json from rules.army.points, for `node --test tests/js/`."
    path = CASES_DIR / "builder_pricing_cases.json"
    parts = staticmethod(price_cases)
