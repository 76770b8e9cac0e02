"""Redis may fail: with it down or full the site keeps answering, without a cache.

With Redis down, login, every PDF and uncached reference pages answered 500 (django-ratelimit's
fail-open catches only ``socket.gaierror``) and /healthz/ still said ok. Here the cache points at
a closed port, as when Redis is stopped, or refuses writes as Redis does at its ``maxmemory``.
"""

from __future__ import annotations

import logging
import socket
from unittest import mock

import pytest
from django.core.cache import caches
from redis.exceptions import ResponseError

from tests.lists.factories import make_user
from tests.reference.factories import make_two_editions


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens once the probe is closed


def _redis(location: str) -> dict:
    # The rate-limit counters' alias too (settings.RATELIMIT_USE_CACHE): the same Redis, as when
    # RATELIMIT_REDIS_URL is not set, so the outage reaches the counters as well; each alias with
    # the backend armybuilder/settings.py gives it.
    server = {
        "BACKEND": "armybuilder.security.cache.ResilientRedisCache",
        "LOCATION": location,
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
    return {"default": server, "ratelimit": {**server, "BACKEND": "armybuilder.security.cache.RateLimitCache"}}


@pytest.fixture
def redis_down(settings):
    settings.CACHES = _redis(f"redis://127.0.0.1:{_closed_port()}/0")
    yield
    caches["default"].close()
    caches["ratelimit"].close()


OOM = ResponseError("OOM command not allowed when used memory > 'maxmemory'.")


@pytest.fixture
def redis_full(settings):
    """Reads find nothing (evicted or never stored) and every write is refused, as at maxmemory."""
    settings.CACHES = _redis("redis://127.0.0.1:6379/0")
    client = "django.core.cache.backends.redis.RedisCacheClient"
    with (
        mock.patch(f"{client}.get", side_effect=lambda key, default: default),
        mock.patch(f"{client}.get_many", return_value={}),
        mock.patch(f"{client}.add", side_effect=OOM),
        mock.patch(f"{client}.set", side_effect=OOM),
        mock.patch(f"{client}.incr", side_effect=OOM),
    ):
        yield


@pytest.fixture
def ref(db):
    return make_two_editions()


@pytest.mark.django_db
@pytest.mark.parametrize("outage", ["redis_down", "redis_full"])
def test_failed_logins_are_still_limited_counted_in_the_process(client, request, outage, caplog):
    """The red team's 13 failed logins all answered 200 with the counters' Redis down or full."""
    request.getfixturevalue(outage)
    make_user("alice")
    statuses = []
    with caplog.at_level(logging.WARNING, logger="armybuilder.security.cache"):
        for n in range(13):
            response = client.post("/accounts/login/", {"username": f"guess{n}", "password": "wrong"})
            statuses.append(response.status_code)
    assert statuses == [200] * 10 + [429] * 3  # login: 10 a minute per address
    assert int(response["Retry-After"]) >= 1
    assert any("Cache unavailable" in record.getMessage() for record in caplog.records)
    # Another address still signs in: the limit is the guesser's, not everyone's.
    other = client.post(
        "/accounts/login/", {"username": "alice", "password": "correct-horse-battery"}, REMOTE_ADDR="192.0.2.7"
    )
    assert other.status_code == 302
    assert caches["ratelimit"].fallback_active


@pytest.mark.django_db
@pytest.mark.parametrize("outage", ["redis_down", "redis_full"])
def test_reference_pages_are_rendered_without_the_cache(client, request, outage, ref):
    request.getfixturevalue(outage)
    for url in ("/reference/", "/reference/v2/orders/", "/reference/v2/weapons/?q=rifle", "/api/editions/"):
        assert client.get(url).status_code == 200, url


@pytest.mark.django_db
def test_a_pdf_is_rendered_without_the_cache(client, redis_down):
    from tests.playsheets.factories import make_playsheet_list, make_rules_edition

    make_rules_edition()
    alice = make_user("alice")
    army_list = make_playsheet_list(alice)
    client.force_login(alice)
    response = client.get(f"/lists/{army_list.pk}/roster.pdf")
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF")


@pytest.mark.django_db
@pytest.mark.parametrize("outage", ["redis_down", "redis_full"])
def test_healthz_says_degraded_but_stays_in_the_pool(client, request, outage):
    request.getfixturevalue(outage)
    response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "cache": "degraded",
        "ratelimit": "degraded",
        "failed": ["cache", "ratelimit"],
    }


@pytest.mark.django_db
def test_healthz_names_the_rate_limit_store_when_it_alone_is_down(client, redis_down):
    # The cache's Redis answers its probe; the counters' Redis (a closed port) does not.
    with mock.patch.object(caches["default"], "available", return_value=True):
        response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "cache": "ok",
        "ratelimit": "degraded",
        "failed": ["ratelimit"],
    }


@pytest.mark.django_db
def test_healthz_without_redis_reports_the_local_cache(client):
    assert client.get("/healthz/").json() == {
        "status": "ok",
        "database": "ok",
        "cache": "local",
        "ratelimit": "local",
        "failed": [],
    }


@pytest.mark.django_db
def test_a_query_of_the_visitors_own_is_not_kept_in_the_shared_cache(client, ref):
    # Each distinct ?q= once kept ~10.5 kB in Redis for 24 hours.
    with mock.patch("armybuilder.reference.pages.cache") as shared:
        shared.get.return_value = None
        for n in range(5):
            assert client.get(f"/reference/v2/weapons/?q=junk{n}").status_code == 200
            client.get(f"/api/editions/v2/weapons/?q=junk{n}")
        assert shared.set.call_count == 0
        assert client.get("/reference/v2/weapons/").status_code == 200
        assert shared.set.call_count == 1


@pytest.mark.django_db
def test_only_bounded_parameters_are_kept(client, ref):
    """Kept pages are a set the rules data fixes: known categories, rules, pens and editions."""
    with mock.patch("armybuilder.reference.pages.cache") as shared:
        shared.get.return_value = None
        for junk in ("category=junk", "min_pen=999", "changes=xyz", "rule=no-such-rule", "category=mg&category=mg"):
            assert client.get(f"/reference/v2/weapons/?{junk}").status_code == 200, junk
        assert client.get("/reference/compare/orders/?a=v9&b=v3").status_code == 404
        assert shared.set.call_count == 0
        for kept in (
            "/reference/v2/weapons/?min_pen=2",
            "/reference/compare/orders/?a=v2&b=v3&changes=1",
            "/reference/v2/weapons/?rule=team",
        ):
            assert client.get(kept).status_code == 200, kept
        assert shared.set.call_count == 3
