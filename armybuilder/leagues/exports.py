"""The event results CSV for ranking sites: final placings, names, armies and results only.

Cells a spreadsheet would read as a formula (starting with =, +, -, @, a tab or a carriage return)
are prefixed with a quote, so a player's name cannot run anything when the file is opened.
"""

from __future__ import annotations

import csv
import io

from armybuilder.leagues.services import EventPlacing

COLUMNS = ("placing", "player", "army", "wins", "draws", "losses", "points")
# A team event's file adds each player's team and its place in the team standings.
TEAM_COLUMNS = ("team", "team_placing")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def results_csv(placings: list[EventPlacing], *, teams: bool = False) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS + TEAM_COLUMNS if teams else COLUMNS)
    for p in placings:
        values = [p.place, p.name, p.army, p.wins, p.draws, p.losses, p.score]
        if teams:
            values += [p.team, "" if p.team_placing is None else p.team_placing]
        writer.writerow([safe_cell(v) for v in values])
    return out.getvalue()
