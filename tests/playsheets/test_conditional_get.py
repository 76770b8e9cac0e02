"""Conditional GET on a list's pages: a reload of an unchanged page is a 304, never a stale or
another visitor's page (``armybuilder.http.conditional`` with ``lists.conditional``)."""

from __future__ import annotations

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.test import Client

from armybuilder.catalogue.models import Army
from tests.conftest import assert_french_is_fetched_anew, reload
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db


def pages(army_list) -> dict[str, str]:
    return {
        "builder": f"/lists/{army_list.pk}/",
        "shared": f"/s/{army_list.share_token}/",
        "print": f"/lists/{army_list.pk}/print/",
        "shared print": f"/s/{army_list.share_token}/print/",
        "print document": f"/lists/{army_list.pk}/print/document/?parts=roster",
        "roster pdf": f"/lists/{army_list.pk}/roster.pdf",
        "shared cards pdf": f"/s/{army_list.share_token}/cards.pdf",
    }


@pytest.mark.parametrize("page", ["builder", "shared", "print", "roster pdf"])
def test_an_unchanged_page_is_a_304(alice_client, army_list, page):
    url = pages(army_list)[page]
    first = alice_client.get(url)
    assert first.status_code == 200
    assert first["ETag"]
    assert first["Cache-Control"] == "private, no-cache"
    again = reload(alice_client, url, first)
    assert again.status_code == 304
    assert again.content == b""


def test_every_list_page_answers_304(alice_client, army_list):
    for page, url in pages(army_list).items():
        first = alice_client.get(url)
        assert first.status_code == 200, page
        assert reload(alice_client, url, first).status_code == 304, page


def test_the_304_is_cheap(alice_client, army_list, django_assert_max_num_queries):
    url = pages(army_list)["builder"]
    first = alice_client.get(url)
    # The session, the user, the list's revision, the rules data's version.
    with django_assert_max_num_queries(4):
        assert reload(alice_client, url, first).status_code == 304


def test_a_change_made_in_another_tab_is_shown(alice_client, army_list):
    entry = army_list.entries.order_by("position").first()
    urls = pages(army_list)
    firsts = {page: alice_client.get(url) for page, url in urls.items()}
    other_tab = Client()
    other_tab.force_login(army_list.owner)
    response = other_tab.post(
        f"/lists/{army_list.pk}/entries/{entry.pk}/rename/", {"name": "Lauri's men"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    for page, url in urls.items():
        again = reload(alice_client, url, firsts[page])
        assert again.status_code == 200, page
        assert again["ETag"] != firsts[page]["ETag"], page
    assert "Lauri&#x27;s men" in alice_client.get(urls["builder"]).content.decode()


def test_a_catalogue_change_is_shown(alice_client, army_list):
    url = pages(army_list)["builder"]
    first = alice_client.get(url)
    army = Army.objects.get(pk=army_list.army_id)
    army.save()  # a save that changes nothing moves nothing
    assert reload(alice_client, url, first).status_code == 304
    army.name_fr = "Suomi"
    army.save()  # an import, a data load or staff change the army
    assert reload(alice_client, url, first).status_code == 200


def test_another_user_never_gets_the_owners_304(alice_client, army_list):
    url = pages(army_list)["builder"]
    first = alice_client.get(url)
    bob = Client()
    bob.force_login(make_user("bob"))
    assert reload(bob, url, first).status_code == 404
    assert reload(bob, pages(army_list)["roster pdf"], first).status_code == 404


def test_another_visitor_of_a_shared_list_gets_their_own_page(alice_client, army_list):
    url = pages(army_list)["shared"]
    alices = alice_client.get(url)
    assert "alice" in alices.content.decode()
    visitor = Client()
    page = reload(visitor, url, alices)
    assert page.status_code == 200
    assert "alice" not in page.content.decode()


def test_switching_language_refetches_the_page(alice_client, army_list):
    assert_french_is_fetched_anew(alice_client, pages(army_list)["builder"], 'lang="fr"')


def test_a_page_with_a_message_waiting_is_never_a_304(alice_client, army_list, rf):
    url = pages(army_list)["builder"]
    first = alice_client.get(url)
    # A message left for the next page (as after an import), in the messages cookie.
    storage = CookieStorage(rf.get("/"))
    alice_client.cookies[storage.cookie_name] = storage._encode([Message(constants.SUCCESS, "Imported it.")])
    shown = reload(alice_client, url, first)
    assert shown.status_code == 200
    assert "Imported it." in shown.content.decode()
    assert not shown.has_header("ETag")  # the next view, without the message, must not match it
