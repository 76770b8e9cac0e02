"""The builder page and every htmx action run the same number of queries for 10 or 50 entries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.lists.factories import make_builder_list, make_platoon, make_unit, make_user

HX = {"HX-Request": "true"}


def _logged_in(client, size: int):
    alice = make_user()
    # Over its points limit and its platoon's six sections at either size, so a change sends the
    # problems panel again for 10 entries exactly when it does for 50 (drawing the panel asks whether
    # the list is submitted to an event: one query, the same at any size).
    army_list = make_builder_list(alice, entries=size, points_limit=100)
    make_unit(army_list.army, name="Cromwell", unit_type="vehicle_armoured", slot="tank", base_models=1, max_models=1)
    client.force_login(alice)
    return army_list


@pytest.mark.django_db
@pytest.mark.parametrize("size", [10, 50])
def test_it_builds_the_page_in_a_constant_number_of_queries(client, django_assert_num_queries, size):
    army_list = _logged_in(client, size)
    # 1 session, 2 user, and for its ETag (armybuilder.http.conditional) 3 the list's revision,
    # 4 the rules data's version; then 5 the list with its edition and army (``for_builder()``),
    # 6 the army's national rules, 7 platoons, 8 entries, 9 their distinct units, 10 the units'
    # options, 11 the catalogue's units, 12 whether the list is submitted to an event (the problems
    # panel's "legal for <event>"). Nothing is kept between requests: reopened, it costs the same.
    for _ in range(2):
        with django_assert_num_queries(12):
            response = client.get(f"/lists/{army_list.pk}/")
        assert response.status_code == 200


def _action(army_list, name: str) -> tuple[str, str, dict]:
    base = f"/lists/{army_list.pk}/"
    entry = army_list.entries.order_by("position", "pk")[1]
    url = f"{base}entries/{entry.pk}/"
    platoon = army_list.platoons.first()
    return {
        "page": ("get", base, {}),
        "catalogue": ("get", f"{base}catalogue/", {"q": "rifle"}),
        "entry-add": ("post", f"{base}entries/add/", {"unit": entry.unit_id, "platoon": platoon.pk}),
        "entry-quality": ("post", f"{url}quality/", {"quality": "veteran"}),
        "entry-models-step": ("post", f"{url}models/", {"step": "1"}),
        "entry-models-set": ("post", f"{url}models/", {"models": "7"}),
        "entry-models-refused": ("post", f"{url}models/", {"models": "70"}),
        "entry-options": ("post", f"{url}options/", {"opt-lmg": "1", "opt-smg": "2"}),
        "entry-rename": ("post", f"{url}rename/", {"name": "Baker"}),
        "entry-platoon": ("post", f"{url}platoon/", {"platoon": ""}),
        "entry-move": ("post", f"{url}move/", {"direction": "up"}),
        "entry-duplicate": ("post", f"{url}duplicate/", {}),
        "entry-remove": ("post", f"{url}remove/", {}),
        "entry-editor": ("get", url, {}),
        "entry-row": ("get", f"{url}row/", {}),
        "editors": ("get", f"{base}editors/", {}),  # every unit's editor, in the background
        "platoon-add": ("post", f"{base}platoons/add/", {"kind": "reinforced_platoon"}),
        "platoon-rename": ("post", f"{base}platoons/{platoon.pk}/rename/", {"name": "Able"}),
        "platoon-remove": ("post", f"{base}platoons/{platoon.pk}/remove/", {}),
    }[name]


ACTIONS = [
    "page",
    "catalogue",
    "entry-add",
    "entry-quality",
    "entry-models-step",
    "entry-models-set",
    "entry-models-refused",
    "entry-options",
    "entry-rename",
    "entry-platoon",
    "entry-move",
    "entry-duplicate",
    "entry-remove",
    "entry-editor",
    "entry-row",
    "editors",
    "entry-restore",
    "platoon-add",
    "platoon-rename",
    "platoon-remove",
]


def _restore(client, army_list) -> tuple[str, str, dict]:
    """The "Undo" of a unit just removed: its signed token, from the removal's answer."""
    entry = army_list.entries.order_by("position", "pk")[1]
    answer = client.post(f"/lists/{army_list.pk}/entries/{entry.pk}/remove/", headers=HX).content.decode()
    token = answer.split('name="token" value="')[1].split('"')[0]
    return "post", f"/lists/{army_list.pk}/entries/{entry.pk}/restore/", {"token": token}


def _request(client, army_list, name: str) -> tuple[str, str, dict]:
    return _restore(client, army_list) if name == "entry-restore" else _action(army_list, name)


def _count(client, size: int, name: str) -> int:
    army_list = _logged_in(client, size)
    make_platoon(army_list, kind="reinforced_platoon")
    # Positions tie in half the list, so a move may have to renumber many rows: still one query.
    army_list.entries.filter(position__gte=size // 2).update(position=size)
    method, url, data = _request(client, army_list, name)
    with CaptureQueriesContext(connection) as queries:
        response = getattr(client, method)(url, data, headers=HX)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ACTIONS)
def test_it_runs_each_htmx_request_in_the_same_number_of_queries_for_10_and_50_entries(
    client, django_assert_num_queries, name
):
    small = _count(client, 10, name)
    army_list = _logged_in(client, 50)
    make_platoon(army_list, kind="reinforced_platoon")
    army_list.entries.filter(position__gte=25).update(position=50)
    method, url, data = _request(client, army_list, name)
    with django_assert_num_queries(small):
        getattr(client, method)(url, data, headers=HX)
