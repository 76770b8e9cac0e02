"""Column widths for the printed tables, chosen from their text before layout.

The quick reference packs some 25 tables into two columns per page. WeasyPrint's automatic table
layout gives a wordy first column most of the room and squeezes the notes, and it is the slowest
part of a render. Instead each table gets fixed widths: short columns (dice scores, modifiers)
just fit their longest value, and the rest share what is left so that the table takes the fewest
lines, estimated from the text's length in characters.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

PADDING = 2  # a cell's horizontal padding, in characters
FILL = 0.9  # a wrapped line holds about this share of its width in characters
STEP = 2  # characters handed out per round
LABEL_WORD = 8  # a longer word in a column label is hyphenated rather than given the room
LABEL_LINES = 3


def _longest_word(text: str) -> int:
    return max((len(word) for word in text.split()), default=0)


def _lines(text: str, width: int) -> float:
    """Lines a cell takes, as a fraction: whole lines would make most small steps look useless."""
    usable = max(width - PADDING, 1) * FILL
    return max(1.0, len(text) / usable)


def fit_columns(
    labels: Sequence[str],
    rows: Sequence[Sequence[str]],
    short: Sequence[bool],
    line_chars: int,
    spans: Sequence[Sequence[int]] | None = None,
) -> list[float]:
    """Each column's share of the table width, in per cent, for a line of ``line_chars`` characters.

    ``short`` columns never wrap; the others never break a word. ``spans`` (the shape of ``rows``)
    gives how many columns each cell covers: 0 for a column covered by a cell to its left. Spare
    characters go, a few at a time, to the column where they save the most lines over the table.
    """
    count = len(labels)
    spans = spans or [[1] * count for _ in rows]
    widths = []
    for i in range(count):
        texts = [row[i] for row, row_spans in zip(rows, spans, strict=True) if row_spans[i] == 1]
        label = min(_longest_word(labels[i]), LABEL_WORD)
        if short[i]:
            # A long label may wrap, but to three lines at most.
            natural = max([len(t) for t in texts] + [label, math.ceil(len(labels[i]) / LABEL_LINES)])
        else:
            natural = max([_longest_word(t) for t in texts] + [label, 4])
        # Row headers are bold, hence a little wider.
        widths.append(math.ceil(natural * (1.1 if i == 0 else 1.0)) + PADDING)
    flexible = [i for i in range(count) if not short[i]]
    spare = line_chars - sum(widths)

    def height(candidate: list[int]) -> float:
        total = 0.0
        for row, row_spans in zip(rows, spans, strict=True):
            cells = [
                _lines(row[i], sum(candidate[i : i + span]))
                for i, span in enumerate(row_spans)
                if span and (span > 1 or not short[i])
            ]
            total += max(cells, default=1.0)
        return total

    while spare > 0 and flexible:
        current = height(widths)
        best, best_gain = flexible[0], -1.0
        for i in flexible:
            trial = widths.copy()
            trial[i] += STEP
            gain = current - height(trial)
            # On a tie the narrowest column grows: a page of lopsided tables reads badly.
            if gain > best_gain or (gain == best_gain and widths[i] < widths[best]):
                best, best_gain = i, gain
        widths[best] += STEP
        spare -= STEP
    total = sum(widths)
    return [round(100 * w / total, 2) for w in widths]
