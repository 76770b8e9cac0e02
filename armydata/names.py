"""Unit, option, weapon and rule names in another language, composed from a glossary per language.

``translated_name("Anti-tank grenades (if no Panzerfaust taken)", "fr")`` is "Grenades antichar
(si pas de Panzerfaust)": the name's parts are matched to the glossary's patterns and each part
translated in turn, so the thousands of option names built on a few shapes ("Pintle-mounted X",
"Replace X with Y", "X (Late-War)") need a term each, not an entry each. A name with a part the
glossary does not know gives ``None``: the caller keeps the English name rather than half a
translation. A language without a glossary gives ``None`` for every name.

Each glossary is a module ``armydata.glossary_<language>`` holding data only: ``WHOLE`` and
``TERMS`` (blocks of English → translation, one block per source), ``KEEP`` (designations kept as
they are), ``PATTERNS`` and, optionally, ``COMPOUND_TERMS`` (terms that join a designation before
them with a hyphen, as German does: "NKVD-Trupp"). Plain Python, used by the fixture generator,
the importers and the pages alike; the glossaries are code, so a composed name is cached for the
life of the process.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache, lru_cache

# The languages with a glossary; any other language keeps the English names.
GLOSSARY_MODULES = {
    "fr": "armydata.glossary_fr",
    "de": "armydata.glossary_de",
    "es": "armydata.glossary_es",
    "it": "armydata.glossary_it",
    "pl": "armydata.glossary_pl",
}

_SEPARATORS = {"/", "&", "-", "×"}


@dataclass(frozen=True)
class Glossary:
    whole: dict[str, str]
    terms: dict[str, str]
    keep: frozenset[str]
    patterns: tuple[tuple[re.Pattern[str], str], ...]
    compound_terms: frozenset[str]


def _flatten(blocks: dict[str, dict[str, str]]) -> dict[str, str]:
    return {english.casefold(): translated for block in blocks.values() for english, translated in block.items()}


@cache
def glossary(language: str) -> Glossary | None:
    """The language's glossary (``"de-at"`` uses German's), or None when it has none."""
    module_name = GLOSSARY_MODULES.get(language.split("-")[0].casefold())
    if module_name is None:
        return None
    module = importlib.import_module(module_name)
    return Glossary(
        whole=_flatten(module.WHOLE),
        terms=_flatten(module.TERMS),
        keep=frozenset(module.KEEP),
        patterns=tuple((re.compile(pattern, re.IGNORECASE), out) for pattern, out in module.PATTERNS),
        compound_terms=frozenset(getattr(module, "COMPOUND_TERMS", frozenset())),
    )


def _is_designation_word(word: str, keep: frozenset[str]) -> bool:
    bare = word.strip("'\"()")
    if not bare or bare in _SEPARATORS:
        return True
    if any(c.isnumeric() for c in bare) or bare.casefold() in keep:
        return True
    letters = [c for c in bare if c.isalpha()]
    if letters and all(c.isupper() for c in letters):  # "MMG", "NKVD", "AA/AT", the "H" of "Ausf H"
        return True
    return "-" in bare and all(_is_designation_word(part, keep) for part in bare.split("-"))


def is_designation(text: str, language: str = "fr") -> bool:
    """A name players use as it is: a model, a make, a unit's own name ("SdKfz 251", "Tiger I")."""
    found = glossary(language)
    keep = found.keep if found else frozenset()
    words = text.split()
    return bool(words) and all(_is_designation_word(word, keep) for word in words)


@lru_cache(maxsize=16384)
def _translate(text: str, top: bool, language: str) -> str | None:
    found = glossary(language)
    if found is None:
        return None
    text = " ".join(text.split())
    key = text.casefold()
    if top and key in found.whole:
        return found.whole[key]
    # Inside a longer name an abbreviation stays one ("MMG sur affût pivot", not a spelled-out gun).
    if not top and is_designation(text, language):
        return text
    if key in found.whole:
        return found.whole[key]
    if key in found.terms:
        return found.terms[key]
    if is_designation(text, language):
        return text
    for pattern, out in found.patterns:
        match = pattern.fullmatch(text)
        if match:
            parts = [_translate(group, False, language) for group in match.groups()]
            if None not in parts:
                return out.format(*parts)
    # A designation and a term: "BT-5 Light Tank" is a "char léger BT-5" (the longest designation),
    # or, for a term that compounds, the "NKVD-Trupp".
    words = text.split()
    for cut in range(len(words) - 1, 0, -1):
        head, tail = " ".join(words[:cut]), " ".join(words[cut:])
        if is_designation(head, language) and not is_designation(tail, language):
            term = _translate(tail, False, language)
            if term is not None:
                if tail.casefold() in found.compound_terms:
                    return f"{head}-{term}"
                return f"{term} {head}"
    for cut in range(1, len(words)):
        head, tail = " ".join(words[:cut]), " ".join(words[cut:])
        if is_designation(tail, language) and not is_designation(head, language):
            term = _translate(head, False, language)
            if term is not None:
                return f"{term} {tail}"
    return None


