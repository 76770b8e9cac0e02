"""Reference pages and API: content kept per rules-data version, the layout per visitor, reloads 304, never stale."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from armybuilder.reference import pages
from armybuilder.reference.models import RulesRow, Weapon
from armybuilder.reference.topics import TOPICS_BY_SLUG
from armybuilder.reference.version import data_version
from tests.conftest import assert_french_is_fetched_anew, reload
from tests.reference.factories import make_edition, make_row, make_special_rule, make_table, make_weapon

pytestmark = pytest.mark.django_db

TOPIC = "/reference/v2/orders/"


@pytest.fixture
def table():
    edition = make_edition(slug="v2", number=2, name="2nd edition", name_fr="2e édition")
    orders = make_table(edition, slug="orders", topic="orders", title="Orders", title_fr="Ordres")
    make_row(orders, {"name": "Fire", "value": 1})
    return orders


def test_a_reload_of_an_unchanged_page_is_a_304_after_one_query(client, table, django_assert_num_queries):
    first = client.get(TOPIC)
    assert first.status_code == 200
    assert first["Cache-Control"] == "private, no-cache"
    assert first["Last-Modified"]
    with django_assert_num_queries(1):  # the data version only
        again = reload(client, TOPIC, first)
    assert again.status_code == 304
    assert again["ETag"] == first["ETag"]
    assert again.content == b""


def without_tokens(html: bytes) -> str:
    # Django masks the CSRF token afresh in each response.
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", html.decode())


def test_an_unchanged_page_is_rendered_from_what_was_kept(client, table, django_assert_num_queries):
    first = client.get(TOPIC).content
    with django_assert_num_queries(1):
        assert without_tokens(client.get(TOPIC).content) == without_tokens(first)


def test_an_edited_row_is_shown_at_once(client, table):
    first = client.get(TOPIC)
    row = RulesRow.objects.get(table=table)
    row.cells = {"name": "Ambush", "value": 1}
    row.save(update_fields=["cells"])  # as the importers and the admin save
    again = reload(client, TOPIC, first)
    assert again.status_code == 200
    assert "Ambush" in again.content.decode()
    assert again["ETag"] != first["ETag"]


def test_a_deleted_row_or_a_rule_given_to_a_weapon_moves_the_version(table):
    before = data_version()
    RulesRow.objects.filter(table=table).delete()
    after_delete = data_version()
    assert after_delete.stamp != before.stamp
    weapon = make_weapon(table.edition, name="Rifle")
    after_weapon = data_version()
    weapon.special_rules.add(make_special_rule(table.edition, name="Team"))
    assert len({before.stamp, after_delete.stamp, after_weapon.stamp, data_version().stamp}) == 4


def test_loading_identical_built_in_data_leaves_the_version(db):
    """What was kept for the data (pages, PDFs, ETags) stays good when nothing differs; a new
    release of the code is told apart by ``build_stamp``, not by the data's version."""
    call_command("load_reference_data", verbosity=0)
    before = data_version()
    call_command("load_reference_data", verbosity=0)
    assert data_version() == before
    Weapon.objects.filter(slug="rifle").update(range_max=99)  # differs from the fixtures
    changed = data_version()
    call_command("load_reference_data", verbosity=0)
    assert data_version().stamp not in (before.stamp, changed.stamp)
    assert set(Weapon.objects.filter(updated_at__gt=changed.modified).values_list("slug", flat=True)) == {"rifle"}


def test_the_french_page_is_not_the_english_ones_304(client, table):
    assert_french_is_fetched_anew(client, TOPIC, "Ordres")


def test_another_visitors_etag_does_not_match(client, table):
    user = get_user_model().objects.create_user("alice", password="pw-alice-123")
    client.force_login(user)
    alice = client.get(TOPIC)
    assert "alice" in alice.content.decode()
    client.logout()
    anonymous = reload(client, TOPIC, alice)
    assert anonymous.status_code == 200
    assert "alice" not in anonymous.content.decode()


def test_the_htmx_fragment_and_the_page_have_their_own_etags(client, table):
    make_weapon(table.edition, name="Rifle")
    url = "/reference/v2/weapons/?q=rif"
    page = client.get(url)
    fragment = reload(client, url, page, **{"HX-Request": "true"})
    assert fragment.status_code == 200
    assert "<html" not in fragment.content.decode()
    assert reload(client, url, fragment, **{"HX-Request": "true"}).status_code == 304


def test_the_api_answers_304_and_if_modified_since(client, table):
    url = "/api/editions/v2/orders/"
    first = client.get(url)
    assert first.json()["rows"][0]["name"] == "Fire"
    assert reload(client, url, first).status_code == 304
    assert client.get(url, headers={"If-Modified-Since": first["Last-Modified"]}).status_code == 304
    make_row(table, {"name": "Down", "value": 0})
    changed = reload(client, url, first)
    assert changed.status_code == 200
    assert [row["name"] for row in changed.json()["rows"]] == ["Fire", "Down"]


def test_an_unknown_table_is_still_a_404(client, table):
    assert client.get("/api/editions/v2/nothing/").status_code == 404
    assert client.get("/reference/v2/nothing/").status_code == 404


def test_stray_query_parameters_share_the_kept_page(client, table, django_assert_num_queries):
    client.get(TOPIC)
    with django_assert_num_queries(1):
        assert client.get(f"{TOPIC}?utm_source=forum").status_code == 200


