"""Rendered builder markup kept between requests: entry cards, and the whole builder of a list.

Both are keyed by everything they show, so a cached copy is never stale, only unused:

* an entry card by its card's values (``Cards``), the language and the template, whoever's
  list it is in: a regular six-man squad with an LMG looks the same in every list, and a roster
  change (add, move, remove) re-renders only the cards that changed;
* a list's whole builder by the list's row (``updated_at`` moves with every write to the list,
  its platoons and entries: see ``services``), its army's catalogue stamp (``updated_at``, moved
  by every unit or option change: ``catalogue.signals``), the language, the query string and
  the template: reopening or reloading an unchanged list costs one query for its row.

The markup holds no visitor's secret: forms carry ``CSRF_INPUT``, replaced by the visitor's own
token input in each response (``with_csrf``), and stand-ins for the ids of entries (``Cards``).
Cached in each process's memory by default (``CACHES["builder-cards"]`` and ``["builder-pages"]``).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping

from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.middleware.csrf import get_token
from django.template.loader import get_template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from armybuilder.lists.models import ArmyList

# Escaped text never holds "<", so this cannot clash with anything a visitor wrote.
CSRF_INPUT = SafeString("<muster-csrf-input>")
# Cached markup lives a day at most, so an old template's cards do not linger in a shared cache.
TIMEOUT = 24 * 3600


def card_cache() -> BaseCache:
    return caches["builder-cards"]


def page_cache() -> BaseCache:
    return caches["builder-pages"]


def template_stamp(template_name: str) -> str:
    """Changes when the template file does (``runserver`` reloads templates, not the cache)."""
    origin = get_template(template_name).origin.name
    stat = os.stat(origin)
    return f"{stat.st_mtime_ns}-{stat.st_size}"


def _digest(parts: Iterable[object]) -> str:
    return hashlib.blake2b(repr(tuple(parts)).encode(), digest_size=16).hexdigest()


def card_key(template_name: str, language: str, values: tuple) -> str:
    return "card:" + _digest((template_stamp(template_name), language, values))


def page_key(template_name: str, army_list: ArmyList, language: str, query: Mapping[str, str]) -> str:
    """The key of ``army_list``'s whole builder; ``army_list`` loaded with its army."""
    parts = (
        template_stamp(template_name),
        language,
        army_list.pk,
        army_list.updated_at.isoformat(),
        army_list.share_token,
        army_list.edition_id,
        army_list.army_id,
        army_list.army.updated_at.isoformat(),
        sorted(query.items()),
    )
    return f"builder:{army_list.pk}:" + _digest(parts)


def csrf_input(request) -> SafeString:
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request))


def with_csrf(request, html: str) -> SafeString:
    """``html`` with the visitor's CSRF token input in place of each ``CSRF_INPUT``."""
    if CSRF_INPUT not in html:
        return SafeString(html)
    return SafeString(html.replace(CSRF_INPUT, csrf_input(request)))


def with_csrf_bytes(request, content: bytes) -> bytes:
    """``with_csrf`` for UTF-8 markup: a whole builder is kept and sent as bytes, never re-encoded."""
    return content.replace(_CSRF_BYTES, csrf_input(request).encode())


_CSRF_BYTES = CSRF_INPUT.encode()
