"""How the builder loads and renders a list: each unit once, one summary, a compact row per unit."""

from __future__ import annotations

import re

import pytest

from armybuilder.lists import summary as summary_module
from armybuilder.lists.models import ArmyList, Entry
from armybuilder.lists.summary import list_spec
from tests.lists.factories import (
    make_builder_list,
    make_entry,
    make_officer,
    make_option,
    make_platoon,
    make_unit,
    make_user,
)

HX = {"HX-Request": "true"}


@pytest.fixture
def squads(db) -> ArmyList:
    """Five identical squads in one platoon (each with an LMG), an officer, a renamed squad outside it."""
    army_list = make_builder_list(make_user("alice"), entries=5)
    platoon = army_list.platoons.get()
    make_entry(army_list, make_officer(army_list.army), platoon=platoon, position=10)
    squad_unit = army_list.entries.first().unit
    make_entry(army_list, squad_unit, name="Baker <b>", quality="veteran", position=11, options={"smg": 2})
    return army_list


@pytest.mark.django_db
@pytest.mark.parametrize("details", [True, False], ids=["details", "builder"])
def test_it_loads_each_unit_once_for_the_whole_list(squads, django_assert_num_queries, details):
    army_list = ArmyList.objects.for_builder(details=details).get(pk=squads.pk)
    entries = list(army_list.entries.all())
    squad_entries = [entry for entry in entries if entry.unit.name == "Rifle Squad"]
    assert len(squad_entries) == 6
    assert len({id(entry.unit) for entry in squad_entries}) == 1
    with django_assert_num_queries(0):
        for entry in entries:
            assert [option.slug for option in entry.unit.options.all()] == (
                ["lmg", "smg"] if entry.unit.name == "Rifle Squad" else []
            )
            if details:
                list(entry.unit.weapons.all())
                list(entry.unit.special_rules.all())
                assert entry.platoon_id is None or entry.platoon.pk == entry.platoon_id


@pytest.mark.django_db
def test_it_orders_a_units_options_as_the_catalogue_does(db):
    army_list = make_builder_list(make_user(), entries=1)
    unit = army_list.entries.get().unit
    make_option(unit, slug="b-first", name="Aardvark", position=0)
    make_option(unit, slug="a-last", name="Aa", position=99)
    assert [option.slug for option in unit.options.all()][0] == "b-first"
    expected = [option.slug for option in unit.options.all()]
    for details in (True, False):
        loaded = ArmyList.objects.for_builder(details=details).get(pk=army_list.pk).entries.get().unit
        assert [option.slug for option in loaded.options.all()] == expected


@pytest.mark.django_db
def test_its_list_spec_is_the_lists_own(squads):
    make_platoon(squads, kind="rifle_platoon", name="Empty")
    army_list = ArmyList.objects.for_builder(details=False).get(pk=squads.pk)
    assert list_spec(army_list) == army_list.to_rules()


@pytest.mark.django_db
@pytest.mark.parametrize("size", [5, 50])
def test_it_summarises_the_list_a_fixed_number_of_times_per_request(client, monkeypatch, size):
    calls = []
    real = summary_module.summarise
    monkeypatch.setattr(summary_module, "summarise", lambda spec: calls.append(spec) or real(spec))
    alice = make_user()
    army_list = make_builder_list(alice, entries=size)
    entry = army_list.entries.first()
    client.force_login(alice)
    assert client.get(f"/lists/{army_list.pk}/").status_code == 200
    url = f"/lists/{army_list.pk}/entries/{entry.pk}/quality/"
    assert client.post(url, {"quality": "veteran"}, headers=HX).status_code == 200
    # The page once; a change twice, before and after its write, to send only the panels that
    # changed. Never once per unit.
    assert len(calls) == 3


@pytest.mark.django_db
def test_it_shows_one_compact_row_per_unit(client, squads):
    client.force_login(squads.owner)
    html = client.get(f"/lists/{squads.pk}/").content.decode()
    for entry in squads.entries.all():
        # A link to open the unit's editor: in place with htmx, the page with it open without.
        assert html.count(f'<li id="entry-{entry.pk}" class="unit-row') == 1
        assert f'href="/lists/{squads.pk}/?edit={entry.pk}#entry-{entry.pk}"' in html
        assert f'hx-get="/lists/{squads.pk}/entries/{entry.pk}/"' in html
    # Collapsed: no editor, its options as chips, the renamed squad's name escaped.
    assert "unit-editor" not in html
    assert html.count('<span class="chip">Light machine gun</span>') == 5
    assert '<span class="chip">2× Submachine gun</span>' in html
    assert '<span class="unit-name">Baker &lt;b&gt;' in html


