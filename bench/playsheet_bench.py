"""Benchmark the playsheet PDFs: the quick-reference sheet (cold and cached) and a 40-unit roster.

Run from the repository root: ``.venv/bin/python bench/playsheet_bench.py [--runs N]``.

It sets Django up on a temporary SQLite database (in /dev/shm when it exists, removed afterwards),
loads the built-in fixtures (rules reference and generic catalogue), builds a 40-unit 3rd-edition
list from the generic army, and times requests through Django's test client after one warm-up
request (imports, template loading, fonts). Each figure is the median of several runs:

* the 3rd-edition quick-reference sheet rendered cold (the cache cleared before each run), in
  English on A4 and in French on US Letter, the largest cases;
* the same sheet served from the cache;
* the 40-unit roster (target: under 1.5 s), and for reference its cards and playsheet.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UNITS = 40
ROSTER_TARGET_S = 1.5


def _setup_django(db_dir: str, database_url: str | None = None) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "armybuilder.settings"
    os.environ["DATABASE_URL"] = database_url or f"sqlite:///{Path(db_dir) / 'bench.sqlite3'}"
    # The benches time the render itself: tasks run inside the request here (the worker's own cost
    # is the same render, in another process).
    os.environ["TASKS_BACKEND"] = "django.tasks.backends.immediate.ImmediateBackend"
    import django
    from django.conf import settings

    django.setup()
    # Production-like: no per-query logging (DEBUG keeps the plain static storage, no manifest needed).
    settings.DEBUG = False
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("load_reference_data", verbosity=0)


def _build_list():
    """A 40-unit list from the generic 3rd-edition army, in four platoons, with options taken."""
    from django.contrib.auth import get_user_model

    from armybuilder.catalogue.models import Army
    from armybuilder.lists.models import ArmyList, Entry, Platoon

    army = Army.objects.get(edition__slug="v3", slug="generic")
    units = {unit.slug: unit for unit in army.units.prefetch_related("options")}
    # One platoon's worth, repeated: commander, squads, support teams and a vehicle.
    pattern = [
        ("platoon-commander", "veteran", 2),
        ("rifle-squad", "regular", 10),
        ("rifle-squad", "regular", 10),
        ("rifle-squad", "veteran", 8),
        ("medic", "regular", 1),
        ("mmg-team", "regular", 3),
        ("light-mortar-team", "regular", 2),
        ("sniper-team", "veteran", 2),
        ("light-at-gun", "regular", 3),
        ("medium-tank", "regular", 1),
    ]
    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    army_list = ArmyList.objects.create(
        owner=user, edition=army.edition, army=army, name="Bench company", points_limit=5000
    )
    entries = []
    for n in range(UNITS):
        if n % len(pattern) == 0:
            platoon = Platoon.objects.create(army_list=army_list, kind="rifle_platoon", position=n // len(pattern))
        slug, quality, models = pattern[n % len(pattern)]
        unit = units[slug]
        first_option = next(iter(unit.options.all()), None)
        options = {first_option.slug: 1} if first_option and n % 2 else {}
        entries.append(
            Entry(
                army_list=army_list,
                unit=unit,
                platoon=platoon,
                quality=quality if quality in unit.qualities() else unit.qualities()[0],
                models_count=models,
                options=options,
                position=n,
            )
        )
    Entry.objects.bulk_create(entries)
    return user, army_list


def _median_s(request: Callable[[], object], runs: int, before: Callable[[], None] | None = None) -> float:
    timings = []
    for _ in range(runs):
        if before:
            before()
        start = time.perf_counter()
        response = request()
        timings.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
        assert response.content.startswith(b"%PDF-")
    return statistics.median(timings)


def _pages(content: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(content)).pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed renders per PDF (default 5)")
    args = parser.parse_args()
    shm = Path("/dev/shm")
    db_dir = tempfile.mkdtemp(prefix="muster-bench-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None)
    try:
        _setup_django(db_dir)
        from django.core.cache import cache
        from django.test import Client

        user, army_list = _build_list()
        client = Client()
        client.force_login(user)
        sheets = {
            "quick reference, 3rd ed., EN, A4": "/reference/v3/sheet.pdf?lang=en&paper=a4",
            "quick reference, 3rd ed., FR, US Letter": "/reference/v3/sheet.pdf?lang=fr&paper=letter",
        }
        lists = {
            f"roster, {UNITS} units": f"/lists/{army_list.pk}/roster.pdf",
            f"unit cards, {UNITS} units": f"/lists/{army_list.pk}/cards.pdf",
            f"playsheet (roster + summary), {UNITS} units": f"/lists/{army_list.pk}/playsheet.pdf",
        }
        client.get(next(iter(sheets.values())))  # warm up: imports, templates, fonts
        cache.clear()

        print(f"playsheet bench: median of {args.runs} runs each, server time via django.test.Client")
        for label, url in sheets.items():
            cold = _median_s(lambda url=url: client.get(url), args.runs, before=cache.clear)
            client.get(url)
            cached = _median_s(lambda url=url: client.get(url), args.runs * 10)
            pages = _pages(client.get(url).content)
            print(f"{label + ' (cold, cache cleared):':62}{cold:8.3f} s   {pages} pages")
            print(f"{label + ' (cached):':62}{cached * 1000:8.3f} ms")
        for label, url in lists.items():
            seconds = _median_s(lambda url=url: client.get(url), args.runs)
            pages = _pages(client.get(url).content)
            verdict = ""
            if label.startswith("roster"):
                verdict = f"   ({'within' if seconds < ROSTER_TARGET_S else 'OVER'} the {ROSTER_TARGET_S:g} s target)"
            print(f"{label + ':':62}{seconds:8.3f} s   {pages} pages{verdict}")
    finally:
        shutil.rmtree(db_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