def translated_name(name: str, language: str) -> str | None:
    """The name in the language, or None if the language has no glossary or it lacks a part."""
    translated = _translate(name, True, language) if name and name.strip() else None
    if not translated:
        return None
    return translated[0].upper() + translated[1:]


def _partial(text: str, language: str) -> str | None:
    """``text`` with the parts the glossary knows translated and the others kept; None if it knows none.

    For imported data, whose names mix the book's words with the author's own ("Guard Squad",
    "Replace Rifle with Mosin"): the known parts read in the language, the rest as the data wrote them.
    """
    found = glossary(language)
    if found is None:
        return None
    text = " ".join(text.split())
    whole = _translate(text, False, language)
    if whole is not None:
        return whole
    for pattern, out in found.patterns:
        match = pattern.fullmatch(text)
        if match:
            parts = [_partial(group, language) for group in match.groups()]
            if any(part is not None for part in parts):
                kept = (part if part is not None else group for part, group in zip(parts, match.groups(), strict=True))
                return out.format(*kept)
    # A known term and words the glossary lacks. German puts the unknown words first ("Guard Trupp"),
    # the Romance languages and Polish the term ("escouade Guard", as one reads "escouade Wiking").
    words = text.split()
    noun_first = language.split("-")[0] != "de"
    for cut in range(1, len(words)):
        head, tail = " ".join(words[:cut]), " ".join(words[cut:])
        term = _translate(tail, False, language)
        if term is not None and not is_designation(tail, language):
            return f"{term} {head}" if noun_first else f"{head} {term}"
    for cut in range(len(words) - 1, 0, -1):
        head, tail = " ".join(words[:cut]), " ".join(words[cut:])
        term = _translate(head, False, language)
        if term is not None and not is_designation(head, language):
            return f"{term} {tail}"
    return None


@lru_cache(maxsize=16384)
def shown_parts(name: str, language: str) -> str:
    """The name as far as the language's glossary knows its parts; the name itself if it knows none."""
    if not name or not name.strip():
        return name
    translated = translated_name(name, language) or _partial(name, language)
    if not translated:
        return name
    return translated[0].upper() + translated[1:]


@lru_cache(maxsize=16384)
def shown_name(name: str, language: str) -> str:
    """The name a page shows in the language: the glossary's, or the English where it has none."""
    return translated_name(name, language) or name


def shown_part(name: str, language: str) -> str:
    """A name as it reads inside a line (a mount in brackets): the glossary's own case, or the English.

    "(casco, frente)" in Spanish, where ``shown_name`` would start a sentence ("Casco, frente");
    German keeps its nouns' capital ("Wanne, vorn") because its glossary writes them so.
    """
    translated = _translate(name, True, language) if name and name.strip() else None
    return translated or name


def _split_top_level(text: str, separator: str) -> list[str]:
    """``text`` cut at ``separator`` outside brackets: "MMG (hull, front); Rifle" in two."""
    parts, depth, start, index = [], 0, 0, 0
    while index < len(text):
        char = text[index]
        depth += char == "("
        depth -= char == ")"
        if depth == 0 and text.startswith(separator, index):
            parts.append(text[start:index])
            start = index + len(separator)
            index = start
            continue
        index += 1
    parts.append(text[start:])
    return parts


def translated_armament(text: str, language: str) -> str | None:
    """A unit's printed armament, weapon by weapon ("Rifle, Automatic rifle"; "MMG (hull, front); …").

    None if any weapon or mount is one the glossary lacks: the armament then stays English whole.
    """
    if not text.strip():
        return None
    separator = "; " if len(_split_top_level(text, "; ")) > 1 else ", "
    parts = [translated_name(part, language) for part in _split_top_level(text, separator)]
    return None if None in parts else separator.join(parts)  # type: ignore[arg-type]


@lru_cache(maxsize=4096)
def shown_armament(text: str, language: str) -> str:
    """The armament a page shows in the language: the glossary's, or the English where it lacks a part."""
    return translated_armament(text, language) or text
