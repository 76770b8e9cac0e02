"""The project's own pages: the service worker at the site root and the page it shows offline."""

from __future__ import annotations


def test_the_service_worker_is_served_from_the_root(client) -> None:
    response = client.get("/sw.js")
    assert (response.status_code, response["Content-Type"].split(";")[0]) == (200, "text/javascript")
    assert b"CACHE_VERSION" in response.content


def test_the_offline_page_says_so(client) -> None:
    assert "offline" in client.get("/offline/").content.decode().lower()
