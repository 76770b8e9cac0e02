"""Each builder action answers only what changed, small enough for a phone on weak Wi-Fi."""

from __future__ import annotations

import gzip
import re

import pytest

from armybuilder.lists.models import ArmyList, Entry
from armybuilder.lists.summary import list_summary
from tests.lists.factories import make_builder_list, make_user

HX = {"HX-Request": "true"}
GZIP = {"Accept-Encoding": "gzip, deflate, br"}
BUDGET = 12 * 1024  # bytes on the wire per action at 50 units


@pytest.fixture
def fifty(client, db):
    alice = make_user("alice")
    army_list = make_builder_list(alice, entries=50)
    client.force_login(alice)
    return army_list


def _rows(army_list) -> list[Entry]:
    return list(army_list.entries.order_by("position", "pk"))


def _token(html: str) -> str:
    return html.split('name="token" value="')[1].split('"')[0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("", None),  # open the editor
        ("row/", None),  # close it
        ("quality/", {"quality": "veteran"}),
        ("models/", {"step": "1"}),
        ("options/", {"opt-smg": "2"}),
        ("rename/", {"name": "Able"}),
        ("platoon/", {"platoon": ""}),
        ("move/", {"direction": "up"}),
        ("duplicate/", {}),
        ("remove/", {}),
    ],
)
def test_each_action_answers_a_few_kilobytes_never_the_roster(client, fifty, action, data):
    entry = _rows(fifty)[20]
    url = f"/lists/{fifty.pk}/entries/{entry.pk}/{action}"
    send = client.get if data is None else client.post
    response = send(url, data or {}, headers=HX | GZIP)
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    html = gzip.decompress(response.content).decode()
    assert len(response.content) <= BUDGET
    assert 'id="roster"' not in html
    # At most the unit's row or editor (its closed row inside) and one neighbour (a move), never
    # the other 48 units.
    assert len(set(re.findall(r'<li id="entry-(\d+)" class="unit-row', html))) <= 2


@pytest.mark.django_db
def test_adding_answers_the_new_row_and_totals_only(client, fifty):
    unit = _rows(fifty)[1].unit
    response = client.post(f"/lists/{fifty.pk}/entries/add/", {"unit": unit.pk, "platoon": ""}, headers=HX | GZIP)
    assert len(response.content) <= BUDGET
    assert len(re.findall(r'class="unit-row[ "]', gzip.decompress(response.content).decode())) == 1


@pytest.mark.django_db
def test_the_50_unit_page_is_small(client, fifty):
    response = client.get(f"/lists/{fifty.pk}/")
    # Collapsed rows, no editor: at most 60 KB of HTML before compression.
    assert len(response.content) <= 60 * 1024
    assert len(re.findall(rb'class="unit-row[ "]', response.content)) == 50
    assert b"unit-editor" not in response.content


@pytest.mark.django_db
def test_it_puts_the_copy_right_under_the_original(client, fifty):
    original = _rows(fifty)[10]
    html = client.post(f"/lists/{fifty.pk}/entries/{original.pk}/duplicate/", headers=HX).content.decode()
    rows = _rows(fifty)
    copy = rows[11]
    assert copy.pk not in {e.pk for e in _rows(fifty)[:11]} and copy.unit_id == original.unit_id
    # The answer replaces the original's editor with its row, then the copy's, in that order.
    first, second = re.findall(r'<li id="entry-(\d+)" class="unit-row', html)
    assert (int(first), int(second)) == (original.pk, copy.pk)
    assert f'<li id="entry-{copy.pk}" class="unit-row is-new">' in html


