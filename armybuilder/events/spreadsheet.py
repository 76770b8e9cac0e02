"""The organiser's CSV files (entrants, results, standings), safe to open in a spreadsheet.

Names and list names are typed by players: a cell that starts with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return is read as a formula by spreadsheet programs (a list named
``=HYPERLINK(...)`` would run in the organiser's sheet). Such a text cell is written with a
leading apostrophe, which spreadsheets show as the text itself. Numbers stay numbers.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """The value as a spreadsheet reads it as data: text that could start a formula is quoted."""
    if isinstance(value, bool) or value is None:
        return "" if value is None else ("yes" if value else "no")
    if isinstance(value, int | float):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_response(filename: str, header: Sequence[str], rows: Iterable[Sequence[object]]) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    writer = csv.writer(response)
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe_cell(value) for value in row])
    return response
