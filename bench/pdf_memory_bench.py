"""Prove that PDF renders do not grow the process: 500 PDFs of each kind in one process, RSS every 50.

Run from the repository root: ``.venv/bin/python bench/pdf_memory_bench.py [--count N] [--fresh-fonts]``.

It sets Django up on a temporary SQLite database (as ``playsheet_bench`` does), builds a list,
then renders each kind of PDF ``--count`` times in a row through the same functions the views
use, bypassing the PDF cache: the list's roster, its unit cards, its playsheet (roster and
summary) and the 3rd-edition quick-reference sheet. It prints the resident set size (RSS, from
/proc) every ``--every`` renders, and the growth per PDF after the warm-up (the first 100
renders of the run, which load fonts, templates and WeasyPrint's own caches).

``--fresh-fonts`` renders as Muster did before the fix (a new WeasyPrint font configuration per
PDF, WeasyPrint's default), to show the leak: about 0.25-0.6 MB kept per PDF, without end.
The exit status is 1 when any kind grew more than ``LEAK_MB_PER_PDF`` per PDF after the warm-up.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import playsheet_bench  # noqa: E402  (shares its database setup and list builder)

WARM_UP = 100
# Flat means under 10 kB per PDF after the warm-up (5 MB over 500 renders): allocator noise, not a leak.
LEAK_MB_PER_PDF = 0.01
UNITS = 12


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _renderers(list_pk: int, fresh_fonts: bool) -> dict[str, Callable[[], bytes]]:
    from django.utils import translation

    from armybuilder.lists.models import ArmyList
    from armybuilder.playsheets import pdf
    from armybuilder.playsheets.context import list_context, reference_sheet_context
    from armybuilder.reference.models import Edition

    def list_pdf(parts: tuple[str, ...]) -> Callable[[], bytes]:
        def render() -> bytes:
            army_list = ArmyList.objects.for_builder().get(pk=list_pk)  # as each request loads it
            with translation.override("en"):
                html = pdf.render_html(pdf.LIST_TEMPLATE, list_context(army_list, paper="a4", parts=parts))
            return pdf.html_to_pdf(html, fresh_fonts=fresh_fonts)

        return render

    def sheet() -> bytes:
        edition = Edition.objects.get(slug="v3")
        with translation.override("en"):
            html = pdf.render_html(pdf.SHEET_TEMPLATE, reference_sheet_context(edition, paper="a4"))
        return pdf.html_to_pdf(html, fresh_fonts=fresh_fonts)

    return {
        "roster": list_pdf(("roster",)),
        "unit cards": list_pdf(("cards",)),
        "playsheet": list_pdf(("roster", "summary")),
        "quick reference": sheet,
    }


def _run(label: str, render: Callable[[], bytes], count: int, every: int) -> float:
    """Render ``count`` times, printing RSS every ``every``; returns MB kept per PDF after the warm-up."""
    start = time.perf_counter()
    print(f"\n{label}: RSS (MB) after n renders", flush=True)
    at_warm_up = None
    for n in range(1, count + 1):
        assert render().startswith(b"%PDF-")
        if n % every == 0 or n == count:
            gc.collect()
            rss = rss_mb()
            if n == min(WARM_UP, count):
                at_warm_up = rss
            elapsed = time.perf_counter() - start
            print(f"  {n:5d}  {rss:8.1f}   ({elapsed / n * 1000:.0f} ms per PDF)", flush=True)
    end = rss_mb()
    kept = (end - at_warm_up) / (count - WARM_UP) if at_warm_up is not None and count > WARM_UP else 0.0
    verdict = "flat" if kept <= LEAK_MB_PER_PDF else "GROWING"
    print(f"  after the warm-up: {kept * 1024:+.1f} kB per PDF ({verdict})", flush=True)
    return kept


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500, help="renders of each kind (default 500)")
    parser.add_argument("--every", type=int, default=50, help="print RSS every N renders (default 50)")
    parser.add_argument("--fresh-fonts", action="store_true", help="a new font configuration per PDF (the leak)")
    parser.add_argument("--kinds", default="", help="comma-separated subset: roster,unit cards,playsheet,...")
    args = parser.parse_args()
    shm = Path("/dev/shm")
    db_dir = tempfile.mkdtemp(prefix="muster-bench-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None)
    try:
        playsheet_bench._setup_django(db_dir)
        playsheet_bench.UNITS = UNITS
        _user, army_list = playsheet_bench._build_list()
        renderers = _renderers(army_list.pk, args.fresh_fonts)
        wanted = [k.strip() for k in args.kinds.split(",") if k.strip()] or list(renderers)
        how = "a new font configuration per PDF (before the fix)" if args.fresh_fonts else "one per thread"
        print(f"PDF memory bench: {args.count} renders of each kind, {UNITS}-unit list, fonts: {how}")
        print(f"RSS at start: {rss_mb():.1f} MB")
        growing = [kind for kind in wanted if _run(kind, renderers[kind], args.count, args.every) > LEAK_MB_PER_PDF]
        print(f"\nRSS at end: {rss_mb():.1f} MB; growing after warm-up: {', '.join(growing) or 'none'}")
        return 1 if growing else 0
    finally:
        shutil.rmtree(db_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
