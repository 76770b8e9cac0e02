"""Write the cases the phone's rules (static/js/game_rules.js) are tested on, played by the Python engine,
and the log lines the server writes for them (board.log_line, in English and French)."""

from __future__ import annotations

from typing import Any

from armybuilder.games.log_cases import log_cases
from armybuilder.js_cases import CASES_DIR, WriteCasesCommand
from rules.game.js_cases import all_cases


def all_parts() -> dict[str, Any]:
    return all_cases() | log_cases()


class Command(WriteCasesCommand):
    help = "Write tests/js/gameday_cases.json from rules.game.engine, for `node --test tests/js/`."
    path = CASES_DIR / "gameday_cases.json"
    parts = staticmethod(all_parts)
