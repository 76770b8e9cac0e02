"""Sign up, log in and out, password change and reset; a visitor's lists follow them into the account."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from armybuilder.lists.models import ArmyList
from tests.lists.factories import make_army, make_list, make_user

PASSWORD = "correct-horse-battery"


def _visitor_list(client, name="Before signing up") -> ArmyList:
    army = make_army()
    client.post(
        "/lists/new/",
        {"edition": army.edition.slug, "army": army.pk, "name": name, "points_limit": 1000, "force_org": "platoons"},
    )
    return ArmyList.objects.get(name=name)


def _signup(client, username="carol", **extra):
    data = {"username": username, "email": f"{username}@example.org", "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", data | extra)


@pytest.mark.django_db
def test_it_shows_the_signup_form(client):
    response = client.get("/accounts/signup/")
    assert response.status_code == 200
    assert 'name="password2"' in response.text


@pytest.mark.django_db
def test_it_signs_up_and_logs_in(client):
    response = _signup(client)
    assert response.status_code == 302
    assert response["Location"] == "/lists/"
    assert client.get("/lists/").context["user"].username == "carol"


@pytest.mark.django_db
def test_it_gives_a_visitors_lists_to_the_new_account(client):
    army_list = _visitor_list(client)
    _signup(client)
    army_list.refresh_from_db()
    assert army_list.owner == get_user_model().objects.get(username="carol")
    assert "Before signing up" in client.get("/lists/").text


@pytest.mark.django_db
def test_it_shows_signup_errors_next_to_the_fields(client):
    response = _signup(client, password2="something-else")
    assert response.status_code == 200
    assert "password fields didn’t match" in response.text
    assert not get_user_model().objects.filter(username="carol").exists()


@pytest.mark.django_db
def test_it_logs_in(client):
    make_user("dave", password=PASSWORD)
    response = client.post("/accounts/login/", {"username": "dave", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/lists/"


@pytest.mark.django_db
def test_it_gives_a_visitors_lists_to_the_account_at_login(client):
    dave = make_user("dave", password=PASSWORD)
    army_list = _visitor_list(client)
    client.post("/accounts/login/", {"username": "dave", "password": PASSWORD})
    army_list.refresh_from_db()
    assert army_list.owner == dave


@pytest.mark.django_db
def test_it_does_not_log_in_with_a_wrong_password(client):
    make_user("dave", password=PASSWORD)
    response = client.post("/accounts/login/", {"username": "dave", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.text


@pytest.mark.django_db
def test_it_logs_out_with_a_post(client):
    client.force_login(make_user())
    response = client.post("/accounts/logout/")
    assert response["Location"] == "/"
    assert not client.get("/lists/").context["user"].is_authenticated


@pytest.mark.django_db
def test_it_keeps_lists_private_after_logout(client):
    erin = make_user("erin")
    army_list = make_list(owner=erin, name="Erin's")
    client.force_login(erin)
    client.post("/accounts/logout/")
    assert client.get(f"/lists/{army_list.pk}/export.txt").status_code == 404


@pytest.mark.django_db
def test_it_changes_the_password(client):
    frank = make_user("frank", password=PASSWORD)
    client.force_login(frank)
    response = client.post(
        "/accounts/password_change/",
        {"old_password": PASSWORD, "new_password1": "a-new-long-secret", "new_password2": "a-new-long-secret"},
    )
    frank.refresh_from_db()
    assert response["Location"] == "/accounts/password_change/done/"
    assert frank.check_password("a-new-long-secret")


@pytest.mark.django_db
def test_it_asks_for_login_before_changing_the_password(client):
    response = client.get("/accounts/password_change/")
    assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.django_db
def test_it_sends_a_password_reset_email(client):
    make_user("gina", email="gina@example.org")
    response = client.post("/accounts/password_reset/", {"email": "gina@example.org"})
    assert response["Location"] == "/accounts/password_reset/done/"
    assert len(mail.outbox) == 1
    assert "/accounts/reset/" in mail.outbox[0].body


@pytest.mark.django_db
def test_it_resets_the_password_through_the_emailed_link(client):
    gina = make_user("gina", email="gina@example.org")
    client.post("/accounts/password_reset/", {"email": "gina@example.org"})
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_url = client.get(link)["Location"]
    response = client.post(form_url, {"new_password1": "brand-new-secret-9", "new_password2": "brand-new-secret-9"})
    gina.refresh_from_db()
    assert response["Location"] == "/accounts/reset/done/"
    assert gina.check_password("brand-new-secret-9")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/reset/done/",
        "/accounts/reset/MQ/bad-token/",
    ],
)
def test_it_renders_the_account_pages(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert "Muster" in response.text
