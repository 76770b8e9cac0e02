"""What bounds a PDF render: the list's cap, the rate limits, and the deployment's workers and timeout."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from armybuilder.lists.models import ENTRIES_MAX
from armybuilder.security.middleware import LIMITS

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent
# The slowest PDF a list can ask for: the print PDF of a list at the cap (docs/deploy.md, one core).
SLOWEST_RENDER_SECONDS = 5.4


def test_the_deployment_lets_the_slowest_render_finish_and_runs_one_per_worker(monkeypatch):
    monkeypatch.delenv("GUNICORN_TIMEOUT", raising=False)
    config = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    # Sync workers (gunicorn's default class) answer one request at a time: a render never shares
    # its worker's CPU with another, and the worker count bounds the renders running at once.
    assert config.get("worker_class", "sync") == "sync" and config.get("threads", 1) == 1
    # The timeout is the only stop: it must leave a render at the cap room on a loaded machine.
    assert config["timeout"] >= 4 * SLOWEST_RENDER_SECONDS
    assert ENTRIES_MAX == 100


def test_a_pdf_is_kept_and_served_again_without_a_render(alice_client, army_list, monkeypatch):
    from armybuilder.playsheets import pdf

    url = f"/lists/{army_list.pk}/cards.pdf"
    first = alice_client.get(url)
    assert first.content.startswith(b"%PDF-")

    def no_render(*args, **kwargs):
        raise AssertionError("rendered again")

    monkeypatch.setattr(pdf, "render_pdf", no_render)
    assert alice_client.get(url).content == first.content


def test_share_link_pdfs_are_rate_limited_for_anonymous_visitors(client, army_list, settings):
    settings.RATELIMIT_ENABLE = True  # tests/conftest.py turns the limits off elsewhere
    url = f"/s/{army_list.share_token}/roster.pdf"
    limit = int(LIMITS["ps-shared-roster-pdf"][0].rate.split("/")[0])
    # Counted before the view runs: unknown links stand in for renders (a 404 costs nothing).
    for _ in range(limit):
        assert client.get("/s/no-such-link/roster.pdf").status_code == 404
    response = client.get(url)
    assert response.status_code == 429
    assert response["Retry-After"]
