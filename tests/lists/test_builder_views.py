"""The builder page and its actions, through the client: full pages, htmx fragments, no-JS PRG."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.test import Client

from armybuilder.catalogue.models import Unit
from armybuilder.lists.access import SESSION_KEY
from armybuilder.lists.models import ArmyList, Entry, Platoon
from armybuilder.lists.summary import list_summary
from tests.lists.factories import (
    make_army,
    make_deep_catalogue,
    make_edition,
    make_entry,
    make_list,
    make_officer,
    make_option,
    make_platoon,
    make_unit,
    make_user,
)

HX = {"HX-Request": "true"}


@dataclass
class World:
    alice: object
    bob: object
    army_list: ArmyList
    platoon: Platoon
    officer: Entry
    squad: Entry
    squad_unit: Unit
    tank_unit: Unit
    veteran_unit: Unit


@pytest.fixture
def world(db) -> World:
    alice, bob = make_user("alice"), make_user("bob")
    army = make_army(edition=make_edition("v2"), name="British")
    officer_unit = make_officer(army)
    squad_unit = make_unit(army, name="Rifle Section")
    make_option(squad_unit, slug="lmg", name="Bren gun", group="support", cost_regular=20, position=1)
    make_option(squad_unit, slug="piat", name="PIAT", group="support", cost_regular=30, position=2)
    make_option(squad_unit, slug="smg", name="Sten gun", per_model=True, position=3)
    make_option(squad_unit, slug="grenades", name="Anti-tank grenades", cost_regular=2, position=4)
    make_option(squad_unit, slug="rg", name="Rifle grenade", per_model=True, max_count=2, group="arms", position=5)
    make_option(squad_unit, slug="atr", name="AT rifle", per_model=True, max_count=1, group="arms", position=6)
    tank_unit = make_unit(army, name="Cromwell", unit_type="vehicle_armoured", slot="tank", base_models=1, max_models=1)
    veteran_unit = make_unit(
        army, name="Commandos", cost_inexperienced=None, cost_regular=None, per_model_inexperienced=None
    )
    army_list = make_list(alice, army, name="Desert Rats", points_limit=1000)
    platoon = make_platoon(army_list, kind="reinforced_platoon")
    officer = make_entry(army_list, officer_unit, platoon=platoon, position=0)
    squad = make_entry(army_list, squad_unit, platoon=platoon, position=1)
    return World(alice, bob, army_list, platoon, officer, squad, squad_unit, tank_unit, veteran_unit)


@pytest.fixture
def alice_client(client, world) -> Client:
    client.force_login(world.alice)
    return client


# --- The page -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_shows_the_builder_page(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/")
    assert response.status_code == 200
    assert b"<html" in response.content
    assert f'id="entry-{world.squad.pk}"'.encode() in response.content


@pytest.mark.django_db
def test_it_lists_the_armys_units_in_the_catalogue(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/")
    assert f'id="add-unit-{world.tank_unit.pk}"'.encode() in response.content
    assert f'id="add-unit-{world.veteran_unit.pk}"'.encode() in response.content


@pytest.mark.django_db
def test_it_serves_the_builder_as_a_fragment_to_htmx(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/", headers=HX)
    assert response.status_code == 200
    assert b"<html" not in response.content
    assert response.content.lstrip().startswith(b'<div id="builder"')


@pytest.mark.django_db
def test_it_varies_on_the_htmx_header(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/")
    assert "HX-Request" in response["Vary"]


@pytest.mark.django_db
def test_it_shows_an_empty_state(client):
    user = make_user()
    army_list = make_list(user, make_army(edition=make_edition("v2")))
    client.force_login(user)
    response = client.get(f"/lists/{army_list.pk}/")
    assert b"No units yet: add one from the" in response.content


@pytest.mark.django_db
def test_it_shows_points_order_dice_and_the_limit(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/")
    # 2nd Lieutenant regular 50 + rifle section regular 50 = 100 points, two order dice.
    assert b'<strong id="summary-points">100</strong> / 1000' in response.content
    assert b'<strong id="summary-dice">2</strong>' in response.content


@pytest.mark.django_db
def test_it_marks_a_list_over_its_limit(alice_client, world):
    ArmyList.objects.filter(pk=world.army_list.pk).update(points_limit=60)
    response = alice_client.get(f"/lists/{world.army_list.pk}/")
    assert b'class="summary-bar is-over"' in response.content
    assert b"40 over the limit" in response.content


@pytest.mark.django_db
def test_it_shows_the_officers_effects(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/")
    officers = response.content.split(b'id="officers"')[1].split(b"</section>")[0]
    assert b"Second Lieutenant" in officers
    assert b"<dd>+1</dd>" in officers
    assert b"<dd>6\xe2\x80\xb3</dd>" in officers


@pytest.mark.django_db
def test_it_shows_which_platoon_a_v3_officer_commands(client):
    user = make_user()
    army = make_army(edition=make_edition("v3"))
    army_list = make_list(user, army)
    platoon = make_platoon(army_list, kind="rifle_platoon", name="First Platoon")
    make_entry(army_list, make_officer(army, officer_rank="platoon_commander"), platoon=platoon)
    client.force_login(user)
    response = client.get(f"/lists/{army_list.pk}/")
    assert b"Commands First Platoon" in response.content


@pytest.mark.django_db
def test_it_shows_force_organisation_problems(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/")
    problems = response.content.split(b'id="problems"')[1].split(b"</section>")[0]
    assert b"needs 2 infantry sections; it has 1" in problems


@pytest.mark.django_db
def test_it_links_each_entry_to_its_odds(alice_client, world):
    # In the unit's editor, opened from its row.
    response = alice_client.get(f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/", headers=HX)
    assert f'href="/calc/shooting/?from_entry={world.squad.pk}"'.encode() in response.content


@pytest.mark.django_db
def test_it_escapes_user_text(alice_client, world):
    Entry.objects.filter(pk=world.squad.pk).update(name="<script>alert(1)</script>")
    response = alice_client.get(f"/lists/{world.army_list.pk}/")
    assert b"<script>alert(1)</script>" not in response.content
    assert b"&lt;script&gt;alert(1)&lt;/script&gt;" in response.content


@pytest.mark.django_db
def test_it_lets_a_visitor_build_the_list_in_their_session(client):
    army_list = make_list(None, make_army(edition=make_edition("v2")))
    session = client.session
    session[SESSION_KEY] = [army_list.pk]
    session.save()
    response = client.get(f"/lists/{army_list.pk}/")
    assert response.status_code == 200


# --- Catalogue filter -----------------------------------------------------------------------


@pytest.mark.django_db
def test_it_filters_the_catalogue_by_name_for_htmx(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/catalogue/?q=crom", headers=HX)
    assert b"<html" not in response.content
    assert f'id="add-unit-{world.tank_unit.pk}"'.encode() in response.content
    assert f'id="add-unit-{world.veteran_unit.pk}"'.encode() not in response.content


@pytest.mark.django_db
def test_it_keeps_the_filter_in_the_address_bar(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/catalogue/?q=crom", headers=HX)
    assert response["HX-Replace-Url"] == f"/lists/{world.army_list.pk}/?q=crom"


@pytest.mark.django_db
def test_it_filters_the_catalogue_by_type_without_javascript(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/?type=vehicle_armoured")
    catalogue = response.content.split(b'id="catalogue-results"')[1]
    assert f'id="add-unit-{world.tank_unit.pk}"'.encode() in catalogue
    assert f'id="add-unit-{world.veteran_unit.pk}"'.encode() not in catalogue


@pytest.mark.django_db
def test_it_ignores_an_invalid_filter(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/?type=spaceship")
    assert f'id="add-unit-{world.tank_unit.pk}"'.encode() in response.content


@pytest.mark.django_db
def test_it_redirects_the_catalogue_filter_without_htmx(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/catalogue/?q=crom")
    assert response.status_code == 302
    assert response["Location"] == f"/lists/{world.army_list.pk}/?q=crom#catalogue"


# --- Adding entries -------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_adds_an_entry_and_redirects_to_it(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/add/"
    response = alice_client.post(url, {"unit": world.squad_unit.pk, "platoon": world.platoon.pk})
    entry = Entry.objects.latest("pk")
    assert response.status_code == 302
    assert response["Location"] == f"/lists/{world.army_list.pk}/?to={world.platoon.pk}#entry-{entry.pk}"
    assert (entry.quality, entry.models_count, entry.platoon_id) == ("regular", 5, world.platoon.pk)


@pytest.mark.django_db
def test_it_adds_at_the_first_offered_quality_without_regular(alice_client, world):
    alice_client.post(f"/lists/{world.army_list.pk}/entries/add/", {"unit": world.veteran_unit.pk})
    entry = Entry.objects.latest("pk")
    assert entry.quality == "veteran"
    assert entry.platoon_id is None


@pytest.mark.django_db
def test_it_adds_an_entry_with_htmx(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/add/"
    response = alice_client.post(url, {"unit": world.tank_unit.pk, "platoon": ""}, headers=HX)
    entry = world.army_list.entries.get(unit=world.tank_unit)
    assert b"<html" not in response.content
    # Only the new row (appended to its group), that group's header and the summary: not the roster.
    assert b'<section id="roster"' not in response.content
    assert b'<ul hx-swap-oob="beforeend:#platoon-none-rows">' in response.content
    assert f'<li id="entry-{entry.pk}" class="unit-row is-new">'.encode() in response.content
    assert response.content.count(b'class="unit-row') == 1
    assert b'id="summary-bar" class="summary-bar" hx-swap-oob="true"' in response.content


@pytest.mark.django_db
def test_it_refuses_a_unit_from_another_army(alice_client, world):
    stranger = make_unit(make_army(edition=make_edition("v2")))
    response = alice_client.post(f"/lists/{world.army_list.pk}/entries/add/", {"unit": stranger.pk})
    assert response.status_code == 400
    assert b"That unit is not in this army&#x27;s catalogue." in response.content
    assert world.army_list.entries.count() == 2


@pytest.mark.django_db
def test_it_retargets_a_refused_add_to_the_error_slot(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/add/"
    response = alice_client.post(url, {"unit": world.tank_unit.pk, "platoon": "999999"}, headers=HX)
    assert response["HX-Retarget"] == "#add-errors"
    assert b"That platoon is not in this list." in response.content


@pytest.mark.django_db
def test_it_refuses_a_hidden_unit(alice_client, world):
    Unit.objects.filter(pk=world.tank_unit.pk).update(hidden=True)
    alice_client.post(f"/lists/{world.army_list.pk}/entries/add/", {"unit": world.tank_unit.pk})
    assert world.army_list.entries.count() == 2


# --- Quality --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_changes_quality_and_redirects_back(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/quality/"
    response = alice_client.post(url, {"quality": "veteran"})
    world.squad.refresh_from_db()
    # Back to the page, the unit's editor still open (``?edit=``), in view.
    assert response["Location"] == f"/lists/{world.army_list.pk}/?edit={world.squad.pk}#entry-{world.squad.pk}"
    assert world.squad.quality == "veteran"


@pytest.mark.django_db
def test_it_changes_quality_with_htmx_and_updates_the_summary(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/quality/"
    response = alice_client.post(url, {"quality": "veteran"}, headers=HX)
    # The unit's editor, still open, its platoon's header and the summary (out of band).
    assert response.content.lstrip().startswith(f'<li id="entry-{world.squad.pk}" class="unit-row is-open"'.encode())
    assert b'class="unit-editor"' in response.content
    assert f'<span class="unit-points" id="entry-{world.squad.pk}-points">65 pts</span>'.encode() in response.content
    # Its closed row comes with it, for "Done" to close it without a request.
    assert f'<span class="unit-points" id="entry-{world.squad.pk}-points">65</span>'.encode() in response.content
    assert b'<span class="unit-quality q-veteran">Veteran</span>' in response.content
    assert f'id="platoon-{world.platoon.pk}-head" hx-swap-oob="true"'.encode() in response.content
    assert b'<strong id="summary-points">115</strong>' in response.content


@pytest.mark.django_db
def test_it_refuses_a_quality_the_unit_does_not_offer(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/quality/"
    Unit.objects.filter(pk=world.squad_unit.pk).update(cost_veteran=None)
    response = alice_client.post(url, {"quality": "veteran"})
    world.squad.refresh_from_db()
    assert response.status_code == 400
    assert b"That quality is not offered for this unit." in response.content
    assert world.squad.quality == "regular"


@pytest.mark.django_db
def test_it_shows_a_refused_quality_in_the_htmx_fragment(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/quality/"
    response = alice_client.post(url, {"quality": "elite"}, headers=HX)
    assert response.status_code == 200
    assert b"That quality is not offered for this unit." in response.content
    assert b"hx-swap-oob" not in response.content


# --- Models ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_steps_the_number_of_models(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/models/"
    alice_client.post(url, {"step": "1"})
    alice_client.post(url, {"step": "1"})
    world.squad.refresh_from_db()
    assert world.squad.models_count == 7


@pytest.mark.django_db
def test_it_sets_the_number_of_models(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/models/"
    response = alice_client.post(url, {"models": "9"}, headers=HX)
    world.squad.refresh_from_db()
    assert world.squad.models_count == 9
    # 50 + 4 extra men at 10 = 90 points, in the unit's editor (still open) and its closed row.
    assert f'id="entry-{world.squad.pk}-points">90 pts</span>'.encode() in response.content
    assert f'id="entry-{world.squad.pk}-points">90</span>'.encode() in response.content
    assert b"9 models" in response.content and b'value="9"' in response.content


@pytest.mark.django_db
@pytest.mark.parametrize("data", [{"models": "4"}, {"models": "11"}, {"models": "many"}, {"models": ""}])
def test_it_refuses_a_number_of_models_out_of_range(alice_client, world, data):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/models/"
    response = alice_client.post(url, data)
    world.squad.refresh_from_db()
    assert response.status_code == 400
    assert world.squad.models_count == 5


@pytest.mark.django_db
def test_it_says_why_a_number_of_models_is_refused(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/models/"
    response = alice_client.post(url, {"models": "11"}, headers=HX)
    assert b"This unit has 5 to 10 models." in response.content


@pytest.mark.django_db
def test_it_refuses_a_step_below_the_base_models(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/models/"
    response = alice_client.post(url, {"step": "-1"}, headers=HX)
    world.squad.refresh_from_db()
    # Refused: the editor again (still open), the reason next to the field.
    assert f'<li id="entry-{world.squad.pk}" class="unit-row is-open"'.encode() in response.content
    errors = f'<ul class="errorlist" id="entry-{world.squad.pk}-models-errors"><li>Already at the fewest models (5).'
    assert errors.encode() in response.content
    assert world.squad.models_count == 5


@pytest.mark.django_db
def test_it_refuses_a_step_that_is_not_one(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/models/"
    alice_client.post(url, {"step": "5"})
    world.squad.refresh_from_db()
    assert world.squad.models_count == 5


# --- Options --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_sets_options(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/options/"
    alice_client.post(url, {"grp-1": "lmg", "opt-smg": "2", "opt-grenades": "1", "opt-rg": "0"})
    world.squad.refresh_from_db()
    assert world.squad.options == {"lmg": 1, "smg": 2, "grenades": 1}


@pytest.mark.django_db
def test_it_prices_options_in_the_htmx_fragment(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/options/"
    response = alice_client.post(url, {"grp-1": "piat", "opt-smg": "2"}, headers=HX)
    # The unit's editor, still open: the new points (50 + 30 + 2 at 3), the options; its closed row
    # has them as chips.
    assert f'id="entry-{world.squad.pk}-points">86 pts</span>'.encode() in response.content
    assert b'<span class="chip">PIAT</span> <span class="chip">2\xc3\x97 Sten gun</span>' in response.content
    assert b'<fieldset class="editor-options">' in response.content


@pytest.mark.django_db
def test_it_refuses_a_per_model_option_beyond_the_models(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/options/"
    response = alice_client.post(url, {"opt-smg": "6"})
    world.squad.refresh_from_db()
    assert b"Sten gun can be taken at most 5 times." in response.content
    assert world.squad.options == {}


@pytest.mark.django_db
def test_it_refuses_options_that_exclude_each_other(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/options/"
    response = alice_client.post(url, {"opt-rg": "1", "opt-atr": "1"}, headers=HX)
    world.squad.refresh_from_db()
    assert b"Rifle grenade / AT rifle exclude each other; choose one." in response.content
    # The editor stays open with the options and the reason.
    assert b'<fieldset class="editor-options">' in response.content
    assert world.squad.options == {}


@pytest.mark.django_db
def test_it_refuses_an_unknown_choice_in_a_radio_group(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/options/"
    response = alice_client.post(url, {"grp-1": "smg"})
    assert response.status_code == 400


# --- Rename, platoon, order, duplicate, remove ----------------------------------------------


@pytest.mark.django_db
def test_it_renames_an_entry(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/rename/"
    response = alice_client.post(url, {"name": "  1st Section  "}, headers=HX)
    world.squad.refresh_from_db()
    assert world.squad.name == "1st Section"
    # The editor stays open under its new name; its closed row has it too.
    assert (
        f'<h3 class="unit-name" id="entry-{world.squad.pk}-name" tabindex="-1">1st Section</h3>'.encode()
        in response.content
    )
    assert b'<span class="unit-name">1st Section</span>' in response.content


@pytest.mark.django_db
def test_it_refuses_a_name_over_100_characters(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/rename/"
    response = alice_client.post(url, {"name": "x" * 101})
    world.squad.refresh_from_db()
    assert b"Keep the name to 100 characters or fewer." in response.content
    assert world.squad.name == ""


@pytest.mark.django_db
def test_it_moves_an_entry_to_another_platoon(alice_client, world):
    other = make_platoon(world.army_list, kind="reinforced_platoon", name="Second")
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/platoon/"
    response = alice_client.post(url, {"platoon": other.pk}, headers=HX)
    world.squad.refresh_from_db()
    assert world.squad.platoon_id == other.pk
    # Out of the old platoon, into the new one, both headers updated: not the whole roster.
    assert b'<section id="roster"' not in response.content
    assert f'<li id="entry-{world.squad.pk}" hx-swap-oob="delete">'.encode() in response.content
    assert f'<ul hx-swap-oob="beforeend:#platoon-{other.pk}-rows">'.encode() in response.content
    # Its editor, still open, joins the other platoon.
    assert f'<li id="entry-{world.squad.pk}" class="unit-row is-open"'.encode() in response.content
    assert response.content.count(b'class="unit-editor"') == 1
    assert f'id="platoon-{other.pk}-head" hx-swap-oob="true"'.encode() in response.content
    assert f'id="platoon-{world.platoon.pk}-head" hx-swap-oob="true"'.encode() in response.content


@pytest.mark.django_db
def test_it_refuses_another_lists_platoon(alice_client, world):
    elsewhere = make_platoon(make_list(world.alice, world.army_list.army))
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/platoon/"
    response = alice_client.post(url, {"platoon": elsewhere.pk})
    world.squad.refresh_from_db()
    assert response.status_code == 400
    assert world.squad.platoon_id == world.platoon.pk


@pytest.mark.django_db
def test_it_shows_a_refused_platoon_in_the_units_editor_with_htmx(alice_client, world):
    # The platoon select swaps nothing in place when it succeeds: a refusal is put in the editor.
    elsewhere = make_platoon(make_list(world.alice, world.army_list.army))
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/platoon/"
    response = alice_client.post(url, {"platoon": elsewhere.pk}, headers=HX)
    assert response["HX-Retarget"] == f"#entry-{world.squad.pk}"
    assert response["HX-Reswap"] == "morph"
    assert f'id="entry-{world.squad.pk}-platoon-errors"'.encode() in response.content
    assert b"That platoon is not in this list." in response.content


@pytest.mark.django_db
def test_it_moves_an_entry_up(alice_client, world):
    alice_client.post(f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/move/", {"direction": "up"})
    order = list(world.army_list.entries.values_list("pk", flat=True))
    assert order == [world.squad.pk, world.officer.pk]


@pytest.mark.django_db
def test_it_moves_within_the_platoon_when_positions_tie(alice_client, world):
    Entry.objects.filter(army_list=world.army_list).update(position=0)
    alice_client.post(f"/lists/{world.army_list.pk}/entries/{world.officer.pk}/move/", {"direction": "down"})
    order = list(world.army_list.entries.values_list("pk", flat=True))
    assert order == [world.squad.pk, world.officer.pk]


@pytest.mark.django_db
def test_it_leaves_the_first_entry_first(alice_client, world):
    alice_client.post(f"/lists/{world.army_list.pk}/entries/{world.officer.pk}/move/", {"direction": "up"})
    order = list(world.army_list.entries.values_list("pk", flat=True))
    assert order == [world.officer.pk, world.squad.pk]


@pytest.mark.django_db
def test_it_duplicates_an_entry_after_it(alice_client, world):
    Entry.objects.filter(pk=world.officer.pk).update(quality="veteran", name="Lt Smith")
    alice_client.post(f"/lists/{world.army_list.pk}/entries/{world.officer.pk}/duplicate/")
    entries = list(world.army_list.entries.all())
    assert [e.name for e in entries] == ["Lt Smith", "Lt Smith", ""]
    assert entries[1].quality == "veteran"


@pytest.mark.django_db
def test_it_removes_an_entry(alice_client, world):
    response = alice_client.post(f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/remove/", headers=HX)
    assert not Entry.objects.filter(pk=world.squad.pk).exists()
    assert b'<strong id="summary-points">50</strong>' in response.content


# --- Platoons -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_adds_a_platoon(alice_client, world):
    url = f"/lists/{world.army_list.pk}/platoons/add/"
    response = alice_client.post(url, {"kind": "reinforced_platoon", "name": "2nd Platoon"}, headers=HX)
    assert world.army_list.platoons.filter(name="2nd Platoon").exists()
    assert b'id="add-to" hx-swap-oob="true"' in response.content


@pytest.mark.django_db
def test_it_refuses_a_platoon_kind_from_another_edition(alice_client, world):
    response = alice_client.post(f"/lists/{world.army_list.pk}/platoons/add/", {"kind": "armoured_platoon"})
    assert response.status_code == 400
    assert b"That kind of platoon is not used in this edition." in response.content
    assert world.army_list.platoons.count() == 1


@pytest.mark.django_db
def test_it_offers_the_third_edition_platoons(client):
    user = make_user()
    army_list = make_list(user, make_army(edition=make_edition("v3")))
    client.force_login(user)
    response = client.get(f"/lists/{army_list.pk}/")
    assert b'<option value="armoured_platoon">Armoured Platoon</option>' in response.content
    assert b'value="reinforced_platoon"' not in response.content


@pytest.mark.django_db
def test_it_renames_a_platoon(alice_client, world):
    alice_client.post(f"/lists/{world.army_list.pk}/platoons/{world.platoon.pk}/rename/", {"name": "Able"})
    world.platoon.refresh_from_db()
    assert world.platoon.name == "Able"


@pytest.mark.django_db
def test_it_refuses_a_platoon_name_over_100_characters(alice_client, world):
    url = f"/lists/{world.army_list.pk}/platoons/{world.platoon.pk}/rename/"
    response = alice_client.post(url, {"name": "y" * 101}, headers=HX)
    world.platoon.refresh_from_db()
    assert b"Keep the name to 100 characters or fewer." in response.content
    assert world.platoon.name == ""
    # In place, the forms open: nothing else changed.
    assert response.content.lstrip().startswith(
        f'<details class="platoon-edit" id="platoon-{world.platoon.pk}-edit" open>'.encode()
    )
    assert b"hx-swap-oob" not in response.content


@pytest.mark.django_db
def test_it_renames_a_platoon_with_htmx_in_its_header_and_the_add_to_list(alice_client, world):
    url = f"/lists/{world.army_list.pk}/platoons/{world.platoon.pk}/rename/"
    html = alice_client.post(url, {"name": "Able"}, headers=HX).content.decode()
    assert html.lstrip().startswith(f'<details class="platoon-edit" id="platoon-{world.platoon.pk}-edit">')
    head = html.split(f'id="platoon-{world.platoon.pk}-head" hx-swap-oob="true">')[1].split("</header>")[0]
    assert "Able" in head
    assert '<div class="field add-to" id="add-to" hx-swap-oob="true">' in html
    assert 'id="roster"' not in html


@pytest.mark.django_db
def test_it_removes_a_platoon_and_keeps_its_units(alice_client, world):
    alice_client.post(f"/lists/{world.army_list.pk}/platoons/{world.platoon.pk}/remove/")
    world.squad.refresh_from_db()
    assert not Platoon.objects.filter(pk=world.platoon.pk).exists()
    assert world.squad.platoon_id is None


# --- Who may use it -------------------------------------------------------------------------


def _endpoints(world: World) -> list[tuple[str, str, dict]]:
    base = f"/lists/{world.army_list.pk}/"
    entry = f"{base}entries/{world.squad.pk}/"
    platoon = f"{base}platoons/{world.platoon.pk}/"
    return [
        ("get", base, {}),
        ("get", f"{base}catalogue/", {}),
        ("post", f"{base}entries/add/", {"unit": world.tank_unit.pk}),
        ("post", f"{entry}quality/", {"quality": "veteran"}),
        ("post", f"{entry}models/", {"step": "1"}),
        ("post", f"{entry}options/", {"opt-smg": "1"}),
        ("post", f"{entry}rename/", {"name": "Mine now"}),
        ("post", f"{entry}platoon/", {"platoon": ""}),
        ("post", f"{entry}move/", {"direction": "up"}),
        ("post", f"{entry}duplicate/", {}),
        ("post", f"{entry}remove/", {}),
        ("post", f"{base}platoons/add/", {"kind": "reinforced_platoon"}),
        ("post", f"{platoon}rename/", {"name": "Mine now"}),
        ("post", f"{platoon}remove/", {}),
    ]


ENDPOINTS = [
    "page",
    "catalogue",
    "entry-add",
    "entry-quality",
    "entry-models",
    "entry-options",
    "entry-rename",
    "entry-platoon",
    "entry-move",
    "entry-duplicate",
    "entry-remove",
    "platoon-add",
    "platoon-rename",
    "platoon-remove",
]


@pytest.mark.django_db
@pytest.mark.parametrize("index", range(len(ENDPOINTS)), ids=ENDPOINTS)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_it_hides_the_list_from_another_user(client, world, index, htmx):
    method, url, data = _endpoints(world)[index]
    client.force_login(world.bob)
    response = getattr(client, method)(url, data, headers=HX if htmx else {})
    assert response.status_code == 404
    assert world.army_list.entries.count() == 2 and world.army_list.platoons.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("index", range(len(ENDPOINTS)), ids=ENDPOINTS)
def test_it_hides_the_list_from_a_logged_out_visitor(client, world, index):
    method, url, data = _endpoints(world)[index]
    response = getattr(client, method)(url, data)
    assert response.status_code == 404
    assert world.army_list.entries.count() == 2 and world.army_list.platoons.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("index", range(2, len(ENDPOINTS)), ids=ENDPOINTS[2:])
def test_it_answers_every_action_as_a_fragment_for_htmx(alice_client, world, index):
    method, url, data = _endpoints(world)[index]
    response = getattr(alice_client, method)(url, data, headers=HX)
    assert response.status_code == 200
    assert b"<html" not in response.content


@pytest.mark.django_db
@pytest.mark.parametrize("index", range(2, len(ENDPOINTS)), ids=ENDPOINTS[2:])
def test_it_redirects_every_action_without_javascript(alice_client, world, index):
    method, url, data = _endpoints(world)[index]
    response = getattr(alice_client, method)(url, data)
    assert response.status_code == 302
    assert response["Location"].startswith(f"/lists/{world.army_list.pk}/")


@pytest.mark.django_db
def test_it_finds_no_entry_of_another_list(alice_client, world):
    other_entry = make_entry(make_list(world.alice, world.army_list.army))
    url = f"/lists/{world.army_list.pk}/entries/{other_entry.pk}/quality/"
    response = alice_client.post(url, {"quality": "veteran"})
    assert response.status_code == 404


@pytest.mark.django_db
def test_it_refuses_get_on_an_action(alice_client, world):
    response = alice_client.get(f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/remove/")
    assert response.status_code == 405


@pytest.mark.django_db
def test_it_enforces_csrf(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.alice)
    response = client.post(f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/quality/", {"quality": "veteran"})
    world.squad.refresh_from_db()
    assert response.status_code == 403
    assert world.squad.quality == "regular"


@pytest.mark.django_db
def test_it_accepts_the_pages_csrf_token(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.alice)
    page = client.get(f"/lists/{world.army_list.pk}/")
    token = page.content.split(b'name="csrfmiddlewaretoken" value="')[1].split(b'"')[0].decode()
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/quality/"
    response = client.post(url, {"quality": "veteran"}, headers={**HX, "X-CSRFToken": token})
    assert response.status_code == 200


# --- Without JavaScript ---------------------------------------------------------------------


@pytest.mark.django_db
def test_it_shows_the_change_after_the_redirect(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/quality/"
    response = alice_client.post(url, {"quality": "inexperienced"}, follow=True)
    page = f"/lists/{world.army_list.pk}/?edit={world.squad.pk}#entry-{world.squad.pk}"
    assert response.redirect_chain == [(page, 302)]
    # The page comes back with the unit's editor still open, showing the change.
    assert f'id="entry-{world.squad.pk}-points">35 pts</span>'.encode() in response.content
    assert b'<option value="inexperienced" selected>' in response.content


@pytest.mark.django_db
def test_it_shows_a_refusal_on_the_whole_page_without_javascript(alice_client, world):
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/models/"
    response = alice_client.post(url, {"models": "42"})
    assert b"<html" in response.content
    assert f'id="entry-{world.squad.pk}-models-errors"'.encode() in response.content


@pytest.mark.django_db
def test_it_keeps_the_add_to_platoon_between_round_trips(alice_client, world):
    second = make_platoon(world.army_list, kind="reinforced_platoon", name="Second")
    response = alice_client.get(f"/lists/{world.army_list.pk}/?to={second.pk}")
    assert f'<option value="{second.pk}" selected>Second</option>'.encode() in response.content


@pytest.mark.django_db
def test_it_filters_the_catalogue_by_french_name_whatever_the_case(alice_client, world):
    mortar = make_unit(world.army_list.army, name="Light mortar", name_fr="Équipe de mortier léger")
    hidden = make_unit(world.army_list.army, name="Hidden mortar", name_fr="Équipe cachée", hidden=True)
    gone = make_unit(world.army_list.army, name="Old mortar", name_fr="Équipe retirée", removed=True)
    for query in ("équipe", "ÉQUIPE", "mortier LÉGER"):
        response = alice_client.get(f"/lists/{world.army_list.pk}/catalogue/", {"q": query}, headers=HX)
        assert f'id="add-unit-{mortar.pk}"'.encode() in response.content, query
        assert f'id="add-unit-{hidden.pk}"'.encode() not in response.content
        assert f'id="add-unit-{gone.pk}"'.encode() not in response.content
        assert f'id="add-unit-{world.tank_unit.pk}"'.encode() not in response.content


@pytest.mark.django_db
def test_every_page_links_the_favicon(client):
    from django.contrib.staticfiles import finders

    response = client.get("/lists/")
    assert b'<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in response.content
    assert finders.find("favicon.svg")


def _panzerfausts_or_grenades(unit):
    make_option(unit, slug="panzerfaust", name="Panzerfaust", cost_regular=5, max_count=4, position=7)
    make_option(
        unit,
        slug="anti-tank-grenades-if-no-panzerfaust-taken",
        name="Anti-tank grenades (if no Panzerfaust taken)",
        cost_regular=2,
        per_model=True,
        all_models=True,
        excludes=["panzerfaust"],
        position=8,
    )


@pytest.mark.django_db
def test_it_refuses_an_option_with_one_it_excludes(alice_client, world):
    _panzerfausts_or_grenades(world.squad_unit)
    url = f"/lists/{world.army_list.pk}/entries/{world.squad.pk}/options/"
    response = alice_client.post(
        url, {"opt-panzerfaust": "2", "opt-anti-tank-grenades-if-no-panzerfaust-taken": "on"}, headers=HX
    )
    world.squad.refresh_from_db()
    assert b"Anti-tank grenades (if no Panzerfaust taken) cannot be taken with Panzerfaust." in response.content
    assert world.squad.options == {}
    # Either one alone is fine.
    alice_client.post(url, {"opt-anti-tank-grenades-if-no-panzerfaust-taken": "on"}, headers=HX)
    world.squad.refresh_from_db()
    assert world.squad.options == {"anti-tank-grenades-if-no-panzerfaust-taken": 1}


@pytest.mark.django_db
def test_a_list_holding_an_option_with_one_it_excludes_reports_a_problem(alice_client, world):
    from armybuilder.lists.summary import list_summary

    _panzerfausts_or_grenades(world.squad_unit)
    world.squad.options = {"panzerfaust": 2, "anti-tank-grenades-if-no-panzerfaust-taken": 1}
    world.squad.save()
    problems = [str(problem.message) for problem in list_summary(world.army_list).problems]
    assert any("cannot be taken with Panzerfaust" in message for message in problems), problems


@pytest.mark.django_db
def test_each_add_button_carries_the_points_and_dice_the_server_then_gives_the_unit(alice_client, world):
    """builder.js shows an added unit at the tap from its Add button's data: the same figures as
    the answer, for each unit (a Veteran-only one, a tank whose variant is required, a free gun)."""
    make_deep_catalogue(world.army_list.army)
    url = f"/lists/{world.army_list.pk}/"
    page = alice_client.get(url).content.decode()
    buttons = re.findall(r'<button[^>]*id="add-unit-(\d+)"[^>]*data-points="(\d*)" data-dice="(\d+)"', page)
    assert len(buttons) == Unit.objects.filter(army=world.army_list.army).count() >= 7
    for pk, points, dice in buttons:
        before = list_summary(ArmyList.objects.for_builder(details=False).get(pk=world.army_list.pk))
        response = alice_client.post(f"{url}entries/add/", {"unit": pk, "platoon": world.platoon.pk}, headers=HX)
        assert response.status_code == 200
        added = Entry.objects.filter(army_list=world.army_list).latest("position")
        assert added.unit_id == int(pk)
        after = list_summary(ArmyList.objects.for_builder(details=False).get(pk=world.army_list.pk))
        assert int(points) == after.entry_points[str(added.pk)] == after.points - before.points, pk
        assert int(dice) == after.order_dice - before.order_dice == 1


@pytest.mark.django_db
def test_the_add_button_of_a_unit_that_brings_no_order_die_says_none(alice_client, world):
    """Imported data lists some attachments at 0 dice: the button's figure is the one the list then
    counts (the catalogue prices a unit through ``Unit.to_rules``, as the summary does), not one."""
    unit = make_unit(world.army_list.army, name="Forward observer", order_dice=0)
    url = f"/lists/{world.army_list.pk}/"
    page = alice_client.get(url).content.decode()
    dice = re.search(rf'id="add-unit-{unit.pk}"[^>]*data-dice="(\d+)"', page).group(1)
    before = list_summary(ArmyList.objects.for_builder(details=False).get(pk=world.army_list.pk))
    response = alice_client.post(f"{url}entries/add/", {"unit": unit.pk, "platoon": world.platoon.pk}, headers=HX)
    assert response.status_code == 200
    after = list_summary(ArmyList.objects.for_builder(details=False).get(pk=world.army_list.pk))
    assert int(dice) == after.order_dice - before.order_dice == 0
