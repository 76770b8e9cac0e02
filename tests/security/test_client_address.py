"""Per-visitor rate limits behind the proxy: the forwarded address, believed only from a
trusted proxy.

Behind nginx every request came from 127.0.0.1 and the limits counted by it: ten failed logins by
anyone locked everyone out.
"""

from __future__ import annotations

import json

import pytest
from django.test import RequestFactory

from armybuilder.security.checks import check_trusted_proxies
from armybuilder.security.client import client_ip

PROXY = "127.0.0.1"


def _login(client, forwarded: str | None, remote: str = PROXY, username: str = "someone"):
    headers = {"X-Forwarded-For": forwarded} if forwarded is not None else {}
    return client.post(
        "/accounts/login/", {"username": username, "password": "wrong"}, REMOTE_ADDR=remote, headers=headers
    )


@pytest.fixture
def behind_nginx(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1"]


@pytest.mark.django_db
def test_one_visitors_failed_logins_do_not_lock_out_another(client, behind_nginx):
    for n in range(10):
        assert _login(client, "203.0.113.5", username=f"guess{n}").status_code == 200
    assert _login(client, "203.0.113.5").status_code == 429
    # Another visitor, through the same proxy, signs in as usual.
    assert _login(client, "198.51.100.7").status_code == 200


@pytest.mark.django_db
def test_a_forged_header_from_a_visitor_changes_nothing(client, behind_nginx):
    # Not from a trusted proxy: the header is the visitor's own claim, a new one every time.
    for n in range(10):
        assert _login(client, f"10.9.{n}.1", remote="203.0.113.5", username=f"guess{n}").status_code == 200
    assert _login(client, "10.9.99.1", remote="203.0.113.5").status_code == 429


@pytest.mark.django_db
def test_a_forged_hop_in_front_of_the_proxys_own_is_ignored(client, behind_nginx):
    # A proxy that appends: the visitor's forged hops come first, the address the proxy saw last.
    for n in range(10):
        assert _login(client, f"10.9.{n}.1, 203.0.113.5", username=f"guess{n}").status_code == 200
    assert _login(client, "10.9.99.1, 203.0.113.5").status_code == 429
    assert _login(client, "203.0.113.6").status_code == 200


@pytest.mark.django_db
def test_without_trusted_proxies_the_header_is_never_believed(client, settings):
    settings.TRUSTED_PROXIES = []
    for n in range(10):
        _login(client, f"10.9.{n}.1", username=f"guess{n}")
    assert _login(client, "10.9.99.1").status_code == 429


@pytest.mark.django_db
def test_the_resolver_api_counts_per_visitor_too(client, charts, behind_nginx):
    body = json.dumps({"edition": "v2", "quality": "regular"})

    def ask(forwarded):
        return client.post(
            "/api/resolve/order-test/",
            data=body,
            content_type="application/json",
            REMOTE_ADDR=PROXY,
            headers={"X-Forwarded-For": forwarded},
        )

    for _ in range(60):
        ask("203.0.113.5")
    assert ask("203.0.113.5").status_code == 429
    assert ask("198.51.100.7").status_code == 200


@pytest.mark.parametrize(
    ("remote", "forwarded", "trusted", "expected"),
    [
        ("127.0.0.1", "203.0.113.5", ["127.0.0.1"], "203.0.113.5"),
        ("127.0.0.1", None, ["127.0.0.1"], "127.0.0.1"),
        ("203.0.113.9", "203.0.113.5", ["127.0.0.1"], "203.0.113.9"),
        ("10.0.0.3", "2001:db8::7", ["10.0.0.0/24"], "2001:db8::7"),
        ("::1", "198.51.100.2", ["::1"], "198.51.100.2"),
        # Two proxies (a load balancer in front of nginx): the last hop that is not one of them.
        ("10.0.0.3", "198.51.100.2, 10.0.0.8", ["10.0.0.0/24"], "198.51.100.2"),
        # Garbage where the proxy writes: nothing further left is believed.
        ("127.0.0.1", "198.51.100.2, not-an-address", ["127.0.0.1"], "127.0.0.1"),
        ("127.0.0.1", "", ["127.0.0.1"], "127.0.0.1"),
        ("127.0.0.1", "203.0.113.5", [], "127.0.0.1"),
    ],
)
def test_the_address_read(settings, remote, forwarded, trusted, expected):
    settings.TRUSTED_PROXIES = trusted
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    request = RequestFactory().get("/", REMOTE_ADDR=remote, **headers)
    assert client_ip(request) == expected


def test_the_deploy_check_warns_without_trusted_proxies(settings):
    settings.DEBUG = False
    settings.TRUSTED_PROXIES = []
    assert [m.id for m in check_trusted_proxies(None)] == ["muster.W010"]
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1", "10.0.0.0/8"]
    assert check_trusted_proxies(None) == []


def test_the_deploy_check_refuses_an_entry_that_is_no_address(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "nginx.local"]
    messages = check_trusted_proxies(None)
    assert [m.id for m in messages] == ["muster.E010"]
    assert "nginx.local" in messages[0].msg


def test_rate_limits_read_the_address_here(settings):
    assert settings.RATELIMIT_IP_META_KEY == "armybuilder.security.client.client_ip"
