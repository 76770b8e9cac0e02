"""My lists, new, rename, duplicate, delete, trash and restore, through the client."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client

from armybuilder.lists.models import ArmyList, Entry, Platoon
from tests.lists.factories import make_army, make_edition, make_entry, make_list, make_platoon, make_unit, make_user

HTMX = {"HX-Request": "true"}
TRASHED_AT = datetime(2024, 1, 1, tzinfo=UTC)


def _login(client: Client, user=None):
    user = user or make_user("alice")
    client.force_login(user)
    return user


def _anonymous_list(client: Client, **kwargs) -> ArmyList:
    """A list created the way a visitor without an account creates one, so it is in their session."""
    army = kwargs.pop("army", None) or make_army()
    response = client.post(
        "/lists/new/",
        {
            "edition": army.edition.slug,
            "army": army.pk,
            "name": kwargs.get("name", "Visitor list"),
            "points_limit": 1000,
        }
        | {"force_org": "platoons"},
    )
    assert response.status_code == 302
    return ArmyList.objects.latest("pk")


# -- My lists --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_shows_the_empty_state_with_a_call_to_action(client):
    _login(client)
    response = client.get("/lists/")
    assert response.status_code == 200
    assert "No lists yet" in response.text
    assert 'href="/lists/new/"' in response.text


@pytest.mark.django_db
def test_it_lists_my_lists_with_points_used_and_limit(client):
    alice = _login(client)
    army_list = make_list(owner=alice, name="Fallschirmjäger", points_limit=750)
    make_entry(army_list, make_unit(army=army_list.army, cost_regular=120, base_models=5))
    response = client.get("/lists/")
    assert "Fallschirmjäger" in response.text
    assert "<strong>120</strong> / 750" in response.text
    assert army_list.army.name in response.text


@pytest.mark.django_db
def test_it_hides_other_users_lists_and_trashed_lists(client):
    alice = _login(client)
    make_list(owner=make_user("bob"), name="Bob's Panzers")
    make_list(owner=alice, name="Binned", deleted_at=TRASHED_AT)
    response = client.get("/lists/")
    assert "Bob&#x27;s Panzers" not in response.text
    assert "Binned" not in response.text


@pytest.mark.django_db
def test_it_summarises_all_lists_in_a_constant_number_of_queries(client, django_assert_num_queries):
    alice = _login(client)
    for n in range(3):
        army_list = make_list(owner=alice, name=f"List {n}")
        platoon = make_platoon(army_list)
        make_entry(army_list, platoon=platoon)
        make_entry(army_list)
    # 1 session, 2 user, 3 lists with edition/army/owner, 4 platoons, 5 entries with their platoon,
    # 6 their distinct units, 7 unit options, 8 unit weapons, 9 unit special rules, 10 trash count.
    with django_assert_num_queries(10):
        response = client.get("/lists/")
    assert response.text.count('class="card" id="list-') == 3


@pytest.mark.django_db
def test_it_filters_by_name_without_javascript(client):
    alice = _login(client)
    make_list(owner=alice, name="Desert Rats")
    make_list(owner=alice, name="Red Devils")
    response = client.get("/lists/?q=desert")
    assert "Desert Rats" in response.text
    assert "Red Devils" not in response.text


@pytest.mark.django_db
def test_it_returns_only_the_list_fragment_to_htmx(client):
    alice = _login(client)
    make_list(owner=alice, name="Desert Rats")
    make_list(owner=alice, name="Red Devils")
    response = client.get("/lists/?q=red", headers=HTMX)
    assert response.text.lstrip().startswith('<div id="list-table"')
    assert "<html" not in response.text
    assert "Desert Rats" not in response.text


@pytest.mark.django_db
def test_it_says_when_a_search_matches_nothing(client):
    alice = _login(client)
    make_list(owner=alice, name="Desert Rats")
    response = client.get("/lists/?q=zzz")
    assert "No list has “zzz” in its name." in response.text


@pytest.mark.django_db
def test_it_escapes_list_names(client):
    alice = _login(client)
    make_list(owner=alice, name="<script>alert(1)</script>")
    response = client.get("/lists/")
    assert "<script>alert(1)</script>" not in response.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in response.text


# -- New list --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_shows_the_new_list_form(client):
    make_army(name="British")
    response = client.get("/lists/new/")
    assert response.status_code == 200
    assert 'name="points_limit"' in response.text
    assert "British" in response.text


@pytest.mark.django_db
def test_it_creates_a_list_and_redirects_to_the_builder(client):
    alice = _login(client)
    army = make_army()
    response = client.post(
        "/lists/new/",
        {
            "edition": army.edition.slug,
            "army": army.pk,
            "name": "Tobruk",
            "points_limit": 1250,
            "force_org": "platoons",
            "max_order_dice": 12,
            "max_platoons": 2,
        },
    )
    army_list = ArmyList.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/lists/{army_list.pk}/"
    assert (army_list.owner, army_list.name, army_list.points_limit, army_list.max_order_dice) == (
        alice,
        "Tobruk",
        1250,
        12,
    )


@pytest.mark.django_db
def test_it_sends_htmx_a_client_redirect_after_creating(client):
    army = make_army()
    data = {"edition": army.edition.slug, "army": army.pk, "name": "X", "points_limit": 500, "force_org": "none"}
    response = client.post("/lists/new/", data, headers=HTMX)
    assert response["HX-Redirect"] == f"/lists/{ArmyList.objects.get().pk}/"


@pytest.mark.django_db
def test_it_shows_errors_next_to_the_fields(client):
    army = make_army()
    response = client.post(
        "/lists/new/",
        {
            "edition": army.edition.slug,
            "army": army.pk,
            "name": "x" * 101,
            "points_limit": 10001,
            "force_org": "platoons",
        },
    )
    assert response.status_code == 200
    assert "at most 100 characters" in response.text
    assert "less than or equal to 10000" in response.text
    assert not ArmyList.objects.exists()


@pytest.mark.django_db
def test_it_rejects_an_army_from_another_edition(client):
    v2_army = make_army(edition=make_edition("v2"))
    v3 = make_edition("v3")
    make_army(edition=v3)  # only an edition with armies is offered
    response = client.post(
        "/lists/new/",
        {"edition": v3.slug, "army": v2_army.pk, "name": "Mixed", "points_limit": 1000, "force_org": "platoons"},
    )
    assert response.status_code == 200
    assert "Choose an army from Edition v3." in response.text
    assert not ArmyList.objects.exists()


@pytest.mark.django_db
def test_it_filters_armies_by_edition_for_htmx(client):
    make_army(edition=make_edition("v2"), name="Soviet Union")
    make_army(edition=make_edition("v3"), name="Finland")
    response = client.get("/lists/new/?edition=v3", headers=HTMX)
    assert response.text.lstrip().startswith('<div id="army-field"')
    assert "Finland" in response.text
    assert "Soviet Union" not in response.text


@pytest.mark.django_db
def test_it_groups_all_armies_by_edition_without_javascript(client):
    make_army(edition=make_edition("v2"), name="Soviet Union")
    make_army(edition=make_edition("v3"), name="Finland")
    response = client.get("/lists/new/")
    assert "<optgroup" in response.text
    assert "Soviet Union" in response.text and "Finland" in response.text


@pytest.mark.django_db
def test_it_keeps_a_visitors_new_list_in_their_session(client):
    army_list = _anonymous_list(client)
    assert army_list.owner is None
    assert client.get(f"/lists/{army_list.pk}/export.json").status_code == 200
    assert Client().get(f"/lists/{army_list.pk}/export.json").status_code == 404


# -- Rename ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_renames_and_redirects(client):
    alice = _login(client)
    army_list = make_list(owner=alice, name="Old")
    response = client.post(f"/lists/{army_list.pk}/rename/", {"name": "  New name  "})
    army_list.refresh_from_db()
    assert response.status_code == 302
    assert response["Location"] == "/lists/"
    assert army_list.name == "New name"


@pytest.mark.django_db
def test_it_renames_with_htmx_and_returns_the_table(client):
    alice = _login(client)
    army_list = make_list(owner=alice, name="Old")
    response = client.post(f"/lists/{army_list.pk}/rename/", {"name": "Renamed"}, headers=HTMX)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="list-table"')
    assert "Renamed" in response.text


@pytest.mark.django_db
def test_it_shows_a_rename_error_next_to_the_field(client):
    alice = _login(client)
    army_list = make_list(owner=alice, name="Old")
    response = client.post(f"/lists/{army_list.pk}/rename/", {"name": "y" * 101})
    army_list.refresh_from_db()
    assert response.status_code == 200
    assert "at most 100 characters" in response.text
    assert army_list.name == "Old"


@pytest.mark.django_db
def test_it_keeps_a_change_made_in_another_tab_when_renaming(client):
    alice = _login(client)
    army_list = make_list(owner=alice, name="Old", points_limit=1000)
    client.post(f"/lists/{army_list.pk}/rename/", {"name": "First tab"})
    ArmyList.objects.filter(pk=army_list.pk).update(points_limit=1500)  # the builder, in another tab
    client.post(f"/lists/{army_list.pk}/rename/", {"name": "Second tab"})
    army_list.refresh_from_db()
    assert (army_list.name, army_list.points_limit) == ("Second tab", 1500)


# -- Duplicate -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_duplicates_a_list_with_its_platoons_and_entries(client):
    alice = _login(client)
    army_list = make_list(owner=alice, name="Original", max_order_dice=10)
    platoon = make_platoon(army_list, name="First")
    make_entry(army_list, platoon=platoon, quality="veteran", name="Sarge")
    make_entry(army_list)
    response = client.post(f"/lists/{army_list.pk}/duplicate/")
    copy = ArmyList.objects.exclude(pk=army_list.pk).get()
    assert response.status_code == 302
    assert (copy.name, copy.owner, copy.max_order_dice) == ("Copy of Original", alice, 10)
    assert copy.share_token != army_list.share_token
    assert list(Entry.objects.filter(army_list=copy, platoon__name="First").values_list("name", "quality")) == [
        ("Sarge", "veteran")
    ]
    assert Entry.objects.filter(army_list=copy).count() == 2
    assert Platoon.objects.filter(army_list=army_list).count() == 1


@pytest.mark.django_db
def test_it_duplicates_with_htmx(client):
    alice = _login(client)
    army_list = make_list(owner=alice, name="Original")
    response = client.post(f"/lists/{army_list.pk}/duplicate/", headers=HTMX)
    assert "Copy of Original" in response.text
    assert "<html" not in response.text


@pytest.mark.django_db
def test_it_lets_a_visitor_duplicate_their_list(client):
    army_list = _anonymous_list(client, name="Mine")
    client.post(f"/lists/{army_list.pk}/duplicate/")
    assert "Copy of Mine" in client.get("/lists/").text


# -- Trash -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_moves_a_deleted_list_to_the_trash(client):
    alice = _login(client)
    army_list = make_list(owner=alice, name="Binned")
    response = client.post(f"/lists/{army_list.pk}/delete/")
    army_list.refresh_from_db()
    assert response["Location"] == "/lists/"
    assert army_list.deleted_at is not None
    assert "Binned" in client.get("/lists/trash/").text


@pytest.mark.django_db
def test_it_offers_undo_after_an_htmx_delete(client):
    alice = _login(client)
    army_list = make_list(owner=alice, name="Binned")
    response = client.post(f"/lists/{army_list.pk}/delete/", headers=HTMX)
    assert f'action="/lists/{army_list.pk}/restore/"' in response.text
    assert "<html" not in response.text


@pytest.mark.django_db
def test_it_refreshes_the_trash_count_after_an_htmx_delete(client):
    alice = _login(client)
    army_list = make_list(owner=alice)
    response = client.post(f"/lists/{army_list.pk}/delete/", headers=HTMX)
    assert 'id="trash-link" hx-swap-oob="true"' in response.text
    assert "Trash (1)" in response.text


@pytest.mark.django_db
def test_it_lets_a_visitor_delete_and_restore_their_list(client):
    army_list = _anonymous_list(client, name="Mine")
    client.post(f"/lists/{army_list.pk}/delete/")
    client.post(f"/lists/{army_list.pk}/restore/")
    army_list.refresh_from_db()
    assert army_list.deleted_at is None
    assert "Mine" in client.get("/lists/").text


@pytest.mark.django_db
def test_it_shows_lists_in_the_admin(client):
    admin = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    army_list = make_list(owner=admin, name="Audited")
    make_entry(army_list, platoon=make_platoon(army_list))
    assert "Audited" in client.get("/admin/lists/armylist/").text
    assert client.get(f"/admin/lists/armylist/{army_list.pk}/change/").status_code == 200


@pytest.mark.django_db
def test_it_restores_a_list_from_the_trash(client):
    alice = _login(client)
    army_list = make_list(owner=alice, name="Back", deleted_at=TRASHED_AT)
    response = client.post(f"/lists/{army_list.pk}/restore/")
    army_list.refresh_from_db()
    assert response["Location"] == "/lists/trash/"
    assert army_list.deleted_at is None


@pytest.mark.django_db
def test_it_restores_with_htmx_and_returns_the_trash_fragment(client):
    alice = _login(client)
    army_list = make_list(owner=alice, name="Back", deleted_at=TRASHED_AT)
    response = client.post(f"/lists/{army_list.pk}/restore/", headers=HTMX)
    assert response.text.lstrip().startswith('<div id="trash-table"')
    assert "Restored “Back”." in response.text


@pytest.mark.django_db
def test_it_deletes_a_trashed_list_for_good(client):
    alice = _login(client)
    army_list = make_list(owner=alice, deleted_at=TRASHED_AT)
    client.post(f"/lists/{army_list.pk}/purge/")
    assert not ArmyList.objects.filter(pk=army_list.pk).exists()


@pytest.mark.django_db
def test_it_deletes_for_good_with_htmx(client):
    alice = _login(client)
    army_list = make_list(owner=alice, name="Gone", deleted_at=TRASHED_AT)
    response = client.post(f"/lists/{army_list.pk}/purge/", headers=HTMX)
    assert "Deleted “Gone” for good." in response.text
    assert "<html" not in response.text


@pytest.mark.django_db
def test_it_does_not_purge_a_list_that_is_not_in_the_trash(client):
    alice = _login(client)
    army_list = make_list(owner=alice)
    assert client.post(f"/lists/{army_list.pk}/purge/").status_code == 404


@pytest.mark.django_db
def test_it_shows_an_empty_trash(client):
    _login(client)
    assert "The trash is empty." in client.get("/lists/trash/").text


@pytest.mark.django_db
def test_it_returns_the_trash_fragment_to_htmx(client):
    _login(client)
    response = client.get("/lists/trash/", headers=HTMX)
    assert response.text.lstrip().startswith('<div id="trash-table"')


# -- Share link ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_regenerates_the_share_token(client):
    alice = _login(client)
    army_list = make_list(owner=alice)
    old = army_list.share_token
    client.post(f"/lists/{army_list.pk}/share/regenerate/")
    army_list.refresh_from_db()
    assert army_list.share_token != old
    assert Client().get(f"/s/{old}/").status_code == 404
    assert Client().get(f"/s/{army_list.share_token}/").status_code == 200


@pytest.mark.django_db
def test_it_regenerates_with_htmx_and_shows_the_new_link(client):
    alice = _login(client)
    army_list = make_list(owner=alice)
    response = client.post(f"/lists/{army_list.pk}/share/regenerate/", headers=HTMX)
    army_list.refresh_from_db()
    assert f"/s/{army_list.share_token}/" in response.text
    assert "<html" not in response.text


@pytest.mark.django_db
def test_it_does_not_redirect_a_regenerate_to_another_site(client):
    alice = _login(client)
    army_list = make_list(owner=alice)
    response = client.post(f"/lists/{army_list.pk}/share/regenerate/", {"next": "https://evil.example/"})
    assert response["Location"] == "/lists/"


# -- Privacy and CSRF ------------------------------------------------------------------------

ENDPOINTS = [
    ("get", "/lists/{pk}/export.txt"),
    ("get", "/lists/{pk}/export.json"),
    ("post", "/lists/{pk}/rename/"),
    ("post", "/lists/{pk}/duplicate/"),
    ("post", "/lists/{pk}/delete/"),
    ("post", "/lists/{pk}/share/regenerate/"),
]
TRASH_ENDPOINTS = [("post", "/lists/{pk}/restore/"), ("post", "/lists/{pk}/purge/")]


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "url"), ENDPOINTS + TRASH_ENDPOINTS)
@pytest.mark.parametrize("who", ["another user", "logged out", "another visitor"])
def test_it_hides_someone_elses_list_on_every_endpoint(client, method, url, who):
    trashed = (method, url) in TRASH_ENDPOINTS
    bob_list = make_list(owner=make_user("bob"), name="Bob's", deleted_at=TRASHED_AT if trashed else None)
    if who == "another user":
        _login(client)
        target = bob_list
    elif who == "logged out":
        target = bob_list
    else:
        # A list in someone else's session: another browser cannot reach it.
        target = _anonymous_list(Client())
        if trashed:
            ArmyList.objects.filter(pk=target.pk).update(deleted_at=TRASHED_AT)
    response = getattr(client, method)(url.format(pk=target.pk), {"name": "Hijacked"} if method == "post" else None)
    target.refresh_from_db()
    assert response.status_code == 404
    assert target.name != "Hijacked"


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "url"), ENDPOINTS + TRASH_ENDPOINTS)
def test_it_changes_nothing_on_someone_elses_list(client, method, url):
    trashed = (method, url) in TRASH_ENDPOINTS
    bob_list = make_list(owner=make_user("bob"), name="Bob's", deleted_at=TRASHED_AT if trashed else None)
    _login(client)
    getattr(client, method)(url.format(pk=bob_list.pk), {"name": "Hijacked"} if method == "post" else None)
    assert list(ArmyList.objects.values_list("name", "share_token", "deleted_at")) == [
        (bob_list.name, bob_list.share_token, bob_list.deleted_at)
    ]


@pytest.mark.django_db
def test_it_requires_a_csrf_token():
    csrf_client = Client(enforce_csrf_checks=True)
    alice = make_user("alice")
    csrf_client.force_login(alice)
    army_list = make_list(owner=alice, name="Safe")
    response = csrf_client.post(f"/lists/{army_list.pk}/rename/", {"name": "Forged"})
    army_list.refresh_from_db()
    assert response.status_code == 403
    assert army_list.name == "Safe"


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/lists/1/rename/", "/lists/1/delete/", "/lists/1/duplicate/"])
def test_it_refuses_get_on_actions(client, url):
    _login(client)
    assert client.get(url).status_code == 405