@pytest.mark.django_db
def test_removing_leaves_an_undo_bar_that_puts_the_unit_back_in_its_place(client, fifty):
    rows = _rows(fifty)
    gone = rows[5]
    gone.quality, gone.name, gone.options = "veteran", "Baker", {"lmg": 1, "smg": 3}
    gone.save()
    html = client.post(f"/lists/{fifty.pk}/entries/{gone.pk}/remove/", headers=HX).content.decode()
    assert not Entry.objects.filter(pk=gone.pk).exists()
    assert f'<li id="entry-{gone.pk}" class="unit-row undo-bar" role="status">' in html
    assert "Removed Baker." in html
    assert re.search(r'id="summary-bar" class="summary-bar[^"]*" hx-swap-oob="true"', html)
    # Another unit added meanwhile does not take its place.
    client.post(f"/lists/{fifty.pk}/entries/add/", {"unit": gone.unit_id, "platoon": ""}, headers=HX)

    url = f"/lists/{fifty.pk}/entries/{gone.pk}/restore/"
    back = client.post(url, {"token": _token(html)}, headers=HX).content.decode()
    assert back.lstrip().startswith(f'<li id="entry-{gone.pk}" class="unit-row is-new">')
    restored = Entry.objects.get(pk=gone.pk)
    assert (restored.quality, restored.name, restored.options) == ("veteran", "Baker", {"lmg": 1, "smg": 3})
    assert [e.pk for e in _rows(fifty)][:7] == [e.pk for e in rows[:7]]
    # A second click changes nothing.
    client.post(url, {"token": _token(html)}, headers=HX)
    assert fifty.entries.count() == 51  # 50, one removed, one added, the removed one back


@pytest.mark.django_db
def test_it_refuses_an_undo_token_forged_or_for_another_list(client, fifty):
    entry = _rows(fifty)[3]
    html = client.post(f"/lists/{fifty.pk}/entries/{entry.pk}/remove/", headers=HX).content.decode()
    token = _token(html)
    other = make_builder_list(fifty.owner, entries=1)
    assert client.post(f"/lists/{other.pk}/entries/{entry.pk}/restore/", {"token": token}).status_code == 400
    assert client.post(f"/lists/{fifty.pk}/entries/{entry.pk}/restore/", {"token": token + "x"}).status_code == 400
    assert client.post(f"/lists/{fifty.pk}/entries/{entry.pk + 1}/restore/", {"token": token}).status_code == 400
    assert not Entry.objects.filter(pk=entry.pk).exists()


@pytest.mark.django_db
def test_it_offers_undo_without_javascript(client, fifty):
    entry = _rows(fifty)[3]
    response = client.post(f"/lists/{fifty.pk}/entries/{entry.pk}/remove/", follow=True)
    assert response.redirect_chain[0][0].startswith(f"/lists/{fifty.pk}/?undo=")
    html = response.content.decode()
    assert f'id="entry-{entry.pk}-undo"' in html
    client.post(f"/lists/{fifty.pk}/entries/{entry.pk}/restore/", {"token": _token(html)})
    assert Entry.objects.filter(pk=entry.pk).exists()


@pytest.mark.django_db
def test_moving_swaps_the_unit_with_its_neighbour_only(client, fifty):
    rows = _rows(fifty)
    entry, above = rows[8], rows[7]
    response = client.post(f"/lists/{fifty.pk}/entries/{entry.pk}/move/", {"direction": "up"}, headers=HX)
    html = response.content.decode()
    assert [e.pk for e in _rows(fifty)][7:9] == [entry.pk, above.pk]
    # The moved unit's editor, still open, is morphed where it is; the neighbour is deleted out of
    # band, then its row inserted after the editor.
    assert response["HX-Retarget"] == f"#entry-{entry.pk}" and response["HX-Reswap"] == "morph"
    assert html.lstrip().startswith(f'<li id="entry-{entry.pk}" class="unit-row is-open"')
    assert html.count('class="unit-editor"') == 1
    tail = html.split(f'<li id="entry-{above.pk}" hx-swap-oob="delete"></li>', 1)[1]
    assert re.match(
        rf'\s*<ul hx-swap-oob="afterend:#entry-{entry.pk}">\s*<li id="entry-{above.pk}" class="unit-row">', tail
    )


