"""The event results CSV for ranking sites: final placings, names, armies and results only.

Cells a spreadsheet would read as a formula (starting with =, +, -, @, a tab or a carriage return)
are prefixed with a quote, so a player's name cannot run anything when the file is opened.
"""

from __future__ import annotations

import csv
import io

from armybuilder.leagues.services import EventPlacing

COLUMNS = ("placing", "player", "army", "wins", "draws", "losses", "points")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def results_csv(placings: list[EventPlacing]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for p in placings:
        writer.writerow([safe_cell(v) for v in (p.place, p.name, p.army, p.wins, p.draws, p.losses, p.score)])
    return out.getvalue()
