"""The builder's caches: an unchanged list reopens from its cached builder, and nothing stale shows.

Cached are an army's units (``catalogue.unit_cache``), each kind of entry card and a list's
whole builder (``lists.builder_cache``). Each test starts with empty caches (tests/conftest.py).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from armybuilder.catalogue import unit_cache
from armybuilder.catalogue.models import Army
from armybuilder.lists import services
from armybuilder.lists.models import ArmyList, Entry
from tests.lists.factories import make_builder_list, make_entry, make_option, make_platoon, make_user

HX = {"HX-Request": "true"}
TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
# A masked CSRF token: each is different, even within one page, and all are valid.
ANY_TOKEN = re.compile(rb"\b[A-Za-z0-9]{64}\b")


def _page(client, army_list, **params) -> bytes:
    response = client.get(f"/lists/{army_list.pk}/", params)
    assert response.status_code == 200
    return response.content


@pytest.fixture
def alice_list(client):
    alice = make_user("alice")
    army_list = make_builder_list(alice, entries=3)
    client.force_login(alice)
    return army_list


@pytest.mark.django_db
def test_it_reopens_an_unchanged_list_with_one_query_for_its_row(client, alice_list, django_assert_num_queries):
    first = _page(client, alice_list)
    # 1 session, 2 user, 3 the list's row with its edition and army: nothing else is read; and
    # for the ETag (armybuilder.http.conditional) 4 the list's revision, 5 the rules data's version.
    with django_assert_num_queries(5):
        again = _page(client, alice_list)
    assert ANY_TOKEN.sub(b"", again) == ANY_TOKEN.sub(b"", first)
    assert b"Rifle Squad" in again


@pytest.mark.django_db
def test_it_shows_every_change_on_the_next_page(client, alice_list):
    entry = alice_list.entries.order_by("position", "pk")[0]
    assert b'<option value="veteran" selected>' not in _page(client, alice_list)
    response = client.post(f"/lists/{alice_list.pk}/entries/{entry.pk}/quality/", {"quality": "veteran"})
    assert response.status_code == 302
    page = _page(client, alice_list)
    assert b'<option value="veteran" selected>' in page
    client.post(f"/lists/{alice_list.pk}/entries/{entry.pk}/rename/", {"name": "Baker <Company>"})
    assert b"Baker &lt;Company&gt;" in _page(client, alice_list)


@pytest.mark.django_db
def test_it_shows_rows_saved_outside_the_builder(client, alice_list):
    _page(client, alice_list)
    make_entry(alice_list, alice_list.entries.first().unit, name="Added by the admin", position=9)
    make_platoon(alice_list, kind="reinforced_platoon", name="Second platoon")
    page = _page(client, alice_list)
    assert b"Added by the admin" in page
    assert b"Second platoon" in page


@pytest.mark.django_db
def test_it_shows_catalogue_changes_at_once(client, alice_list):
    unit = alice_list.entries.first().unit
    assert b"Rifle Squad" in _page(client, alice_list)
    # An admin renames the unit and reprices its LMG: both show on the open list's next page.
    unit.name = "Section"
    unit.save()
    option = unit.options.get(slug="lmg")
    option.name = "Bren gun"
    option.save()
    page = _page(client, alice_list)
    assert b"Rifle Squad" not in page
    assert b"Section" in page
    assert b"Bren gun" in page


@pytest.mark.django_db
def test_a_catalogue_change_moves_its_armys_stamp(alice_list):
    unit = alice_list.entries.first().unit
    army = Army.objects.get(pk=unit.army_id)
    before = unit_cache.army_units(army)
    assert unit_cache.army_units(army) is before  # same stamp: kept
    for change in (
        lambda: unit.save(),
        lambda: make_option(unit, slug="grenades"),
        lambda: unit.options.get(slug="grenades").delete(),
    ):
        stamp = Army.objects.get(pk=army.pk).updated_at
        change()
        army = Army.objects.get(pk=army.pk)
        assert army.updated_at > stamp
        assert unit_cache.army_units(army) is not before
        before = unit_cache.army_units(army)
    assert [option.slug for option in before[unit.pk].options.all()] == ["lmg", "smg"]


@pytest.mark.django_db
def test_it_follows_the_query_string_and_the_language(client, alice_list):
    everything = _page(client, alice_list)
    filtered = _page(client, alice_list, q="no such unit")
    assert b"No units match this filter." in filtered
    assert b"No units match this filter." not in everything
    client.cookies["django_language"] = "fr"
    french = _page(client, alice_list)
    assert b"Catalogue" in french and "Qualité".encode() in french
    assert "Qualité".encode() not in everything


@pytest.mark.django_db
def test_cards_alike_in_two_users_lists_keep_each_their_own_ids_and_tokens():
    alice, bob = make_user("alice"), make_user("bob")
    alice_list = make_builder_list(alice, entries=2)
    bob_list = make_builder_list(bob, entries=2)
    clients = {}
    for user, army_list in ((alice, alice_list), (bob, bob_list)):
        client = clients[user.username] = Client(enforce_csrf_checks=True)
        client.force_login(user)
        page = _page(client, army_list)
        assert b"<muster-" not in page  # no stand-in is ever sent
        ids = {int(pk) for pk in re.findall(rb'<article id="entry-(\d+)"', page)}
        assert ids == set(army_list.entries.values_list("pk", flat=True))
    # Bob's tokens (from his page served from the cache) work for his forms, without JavaScript.
    client = clients["bob"]
    page = _page(client, bob_list)
    tokens = set(TOKEN.findall(page))
    assert tokens
    entry = bob_list.entries.order_by("position", "pk")[0]
    url = f"/lists/{bob_list.pk}/entries/{entry.pk}/quality/"
    for token in tokens:
        assert client.post(url, {"quality": "veteran", "csrfmiddlewaretoken": token.decode()}).status_code == 302
    assert client.post(url, {"quality": "regular"}).status_code == 403  # and a form without one is refused
    # Alice's tokens are not Bob's.
    alice_tokens = set(TOKEN.findall(_page(clients["alice"], alice_list)))
    for token in alice_tokens:
        assert client.post(url, {"quality": "veteran", "csrfmiddlewaretoken": token.decode()}).status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_no_builder_response_carries_a_stand_in(client, alice_list, htmx):
    headers = HX if htmx else {}
    entry = alice_list.entries.order_by("position", "pk")[1]
    url = f"/lists/{alice_list.pk}/entries/{entry.pk}/"
    responses = [
        client.get(f"/lists/{alice_list.pk}/", headers=headers),
        client.get(f"/lists/{alice_list.pk}/", headers=headers),  # from the cache
        client.post(f"{url}quality/", {"quality": "veteran"}, headers=headers, follow=True),
        client.post(f"{url}models/", {"models": "70"}, headers=headers),  # refused
        client.post(f"{url}duplicate/", {}, headers=headers, follow=True),
    ]
    for response in responses:
        assert response.status_code in (200, 400)
        assert b"<muster-" not in response.content
        assert b'name="csrfmiddlewaretoken"' in response.content


# --- A list's rows kept between one change and the next (lists.row_cache) --------------------


def _quality(client, army_list, entry, quality: str):
    url = f"/lists/{army_list.pk}/entries/{entry.pk}/quality/"
    return client.post(url, {"quality": quality}, headers=HX)


@pytest.mark.django_db
def test_the_next_change_reads_no_rows_after_one_of_the_builders_own(
    client, alice_list, django_assert_num_queries, django_capture_on_commit_callbacks
):
    first, second = alice_list.entries.order_by("position", "pk")[:2]
    with django_capture_on_commit_callbacks(execute=True):
        assert _quality(client, alice_list, first, "veteran").status_code == 200
    # 1 session, 2 user, 3 list, then only writes: 4 the entry, 5 the list's updated_at, inside
    # 6-7 a savepoint (the test runs in a transaction). The platoons and entries are the ones the
    # first change left, as it wrote them.
    with django_assert_num_queries(7), django_capture_on_commit_callbacks(execute=True):
        response = _quality(client, alice_list, second, "veteran")
    # The points shown are the database's, both changes counted.
    assert response.status_code == 200
    page = _page(client, alice_list)
    fresh = client.get(f"/lists/{alice_list.pk}/", {"q": "x"}).content  # another key: rendered anew
    points = re.search(rb'<strong id="summary-points">(\d+)</strong>', page).group(1)
    assert re.search(rb'<strong id="summary-points">(\d+)</strong>', fresh).group(1) == points
    assert points in response.content
    assert list(alice_list.entries.order_by("position", "pk").values_list("quality", flat=True)) == [
        "veteran",
        "veteran",
        "regular",
    ]


@pytest.mark.django_db
def test_a_write_in_between_is_never_hidden(client, alice_list, monkeypatch, django_capture_on_commit_callbacks):
    """Another tab renames a squad between this tab's load and its write: nothing is lost."""
    first, second, third = alice_list.entries.order_by("position", "pk")
    real_update = services.entry_update

    def other_tab_first(*, entry, **fields):
        if entry.pk == second.pk:
            Entry.objects.filter(pk=third.pk).update(name="Renamed elsewhere")
            ArmyList.objects.filter(pk=alice_list.pk).update(updated_at=timezone.now())
        return real_update(entry=entry, **fields)

    with django_capture_on_commit_callbacks(execute=True):
        _quality(client, alice_list, first, "veteran")  # rows kept for the next change
    monkeypatch.setattr(services, "entry_update", other_tab_first)
    with django_capture_on_commit_callbacks(execute=True):
        _quality(client, alice_list, second, "veteran")
    monkeypatch.setattr(services, "entry_update", real_update)
    with django_capture_on_commit_callbacks(execute=True):
        response = _quality(client, alice_list, first, "inexperienced")
    # After a third change the page shows the other tab's name and this tab's changes.
    assert response.status_code == 200
    page = _page(client, alice_list)
    assert b"Renamed elsewhere" in page
    assert page.count(b'<option value="veteran" selected>') == 1
    assert page.count(b'<option value="inexperienced" selected>') == 1


@pytest.mark.django_db
def test_rows_deleted_outside_the_builder_move_the_list_on(client, alice_list):
    _page(client, alice_list)
    gone = alice_list.entries.order_by("position", "pk").last()
    Entry.objects.filter(pk=gone.pk).delete()
    page = _page(client, alice_list)
    assert f'id="entry-{gone.pk}"'.encode() not in page
    assert len(re.findall(rb'<article id="entry-\d+"', page)) == 2
