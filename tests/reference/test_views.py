"""The rules-reference pages through the test client, with literal URLs and factory-built data."""

from __future__ import annotations

import re

import pytest

from tests.reference.factories import make_edition, make_row, make_table, make_two_editions, make_weapon

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def ref():
    return make_two_editions()


def row_html(html: str, key: str) -> str:
    """The markup of the table row tagged ``data-key``/``data-weapon`` = key."""
    match = re.search(rf'<tr[^>]*data-(?:key|weapon)="{re.escape(key)}"[^>]*>(.*?)</tr>', html, re.S)
    assert match, f"no row {key!r}"
    return match.group(0)


def row_containing(html: str, text: str) -> str:
    """The markup of the table row whose cells contain ``text``."""
    rows = [row for row in re.findall(r"<tr[^>]*>.*?</tr>", html, re.S) if text in row]
    assert len(rows) == 1, f"{len(rows)} rows contain {text!r}"
    return rows[0]


def french(client) -> None:
    client.cookies["django_language"] = "fr"


# Index and edition pages


def test_it_lists_every_edition_on_the_index(client, ref):
    html = client.get("/reference/").content.decode()
    assert 'href="/reference/v2/"' in html
    assert 'href="/reference/v3/"' in html


def test_it_links_topics_straight_from_the_index(client, ref):
    html = client.get("/reference/").content.decode()
    assert 'href="/reference/v2/orders/"' in html
    assert 'href="/reference/v3/weapons/"' in html


def test_it_lists_only_the_topics_an_edition_has(client, ref):
    html = client.get("/reference/v2/").content.decode()
    assert 'href="/reference/v2/orders/"' in html
    assert 'href="/reference/v2/vehicles/"' not in html


def test_it_404s_for_an_unknown_edition(client, ref):
    assert client.get("/reference/v9/").status_code == 404


# Topic pages


def test_it_shows_a_topic_tables_and_rows(client, ref):
    html = client.get("/reference/v2/orders/").content.decode()
    assert "<h2" in html and "Orders" in html
    assert "Move at double rate, no shooting" in html


def test_it_wraps_tables_so_they_scroll_sideways(client, ref):
    html = client.get("/reference/v2/orders/").content.decode()
    assert '<div class="table-wrap"' in html


def test_it_shows_each_row_source_and_note_on_demand(client, ref):
    rally = row_containing(client.get("/reference/v3/orders/").content.decode(), "Remove D6 pins")
    assert "<details" in rally
    assert "Wording differs" in rally


def test_it_badges_unverified_rows(client, ref):
    html = client.get("/reference/v3/orders/").content.decode()
    assert 'class="badge badge-unverified"' in row_containing(html, "Remove D6 pins")
    assert "badge-unverified" not in row_containing(html, "Shoot at full effect")


def test_it_badges_disputed_tables(client, ref):
    html = client.get("/reference/v3/vehicles/").content.decode()
    heading = re.search(r'<h2 id="vehicle-damage-title">(.*?)</h2>', html, re.S).group(1)
    assert "Sources disagree" in heading


def test_it_404s_for_an_unknown_topic(client, ref):
    assert client.get("/reference/v2/nonsense/").status_code == 404


def test_it_404s_for_a_topic_the_edition_lacks(client, ref):
    assert client.get("/reference/v2/vehicles/").status_code == 404


def test_it_switches_edition_to_the_same_topic(client, ref):
    html = client.get("/reference/v2/orders/").content.decode()
    assert 'href="/reference/v3/orders/" data-edition="v3"' in html


def test_it_switches_to_the_edition_index_when_it_lacks_the_topic(client, ref):
    html = client.get("/reference/v3/vehicles/").content.decode()
    assert 'href="/reference/v2/" data-edition="v2"' in html


def test_it_links_a_topic_to_its_compare_view(client, ref):
    html = client.get("/reference/v3/orders/").content.decode()
    assert 'href="/reference/compare/orders/?a=v2&amp;b=v3"' in html


def test_it_renders_a_topic_in_constant_queries(client, django_assert_num_queries):
    edition = make_edition(slug="v2", number=2)
    small = make_table(edition, slug="orders", topic="orders")
    for n in range(3):
        make_row(small, {"name": f"Row {n}", "value": n})
    # 0 the rules data's version, 1 edition, 2 tables of the topic, 3 their rows, 4 editions
    # for the switcher, 5 which topics each edition has.
    with django_assert_num_queries(6):
        assert client.get("/reference/v2/orders/").status_code == 200
    big = make_table(edition, slug="fubar", topic="orders")
    for n in range(30):
        make_row(big, {"name": f"Row {n}", "value": n})
    with django_assert_num_queries(6):  # a new data version: read and rendered afresh
        assert client.get("/reference/v2/orders/").status_code == 200