@pytest.mark.django_db
@pytest.mark.parametrize(("action", "anchor"), [("", "?edit={pk}#entry-{pk}"), ("row/", "#entry-{pk}")])
def test_opening_and_closing_work_without_javascript(client, fifty, action, anchor):
    entry = _rows(fifty)[0]
    response = client.get(f"/lists/{fifty.pk}/entries/{entry.pk}/{action}")
    assert response["Location"] == f"/lists/{fifty.pk}/" + anchor.format(pk=entry.pk)
    page = client.get(f"/lists/{fifty.pk}/?edit={entry.pk}").content.decode()
    assert page.count("unit-editor") == 1
    assert f'<li id="entry-{entry.pk}" class="unit-row is-open"' in page


@pytest.mark.django_db
def test_the_builder_offers_sharing_without_leaving_it(client, fifty):
    html = client.get(f"/lists/{fifty.pk}/").content.decode()
    assert f'value="http://testserver/s/{fifty.share_token}/" readonly' in html
    for link in ("export.txt", "export.json", "print/"):
        assert f'href="/lists/{fifty.pk}/{link}"' in html


@pytest.mark.django_db
def test_a_change_sends_only_the_panels_it_changed(client, fifty):
    fifty.points_limit = 10_000  # under the limit: no problem names the total
    fifty.save()
    entry = _rows(fifty)[20]
    url = f"/lists/{fifty.pk}/entries/{entry.pk}/"
    # More models: the total and the platoon's total change; no problem or officer does.
    html = client.post(f"{url}models/", {"step": "1"}, headers=HX).content.decode()
    assert 'id="summary-bar"' in html
    assert f'id="platoon-{entry.platoon_id}-head"' in html
    assert 'id="problems"' not in html and 'id="officers"' not in html
    # A new name changes no total, but the platoon's problem names its units: header and panel.
    html = client.post(f"{url}rename/", {"name": "Able"}, headers=HX).content.decode()
    head = html.split(f'id="platoon-{entry.platoon_id}-head"')[1].split("</header>")[0]
    assert "Able" in head and 'id="problems"' in html
    # The same name again changes nothing else: the row and the points bar only.
    html = client.post(f"{url}rename/", {"name": "Able"}, headers=HX).content.decode()
    assert f'id="platoon-{entry.platoon_id}-head"' not in html and 'id="problems"' not in html
    # Removing a squad changes the platoon's problems (it has too many squads either way, but
    # not the same count), so the problems panel comes too.
    html = client.post(f"{url}remove/", headers=HX).content.decode()
    assert 'id="problems"' in html and f'id="platoon-{entry.platoon_id}-head"' in html


# Changes made in the editor: it stays open, the answer morphed into it.
CHANGES = [
    ("quality/", {"quality": "veteran"}),
    ("models/", {"step": "1"}),
    ("models/", {"models": "7"}),
    ("options/", {"opt-smg": "2"}),
    ("rename/", {"name": "Able"}),
]
# Moves: the unit's editor, still open, goes to its new place.
MOVES = [
    ("platoon/", {"platoon": ""}),
    ("move/", {"direction": "up"}),
]


def _points_match(html: str, entry, pattern: str) -> None:
    points = re.search(pattern, html)
    summary = list_summary(ArmyList.objects.for_builder(details=False).get(pk=entry.army_list_id))
    assert points and int(points[1]) == summary.entry_points[str(entry.pk)]


