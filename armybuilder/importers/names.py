"""Names, slugs and ids as the importers store them, and the keys names are matched by.

Shared by the writer (armies, units, options, rules) and the weapons chart mapping
(``importers.weapons``), which both need the same cutting and matching of names.
"""

from __future__ import annotations

import hashlib
import re

from django.utils.text import slugify


def _clean(text: str) -> str:
    return " ".join((text or "").split())


def _fit(text: str, length: int) -> str:
    """``text`` cut to a column's length; a cut id keeps a hash of the whole so it stays unique and stable."""
    if len(text) <= length:
        return text
    digest = hashlib.sha1(text.encode()).hexdigest()[:8]
    return f"{text[: length - 9]}~{digest}"


def _unique_slug(name: str, taken: set[str], length: int, fallback: str) -> str:
    base = slugify(name)[:length].strip("-") or fallback
    slug, number = base, 2
    while slug in taken:
        suffix = f"-{number}"
        slug = f"{base[: length - len(suffix)].rstrip('-')}{suffix}"
        number += 1
    taken.add(slug)
    return slug


_ABBREVIATIONS = {
    "at": "anti tank",
    "aa": "anti aircraft",
    "smg": "submachine gun",
    "lmg": "light machine gun",
    "mmg": "medium machine gun",
    "hmg": "heavy machine gun",
}
_BRACKETS_RE = re.compile(r"\(([^)]*)\)")
_ABBREVIATION_RE = re.compile(r"^[A-Z0-9-]{2,8}$")


def _words(text: str, expand: bool) -> str:
    words = re.sub(r"[^a-z0-9]+", " ", text.lower().replace("&", " and ")).split()
    return " ".join(_ABBREVIATIONS.get(word, word) if expand else word for word in words)


def _name_keys(name: str, expand: bool) -> list[tuple[int, str]]:
    """Keys a name is known by, ranked: 0 for the whole name, 1 without its brackets or as its abbreviation."""
    keys = [(0, _words(name, expand))]
    bare = _BRACKETS_RE.sub(" ", name)
    if bare != name:
        keys.append((1, _words(bare, expand)))
    for inner in _BRACKETS_RE.findall(name):
        if _ABBREVIATION_RE.match(inner.strip()):
            keys.append((1, _words(inner, expand)))
    return [(rank, key) for rank, key in keys if key]
