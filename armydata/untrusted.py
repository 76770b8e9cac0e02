"""The one place untrusted JSON and text are read: hostile input becomes a clear error, never a 500.

Python's own ``json`` fails in ways a view does not expect: 100,000 nested brackets raise
``RecursionError``, an integer of more than 4,300 digits raises a bare ``ValueError``, and
``"\\ud800"`` decodes to a lone surrogate that no database can store (SQLite raises on encoding,
PostgreSQL refuses it), as PostgreSQL also refuses NUL. ``loads`` checks all of that and raises
``UntrustedInput`` naming the place (``entries[3].name``), for the list import, the resolver
API and the catalogue importers alike.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

# Muster's own files nest 4 deep; 64 leaves room for any honest document while staying far
# below the interpreter's recursion limit.
MAX_DEPTH = 64
# No count, cost or id in Muster needs more than 18 digits (a 64-bit integer column holds 19).
MAX_INT_DIGITS = 18

# C0 controls (NUL included), DEL and C1 controls, except tab, line feed and carriage return,
# which honest multi-line text holds; and surrogates, which only an escape can produce.
_FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class UntrustedInput(ValueError):
    """Input refused at the edge; ``field`` names where (``body`` for the document as a whole)."""

    def __init__(self, field: str, message: str, syntax: json.JSONDecodeError | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.syntax = syntax  # set for a syntax error, so each caller can word its place its own way


def forbidden_character(text: str) -> str | None:
    """A description of the first character refused in text, or None when the text is clean."""
    match = _FORBIDDEN.search(text)
    if match is None:
        return None
    char = match.group()
    kind = "a lone surrogate" if "\ud800" <= char <= "\udfff" else "a control character"
    return f"{kind} (U+{ord(char):04X})"


def check_text(value: str, field: str) -> str:
    """``value`` unchanged, or ``UntrustedInput`` if it holds NUL, another control character or a surrogate."""
    problem = forbidden_character(value)
    if problem is not None:
        raise UntrustedInput(field, f"contains {problem}, which is not allowed.")
    return value


def _depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text, strings skipped, in one linear pass."""
    depth = deepest = 0
    for token in _STRING_OR_BRACKET.findall(text):
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                return deepest
        elif token in "]}":
            depth -= 1
    return deepest


class _Refused:
    """Stands in for a number refused while parsing, so the walk that follows can name its place."""

    def __init__(self, message: str) -> None:
        self.message = message


def _parse_int(digits: str) -> int | _Refused:
    count = len(digits.lstrip("-"))
    if count > MAX_INT_DIGITS:
        return _Refused(f"is a number of {count} digits; at most {MAX_INT_DIGITS}.")
    return int(digits)


def _parse_float(text: str) -> float | _Refused:
    value = float(text)
    if not math.isfinite(value):
        return _Refused(f"is the number {text[:20]}, too large to be stored.")
    return value


def _parse_constant(name: str) -> _Refused:
    return _Refused(f"is {name}, which is not a JSON number.")


def _walk(value: object, path: str) -> None:
    if isinstance(value, _Refused):
        raise UntrustedInput(path or "body", value.message)
    if isinstance(value, str):
        check_text(value, path or "body")
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(key, f"{path}.{key!r}" if path else repr(key))
            _walk(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _walk(item, f"{path}[{i}]" if path else f"[{i}]")


def loads(data: str | bytes) -> Any:
    """Parse untrusted JSON: ``UntrustedInput`` for anything a view could not go on with safely."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise UntrustedInput("body", f"is not UTF-8 text (byte {exc.start}).") from None
    if _depth(data) > MAX_DEPTH:
        raise UntrustedInput("body", f"nests more than {MAX_DEPTH} levels deep.")
    try:
        value = json.loads(data, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        message = f"is not valid JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}."
        raise UntrustedInput("body", message, syntax=exc) from None
    except RecursionError:  # the depth check above should make this unreachable; belt and braces
        raise UntrustedInput("body", f"nests more than {MAX_DEPTH} levels deep.") from None
    _walk(value, "")
    return value


def objects(
    items: list, prefix: str, errors: list[str], refusal: str = "must be an object."
) -> Iterator[tuple[int, str, dict]]:
    """Each item of a list read from untrusted JSON that is an object, with its index and its place
    (``prefix[i]``); any other item is passed over and refused in ``errors`` at its place."""
    for i, item in enumerate(items):
        where = f"{prefix}[{i}]"
        if isinstance(item, dict):
            yield i, where, item
        else:
            errors.append(f"{where}: {refusal}")


# A rule's text quoted from imported data: long enough for any rule a source writes, short enough
# that a hostile file cannot fill a page.
MAX_QUOTED_TEXT = 1200
_MARKUP = re.compile(r"<[^>]*>|<|>")


def quoted_text(value: object, limit: int = MAX_QUOTED_TEXT) -> str:
    """A source's own text made plain: tags and stray angle brackets dropped, control characters
    removed, whitespace collapsed, cut at ``limit`` with an ellipsis. Entities stay the characters
    they are written with, and templates escape the text again when they show it."""
    if not isinstance(value, str):
        return ""
    text = _FORBIDDEN.sub(" ", _MARKUP.sub(" ", value))
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text
