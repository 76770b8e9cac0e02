"""French names for units, options and weapons, composed from the glossary (``glossary_fr``).

``french_name("Anti-tank grenades (if no Panzerfaust taken)")`` is "Grenades antichar (si pas
de Panzerfaust)": the name's parts are matched to the glossary's patterns and each part
translated in turn, so the thousands of option names built on a few shapes ("Pintle-mounted X",
"Replace X with Y", "X (Late-War)") need a term each, not an entry each. A name with a part the
glossary does not know gives ``None``: the fixture generator and the importers store no French
rather than half a translation. Pages ask ``french_parts`` at render time instead: the parts
the glossary knows in French, the others as the data wrote them ("Replace Rifle with Mosin":
"Remplacer fusil par Mosin"), so a glossary that grows reaches every imported row at once.
Plain Python.
"""

from __future__ import annotations

import re
from functools import lru_cache

from armydata.glossary_fr import KEEP, PATTERNS, TERMS, WHOLE


def _flatten(blocks: dict[str, dict[str, str]]) -> dict[str, str]:
    return {english.casefold(): french for block in blocks.values() for english, french in block.items()}


_WHOLE = _flatten(WHOLE)
_TERMS = _flatten(TERMS)
_PATTERNS = tuple((re.compile(pattern, re.IGNORECASE), french) for pattern, french in PATTERNS)
_SEPARATORS = {"/", "&", "-", "×"}


def _is_designation_word(word: str) -> bool:
    bare = word.strip("'\"()")
    if not bare or bare in _SEPARATORS:
        return True
    if any(c.isnumeric() for c in bare) or bare.casefold() in KEEP:
        return True
    letters = [c for c in bare if c.isalpha()]
    if letters and all(c.isupper() for c in letters):  # "MMG", "NKVD", "AA/AT", the "H" of "Ausf H"
        return True
    return "-" in bare and all(_is_designation_word(part) for part in bare.split("-"))


def is_designation(text: str) -> bool:
    """A name French players use as it is: a model, a make, a unit's own name ("SdKfz 251", "Tiger I")."""
    words = text.split()
    return bool(words) and all(_is_designation_word(word) for word in words)


@lru_cache(maxsize=8192)
def _translate(text: str, top: bool) -> str | None:
    text = " ".join(text.split())
    key = text.casefold()
    if top and key in _WHOLE:
        return _WHOLE[key]
    # Inside a longer name an abbreviation stays one ("MMG sur affût pivot", not a spelled-out gun).
    if not top and is_designation(text):
        return text
    if key in _WHOLE:
        return _WHOLE[key]
    if key in _TERMS:
        return _TERMS[key]
    if is_designation(text):
        return text
    for pattern, french in _PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            parts = [_translate(group, False) for group in match.groups()]
            if None not in parts:
                return french.format(*parts)
    # A designation and a term: "BT-5 Light Tank" is a "char léger BT-5" (the longest designation).
    words = text.split()
    for cut in range(len(words) - 1, 0, -1):
        head, tail = " ".join(words[:cut]), " ".join(words[cut:])
        if is_designation(head) and not is_designation(tail):
            term = _translate(tail, False)
            if term is not None:
                return f"{term} {head}"
    for cut in range(1, len(words)):
        head, tail = " ".join(words[:cut]), " ".join(words[cut:])
        if is_designation(tail) and not is_designation(head):
            term = _translate(head, False)
            if term is not None:
                return f"{term} {tail}"
    return None


def french_name(name: str) -> str | None:
    """The French for a unit's, option's or weapon's English name, or None if the glossary lacks a part."""
    french = _translate(name, True) if name and name.strip() else None
    if not french:
        return None
    return french[0].upper() + french[1:]


def _partial(text: str) -> str | None:
    """``text`` with the parts the glossary knows translated and the others kept; None if it knows none."""
    text = " ".join(text.split())
    whole = _translate(text, False)
    if whole is not None:
        return whole
    for pattern, french in _PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            parts = [_partial(group) for group in match.groups()]
            if any(part is not None for part in parts):
                kept = (part if part is not None else group for part, group in zip(parts, match.groups(), strict=True))
                return french.format(*kept)
    # A known term and words the glossary lacks: the term leads, as French puts the noun first
    # ("Guard Squad": "escouade Guard", as it reads "escouade Wiking").
    words = text.split()
    for cut in range(1, len(words)):
        head, tail = " ".join(words[:cut]), " ".join(words[cut:])
        term = _translate(tail, False)
        if term is not None and not is_designation(tail):
            return f"{term} {head}"
    for cut in range(len(words) - 1, 0, -1):
        head, tail = " ".join(words[:cut]), " ".join(words[cut:])
        term = _translate(head, False)
        if term is not None and not is_designation(head):
            return f"{term} {tail}"
    return None


@lru_cache(maxsize=8192)
def french_parts(name: str) -> str:
    """The French of a name as far as the glossary knows its parts; the name itself if it knows none."""
    if not name or not name.strip():
        return name
    french = french_name(name) or _partial(name)
    if not french:
        return name
    return french[0].upper() + french[1:]
