"""Benchmark the builder: its page and its "change quality" htmx action on a 50-entry list.

Run from the repository root: ``.venv/bin/python bench/builder_bench.py [--runs N]``.

It sets Django up on a temporary SQLite database (migrated from scratch in /dev/shm when it
exists, removed afterwards),
builds a 50-entry list, and times requests through Django's test client: the median of many
runs of the builder page and of the htmx quality change, each as a ratio to the trivial
``/ping/`` view measured in the same run (target: at most 3x).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = 50
TARGET_RATIO = 3.0


def _setup_django(db_dir: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "armybuilder.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(db_dir) / 'bench.sqlite3'}"
    import django
    from django.conf import settings

    django.setup()
    # Production-like: no per-query logging (DEBUG keeps the plain static storage, no manifest needed).
    settings.DEBUG = False
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _build_list():
    from django.contrib.auth import get_user_model

    from armybuilder.catalogue.models import Army, Option, Unit
    from armybuilder.lists.models import ArmyList, Entry, Platoon
    from armybuilder.reference.models import Edition

    edition, _ = Edition.objects.get_or_create(slug="v2", defaults={"number": 2, "name": "2nd edition"})
    army = Army.objects.create(edition=edition, slug="bench-army", name="Bench Army", source="bench")
    costs = {
        "cost_inexperienced": 35,
        "cost_regular": 50,
        "cost_veteran": 65,
        "per_model_inexperienced": 7,
        "per_model_regular": 10,
        "per_model_veteran": 13,
        "source": "bench",
    }
    officer = Unit.objects.create(
        army=army,
        slug="lieutenant",
        name="Second Lieutenant",
        unit_type="headquarters",
        slot="officer",
        officer_rank="second_lieutenant",
        base_models=1,
        max_models=3,
        **costs,
    )
    squad = Unit.objects.create(
        army=army,
        slug="rifle-section",
        name="Rifle Section",
        unit_type="infantry",
        slot="infantry",
        base_models=5,
        max_models=10,
        **costs,
    )
    for position, (slug, name, per_model, group) in enumerate(
        [
            ("lmg", "Light machine gun", False, "support"),
            ("piat", "PIAT", False, "support"),
            ("smg", "Submachine gun", True, ""),
            ("grenades", "Grenades", False, ""),
        ]
    ):
        Option.objects.create(
            unit=squad,
            slug=slug,
            name=name,
            per_model=per_model,
            group=group,
            position=position,
            cost_inexperienced=5,
            cost_regular=5,
            cost_veteran=5,
        )
    for n in range(20):
        Unit.objects.create(
            army=army,
            slug=f"unit-{n}",
            name=f"Catalogue unit {n}",
            unit_type="team",
            slot="machine_gun",
            position=n + 2,
            **costs,
        )
    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    army_list = ArmyList.objects.create(owner=user, edition=edition, army=army, name="Bench list", points_limit=5000)
    platoons = [Platoon.objects.create(army_list=army_list, kind="reinforced_platoon", position=i) for i in range(5)]
    entries = []
    for n in range(ENTRIES):
        platoon = platoons[n // 10]
        unit = officer if n % 10 == 0 else squad
        options = {} if unit is officer else {"lmg": 1, "smg": 2}
        entries.append(
            Entry(
                army_list=army_list,
                unit=unit,
                platoon=platoon,
                position=n,
                models_count=unit.base_models + 1,
                options=options,
            )
        )
    Entry.objects.bulk_create(entries)
    return user, army_list, army_list.entries.filter(unit=squad).first()


def _median_ms(request, runs: int) -> float:
    for _ in range(max(3, runs // 10)):
        request()  # warm up: template loading, first queries
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        response = request()
        timings.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
    return statistics.median(timings) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="timed requests per endpoint (default 200)")
    args = parser.parse_args()
    # A RAM-backed directory where there is one, so disk syncs on commit don't dominate the timings.
    shm = Path("/dev/shm")
    db_dir = tempfile.mkdtemp(prefix="muster-bench-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None)
    try:
        _setup_django(db_dir)
        from django.test import Client

        user, army_list, entry = _build_list()
        client = Client()
        client.force_login(user)
        qualities = iter(["veteran", "regular"] * (args.runs * 2))
        quality_url = f"/lists/{army_list.pk}/entries/{entry.pk}/quality/"
        hx = {"HX-Request": "true"}

        ping = _median_ms(lambda: client.get("/ping/"), args.runs)
        page = _median_ms(lambda: client.get(f"/lists/{army_list.pk}/"), args.runs)
        quality = _median_ms(lambda: client.post(quality_url, {"quality": next(qualities)}, headers=hx), args.runs)

        print(f"builder bench: {ENTRIES} entries, {args.runs} runs each, median server time via django.test.Client")
        print(f"ping (/ping/):                     {ping:8.3f} ms")
        for label, value in (("builder page (GET /lists/<id>/):", page), ("change quality (htmx POST):", quality)):
            ratio = value / ping
            verdict = "within" if ratio <= TARGET_RATIO else "OVER"
            print(f"{label:35}{value:8.3f} ms = {ratio:6.1f}x ping ({verdict} the {TARGET_RATIO:g}x target)")
    finally:
        shutil.rmtree(db_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
