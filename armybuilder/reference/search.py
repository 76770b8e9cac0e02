"""Search in players' words: accent- and case-insensitive matching, widened by the edition's aliases.

"MG42", "zook", "flamer", "AT gun", "PM" or "lance-flamme" find the weapons and units players
mean. The vocabulary lives in ``SearchAlias`` rows (fixtures/40_search_aliases.json), per
edition; this module only normalises text and applies them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from armybuilder.reference.models import Edition, SearchAlias

# A shorter query only matches an alias typed in full ("mg"), not as the start of one.
PREFIX_MIN = 3


def normalize(text: str) -> str:
    """Lower case, accents off, anything but letters and digits as single spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", plain).split())


@dataclass(frozen=True)
class Matcher:
    query: str  # normalised
    phrases: tuple[str, ...]  # normalised words the matched aliases stand for

    def __bool__(self) -> bool:
        return bool(self.query)

    def in_name(self, *texts: str) -> bool:
        """A word of these names begins with the query, or they contain a word it stands for.

        From the start of a word: "mg" is not the end of "smg", "machine gun" not the end of
        "submachine gun".
        """
        padded = f" {normalize(' '.join(t for t in texts if t))} "
        return f" {self.query}" in padded or any(f" {phrase} " in padded for phrase in self.phrases)


def aliases_matching(query: str, aliases: Iterable[tuple[str, list[str]]]) -> tuple[str, ...]:
    """The words the aliases matching ``query`` stand for: the term typed in full, or begun (3+ letters)."""
    phrases: list[str] = []
    for term, means in aliases:
        term = normalize(term)
        if term == query or (len(query) >= PREFIX_MIN and term.startswith(query)):
            phrases += [normalize(m) for m in means if normalize(m) not in phrases]
    return tuple(phrases)


def matcher(edition: Edition | int, text: str) -> Matcher:
    """A matcher for ``text`` in ``edition``: one query for the aliases, none for an empty text."""
    query = normalize(text or "")
    if not query:
        return Matcher("", ())
    edition_id = edition if isinstance(edition, int) else edition.pk
    rows = SearchAlias.objects.filter(edition_id=edition_id).values_list("term", "means")
    return Matcher(query, aliases_matching(query, rows))
