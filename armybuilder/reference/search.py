"""Search in players' words: accent- and case-insensitive matching, widened by the edition's aliases.

"MG42", "zook", "flamer", "AT gun", "PM" or "lance-flamme" find the weapons and units players
mean. The vocabulary lives in ``SearchAlias`` rows (fixtures/40_search_aliases.json), per
edition; this module only normalises text and applies them.

Results are ranked, and the ranking is data too: an alias lists what it stands for most often
first ("MG42": the medium machine gun before the light one), so a name carrying an earlier word
ranks before one carrying a later word. A name equal to what was typed comes before all.
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

    def rank(self, *texts: str) -> int | None:
        """How well these names match: lower is better, None for no match.

        0: a name is exactly what was typed; 1: a word of a name begins with it; 2 + i: a name
        carries the i-th word the aliases stand for (the alias's own order says what players
        mean most).
        """
        names = [normalize(t) for t in texts if t]
        if self.query in names or _compact(self.query) in map(_compact, names):
            return 0
        padded = f" {' '.join(names)} "
        if f" {self.query}" in padded:
            return 1
        for index, phrase in enumerate(self.phrases):
            if f" {phrase} " in padded:
                return 2 + index
        if len(self.query) >= PREFIX_MIN and f" {variant(self.query)}" in f" {_skeleton(padded)} ":
            return 2 + len(self.phrases)
        return None

    def unit_rank(
        self,
        names: tuple[str, ...],
        weapons: tuple[str, ...],
        *,
        crew_served: bool = False,
        also: tuple[str, ...] = (),
    ) -> tuple[int, int, int] | None:
        """A unit's place in the results: named so first, then its main weapon, then any weapon.

        The main weapon is the first one its armament lists ("Heavy anti-tank gun (turret); MMG
        (hull)" is a tank's gun, not its machine gun); a team or gun (``crew_served``) *is* its
        weapon, so it comes before a vehicle with the same main weapon ("AT gun": the PaK before
        the Panzer IV). Words that say what the unit is (``also``: an officer's rank, "officer")
        find it after the units named so. Within the first two tiers ``rank`` orders; the rest are equal (the army's
        order then decides): a tank's co-axial MMG is no better an "MG42" than a squad's LMG.
        """
        if (by_name := self.rank(*names)) is not None:
            return (0, by_name, 0)
        if also and (by_role := self.rank(*also)) is not None:
            return (0, ALSO_RANK + by_role, 0)  # what the unit is ("officer"), after units named so
        if (by_main := self.rank(*(main_weapon(w) for w in weapons))) is not None:
            return (1, by_main, 0 if crew_served else 1)
        if self.rank(*weapons) is not None:
            return (2, 0, 0)
        return None


# Spelling players and data authors vary: doubled letters ("Commisar", "Commissar") and plurals
# ("Guards" for a "Guard Squad"). Tried after the names and the aliases.
def _skeleton(text: str) -> str:
    """Doubled letters as one: "commissar" and "commisar" are both "comisar"."""
    return re.sub(r"([a-z])\1+", r"\1", text)


def variant(query: str) -> str:
    """A normalised query as its spelling variants compare: no doubled letters, no plural ending."""
    words = _skeleton(query).split()
    return " ".join(w[:-1] if len(w) > PREFIX_MIN and w.endswith("s") else w for w in words)


# Where a word of the unit's role ranks among the name tiers: after any name or alias match.
ALSO_RANK = 100

# What players type for an officer, by the rank the data gives him (English and French): a
# "Platoon Commander" of the 3rd edition is a lieutenant, a "Company Commander" a captain or major.
OFFICER_WORDS = {
    "second_lieutenant": ("officer", "officier", "lieutenant", "second lieutenant", "sous-lieutenant"),
    "first_lieutenant": ("officer", "officier", "lieutenant", "first lieutenant"),
    "captain": ("officer", "officier", "captain", "capitaine"),
    "major": ("officer", "officier", "major", "commandant"),
    "platoon_commander": ("officer", "officier", "lieutenant", "platoon commander", "chef de section"),
    "company_commander": ("officer", "officier", "captain", "major", "capitaine", "commandant"),
}


def officer_words(rank: str, slot: str) -> tuple[str, ...]:
    """The words an officer is searched by, from his rank (or his officer slot, rank unknown)."""
    if rank:
        return OFFICER_WORDS.get(rank, ("officer", "officier"))
    return ("officer", "officier") if slot in ("officer", "company_commander") else ()


def main_weapon(armament: str) -> str:
    """The first weapon of an armament as printed: "Rifle, LMG" is a rifle; "1 MMG" an MMG."""
    return re.split(r"[;,]| or | and | ou | et | oder | und ", armament or "", maxsplit=1)[0]


def _compact(text: str) -> str:
    """Without spaces, so "MG 42" and "mg-42" are the alias "MG42"."""
    return text.replace(" ", "")


def aliases_matching(query: str, aliases: Iterable[tuple[str, list[str]]]) -> tuple[str, ...]:
    """The words the aliases matching ``query`` stand for: the term typed in full, or begun (3+ letters)."""
    phrases: list[str] = []
    for term, means in aliases:
        term = normalize(term)
        typed, full = _compact(query), _compact(term)
        if typed == full or (len(typed) >= PREFIX_MIN and (term.startswith(query) or full.startswith(typed))):
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
