"""What a phone's game.js sends with a tap or a poll, for the view tests: the mark of the board it
shows (``seen``) and the print of each row and panel on it (``prints``)."""

from __future__ import annotations

import re


def prints_in(html: str) -> dict[str, str]:
    """The print of each row and panel in ``html`` (its data-print), by its element's id."""
    tags = re.findall(r"<[a-z]+ [^>]*\bdata-print=[^>]*>", html)
    return {
        re.search(r'\bid="([^"]+)"', tag).group(1): re.search(r'data-print="([^"]*)"', tag).group(1) for tag in tags
    }


def field(prints: dict[str, str]) -> str:
    """The prints as game.js sends them (``printsField`` in static/js/game_rules.js)."""
    return ",".join(f"{key}:{value}" for key, value in prints.items())


def shown(client, base: str) -> dict[str, str]:
    """What a phone whose board is up to date sends with a tap: the board's mark and its prints."""
    html = client.get(base).content.decode()
    return {"seen": re.search(r'data-seen="([^"]+)"', html).group(1), "prints": field(prints_in(html))}
