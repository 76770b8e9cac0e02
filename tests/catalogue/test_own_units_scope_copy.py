"""Own units: the open-topped choice, what a copy cannot carry over, and "only this army"."""

from __future__ import annotations

import json
import re

import pytest

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.catalogue.own_units import parse_definition
from armybuilder.lists.models import ArmyList
from rules.army import own_units as own_rules
from tests.catalogue.own_units import grenadiers, make_own_list, panzer_iv, post_data, three_unit_list

OPEN_TOPPED_MESSAGE = "Only a vehicle can be open-topped."


def _field_group(page: str, css: str) -> str:
    """The HTML of the form's row with class ``css``: a message must be inside it, next to its field."""
    match = re.search(
        rf'<div class="field-row {css}">(.*?)</div>\s*(?:<div class="field-row|</fieldset>|</details>)', page, re.S
    )
    assert match, f"no {css} row"
    return match.group(1)


def test_an_open_topped_vehicle_gets_the_editions_rule_and_keeps_it_through_an_edit(alice_client, alice, v3):
    data = {**panzer_iv(v3), "name": "Marder III", "open_topped": "on"}
    response = alice_client.post("/units/new/v3/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    marder = Unit.objects.get(owner=alice, name="Marder III")
    assert list(marder.special_rules.values_list("slug", flat=True)) == ["open-topped"]
    page = alice_client.get(f"/units/{marder.pk}/").content.decode()
    row = _field_group(page, "own-open-topped")
    assert 'name="open_topped"' in row and "checked" in row
    # One place sets it: it is not offered a second time among the other rules' boxes.
    rule = marder.special_rules.get().pk
    assert not re.search(rf'name="special_rules" value="{rule}"', page)
    assert re.search(r'name="special_rules" value="\d+"', page)  # the other rules are offered
    # Saving again without the box clears it, and another rule picked stays.
    from armybuilder.reference.models import SpecialRule

    stubborn = SpecialRule.objects.get(edition__slug="v3", slug="stubborn").pk
    again = {**panzer_iv(v3), "name": "Marder III", "special_rules": [stubborn]}
    assert alice_client.post(f"/units/{marder.pk}/", again).status_code == 302
    assert list(marder.special_rules.values_list("slug", flat=True)) == ["stubborn"]


def test_a_closed_tank_has_no_open_topped_rule(alice_client, alice, v3):
    assert alice_client.post("/units/new/v3/", panzer_iv(v3)).status_code == 302
    assert not Unit.objects.get(owner=alice).special_rules.filter(slug="open-topped").exists()


def test_an_open_topped_squad_is_refused_next_to_the_field(alice_client, alice, v3):
    response = alice_client.post("/units/new/v3/", {**grenadiers(v3), "open_topped": "on"})
    assert response.status_code == 400
    page = response.content.decode()
    row = _field_group(page, "own-open-topped")
    assert OPEN_TOPPED_MESSAGE in row and 'class="errorlist' in row
    assert page.count(OPEN_TOPPED_MESSAGE) == 1
    assert not Unit.objects.filter(owner=alice).exists()


def test_the_rule_says_only_vehicles_are_open_topped():
    base = {"name": "X", "slot": "infantry", "base_cost": {"regular": 10}, "per_model_cost": {}}
    base |= {"base_models": 1, "max_models": 1}
    squad = own_rules.OwnUnitSpec(unit_type="infantry", open_topped=True, **base)
    assert ("open_topped", "open_topped_only_vehicles") in own_rules.check(squad)
    truck = own_rules.OwnUnitSpec(unit_type="vehicle_soft", damage_value=6, open_topped=True, **base)
    assert own_rules.check(truck) == []


def test_an_imported_open_topped_squad_is_refused_with_its_place(alice_client, alice, v3):
    errors: list[str] = []
    raw = {
        "name": "Squad",
        "unit_type": "infantry",
        "slot": "infantry",
        "base_models": 5,
        "max_models": 5,
        "cost": {"regular": 50},
        "special_rules": ["open-topped"],
    }
    assert parse_definition(raw, "own_units[0]", v3.edition, errors) is None
    assert errors == ["own_units[0].open_topped: Only a vehicle can be open-topped."]
    errors.clear()
    tank = {**raw, "unit_type": "vehicle_armoured", "slot": "tank", "damage_value": 8, "max_models": 1}
    tank["base_models"] = 1
    assert parse_definition(tank, "own_units[0]", v3.edition, errors)["special_rules"] == ["open-topped"]
    assert errors == []


def test_the_cards_print_an_open_topped_vehicle_with_its_rule(alice_client, alice, v3):
    from tests.playsheets.conftest import Pdf

    assert (
        alice_client.post("/units/new/v3/", {**panzer_iv(v3), "name": "Marder III", "open_topped": "on"}).status_code
        == 302
    )
    army_list = make_own_list(alice_client, v3)
    marder = Unit.objects.get(owner=alice, name="Marder III")
    alice_client.post(f"/lists/{army_list.pk}/entries/add/", {"unit": marder.pk})
    pdf = Pdf(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=en").content)
    assert "Marder III" in pdf.text and "Open-topped" in pdf.text
    french = Pdf(alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=fr").content)
    assert "Découvert" in french.text


# -- A copy of a built-in unit ------------------------------------------------------------------


@pytest.fixture
def assault_squad(v3):
    """A built-in unit with what the own-unit form cannot hold: exclusions, a free-unit option,
    prices by quality and a shared group limit, beside a whole-unit option it can."""
    unit = Unit.objects.create(
        army=v3,
        slug="test-assault-squad",
        name="Assault Squad",
        unit_type="infantry",
        slot="infantry",
        cost_regular=60,
        cost_veteran=75,
        per_model_regular=12,
        per_model_veteran=15,
        base_models=5,
        max_models=10,
        option_groups=[{"key": "upgrades", "label": "Upgrades", "minimum": 0, "maximum": 2, "per_model": False}],
        source="test",
    )
    Option.objects.create(
        unit=unit,
        slug="panzerfaust",
        name="Panzerfaust",
        cost_regular=5,
        cost_veteran=5,
        cost_inexperienced=5,
        position=1,
    )
    Option.objects.create(
        unit=unit,
        slug="at-grenades",
        name="Anti-tank grenades",
        all_models=True,
        per_model=True,
        cost_inexperienced=2,
        cost_regular=2,
        cost_veteran=2,
        excludes=["panzerfaust"],
        group="upgrades",
        position=2,
    )
    Option.objects.create(
        unit=unit, slug="free-squad", name="Free with the platoon", free_unit=True, position=3, group="upgrades"
    )
    Option.objects.create(
        unit=unit,
        slug="smg",
        name="SMG",
        per_model=True,
        cost_inexperienced=None,
        cost_regular=3,
        cost_veteran=4,
        position=4,
    )
    return unit


def test_a_copy_names_what_it_cannot_carry_over(alice_client, alice, v3, assault_squad):
    page = alice_client.get(f"/units/new/v3/?from={assault_squad.pk}").content.decode()
    assert re.search(rf'<option value="{assault_squad.pk}" selected>', page)  # the copy says what it copies
    note = re.search(r'<div class="card notice own-not-carried" id="not-carried">(.*?)</div>', page, re.S).group(1)
    assert "Assault Squad" in note
    assert "“Anti-tank grenades” cannot be taken with “Panzerfaust”" in note
    assert "“Free with the platoon” makes the whole unit free" in note
    assert "“SMG” has its own price at each quality: the copy takes 3 pts at every quality." in note
    assert "The group “Upgrades” allows at most 2 choices in all" in note
    assert "Panzerfaust” has" not in note  # one price at every quality: carried as it is
    # The whole-unit option is carried: its box is ticked on the grenades' row.
    row = re.search(r'id="option-row-1">(.*?)id="option-row-2"', page, re.S).group(1)
    assert 'value="Anti-tank grenades"' in row
    assert re.search(r'name="o-1-all_models"[^>]*checked', row)


def test_a_plain_copy_has_no_note(alice_client, v3):
    rifle = Unit.objects.get(army=v3, slug="rifle-squad")
    page = alice_client.get(f"/units/new/v3/?from={rifle.pk}").content.decode()
    assert 'id="not-carried"' not in page


def test_a_saved_copy_keeps_its_whole_unit_option_and_the_note_stays_on_a_refusal(
    alice_client, alice, v3, assault_squad
):
    url = f"/units/new/v3/?from={assault_squad.pk}"
    data = post_data(
        v3,
        name="My Assault Squad",
        base_models=5,
        max_models=10,
        cost_regular=60,
        per_model_regular=12,
        options=[{"name": "Anti-tank grenades", "cost": 2, "per_model": "on", "all_models": "on"}],
    )
    refused = alice_client.post(url, {**data, "max_models": 2})
    assert refused.status_code == 400 and 'id="not-carried"' in refused.content.decode()
    assert alice_client.post(url, data).status_code == 302
    grenades = Unit.objects.get(owner=alice).options.get()
    assert grenades.all_models and grenades.per_model


def test_a_whole_unit_option_goes_through_export_and_import(client, alice_client, alice, v3):
    army_list = three_unit_list(alice_client, alice, v3)
    squad = Unit.objects.get(owner=alice, name="Grenadier Squad")
    squad.options.filter(name="Panzerfaust").update(all_models=True)
    data = json.loads(alice_client.get(f"/lists/{army_list.pk}/export.json").content)
    exported = next(unit for unit in data["own_units"] if unit["name"] == "Grenadier Squad")
    assert [o["all_models"] for o in exported["options"]] == [False, True]
    from tests.lists.factories import make_user

    client.force_login(make_user("bob"))  # the same client as alice's: now bob's
    assert client.post("/lists/import/", {"text": json.dumps(data)}).status_code == 302
    copy = Unit.objects.get(owner__username="bob", name="Grenadier Squad")
    assert copy.options.get(name="Panzerfaust").all_models
    assert not copy.options.get(name="SMG instead of rifle").all_models


# -- Every army of the edition, or only this army --------------------------------------------


@pytest.fixture
def germany(v3):
    return Army.objects.create(edition=v3.edition, slug="test-germany", name="Germany", source="test")


def test_a_unit_kept_to_its_army_is_offered_to_that_army_only(alice_client, alice, v3, germany):
    response = alice_client.post("/units/new/v3/", {**panzer_iv(germany), "scope": "army"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert alice_client.post("/units/new/v3/", {**grenadiers(v3)}).status_code == 302
    tank = Unit.objects.get(owner=alice, name="Panzer IV Ausf. H")
    squad = Unit.objects.get(owner=alice, name="Grenadier Squad")
    assert tank.army_only and not squad.army_only
    assert set(Unit.objects.for_player(germany, alice)) >= {tank, squad}
    generic = set(Unit.objects.for_player(v3, alice))
    assert squad in generic and tank not in generic
    # The builder of a Generic list does not offer it; a German list's does.
    generic_list = make_own_list(alice_client, v3)
    german_list = make_own_list(alice_client, germany, name="Kampfgruppe Nord")
    assert f'id="add-unit-{tank.pk}"' not in alice_client.get(f"/lists/{generic_list.pk}/").content.decode()
    assert f'id="add-unit-{tank.pk}"' in alice_client.get(f"/lists/{german_list.pk}/").content.decode()
    assert f'id="add-unit-{squad.pk}"' in alice_client.get(f"/lists/{generic_list.pk}/").content.decode()
    # Nor can it be added by posting its id.
    alice_client.post(f"/lists/{generic_list.pk}/entries/add/", {"unit": tank.pk})
    assert not ArmyList.objects.get(pk=generic_list.pk).entries.filter(unit=tank).exists()
    assert "only this army" in alice_client.get("/units/").content.decode()


def test_the_scope_is_shown_and_changed_on_the_form(alice_client, alice, v3):
    page = alice_client.get("/units/new/v3/").content.decode()
    assert re.search(r'name="scope" value="edition"[^>]*checked', page)
    assert alice_client.post("/units/new/v3/", panzer_iv(v3)).status_code == 302
    tank = Unit.objects.get(owner=alice)
    assert not tank.army_only
    assert alice_client.post(f"/units/{tank.pk}/", {**panzer_iv(v3), "scope": "army"}).status_code == 302
    tank.refresh_from_db()
    assert tank.army_only
    assert re.search(r'name="scope" value="army"[^>]*checked', alice_client.get(f"/units/{tank.pk}/").content.decode())
    refused = alice_client.post(f"/units/{tank.pk}/", {**panzer_iv(v3), "scope": "everywhere"})
    assert refused.status_code == 400
    assert "Choose every army of the edition, or only this army." in refused.content.decode()


def test_another_players_units_stay_out_whatever_their_scope(alice, v3):
    from tests.lists.factories import make_user

    bob = make_user("bob")
    Unit.objects.create(army=v3, owner=alice, slug="own-a", name="A", unit_type="infantry", slot="infantry", source="t")
    Unit.objects.create(
        army=v3, owner=alice, slug="own-b", name="B", unit_type="infantry", slot="infantry", source="t", army_only=True
    )
    assert not Unit.objects.for_player(v3, bob).filter(owner=alice).exists()
    assert Unit.objects.for_player(v3, alice).filter(owner=alice).count() == 2