# French


def test_it_shows_table_titles_columns_and_cells_in_french(client, ref):
    french(client)
    html = client.get("/reference/v2/orders/").content.decode()
    assert "Ordres" in html and "Résumé" in html and "Course" in html


def test_it_translates_the_interface_into_french(client, ref):
    french(client)
    html = client.get("/reference/v2/weapons/").content.decode()
    assert "Tableau des armes" in html
    assert "Règle spéciale" in html


# Weapons chart


def test_it_lists_the_weapons_chart(client, ref):
    html = client.get("/reference/v2/weapons/").content.decode()
    assert 'data-weapon="rifle"' in html
    assert 'data-weapon="mmg"' in html


def test_it_filters_weapons_by_name_with_a_plain_get(client, ref):
    html = client.get("/reference/v2/weapons/?q=mmg").content.decode()
    assert 'data-weapon="mmg"' in html
    assert 'data-weapon="rifle"' not in html


def test_it_filters_weapons_by_category(client, ref):
    html = client.get("/reference/v2/weapons/?category=small-arms").content.decode()
    assert 'data-weapon="rifle"' in html
    assert 'data-weapon="mmg"' not in html


def test_it_filters_weapons_by_special_rule(client, ref):
    html = client.get("/reference/v2/weapons/?rule=fixed").content.decode()
    assert 'data-weapon="hmg"' in html
    assert 'data-weapon="light-mortar"' not in html


def test_it_filters_weapons_by_minimum_pen(client, ref):
    html = client.get("/reference/v2/weapons/?min_pen=2").content.decode()
    assert 'data-weapon="boys-rifle"' in html
    assert 'data-weapon="hmg"' not in html


def test_it_keeps_the_filters_in_the_form(client, ref):
    html = client.get("/reference/v2/weapons/?q=mmg").content.decode()
    assert 'name="q" value="mmg"' in html


def test_it_ignores_an_invalid_filter_and_says_so(client, ref):
    html = client.get("/reference/v2/weapons/?min_pen=lots").content.decode()
    assert 'class="errorlist"' in html
    assert 'data-weapon="rifle"' in html


def test_it_shows_an_empty_state_with_a_reset_link(client, ref):
    html = client.get("/reference/v2/weapons/?q=zeppelin").content.decode()
    assert "No weapon matches" in html
    assert 'href="/reference/v2/weapons/">Reset the filters' in html


def test_it_wires_the_filter_form_for_htmx_and_plain_get(client, ref):
    html = client.get("/reference/v2/weapons/").content.decode()
    form = re.search(r"<form class=\"filters weapon-filters\"[^>]*>", html, re.S).group(0)
    assert 'method="get" action="/reference/v2/weapons/"' in form
    assert 'hx-get="/reference/v2/weapons/"' in form and 'hx-trigger="input changed delay:250ms, change' in form
    assert 'hx-target="#weapon-results"' in form and 'hx-push-url="true"' in form