def csrf_field(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_each_visitor_gets_a_working_csrf_token_of_their_own(table, django_assert_num_queries):
    from django.test import Client

    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first.get(TOPIC)
    with django_assert_num_queries(1):  # the second visitor's page is the kept content in their own layout
        page = second.get(TOPIC).content.decode()
    token = csrf_field(page)
    assert f'"x-csrftoken": "{token}"' in page
    # The token is the second visitor's: the language switch accepts it from them only.
    assert second.post("/i18n/setlang/", {"language": "fr", "csrfmiddlewaretoken": token}).status_code == 302
    assert first.post("/i18n/setlang/", {"language": "fr", "csrfmiddlewaretoken": token}).status_code == 403


def test_the_language_switch_returns_to_the_visitors_own_address(client, table):
    client.get(f"{TOPIC}?from=forum")
    page = client.get(f"{TOPIC}?from=discord&x=%22%3E").content.decode()
    assert 'name="next" type="hidden" value="/reference/v2/orders/?from=discord&amp;x=%22%3E"' in page


def test_signed_in_players_see_their_own_name_on_a_kept_page(client, table, django_assert_num_queries):
    users = get_user_model().objects
    alice = users.create_user("alice", password="pw-alice-123")
    mallory = users.create_user("<b>mallory", password="pw-mallory-123")
    client.force_login(alice)
    assert "alice" in client.get(TOPIC).content.decode()
    client.force_login(mallory)
    with django_assert_num_queries(3):  # the session, the player, the data version
        page = client.get(TOPIC).content.decode()
    assert "alice" not in page
    assert '<span class="nav-user">&lt;b&gt;mallory</span>' in page
    assert f'data-offline-user="{mallory.pk}"' in page
    assert "Log out" in page and "Sign up" not in page
    client.logout()
    anonymous = client.get(TOPIC).content.decode()
    assert "mallory" not in anonymous and 'data-offline-user=""' in anonymous and "Sign up" in anonymous


def message_cookie(text: str) -> str:
    from django.contrib.messages import constants
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.http import HttpResponse
    from django.test import RequestFactory

    storage = CookieStorage(RequestFactory().get("/"))
    storage.add(constants.SUCCESS, text)
    response = HttpResponse()
    storage.update(response)
    return response.cookies[storage.cookie_name].value


def test_a_page_with_a_message_waiting_shows_it_once(client, table):
    client.get(TOPIC)  # kept, with no message
    client.cookies["messages"] = message_cookie("Welcome back to the table.")
    shown = client.get(TOPIC)
    assert "Welcome back to the table." in shown.content.decode()
    assert not shown.has_header("ETag")
    assert "Welcome back to the table." not in client.get(TOPIC).content.decode()


class KeptValues:
    """Stands in for the cache ``pages`` keeps content in, to see what is kept."""

    def __init__(self) -> None:
        self.values: dict[str, object] = {}

    def get(self, key: str) -> object | None:
        return self.values.get(key)

    def set(self, key: str, value: object, timeout: int) -> None:
        self.values[key] = value


def test_nothing_of_a_visitor_is_kept(client, table, monkeypatch):
    kept = KeptValues()
    monkeypatch.setattr(pages, "cache", kept)
    client.force_login(get_user_model().objects.create_user("alice", password="pw-alice-123"))
    client.cookies["messages"] = message_cookie("Welcome back to the table.")
    page = client.get(f"{TOPIC}?from=forum").content.decode()
    assert "alice" in page and "Welcome back to the table." in page and "Fire" in page
    title = f"{TOPICS_BY_SLUG['orders'].title} · 2nd edition"
    assert f"<title>{title} · Muster</title>" in page
    [content] = kept.values.values()
    assert "Fire" in content["body"] and content["title"] == title
    for visitors in ("alice", csrf_field(page), "csrfmiddlewaretoken", "Welcome back", "forum", "Log out", "<html"):
        assert visitors not in repr(content)


def test_content_is_kept_per_data_version(client, table, monkeypatch):
    kept = KeptValues()
    monkeypatch.setattr(pages, "cache", kept)
    client.get(TOPIC)
    client.get(TOPIC)
    assert len(kept.values) == 1
    row = RulesRow.objects.get(table=table)
    row.cells = {"name": "Ambush", "value": 1}
    row.save()
    assert "Ambush" in client.get(TOPIC).content.decode()
    assert sorted("Ambush" in content["body"] for content in kept.values.values()) == [False, True]


def test_the_htmx_fragment_is_kept_without_a_layout(client, table, monkeypatch):
    kept = KeptValues()
    monkeypatch.setattr(pages, "cache", kept)
    make_weapon(table.edition, name="Rifle")
    fragment = client.get("/reference/v2/weapons/", headers={"HX-Request": "true"}).content.decode()
    assert fragment.lstrip().startswith('<div id="weapon-results"') and "Rifle" in fragment
    [content] = kept.values.values()
    assert content == {"body": fragment}
    # A visitor's own query is answered, not kept (each distinct ?q= once filled Redis).
    filtered = client.get("/reference/v2/weapons/?q=rif", headers={"HX-Request": "true"}).content.decode()
    assert "Rifle" in filtered and len(kept.values) == 1


@pytest.mark.django_db(transaction=True)
def test_a_new_database_connection_reads_the_same_version(table):
    # On PostgreSQL the version query is prepared once per connection: a new connection must
    # prepare it again, and the prepared query must read what the plain one reads.
    from django.db import connection

    from armybuilder.reference import version

    before = data_version()
    connection.close()
    assert data_version() == before
    make_row(table, {"name": "Down", "value": 0})
    with connection.cursor() as cursor:
        cursor.execute(version._sql())
        plain = version.version_of(cursor.fetchall())
    assert data_version() == plain != before


def test_behind_a_transaction_pooler_the_version_query_is_not_prepared(table, monkeypatch):
    from django.db import connection

    from armybuilder.reference import version

    monkeypatch.setitem(connection.settings_dict, "DISABLE_SERVER_SIDE_CURSORS", True)
    assert version._query() == version._sql()
    assert data_version().stamp
