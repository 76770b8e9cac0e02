"""Render a fixed sample of Muster's pages to files, so a refactor can be shown to change nothing.

``.venv/bin/python scripts/render_sample.py OUT`` builds a fresh SQLite database in a temporary
folder (migrations, the built-in data, seeded events, a season, a list and a game, all from fixed
seeds), asks each page of the sample through Django's test client, as an anonymous visitor, a
player or an organiser, and writes each answer to ``OUT/<name>`` with ``OUT/SHA256SUMS``.

Run it before and after a change that should not change behaviour, then compare the folders
(``diff -r before after``): byte-equal answers mean the pages are the same. What differs from one
run to the next for reasons that are not the code's (CSRF tokens, CSP nonces, random ids, today's
date and time) is replaced by a fixed marker first; two runs of the same commit give the same
bytes, which ``--twice`` checks.

The script uses only management commands, models' managers and URLs, so the same file runs
against an older commit (copy it there) to compare before and after.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What changes between two runs of the same code: tokens, nonces, ids and clocks.
VOLATILE = [
    (re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]+'), rb"\1<csrf>"),
    (re.compile(rb'("x-csrftoken": ")[^"]+', re.IGNORECASE), rb"\1<csrf>"),
    (re.compile(rb"(/[sg]/)[A-Za-z0-9_-]{22}/"), rb"\1<share-token>/"),
    (re.compile(rb"(X-CSRFToken&quot;: &quot;)[^&]+"), rb"\1<csrf>"),
    (re.compile(rb'(csrf-token" content=")[^"]+'), rb"\1<csrf>"),
    (re.compile(rb'nonce="[^"]+"'), rb'nonce="<nonce>"'),
    (re.compile(rb"'nonce-[^']+'"), rb"'nonce-<nonce>'"),
    (re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), rb"<uuid>"),
    (re.compile(rb"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?([+-]\d\d:?\d\d|Z)?"), rb"<datetime>"),
    (re.compile(rb"\b\d\d?:\d\d\b"), rb"<time>"),
    (re.compile(rb'"[0-9a-f]{16,64}"'), rb'"<hash>"'),
]


def normalise(body: bytes, names: dict[str, str]) -> bytes:
    """The volatile parts replaced; the seeded slugs' random suffixes named by their role."""
    for value, role in names.items():
        body = body.replace(value.encode(), f"<{role}>".encode())
    for pattern, replacement in VOLATILE:
        body = pattern.sub(replacement, body)
    return body