def test_it_returns_only_the_results_fragment_to_htmx(client, ref):
    response = client.get("/reference/v2/weapons/?q=mmg", headers=HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="weapon-results"')
    assert "<html" not in html
    assert 'data-weapon="rifle"' not in html


def test_it_serves_the_whole_page_when_htmx_restores_history(client, ref):
    headers = {**HTMX, "HX-History-Restore-Request": "true"}
    html = client.get("/reference/v2/weapons/?q=mmg", headers=headers).content.decode()
    assert "<html" in html


def test_it_varies_the_weapons_page_on_htmx(client, ref):
    response = client.get("/reference/v2/weapons/")
    assert "HX-Request" in response["Vary"]


def test_it_shows_weapon_sources_and_badges(client, ref):
    boys = row_html(client.get("/reference/v2/weapons/").content.decode(), "boys-rifle")
    assert "Sources disagree" in boys
    assert "<details" in boys and "seed 002" in boys


def test_it_404s_weapons_for_an_unknown_edition(client, ref):
    assert client.get("/reference/v9/weapons/").status_code == 404


def test_it_renders_the_weapons_chart_in_constant_queries(client, django_assert_num_queries):
    edition = make_edition(slug="v2", number=2)
    for n in range(3):
        make_weapon(edition, name=f"Gun {n}")
    # 0 the rules data's version, 1 edition, 2 its special rules (filter choices and glossary),
    # 3 weapons, 4 their special rules, 5 whether imports brought weapons, 6 editions for the switcher.
    with django_assert_num_queries(7):
        assert client.get("/reference/v2/weapons/").status_code == 200
    for n in range(3, 30):
        make_weapon(edition, name=f"Gun {n}")
    with django_assert_num_queries(7):
        html = client.get("/reference/v2/weapons/").content.decode()
    assert html.count("data-weapon=") == 30


# Compare


def test_it_marks_the_mmg_shots_change(client, ref):
    html = client.get("/reference/compare/weapons/?a=v2&b=v3").content.decode()
    mmg = row_html(html, "mmg")
    shots = (
        '<td class="cell-shots diff" data-label="Shots">'
        '<del class="diff-old">5</del> →&nbsp;<ins class="diff-new">6</ins></td>'
    )
    assert shots in mmg


def test_it_marks_the_hmg_range_and_shots_changes(client, ref):
    hmg = row_html(client.get("/reference/compare/weapons/?a=v2&b=v3").content.decode(), "hmg")
    assert '<del class="diff-old">36&quot;</del> →&nbsp;<ins class="diff-new">48&quot;</ins>' in hmg
    assert '<del class="diff-old">3</del> →&nbsp;<ins class="diff-new">6</ins>' in hmg


def test_it_leaves_unchanged_weapons_unmarked(client, ref):
    rifle = row_html(client.get("/reference/compare/weapons/?a=v2&b=v3").content.decode(), "rifle")
    assert 'data-change="same"' in rifle
    assert "diff-old" not in rifle


def test_it_marks_weapons_added_and_removed(client, ref):
    html = client.get("/reference/compare/weapons/?a=v2&b=v3").content.decode()
    assert 'data-change="added"' in row_html(html, "assault-rifle")
    assert 'data-change="removed"' in row_html(html, "boys-rifle")


def test_it_aligns_table_rows_by_their_first_column(client, ref):
    html = client.get("/reference/compare/orders/?a=v2&b=v3").content.decode()
    run = row_html(html, "run")
    assert '<del class="diff-old">Move at double rate, no shooting</del>' in run
    assert 'data-change="added"' in row_html(html, "rally")


def test_it_compares_a_single_table_by_its_slug(client, ref):
    html = client.get("/reference/compare/vehicle-damage/?a=v2&b=v3").content.decode()
    assert 'data-change="added"' in re.search(r"<section[^>]*compare-table[^>]*>", html).group(0)


def test_it_can_hide_unchanged_rows(client, ref):
    html = client.get("/reference/compare/weapons/?a=v2&b=v3&changes=1").content.decode()
    assert 'data-key="rifle"' not in html
    assert 'data-key="mmg"' in html


def test_it_returns_only_the_compare_fragment_to_htmx(client, ref):
    html = client.get("/reference/compare/weapons/?a=v2&b=v3", headers=HTMX).content.decode()
    assert html.lstrip().startswith('<div id="compare-results"')
    assert "<html" not in html


def test_it_compares_the_two_latest_editions_by_default(client, ref):
    html = client.get("/reference/compare/weapons/").content.decode()
    assert 'data-key="assault-rifle" data-change="added"' in html


def test_it_404s_compare_for_an_unknown_edition(client, ref):
    assert client.get("/reference/compare/weapons/?a=v2&b=v9").status_code == 404


def test_it_404s_compare_for_an_unknown_table(client, ref):
    assert client.get("/reference/compare/no-such-table/?a=v2&b=v3").status_code == 404


# Admin


@pytest.fixture
def admin_client_(client, django_user_model):
    user = django_user_model.objects.create_superuser("alice", "alice@example.org", "pw")
    client.force_login(user)
    return client


def test_it_edits_a_table_with_its_rows_inline_in_the_admin(admin_client_, ref):
    table = ref["orders"]["v2"]
    html = admin_client_.get(f"/admin/reference/rulestable/{table.pk}/change/").content.decode()
    assert 'name="rows-0-cells"' in html


def test_it_filters_weapons_by_edition_and_category_in_the_admin(admin_client_, ref):
    response = admin_client_.get(f"/admin/reference/weapon/?edition__id__exact={ref['v2'].pk}&category__exact=heavy")
    html = response.content.decode()
    assert "Boys anti-tank rifle" in html
    assert ">Rifle</a>" not in html


def test_it_edits_weapon_special_rules_with_a_filter_widget(admin_client_, ref):
    weapon = ref["weapons"]["v2"]["mmg"]
    html = admin_client_.get(f"/admin/reference/weapon/{weapon.pk}/change/").content.decode()
    assert 'class="selectfilter"' in html


def test_it_searches_special_rules_in_the_admin(admin_client_, ref):
    html = admin_client_.get("/admin/reference/specialrule/?q=fixed").content.decode()
    assert ">Fixed</a>" in html
    assert ">Team</a>" not in html
