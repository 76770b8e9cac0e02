"""The database queries each main page costs, per app, held in ``tests/query_counts/<app>.json``.

A change that adds a query to a page fails here with the page and the two counts; when the new
count is meant (a page that shows more), regenerate the files and commit them with the change:

    .venv/bin/python -m pytest tests/test_query_counts.py --update-query-counts

Each page is asked once to warm what a process keeps (the build stamp, the glossary), then
counted: the steady cost every visitor pays. Counts are the same on SQLite and PostgreSQL (no
query here depends on the engine).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.events.factories import make_entrant, make_event
from tests.lists.factories import make_user
from tests.security.pages import load_data

COUNTS = Path(__file__).parent / "query_counts"


def _pages(owner) -> dict[str, dict[str, str]]:
    """The main pages of each app, for a visitor signed in as ``owner`` (who owns the list)."""
    army_list = load_data(owner)
    event = make_event(organiser=owner, name="Counted", edition=army_list.edition, published=True)
    for _ in range(4):
        make_entrant(event)
    return {
        "site": {"home": "/", "about the data": "/about/data/", "manifest": "/manifest.webmanifest"},
        "reference": {
            "index": "/reference/",
            "edition": "/reference/v3/",
            "weapons chart": "/reference/v3/weapons/",
            "weapons search": "/reference/v3/weapons/?q=MG42",
        },
        "lists": {
            "my lists": "/lists/",
            "builder": f"/lists/{army_list.pk}/",
            "shared": f"/s/{army_list.share_token}/",
            "text export": f"/lists/{army_list.pk}/export.txt",
            "markdown export": f"/lists/{army_list.pk}/export.md",
            "json export": f"/lists/{army_list.pk}/export.json",
        },
        "resolver": {
            "index": "/calc/",
            "shooting": "/calc/shooting/",
            "from the list": f"/calc/shooting/?list={army_list.pk}",
        },
        "events": {
            "index": "/events/",
            "event": f"/events/{event.slug}/",
            "standings": f"/events/{event.slug}/standings/",
            "api standings": f"/api/events/{event.slug}/standings/",
        },
    }


def _count(client: Client, url: str) -> int:
    client.get(url)  # warm the process's own caches
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries)


@pytest.mark.django_db
def test_each_main_page_costs_the_queries_on_file(request):
    owner = make_user("counted")
    client = Client()
    client.force_login(owner)
    measured = {app: {name: _count(client, url) for name, url in pages.items()} for app, pages in _pages(owner).items()}
    if request.config.getoption("--update-query-counts"):
        COUNTS.mkdir(exist_ok=True)
        for app, counts in measured.items():
            (COUNTS / f"{app}.json").write_text(json.dumps(counts, indent=2, sort_keys=True) + "\n")
    changed = []
    for app, counts in measured.items():
        path = COUNTS / f"{app}.json"
        held = json.loads(path.read_text()) if path.exists() else {}
        changed += [
            f"{app} / {page}: {held.get(page)} on file, {count} now"
            for page, count in counts.items()
            if held.get(page) != count
        ]
    assert changed == [], "Query counts moved (regenerate with --update-query-counts if meant):\n" + "\n".join(changed)
