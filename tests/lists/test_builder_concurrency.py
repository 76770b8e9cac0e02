"""No lost update: changes made from two tabs loaded at the same time are both kept."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.lists.factories import make_builder_list, make_user

HX = {"HX-Request": "true"}


@pytest.fixture
def two_tabs(db):
    alice = make_user("alice")
    army_list = make_builder_list(alice, entries=2)
    tabs = []
    for _ in range(2):
        tab = Client()
        tab.force_login(alice)
        # Each tab loads the page first: what follows is posted from that (soon stale) page.
        assert tab.get(f"/lists/{army_list.pk}/").status_code == 200
        tabs.append(tab)
    return army_list, tabs


@pytest.mark.django_db
def test_it_keeps_changes_to_different_fields_from_two_stale_tabs(two_tabs):
    army_list, (tab_a, tab_b) = two_tabs
    entry = army_list.entries.first()
    url = f"/lists/{army_list.pk}/entries/{entry.pk}/"
    tab_a.post(f"{url}quality/", {"quality": "veteran"}, headers=HX)
    tab_b.post(f"{url}models/", {"models": "8"}, headers=HX)
    tab_a.post(f"{url}rename/", {"name": "Able Section"})
    tab_b.post(f"{url}options/", {"opt-lmg": "1", "opt-smg": "3"})
    entry.refresh_from_db()
    assert (entry.quality, entry.models_count, entry.name) == ("veteran", 8, "Able Section")
    assert entry.options == {"lmg": 1, "smg": 3}


@pytest.mark.django_db
def test_it_counts_a_step_from_each_stale_tab(two_tabs):
    army_list, (tab_a, tab_b) = two_tabs
    entry = army_list.entries.first()
    tab_a.post(f"/lists/{army_list.pk}/entries/{entry.pk}/models/", {"step": "1", "models": "5"}, headers=HX)
    tab_b.post(f"/lists/{army_list.pk}/entries/{entry.pk}/models/", {"step": "1", "models": "5"}, headers=HX)
    entry.refresh_from_db()
    assert entry.models_count == 7


@pytest.mark.django_db
def test_it_keeps_another_entrys_change_when_an_entry_is_added(two_tabs):
    army_list, (tab_a, tab_b) = two_tabs
    first, second = army_list.entries.all()
    tab_a.post(f"/lists/{army_list.pk}/entries/{first.pk}/quality/", {"quality": "inexperienced"})
    tab_b.post(f"/lists/{army_list.pk}/entries/add/", {"unit": first.unit_id})
    tab_b.post(f"/lists/{army_list.pk}/entries/{second.pk}/quality/", {"quality": "veteran"})
    assert list(army_list.entries.values_list("quality", flat=True)) == ["inexperienced", "veteran", "regular"]


@pytest.mark.django_db
def test_it_shows_the_removal_from_the_other_tab_instead_of_failing(two_tabs):
    army_list, (tab_a, tab_b) = two_tabs
    entry = army_list.entries.first()
    tab_a.post(f"/lists/{army_list.pk}/entries/{entry.pk}/remove/", headers=HX)
    response = tab_b.post(f"/lists/{army_list.pk}/entries/{entry.pk}/quality/", {"quality": "veteran"}, headers=HX)
    assert response.status_code == 404
    assert army_list.entries.count() == 1
