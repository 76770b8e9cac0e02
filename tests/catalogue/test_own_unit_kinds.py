"""The own-unit form's starts (a kind's defaults, a copy), its folded sections and its steppers' marks."""

from __future__ import annotations

import re

from armybuilder.catalogue.models import Unit
from tests.catalogue.own_units import grenadiers, make_own_list, weapon_pk


def _selected(page: str, name: str) -> str:
    select = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', page, re.S)
    assert select, f"no select {name}"
    chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(1))
    return chosen.group(1) if chosen else ""


def _value(page: str, name: str) -> str:
    box = re.search(rf'<input type="\w+" name="{re.escape(name)}"([^>]*)>', page)
    assert box, f"no input {name}"
    value = re.search(r'value="([^"]*)"', box.group(1))
    return value.group(1) if value else ""


def _opened(page: str, section: str) -> bool:
    tag = re.search(rf'<details class="own-section" id="{section}"([^>]*)>', page)
    assert tag, f"no section {section}"
    return " open" in tag.group(1)


def test_a_medium_tank_starts_as_the_editions_generic_medium_tank_without_its_points(alice_client, v3):
    page = alice_client.get("/units/new/v3/?kind=medium-tank").content.decode()
    assert _selected(page, "unit_type") == "vehicle_armoured"
    assert _selected(page, "slot") == "tank"
    assert _value(page, "damage_value") == "9"  # the Generic medium tank's, as the rules notes give it
    assert (_value(page, "base_models"), _value(page, "max_models")) == ("1", "1")
    lines = [
        (_selected(page, f"w-{i}-weapon"), _selected(page, f"w-{i}-mount"), _selected(page, f"w-{i}-arc"))
        for i in range(4)
    ]
    assert lines == [
        (str(weapon_pk("medium-at-gun")), "turret", "360"),
        (str(weapon_pk("mmg")), "coaxial", "360"),
        (str(weapon_pk("mmg")), "hull", "front"),
        ("", "", ""),
    ]
    # The player's book gives the name, army and points: none is taken from the Generic unit.
    assert _value(page, "name") == "" and _value(page, "cost_regular") == ""
    assert _selected(page, "army") == ""
    assert _opened(page, "own-profile") and _opened(page, "weapon-lines")
    assert not _opened(page, "option-rows") and not _opened(page, "own-rules")
    assert 'id="kind-medium-tank" class="own-chip is-current" aria-current="true"' in page


def test_a_squad_starts_with_rifles_and_its_sections_folded(alice_client, v3):
    page = alice_client.get("/units/new/v3/?kind=squad").content.decode()
    assert _selected(page, "unit_type") == "infantry"
    assert (_value(page, "base_models"), _value(page, "max_models")) == ("5", "16")
    assert _selected(page, "w-0-weapon") == str(weapon_pk("rifle")) and _selected(page, "w-0-mount") == ""
    assert not _opened(page, "own-profile") and not _opened(page, "option-rows")
    assert _opened(page, "weapon-lines")
    # The one-tap swaps: what a man carries, each with how it is taken, never a vehicle's or a fixed gun.
    found = re.findall(r'data-weapon="\d+" data-mode="(\w+)" id="swap-([a-z-]+)"', page)
    modes = {slug: mode for mode, slug in found}
    assert modes["smg"] == "each" and modes["lmg"] == "team" and modes["panzerfaust"] == "adds"
    assert not {"mmg", "medium-at-gun", "light-mortar", "vehicle-flamethrower"} & set(modes)


def test_an_empty_form_and_an_unknown_kind_start_empty_with_every_optional_section_folded(alice_client, v3):
    for address in ("/units/new/v3/", "/units/new/v3/?kind=zeppelin"):
        page = alice_client.get(address).content.decode()
        assert _value(page, "damage_value") == ""
        assert not any(_opened(page, s) for s in ("own-profile", "weapon-lines", "option-rows", "own-rules"))
        # Every count is marked for the script's −/+ buttons; a cost is not a count.
        for name in ("base_models", "max_models", "damage_value", "transport_capacity", "w-0-count", "o-0-max_count"):
            assert re.search(rf'name="{name}"[^>]*data-stepper', page), name
        assert not re.search(r'name="cost_regular"[^>]*data-stepper', page)


def test_the_copy_is_offered_first_and_the_kinds_keep_the_list_the_form_came_from(alice_client, v3):
    army_list = make_own_list(alice_client, v3)
    page = alice_client.get(f"/units/new/v3/?list={army_list.pk}").content.decode()
    assert page.index('id="copy-from"') < page.index('id="kind-squad"')
    assert f'href="?kind=squad&amp;list={army_list.pk}"' in page
    tank = alice_client.get(f"/units/new/v3/?kind=light-tank&list={army_list.pk}")
    assert tank.status_code == 200 and _value(tank.content.decode(), "damage_value") == "8"


def test_a_refused_option_opens_its_section_and_keeps_what_was_typed(alice_client, alice, v3):
    data = {**grenadiers(v3), "o-1-name": "", "o-1-cost": "5"}  # a cost without a name
    response = alice_client.post("/units/new/v3/", data)
    assert response.status_code == 400
    page = response.content.decode()
    assert _opened(page, "option-rows") and "Name the option." in page
    assert _value(page, "o-0-name") == "SMG instead of rifle" and _value(page, "o-1-cost") == "5"
    assert not Unit.objects.filter(owner=alice).exists()


def test_a_unit_saved_from_a_kind_start_keeps_its_weapons(alice_client, alice, v3):
    data = {
        "name": "Panzer IV Ausf. G",
        "army": v3.pk,
        "unit_type": "vehicle_armoured",
        "slot": "tank",
        "damage_value": "9",
        "base_models": "1",
        "max_models": "1",
        "cost_regular": "195",
        "w-TOTAL_FORMS": "3",
        "w-INITIAL_FORMS": "0",
        "o-TOTAL_FORMS": "0",
        "o-INITIAL_FORMS": "0",
        "w-0-weapon": weapon_pk("medium-at-gun"),
        "w-0-count": "1",
        "w-0-mount": "turret",
        "w-0-arc": "360",
        "w-1-weapon": weapon_pk("mmg"),
        "w-1-count": "1",
        "w-1-mount": "coaxial",
        "w-1-arc": "360",
        "w-2-weapon": weapon_pk("mmg"),
        "w-2-count": "1",
        "w-2-mount": "hull",
        "w-2-arc": "front",
    }
    assert alice_client.post("/units/new/v3/", data).status_code == 302
    unit = Unit.objects.get(owner=alice)
    assert [line["mount"] for line in unit.weapon_lines] == ["turret", "coaxial", "hull"]
    # Edited again, its sections holding values start open.
    page = alice_client.get(f"/units/{unit.pk}/").content.decode()
    assert _opened(page, "own-profile") and _opened(page, "weapon-lines") and not _opened(page, "option-rows")
    assert 'id="kind-' not in page  # a unit being edited is not started again


def test_the_starts_speak_french(alice_client, v3):
    alice_client.cookies["django_language"] = "fr"
    page = alice_client.get("/units/new/v3/?kind=squad").content.decode()
    assert "Ou partir d'un type d'unité" in page or "Ou partir d&#x27;un type d&#x27;unité" in page
    assert 'data-fewer="Moins" data-more="Plus"' in page
    assert "Ajouter un échange d" in page
