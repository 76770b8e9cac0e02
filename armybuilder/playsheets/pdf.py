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

Rendered PDFs are kept in Django's cache under everything they show, so a stale one cannot be
served: a quick-reference sheet under its edition, the rules data's version
(``reference.version``), the deployed templates and stylesheet (``http.build_stamp``), the
language and the paper; a list's PDFs under the list's revision (``ArmyListQuerySet.revisions()``: its row, its army's,
its entries', platoons' and units' counts and stamps, read in one query), the same data version
and build, the language, the paper and the parts printed.

The quick-reference part of a list's print PDF is the edition's quick-reference sheet itself,
rendered once per edition, language and paper (under the sheet's key above) and appended to the
list's own parts (``join_pdfs``): at about 6 s of CPU it is the costliest part, and the same for
every list. Its pages then count on their own ("1 / 2"), as the sheet printed alone does.

What one render may cost is bounded by its input and by the deployment, not in this process: a
list holds at most 100 units (``lists.models.ENTRIES_MAX``), which bounds the largest render (a
100-unit print PDF, about 5 s on one core: docs/deploy.md), and every PDF not already kept is
rendered by the task worker, not in a request (``jobs``); the PDF views and the new work they
queue are rate limited per visitor (``security.middleware``, ``armybuilder.jobs``). A render is
never interrupted halfway (a signal once left a database connection mid-command), and what is
rendered is kept, so each PDF is made once per revision.
"""

from __future__ import annotations

import functools
import io
import mimetypes
import re
import threading
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation

from armybuilder.http import build_stamp
from armybuilder.reference.models import Edition
from armybuilder.reference.version import data_version

STATIC_ORIGIN = "https://static.muster.invalid/"
SHEET_TEMPLATE = "playsheets/reference_sheet.html"
LIST_TEMPLATE = "playsheets/list_document.html"
SHEET_CACHE_SECONDS = 7 * 24 * 3600
LIST_CACHE_SECONDS = 24 * 3600


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


Progress = Callable[[str], None]


def _no_progress(stage: str) -> None:
    return None


# Who is told each stage of the render in progress: the task worker's job row (``jobs``), else no
# one. A context variable, so the renders in between (``render_pdf``) keep their plain signature.
_progress: ContextVar[Progress] = ContextVar("playsheets_pdf_progress", default=_no_progress)


def html_to_pdf(html: str, *, fresh_fonts: bool = False) -> bytes:
    """The PDF of ``html``, each part fitted to its pages (``fitted``).

    ``fresh_fonts`` makes a font configuration for this render alone, as WeasyPrint does by
    default (only the memory benchmark asks for it, to show the leak). Each stage is reported as
    it starts ("layout", "fitting", "writing") to ``_progress``: the task worker shows it.
    """
    progress = _progress.get()
    fonts = None if fresh_fonts else font_config()
    document = fitted(html, fonts, progress=progress)
    progress("writing")
    return document.write_pdf()


# -- Fitting parts to their pages ----------------------------------------------------------------

# A part (the roster, the rules summary, the quick reference) whose last page is filled less
# than this is tightened (``.fit-1``, then ``.fit-2`` in playsheet.css: smaller type, closer
# rows) when that saves the page: a roster never ends with one unit's row alone on a page, and
# the French sheets, whose words are longer, take the pages the English ones do (the 2nd
# edition's French A4 quick reference took 4 pages, the last one a quarter full, for 3).
FIT_FILL = 0.4
FIT_LEVELS = ("fit-1", "fit-2")
FIT_PARTS = ("part-roster", "part-summary", "part-reference")
PART_ID = "part-"  # a part's section: <section id="part-roster" class="part part-roster">
PAGE_AREA = "page-area"


def _layout(html: str, fonts: Any) -> Any:
    from weasyprint import HTML

    return HTML(string=html, base_url=STATIC_ORIGIN, url_fetcher=static_url_fetcher()).render(font_config=fonts)


def _part_pages(document: Any) -> dict[str, list[float]]:
    """For each part of the document, how full each of its pages is (0 to 1), in order.

    Read from WeasyPrint's ``Page.anchors``: the rectangle (x1, y1, x2, y2) each element with an
    id covers on that page. Each part's section has its id (``part-roster``...), and the print
    layout's fixed ``page-area`` element spans every page's content area (base_print.html).
    """
    pages: dict[str, list[float]] = {}
    for page in document.pages:
        _left, top, _right, bottom = page.anchors[PAGE_AREA]
        for name, (_x1, _y1, _x2, end) in page.anchors.items():
            if name.startswith(PART_ID):
                pages.setdefault(name, []).append(max(0.0, min(1.0, (end - top) / (bottom - top))))
    return pages


def _tighten(html: str, part: str, level: str) -> str:
    return re.sub(rf"""class=(["'])part {part}""", rf"class=\1part {part} {level}", html, count=1)


def fitted(html: str, fonts: Any, *, progress: Progress = _no_progress) -> Any:
    """The laid-out document; a part that spills a little onto a last page is tightened to fit."""
    progress("layout")
    document = _layout(html, fonts)
    for part, fills in _part_pages(document).items():
        if part not in FIT_PARTS or len(fills) < 2 or fills[-1] >= FIT_FILL:
            continue
        progress("fitting")
        for level in FIT_LEVELS:
            tighter_html = _tighten(html, part, level)
            tighter = _layout(tighter_html, fonts)
            if len(_part_pages(tighter).get(part, fills)) < len(fills):
                html, document = tighter_html, tighter
                break
    return document


def render_pdf(template_name: str, context: dict[str, Any]) -> bytes:
    """Render a print template to PDF bytes; call it inside ``translation.override``."""
    return html_to_pdf(render_html(template_name, context))


def _cached(key: str, seconds: int, render: Callable[[], bytes]) -> bytes:
    """The PDF kept under ``key``, or ``render()``'s, kept for ``seconds``."""
    data = cache.get(key)
    if data is None:
        data = render()
        cache.set(key, data, seconds)
    return data


# -- The quick-reference sheet and a list's PDFs, cached ----------------------------------------


def sheet_cache_key(edition: Edition, lang: str, paper: str) -> str:
    return f"playsheets:sheet:{edition.slug}:{lang}:{paper}:{build_stamp()}:{data_version().stamp}"


def reference_sheet_pdf(edition: Edition, *, lang: str, paper: str) -> bytes:
    """The edition's quick-reference sheet, from the cache while its data has not changed."""
    from armybuilder.playsheets.context import reference_sheet_context

    def render() -> bytes:
        with translation.override(lang):
            return render_pdf(SHEET_TEMPLATE, reference_sheet_context(edition, paper=paper))

    return _cached(sheet_cache_key(edition, lang, paper), SHEET_CACHE_SECONDS, render)


def list_cache_key(army_list: Any, *, lang: str, paper: str, parts: Sequence[str]) -> str:
    from armybuilder.lists.conditional import list_stamp

    # Read before the render loads the list: a write in between then leaves newer content under
    # a revision no request asks for again, never older content under the current one.
    revision = list_stamp(army_list.pk)
    return f"playsheets:list:{revision}:{lang}:{paper}:{'+'.join(parts)}:{build_stamp()}:{data_version().stamp}"


def kept(key: str) -> bytes | None:
    """The PDF kept under ``key`` (``list_cache_key``, ``sheet_cache_key``), else None (nothing is rendered)."""
    return cache.get(key)


def join_pdfs(documents: Sequence[bytes]) -> bytes:
    """One PDF of the documents' pages in order; the first document's title and metadata."""
    if len(documents) == 1:
        return documents[0]
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for index, data in enumerate(documents):
        reader = PdfReader(io.BytesIO(data))
        writer.append(reader)
        if index == 0 and reader.metadata is not None:
            writer.add_metadata(dict(reader.metadata))
    output = io.BytesIO()
    writer.write(output)
    return output.getvalue()


REFERENCE_PART = "reference"


def list_pdf(
    army_list: Any, *, lang: str, paper: str, parts: Sequence[str], progress: Progress = _no_progress
) -> bytes:
    """A list's PDF of ``parts``, from the cache while the list, its army and the rules are unchanged.

    ``army_list`` needs only its row and army: its units are read only when the PDF is rendered.
    The quick-reference part is the edition's kept sheet (see the module docstring).
    """
    from armybuilder.lists.models import ArmyList
    from armybuilder.playsheets.context import list_context

    own_parts = [part for part in parts if part != REFERENCE_PART]

    def render() -> bytes:
        documents = []
        if own_parts or REFERENCE_PART not in parts:
            progress("reading")
            full = ArmyList.objects.for_builder().get(pk=army_list.pk)
            reporting = _progress.set(progress)
            try:
                with translation.override(lang):
                    documents.append(render_pdf(LIST_TEMPLATE, list_context(full, paper=paper, parts=own_parts)))
            finally:
                _progress.reset(reporting)
        if REFERENCE_PART in parts:
            progress("layout")
            documents.append(reference_sheet_pdf(army_list.edition, lang=lang, paper=paper))
        progress("writing")
        return join_pdfs(documents)

    key = list_cache_key(army_list, lang=lang, paper=paper, parts=parts)
    return _cached(key, LIST_CACHE_SECONDS, render)