def build_database() -> dict:
    """The sample's data, from fixed seeds: what the pages are asked about."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from armybuilder.events.models import Event
    from armybuilder.lists.models import ArmyList

    quiet = {"verbosity": 0, "stdout": io.StringIO()}
    call_command("migrate", interactive=False, **quiet)
    call_command("load_reference_data", **quiet)
    out = io.StringIO()
    call_command("seed_event", players=8, rounds=2, seed=11, stdout=out)
    solo = out.getvalue().split()[-1]
    out = io.StringIO()
    call_command("seed_event", players=12, rounds=1, seed=12, team_size=3, stdout=out)
    teams = out.getvalue().split()[-1]
    out = io.StringIO()
    call_command("seed_season", events=3, players=6, rounds=2, seed=13, stdout=out)
    season = out.getvalue().split()[-1]
    event = Event.objects.get(slug=solo)
    army_list = ArmyList.objects.filter(owner__isnull=False).order_by("pk").first()
    player = army_list.owner
    organiser = event.organiser
    return {
        "solo": solo,
        "teams": teams,
        "season": season,
        "list": army_list.pk,
        "player": player,
        "organiser": organiser,
        "username": player.get_username(),
        "users": get_user_model(),
    }


def pages(data: dict) -> list[tuple[str, str, str]]:
    """(file name, who asks, path): anonymous, the list's owner or the event's organiser."""
    solo, teams, season, pk = data["solo"], data["teams"], data["season"], data["list"]
    return [
        ("home.html", "anonymous", "/"),
        ("reference.html", "anonymous", "/reference/"),
        ("reference-v3.html", "anonymous", "/reference/v3/"),
        ("calc.html", "anonymous", "/calc/"),
        ("calc-shooting.html", "anonymous", "/calc/shooting/"),
        (
            "odds-shooting-tank.html",
            "anonymous",
            "/calc/shooting/?edition=v3&order=fire&firer_quality=regular&firer_pins=0&g0-weapon=medium-at-gun"
            "&g0-models=1&g0-range=normal&g0-ammo=ap&target_kind=armoured&target_quality=inexperienced"
            "&target_models=1&target_pins=3&damage_value=8&cover=none&facing=front",
        ),
        (
            "odds-shooting-infantry.html",
            "anonymous",
            "/calc/shooting/?edition=v2&order=fire&firer_quality=regular&firer_pins=0&g0-weapon=rifle&g0-models=10"
            "&g0-range=normal&target_kind=infantry&target_quality=regular&target_models=10&cover=soft",
        ),
        (
            "odds-anti-tank.html",
            "anonymous",
            "/calc/anti-tank/?edition=v3&weapon=panzerfaust&shots=3&range=point_blank&damage_value=9&facing=front"
            "&target_quality=inexperienced&target_pins=6",
        ),
        ("odds-order-test.html", "anonymous", "/calc/order-test/?edition=v2&quality=regular&pins=3&officer_bonus=1"),
        (
            "odds-close-quarters.html",
            "anonymous",
            "/calc/close-quarters/?edition=v3&attacker_models=10&attacker_quality=regular&defender_models=6",
        ),
        ("lists.html", "player", "/lists/"),
        ("builder.html", "player", f"/lists/{pk}/"),
        ("games-new.html", "player", f"/games/new/?list={pk}"),
        ("game.html", "player", f"/games/{data['game']}/"),
        ("events.html", "anonymous", "/events/"),
        ("event.html", "anonymous", f"/events/{solo}/"),
        ("standings.html", "anonymous", f"/events/{solo}/standings/"),
        ("round-2.html", "player", f"/events/{solo}/rounds/2/"),
        ("dashboard.html", "organiser", f"/events/{solo}/manage/"),
        ("standings.csv", "organiser", f"/events/{solo}/manage/standings.csv"),
        ("api-event.json", "anonymous", f"/api/events/{solo}/"),
        ("api-standings.json", "anonymous", f"/api/events/{solo}/standings/"),
        ("team-event.html", "anonymous", f"/events/{teams}/"),
        ("team-standings.html", "anonymous", f"/events/{teams}/standings/"),
        ("teams.html", "anonymous", f"/events/{teams}/teams/"),
        ("season.html", "anonymous", f"/seasons/{season}/"),
        ("player.html", "anonymous", f"/players/{data['username']}/"),
        ("results.csv", "anonymous", f"/events/{solo}/results.csv"),
    ]


def render(out: Path) -> None:
    import django
    from django.test import Client

    django.setup()
    data = build_database()
    clients = {"anonymous": Client(), "player": Client(), "organiser": Client()}
    clients["player"].force_login(data["player"])
    clients["organiser"].force_login(data["organiser"])
    started = clients["player"].post(
        f"/games/new/?list={data['list']}",
        {"my_name": "Sample", "opponent": "dice", "opponent_name": "Stand-in", "opponent_dice": 6},
    )
    data["game"] = started["Location"].rstrip("/").rsplit("/", 1)[-1]
    # Every seeded slug ends in a random suffix: named by its role, or by its row's number.
    from armybuilder.events.models import Event
    from armybuilder.leagues.models import Season

    names = {slug: f"event-{pk}" for pk, slug in Event.objects.values_list("pk", "slug")}
    names |= {slug: f"season-{pk}" for pk, slug in Season.objects.values_list("pk", "slug")}
    names |= {data[role]: role for role in ("solo", "teams", "season")}
    out.mkdir(parents=True, exist_ok=True)
    sums = []
    for name, who, path in pages(data):
        response = clients[who].get(path, HTTP_ACCEPT_LANGUAGE="en")
        body = b"".join(response) if response.streaming else response.content
        body = normalise(f"{response.status_code} {path}\n".encode() + body, names)
        (out / name).write_bytes(body)
        sums.append(f"{hashlib.sha256(body).hexdigest()}  {name}")
        print(f"{response.status_code} {len(body):>8} {name}")
    (out / "SHA256SUMS").write_text("\n".join(sums) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--twice", action="store_true", help="render twice and fail unless both are the same")
    args = parser.parse_args()
    if args.twice:
        import subprocess

        second = args.out.with_name(args.out.name + "-again")
        for target in (args.out, second):
            subprocess.run([sys.executable, __file__, str(target)], check=True)
        same = (args.out / "SHA256SUMS").read_bytes() == (second / "SHA256SUMS").read_bytes()
        print("two runs give the same bytes" if same else f"two runs differ: diff -r {args.out} {second}")
        return 0 if same else 1
    folder = tempfile.mkdtemp(prefix="muster-render-")
    try:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/db.sqlite3"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
        os.environ.setdefault("RATELIMIT_ENABLE", "0")
        sys.path.insert(0, str(ROOT))
        os.chdir(ROOT)
        render(args.out.resolve())
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
