"""No lost update: changes made from two tabs loaded at the same time are both kept."""

from __future__ import annotations

import pytest
from django.test import Client

from armybuilder.lists import services
from armybuilder.lists.models import Entry
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
    # A 200 htmx swaps: nothing in place of the clicked control, but the row out of band.
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    html = response.content.decode()
    assert f'<li id="entry-{entry.pk}" class="unit-row entry-gone" role="status" hx-swap-oob="true">' in html
    assert "it was removed in another tab or window" in html
    # The summary is the list as it now is: one squad, 50 points and its 20-point LMG.
    assert '<strong id="summary-points">70</strong>' in html
    assert 'id="summary-bar" class="summary-bar" hx-swap-oob="true"' in html
    assert army_list.entries.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("models", {"step": "1"}),
        ("options", {"opt-lmg": "1"}),
        ("rename", {"name": "Able"}),
        ("platoon", {"platoon": ""}),
        ("move", {"direction": "up"}),
        ("duplicate", {}),
        ("remove", {}),
    ],
)
def test_it_removes_the_row_of_a_removed_entry_whatever_the_action(two_tabs, action, data):
    army_list, (tab_a, tab_b) = two_tabs
    entry = army_list.entries.first()
    tab_a.post(f"/lists/{army_list.pk}/entries/{entry.pk}/remove/", headers=HX)
    response = tab_b.post(f"/lists/{army_list.pk}/entries/{entry.pk}/{action}/", data, headers=HX)
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    assert f'id="entry-{entry.pk}" class="unit-row entry-gone"'.encode() in response.content
    assert army_list.entries.count() == 1


@pytest.mark.django_db
def test_it_keeps_the_404_for_a_removed_entry_without_javascript(two_tabs):
    army_list, (tab_a, tab_b) = two_tabs
    entry = army_list.entries.first()
    tab_a.post(f"/lists/{army_list.pk}/entries/{entry.pk}/remove/")
    response = tab_b.post(f"/lists/{army_list.pk}/entries/{entry.pk}/quality/", {"quality": "veteran"})
    assert response.status_code == 404


@pytest.mark.django_db
def test_it_removes_the_row_when_the_entry_goes_between_load_and_write(two_tabs, monkeypatch):
    # The entry is still loaded, but gone by the time the change is written.
    army_list, (_tab_a, tab_b) = two_tabs
    entry = army_list.entries.first()
    real_update = services.entry_update

    def removed_first(*, entry, **fields):
        Entry.objects.filter(pk=entry.pk).delete()
        return real_update(entry=entry, **fields)

    monkeypatch.setattr(services, "entry_update", removed_first)
    response = tab_b.post(f"/lists/{army_list.pk}/entries/{entry.pk}/quality/", {"quality": "veteran"}, headers=HX)
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    html = response.content.decode()
    assert f'id="entry-{entry.pk}" class="unit-row entry-gone"' in html
    assert '<strong id="summary-points">70</strong>' in html
