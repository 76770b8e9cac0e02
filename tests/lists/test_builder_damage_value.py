"""The builder says a vehicle's damage value in its roster row, its editor and the catalogue the
player adds it from, as the playsheet does: the data's value, a soft-skin's or a transport's by the
rules when the data gives none, and nothing for men and guns (their quality says it)."""

from __future__ import annotations

import os
import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from armybuilder.catalogue.models import Unit
from tests.conftest import PHONE_CONTEXT, log_in
from tests.lists.factories import make_army, make_edition, make_entry, make_list, make_platoon, make_unit, make_user


def row_html(content: bytes, entry_pk: int) -> str:
    """The roster row of one entry (its ``<li>``)."""
    html = content.decode()
    match = re.search(rf'<li id="entry-{entry_pk}".*?</li>', html, re.S)
    assert match, f"no row for entry {entry_pk}"
    return match.group(0)


def build_world():
    alice = make_user("alice")
    army = make_army(edition=make_edition("v3"), name="Soviet Union")
    army_list = make_list(alice, army, name="Guards", points_limit=1000)
    platoon = make_platoon(army_list, kind="armoured_platoon")
    vehicle = {"base_models": 1, "max_models": 1, "per_model_regular": None}
    tank = make_unit(army, name="T-34/85", unit_type="vehicle_armoured", slot="tank", damage_value=9, **vehicle)
    # An imported soft-skin whose data gave no damage value: 6+ by the rules.
    truck = make_unit(
        army, name="ZiS-5 truck", unit_type="vehicle_soft", slot="transport", source="battlescribe", **vehicle
    )
    squad = make_unit(army, name="Rifle Squad")
    entries = {
        unit.name: make_entry(army_list, unit, platoon=platoon, position=position)
        for position, unit in enumerate((tank, truck, squad))
    }
    return alice, army_list, entries


@pytest.fixture
def world(db):
    return build_world()


def test_a_vehicles_row_shows_its_damage_value(client, world):
    alice, army_list, entries = world
    client.force_login(alice)
    response = client.get(f"/lists/{army_list.pk}/")
    assert response.status_code == 200
    assert "Damage value 9+" in row_html(response.content, entries["T-34/85"].pk)
    assert "Damage value 6+" in row_html(response.content, entries["ZiS-5 truck"].pk)
    assert "Damage value" not in row_html(response.content, entries["Rifle Squad"].pk)


def test_the_open_editor_says_it_in_the_units_facts(client, world):
    alice, army_list, entries = world
    client.force_login(alice)
    tank = entries["T-34/85"]
    response = client.get(f"/lists/{army_list.pk}/entries/{tank.pk}/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    facts = re.search(r'<p class="unit-facts">(.*?)</p>', response.content.decode(), re.S)
    assert facts and "Damage value 9+" in facts.group(1)


def catalogue_item(content: bytes, unit_pk: int) -> str:
    """The catalogue's ``<li>`` of one unit (its facts and its Add button)."""
    html = content.decode()
    match = re.search(rf'<li class="catalogue-unit">(?:(?!</li>).)*?id="add-unit-{unit_pk}".*?</li>', html, re.S)
    assert match, f"no catalogue item for unit {unit_pk}"
    return match.group(0)


def test_the_catalogue_says_it_where_the_vehicle_is_chosen(client, world):
    alice, army_list, entries = world
    client.force_login(alice)
    response = client.get(f"/lists/{army_list.pk}/")
    tank = catalogue_item(response.content, entries["T-34/85"].unit_id)
    facts = re.search(r'<span class="catalogue-facts">([^<]*)</span>', tank).group(1)
    assert facts.endswith(" · Damage value 9+")
    # The row shown at the tap, before the server answers, says it as the server's row will.
    assert re.search(r'data-facts="[^"]* · Damage value 9\+"', tank)
    truck = catalogue_item(response.content, entries["ZiS-5 truck"].unit_id)
    assert "Damage value 6+" in truck
    assert "Damage value" not in catalogue_item(response.content, entries["Rifle Squad"].unit_id)


def test_an_armoured_vehicle_without_a_value_shows_none_rather_than_a_guess(client, world):
    alice, army_list, entries = world
    Unit.objects.filter(name="T-34/85").update(damage_value=None)
    client.force_login(alice)
    response = client.get(f"/lists/{army_list.pk}/")
    assert "Damage value" not in row_html(response.content, entries["T-34/85"].pk)


def test_it_is_said_in_french(client, world):
    alice, army_list, entries = world
    client.force_login(alice)
    with translation.override("fr"):
        response = client.get(f"/lists/{army_list.pk}/", headers={"Accept-Language": "fr"})
    assert "Valeur de dégâts 9+" in row_html(response.content, entries["T-34/85"].pk)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_phone_shows_the_damage_value_in_the_row_without_overflowing(new_browser_context, live_server):
    alice, army_list, entries = build_world()
    context = new_browser_context(**PHONE_CONTEXT)
    log_in(context, live_server, alice)
    phone = context.new_page()
    phone.goto(f"/lists/{army_list.pk}/")
    tank = phone.locator(f"#entry-{entries['T-34/85'].pk}-open")
    expect(tank.locator(".unit-dv")).to_have_text("Damage value 9+")
    expect(tank.locator(".unit-dv")).to_be_visible()
    expect(phone.locator(f"#entry-{entries['Rifle Squad'].pk}-open .unit-dv")).to_have_count(0)
    # Where the player chooses a vehicle to add, its damage value is there too.
    choice = phone.locator("li.catalogue-unit", has=phone.locator(f"#add-unit-{entries['T-34/85'].unit_id}"))
    expect(choice.locator(".catalogue-facts")).to_contain_text("Damage value 9+")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_CONTEXT["viewport"]["width"]
    shots = os.environ.get("MUSTER_SHOTS")  # a folder: save a screenshot of the roster there
    if shots:
        os.makedirs(shots, exist_ok=True)
        phone.screenshot(path=os.path.join(shots, "damage-value-phone.png"), full_page=True)
