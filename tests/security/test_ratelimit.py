"""Rate limits from the middleware's table: 429 with Retry-After, a readable page or JSON error."""

from __future__ import annotations

import json

import pytest

from armybuilder.security.middleware import LIMITS

HX = {"HX-Request": "true"}


def _login(client, username="alice"):
    return client.post("/accounts/login/", {"username": username, "password": "wrong"})


@pytest.mark.django_db
def test_the_eleventh_login_in_a_minute_gets_a_429_with_retry_after(client):
    for _ in range(10):
        assert _login(client, f"user{_}").status_code == 200
    response = _login(client, "someone")
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert "Too many requests" in response.content.decode()


@pytest.mark.django_db
def test_the_429_page_is_translated(client):
    for _ in range(10):
        _login(client)
    response = client.post("/accounts/login/", {"username": "a", "password": "b"}, headers={"Accept-Language": "fr"})
    assert response.status_code == 429
    assert "Trop de requêtes" in response.content.decode()


@pytest.mark.django_db
def test_one_account_is_protected_from_many_addresses(client):
    # Twenty guesses at one username, each from another address, then the account's own limit holds.
    for n in range(20):
        response = client.post("/accounts/login/", {"username": "alice", "password": "x"}, REMOTE_ADDR=f"10.0.{n}.1")
        assert response.status_code == 200
    response = client.post("/accounts/login/", {"username": "alice", "password": "x"}, REMOTE_ADDR="10.9.9.9")
    assert response.status_code == 429


@pytest.mark.django_db
def test_another_address_is_not_limited(client):
    for _ in range(11):
        _login(client)
    response = client.post("/accounts/login/", {"username": "bob", "password": "x"}, REMOTE_ADDR="10.1.1.1")
    assert response.status_code == 200


@pytest.mark.django_db
def test_reading_the_login_page_is_not_limited(client):
    for _ in range(30):
        assert client.get("/accounts/login/").status_code == 200


@pytest.mark.django_db
def test_the_resolver_api_answers_json(client, charts):
    body = json.dumps({"edition": "v2"})
    for _ in range(60):
        client.post("/api/resolve/order-test/", data=body, content_type="application/json")
    response = client.post("/api/resolve/order-test/", data=body, content_type="application/json")
    assert response.status_code == 429
    assert response["Retry-After"]
    assert response.json()["error"].startswith("Too many requests")


@pytest.mark.django_db
def test_pdfs_are_limited_per_account(alice_client, army_list):
    url = f"/lists/{army_list.pk}/roster.pdf"
    limit = int(LIMITS["ps-roster-pdf"][0].rate.split("/")[0])
    # Counted before the view runs: other requests stand in for renders (a 404 costs nothing).
    for _ in range(limit):
        alice_client.get("/lists/999999/roster.pdf")
    response = alice_client.get(url)
    assert response.status_code == 429


@pytest.mark.django_db
def test_htmx_gets_plain_text_for_the_notice(client):
    for _ in range(5):
        client.post("/accounts/signup/", {}, headers=HX)
    response = client.post("/accounts/signup/", {}, headers=HX)
    assert response.status_code == 429
    assert response["Content-Type"].startswith("text/plain")
    assert response.content.decode().startswith("Too many requests")


@pytest.mark.django_db
def test_limits_can_be_turned_off(client, settings):
    settings.RATELIMIT_ENABLE = False
    for _ in range(15):
        assert _login(client).status_code == 200


def test_every_named_route_exists():
    from django.urls import reverse

    for name in LIMITS:
        kwargs = {}
        if name.startswith("ps-shared"):
            kwargs = {"token": "t"}
        elif name.startswith("ps-") and name != "ps-reference-sheet":
            kwargs = {"pk": 1}
        elif name == "ps-reference-sheet":
            kwargs = {"edition": "v3"}
        elif name.startswith("events-"):
            kwargs = {"slug": "club-night"}
        assert reverse(name, kwargs=kwargs)


@pytest.mark.django_db
def test_the_admin_login_is_limited_too(client):
    for _ in range(10):
        assert client.post("/admin/login/", {"username": "root", "password": "x"}).status_code == 200
    assert client.post("/admin/login/", {"username": "root", "password": "x"}).status_code == 429


@pytest.mark.django_db
def test_password_reset_mail_is_limited_per_address(client):
    for n in range(5):
        client.post("/accounts/password_reset/", {"email": f"a{n}@example.org"})
    assert client.post("/accounts/password_reset/", {"email": "b@example.org"}).status_code == 429
