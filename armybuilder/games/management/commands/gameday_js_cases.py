"""Write the cases the phone's rules (static/js/game_rules.js) are tested on, played by the Python engine."""

from __future__ import annotations

from armybuilder.js_cases import CASES_DIR, WriteCasesCommand
from rules.game.js_cases import all_cases


class Command(WriteCasesCommand):
    help = "Write tests/js/gameday_cases.json from rules.game.engine, for `node --test tests/js/`."
    path = CASES_DIR / "gameday_cases.json"
    parts = staticmethod(all_cases)