def _editor(client, squads, entry) -> str:
    response = client.get(f"/lists/{squads.pk}/entries/{entry.pk}/", headers=HX)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_it_gives_each_editor_its_own_ids(client, squads):
    client.force_login(squads.owner)
    names = squads.entry_names()  # units sharing a name are numbered ("Rifle Squad #2")
    for entry in squads.entries.all():
        html = _editor(client, squads, entry)
        url = f"/lists/{squads.pk}/entries/{entry.pk}/"
        assert html.count(f'<li id="entry-{entry.pk}" class="unit-row is-open"') == 1
        assert f'action="{url}quality/" hx-post="{url}quality/"' in html
        assert f'formaction="{url}remove/" hx-post="{url}remove/"' in html
        assert f'href="/calc/shooting/?from_entry={entry.pk}"' in html
        if entry.unit.name == "Rifle Squad":
            assert f'id="entry-{entry.pk}-opt-smg" name="opt-smg"' in html
        if not entry.name:
            assert f'aria-label="One model more in {names[entry.pk]}"' in html
    baker = squads.entries.get(name__startswith="Baker")
    assert 'aria-label="One model more in Baker &lt;b&gt;"' in _editor(client, squads, baker)


@pytest.mark.django_db
def test_it_selects_each_editors_own_platoon(client, squads):
    second = make_platoon(squads, kind="reinforced_platoon", name="Second")
    in_platoon = squads.entries.filter(platoon__isnull=False).order_by("position", "pk")
    Entry.objects.filter(pk__in=[in_platoon[1].pk, in_platoon[2].pk]).update(platoon=second)
    client.force_login(squads.owner)
    for entry in squads.entries.all():
        html = _editor(client, squads, entry)
        select = html.split(f'<select id="entry-{entry.pk}-platoon"')[1].split("</select>")[0]
        assert re.findall(r'<option value="(\d*)" selected>', select) == [str(entry.platoon_id or "")]


@pytest.mark.django_db
def test_it_marks_the_first_and_last_of_a_platoon(client, squads):
    client.force_login(squads.owner)
    first, second, *_, last = Entry.objects.filter(army_list=squads, platoon__isnull=False).order_by("position", "pk")
    assert re.search(rf'id="entry-{first.pk}-up"[^>]* disabled', _editor(client, squads, first))
    assert not re.search(rf'id="entry-{first.pk}-down"[^>]* disabled', _editor(client, squads, first))
    assert not re.search(rf'id="entry-{second.pk}-(up|down)"[^>]* disabled', _editor(client, squads, second))
    assert re.search(rf'id="entry-{last.pk}-down"[^>]* disabled', _editor(client, squads, last))


@pytest.mark.django_db
def test_it_shows_a_refusal_in_that_units_editor_only(client, squads):
    client.force_login(squads.owner)
    entry = squads.entries.order_by("position", "pk")[1]
    response = client.post(f"/lists/{squads.pk}/entries/{entry.pk}/models/", {"models": "70"})
    html = response.content.decode()
    assert response.status_code == 400
    # Without JavaScript: the whole page, that unit's editor open with the reason.
    assert html.count("has-errors") == 1
    assert html.count("unit-editor") == 1
    assert f'<li id="entry-{entry.pk}" class="unit-row is-open"' in html
    assert f'<div class="editor-body has-errors" id="entry-{entry.pk}-body"' in html
    assert f'id="entry-{entry.pk}-models-errors"' in html
    assert html.count("This unit has 5 to 10 models.") == 1


@pytest.mark.django_db
def test_it_shows_catalogue_units_in_their_order(client, squads):
    army = squads.army
    make_unit(army, name="Zulu", position=0)
    make_unit(army, name="Alpha", position=5)
    client.force_login(squads.owner)
    catalogue = client.get(f"/lists/{squads.pk}/").content.decode().split('id="catalogue-results"')[1]
    names = re.findall(r"<strong>([^<]+)</strong>", catalogue)
    assert names.index("Zulu") < names.index("Alpha")