@pytest.mark.django_db
@pytest.mark.parametrize(("action", "data"), CHANGES)
def test_every_change_answers_the_editor_still_open(client, fifty, action, data):
    entry = _rows(fifty)[20]
    url = f"/lists/{fifty.pk}/entries/{entry.pk}/{action}"
    response = client.post(url, data, headers=HX | GZIP)
    assert response.status_code == 200
    assert len(response.content) <= BUDGET
    assert response["HX-Retarget"] == f"#entry-{entry.pk}" and response["HX-Reswap"] == "morph"
    html = gzip.decompress(response.content).decode()
    # The unit's editor, open, with its closed row as a template ("Done" closes it locally),
    # never the roster.
    assert html.lstrip().startswith(f'<li id="entry-{entry.pk}" class="unit-row is-open"')
    assert 'hx-ext="morph"' in html and '<template class="closed-row">' in html
    assert html.count('class="unit-editor"') == 1 and 'id="roster"' not in html
    _points_match(html, entry, rf'<span class="unit-points" id="entry-{entry.pk}-points">(\d+) pts</span>')
    # The closed row in the template carries the new figures too.
    _points_match(html, entry, rf'<span class="unit-points" id="entry-{entry.pk}-points">(\d+)</span>')
    assert re.search(r'id="summary-bar" class="summary-bar[^"]*" hx-swap-oob="true"', html)


@pytest.mark.django_db
@pytest.mark.parametrize(("action", "data"), MOVES)
def test_a_move_answers_the_units_editor_still_open(client, fifty, action, data):
    entry = _rows(fifty)[20]
    response = client.post(f"/lists/{fifty.pk}/entries/{entry.pk}/{action}", data, headers=HX | GZIP)
    assert response.status_code == 200
    assert len(response.content) <= BUDGET
    html = gzip.decompress(response.content).decode()
    assert f'<li id="entry-{entry.pk}" class="unit-row is-open"' in html
    assert html.count('class="unit-editor"') == 1 and 'id="roster"' not in html
    assert '<template class="closed-row">' in html  # "Done" still closes it locally
    _points_match(html, entry, rf'<span class="unit-points" id="entry-{entry.pk}-points">(\d+) pts</span>')


@pytest.mark.django_db
@pytest.mark.parametrize(("action", "data"), CHANGES)
def test_every_change_without_javascript_reloads_the_page_with_the_editor_open(client, fifty, action, data):
    entry = _rows(fifty)[20]
    response = client.post(f"/lists/{fifty.pk}/entries/{entry.pk}/{action}", data)
    assert response["Location"] == f"/lists/{fifty.pk}/?edit={entry.pk}#entry-{entry.pk}"
    page = client.get(response["Location"]).content.decode()
    assert page.count('class="unit-editor"') == 1
    assert f'<li id="entry-{entry.pk}" class="unit-row is-open"' in page


@pytest.mark.django_db
@pytest.mark.parametrize(("action", "data"), MOVES)
def test_a_move_without_javascript_reloads_the_page_with_the_editor_open(client, fifty, action, data):
    entry = _rows(fifty)[20]
    response = client.post(f"/lists/{fifty.pk}/entries/{entry.pk}/{action}", data)
    assert response["Location"] == f"/lists/{fifty.pk}/?edit={entry.pk}#entry-{entry.pk}"
    page = client.get(response["Location"]).content.decode()
    assert page.count('class="unit-editor"') == 1
    assert f'<li id="entry-{entry.pk}" class="unit-row is-open"' in page


@pytest.mark.django_db
def test_a_refused_change_keeps_the_editor_open_with_the_reason(client, fifty):
    entry = _rows(fifty)[20]
    url = f"/lists/{fifty.pk}/entries/{entry.pk}/models/"
    response = client.post(url, {"models": "70"}, headers=HX | GZIP)
    assert len(response.content) <= BUDGET
    html = gzip.decompress(response.content).decode()
    assert response["HX-Retarget"] == f"#entry-{entry.pk}" and response["HX-Reswap"] == "morph"
    assert html.lstrip().startswith(f'<li id="entry-{entry.pk}" class="unit-row is-open"')
    assert f'id="entry-{entry.pk}-models-errors"' in html and "hx-swap-oob" not in html
    # Without JavaScript: the page, its editor open, the reason next to the field.
    page = client.post(url, {"models": "70"})
    assert page.status_code == 400
    assert f'<li id="entry-{entry.pk}" class="unit-row is-open"' in page.content.decode()
    assert f'id="entry-{entry.pk}-models-errors"' in page.content.decode()


