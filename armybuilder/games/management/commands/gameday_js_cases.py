"""Write the cases the phone's rules (static/js/game_rules.js) are tested on, played by the Python engine."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from armybuilder.js_cases import WriteCasesCommand
from armybuilder.js_cases import cases_text as _text
from rules.game.js_cases import all_cases

CASES = Path(settings.BASE_DIR) / "tests" / "js" / "gameday_cases.json"


def cases_text() -> str:
    return _text(all_cases())


class Command(WriteCasesCommand):
    help = "Write tests/js/gameday_cases.json from rules.game.engine, for `node --test tests/js/`."
    path = CASES
    parts = staticmethod(all_cases)
