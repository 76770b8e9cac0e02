"""Playsheet PDFs: a print template rendered to HTML, then to PDF by WeasyPrint.

The print templates link their stylesheet and fonts under ``STATIC_ORIGIN``, a host that never
resolves (``.invalid``, RFC 2606). The URL fetcher maps that prefix onto the project's static files
through the staticfiles finders and refuses every other URL (http, https, file, data), so a render
reads nothing from the network or from the rest of the disk. The browser preview renders the same
templates with ``static_root`` set to ``STATIC_URL`` instead.

WeasyPrint is imported inside functions: it is slow to import and only the PDF views need it.

Every render reuses its thread's one ``FontConfiguration`` (``font_config``). WeasyPrint makes a
new one per document when none is given: a fresh Fontconfig configuration with every system font
loaded, and a new Pango font map, neither of which the C libraries fully give back when it is
dropped. That kept 0.25-0.6 MB per PDF in every worker, without end (``bench/pdf_memory_bench.py``
shows both behaviours). One configuration per thread, because Pango font maps are not
thread-safe; it registers the print stylesheet's ``@font-face`` fonts once (WeasyPrint skips a
face it already holds), and its own caches are keyed by the few font and line-height
combinations of the print stylesheet, so they stop growing after the first renders.

Quick-reference sheets depend only on an edition's rules data, so they are cached per edition,
language and paper size. The key carries a fingerprint of that data and of the sheet's template
and stylesheet, so an edited table or a new deploy never serves a stale sheet.
"""

from __future__ import annotations

import functools
import hashlib
import mimetypes
import threading
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation

from armybuilder.reference.models import Edition, RulesRow, RulesTable, SpecialRule, Weapon

STATIC_ORIGIN = "https://static.muster.invalid/"
SHEET_TEMPLATE = "playsheets/reference_sheet.html"
LIST_TEMPLATE = "playsheets/list_document.html"
SHEET_CACHE_SECONDS = 7 * 24 * 3600
# Files whose content changes what a cached sheet looks like (the fingerprint hashes them).
SHEET_ASSETS = (
    "templates/playsheets/reference_sheet.html",
    "templates/playsheets/base_print.html",
    "templates/playsheets/parts.html",
    "static/playsheets/playsheet.css",
)


class FetchRefused(ValueError):
    """A print template asked for something that is not one of the project's static files."""


def resolve_static(url: str) -> Path:
    """The file on disk that ``url`` names, if it is a static file under ``STATIC_ORIGIN``."""
    if not url.startswith(STATIC_ORIGIN):
        raise FetchRefused(f"Only the project's static files may be loaded, not {url[:200]!r}.")
    relative = unquote(urlsplit(url).path).lstrip("/")
    parts = relative.split("/")
    if not relative or "\\" in relative or any(part in ("", ".", "..") for part in parts):
        raise FetchRefused(f"Not a static file path: {relative[:200]!r}.")
    found = finders.find(relative)
    if not found or not Path(found).is_file():
        raise FetchRefused(f"No static file {relative[:200]!r}.")
    return Path(found)


@functools.cache
def _fetcher_class() -> type:
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class StaticFilesFetcher(URLFetcher):  # type: ignore[misc]
        """WeasyPrint's fetcher, narrowed to the project's static files (see the module docstring)."""

        def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
            path = resolve_static(url)
            content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(url, body=path.read_bytes(), headers={"Content-Type": content_type})

    return StaticFilesFetcher


def static_url_fetcher() -> Any:
    return _fetcher_class()()


def render_html(template_name: str, context: dict[str, Any], *, for_pdf: bool = True) -> str:
    """The print HTML; ``for_pdf=False`` links the static files for a browser (the preview)."""
    static_root = STATIC_ORIGIN if for_pdf else settings.STATIC_URL
    return render_to_string(template_name, {**context, "static_root": static_root, "for_pdf": for_pdf})


_thread_fonts = threading.local()


def font_config() -> Any:
    """This thread's WeasyPrint font configuration, made on first use (see the module docstring)."""
    config = getattr(_thread_fonts, "config", None)
    if config is None:
        from weasyprint.text.fonts import FontConfiguration

        config = _thread_fonts.config = FontConfiguration()
    return config


def html_to_pdf(html: str, *, fresh_fonts: bool = False) -> bytes:
    """The PDF of ``html``; ``fresh_fonts`` makes a font configuration for this render alone, as
    WeasyPrint does by default (only the memory benchmark asks for it, to show the leak)."""
    from weasyprint import HTML

    fonts = None if fresh_fonts else font_config()
    document = HTML(string=html, base_url=STATIC_ORIGIN, url_fetcher=static_url_fetcher())
    return document.write_pdf(font_config=fonts)


def render_pdf(template_name: str, context: dict[str, Any]) -> bytes:
    """Render a print template to PDF bytes; call it inside ``translation.override``."""
    return html_to_pdf(render_html(template_name, context))


# -- The cached quick-reference sheet --------------------------------------------------------


@functools.cache
def _assets_version() -> str:
    digest = hashlib.blake2b(digest_size=8)
    for name in SHEET_ASSETS:
        path = Path(settings.BASE_DIR) / name
        digest.update(path.read_bytes() if path.exists() else name.encode())
    return digest.hexdigest()


def reference_fingerprint(edition: Edition) -> str:
    """A cheap hash of everything an edition's sheet prints (the reference models have no updated_at).

    Five small ``values_list`` queries; any edited cell, title, weapon or rule changes it.
    """
    digest = hashlib.blake2b(digest_size=10)
    parts: list[Any] = [
        (edition.pk, edition.slug, edition.name, edition.name_fr),
        list(
            RulesTable.objects.filter(edition=edition)
            .order_by("pk")
            .values_list(
                "pk", "slug", "topic", "position", "title", "title_fr", "intro", "intro_fr", "columns", "status"
            )
        ),
        list(
            RulesRow.objects.filter(table__edition=edition)
            .order_by("pk")
            .values_list("pk", "table_id", "position", "cells", "cells_fr", "status")
        ),
        list(
            Weapon.objects.filter(edition=edition)
            .order_by("pk")
            .values_list(
                "pk",
                "name",
                "name_fr",
                "category",
                "position",
                "range_max",
                "range_min",
                "indirect_min",
                "indirect_max",
                "shots",
                "pen",
                "he_size",
                "status",
            )
        ),
        list(
            Weapon.special_rules.through.objects.filter(weapon__edition=edition)
            .order_by("pk")
            .values_list("weapon_id", "specialrule_id")
        ),
        list(SpecialRule.objects.filter(edition=edition).order_by("pk").values_list("pk", "name", "name_fr")),
    ]
    digest.update(repr(parts).encode())
    return digest.hexdigest()


def sheet_cache_key(edition: Edition, lang: str, paper: str) -> str:
    return f"playsheets:sheet:{edition.slug}:{lang}:{paper}:{_assets_version()}:{reference_fingerprint(edition)}"


def reference_sheet_pdf(edition: Edition, *, lang: str, paper: str) -> bytes:
    """The edition's quick-reference sheet, from the cache when its data has not changed."""
    from armybuilder.playsheets.context import reference_sheet_context

    key = sheet_cache_key(edition, lang, paper)
    pdf = cache.get(key)
    if pdf is None:
        with translation.override(lang):
            pdf = render_pdf(SHEET_TEMPLATE, reference_sheet_context(edition, paper=paper))
        cache.set(key, pdf, SHEET_CACHE_SECONDS)
    return pdf