EDITORS_BUDGET = 16 * 1024  # gzipped, the background fetch of a 50-unit list's editors (about 13 KB)


@pytest.mark.django_db
def test_every_units_editor_comes_in_one_small_background_answer(client, fifty):
    response = client.get(f"/lists/{fifty.pk}/editors/", headers=HX | GZIP)
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert len(response.content) <= EDITORS_BUDGET
    html = gzip.decompress(response.content).decode()
    # Each unit's editor, open, with its closed row inside: nothing else (no roster, no summary).
    keys = re.findall(r'<li id="entry-(\d+)" class="unit-row is-open"', html)
    assert keys == [str(e.pk) for e in _rows(fifty)]
    assert html.count('<template class="closed-row">') == 50
    assert 'id="roster"' not in html and "summary-bar" not in html
    # One render: one CSRF token for all the forms, so it compresses.
    assert len(set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))) == 1
    # The list's revision comes with it: a reload revalidates it without sending it again.
    again = client.get(f"/lists/{fifty.pk}/editors/", headers=HX | GZIP | {"If-None-Match": response["ETag"]})
    assert again.status_code == 304


@pytest.mark.django_db
def test_the_editors_answer_follows_the_list(client, fifty):
    first = client.get(f"/lists/{fifty.pk}/editors/", headers=HX)
    entry = _rows(fifty)[3]
    client.post(f"/lists/{fifty.pk}/entries/{entry.pk}/models/", {"step": "1"}, headers=HX)
    second = client.get(f"/lists/{fifty.pk}/editors/", headers=HX | {"If-None-Match": first["ETag"]})
    assert second.status_code == 200
    assert second["ETag"] != first["ETag"]
    assert f'id="entry-{entry.pk}-models" name="models" value="{entry.models_count + 1}"' in second.content.decode()


@pytest.mark.django_db
def test_the_editors_answer_is_the_owners_only(client, fifty):
    client.force_login(make_user("mallory"))
    assert client.get(f"/lists/{fifty.pk}/editors/", headers=HX).status_code == 404
    client.logout()
    assert client.get(f"/lists/{fifty.pk}/editors/", headers=HX).status_code in (302, 404)


@pytest.mark.django_db
def test_the_editors_answer_without_javascript_is_the_page(client, fifty):
    response = client.get(f"/lists/{fifty.pk}/editors/")
    assert response.status_code == 302
    assert response["Location"] == f"/lists/{fifty.pk}/#roster"


@pytest.mark.django_db
def test_each_editor_carries_its_units_price_table(client):
    """The figures builder.js prices a change with: men, costs by quality, each option's."""
    from tests.lists.factories import make_army, make_deep_catalogue, make_edition, make_entry, make_list

    alice = make_user("alice")
    client.force_login(alice)
    army = make_army(edition=make_edition("v3"))
    units = make_deep_catalogue(army)
    army_list = make_list(alice, army, force_org="none")
    guards = make_entry(army_list, units["guards"], models_count=8)
    gun = make_entry(army_list, units["gun"], position=1)
    html = client.get(f"/lists/{army_list.pk}/editors/", headers=HX).content.decode()
    tables = dict(re.findall(r'<li id="entry-(\d+)" class="unit-row is-open"[^>]* data-price="([^"]*)"', html))
    # Guards: 5 to 10 men, not offered Inexperienced (empty), 10/13 a man; the LMG team adds 2
    # men, the grenades are bought for the whole squad ("a").
    assert tables[str(guards.pk)] == (
        "5,10|,50,65|,10,13|smg:,4,4::;lmg-team:,20,26::2;grenades:,2,2:a:;scope:,5,5::;"
        "bayonets:,3,3::;flag:,7,7::;panzerfaust:,5,5::;rifle-grenade:,5,5::"
    )
    # The gun: its "free unit" option flagged ("f"), for the server alone to price.
    assert tables[str(gun.pk)] == "4,4|60,75,90|7,10,13|free-unit:0,0,0:f:;spotter:10,10,10::"
