"""The second community author's German 3rd-edition data, read for what it says (``data/de3``).

The files reproduce the shapes of ``Jasseji/bolt-action-3e-data`` ("Armies of Germany" and its
996-point roster): vehicles whose damage value, class and transport capacity are written only in
the unit's "Composition / Type" text, weapons whose range is "-", and a squad's LMG team listed
by a roster both as the team choice and as its two men.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalogue.models import Unit
from armybuilder.importers.roster_import import import_roster, roster_document
from armybuilder.importers.writer import import_files
from armybuilder.reference.models import Weapon
from armydata.battlescribe import parse_battlescribe
from armydata.model import ImportedCatalogue
from armydata.roster_file import parse_roster
from tests.importers.helpers import only_unit
from tests.importers.pages import get, list_of_every_unit, load_reference, urls_showing
from tests.importers.test_writer import make_chart
from tests.lists.factories import make_user

DE3 = Path(__file__).parent / "data" / "de3"
ROSTER = (DE3 / "de3_roster.ros").read_bytes()


def read_de3() -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(DE3.iterdir()) if path.suffix in (".gst", ".cat")}


@pytest.fixture(scope="module")
def catalogue() -> ImportedCatalogue:
    return parse_battlescribe(read_de3())


def kind(catalogue: ImportedCatalogue, name: str) -> tuple[str, str, int | None, int | None]:
    unit = only_unit(catalogue, name)
    return unit.unit_type, unit.slot, unit.damage_value, unit.transport_capacity


# Damage values and kinds from the type text


def test_a_tank_under_a_broad_armour_category_gets_the_damage_value_its_type_text_states(catalogue):
    assert kind(catalogue, "Tiger I") == ("vehicle_armoured", "tank", 10, None)


def test_a_soft_skin_under_the_armour_category_is_a_soft_skin(catalogue):
    assert kind(catalogue, "Opel Blitz with Flak 38") == ("vehicle_soft", "tank", 6, None)


def test_a_field_car_is_a_soft_skinned_transport_with_the_men_it_carries(catalogue):
    assert kind(catalogue, "Horch Field Car") == ("transport", "transport", 6, 3)


def test_without_any_unit_category_the_type_text_still_says_soft_skin(catalogue):
    motorcycle = only_unit(catalogue, "BMW MG Motorcycle")
    assert kind(catalogue, "BMW MG Motorcycle") == ("vehicle_soft", "tank", 6, None)
    assert motorcycle.type_source == "profiles"


def test_an_armoured_carrier_is_a_transport_not_an_armoured_car(catalogue):
    # "armoured carrier" holds the words "armoured car".
    assert kind(catalogue, "Sd.Kfz. 251/1 Half-Track") == ("transport", "transport", 7, 12)


def test_a_half_track_filed_under_artillery_that_carries_men_is_a_transport(catalogue):
    assert kind(catalogue, "Sd.Kfz. 7 Half-Track") == ("transport", "transport", 7, 12)


def test_infantry_with_no_damage_value_in_its_type_text_stays_infantry(catalogue):
    assert kind(catalogue, "Heer Infantry Squad") == ("infantry", "infantry", None, None)


# Weapons with no range


def test_weapons_whose_range_is_a_dash_are_read(catalogue):
    ranges = {weapon.name: weapon.range for weapon in catalogue.weapons}
    assert ranges["Anti-tank Grenades"] == ranges["Demolition Charge"] == "-"
    squad = only_unit(catalogue, "Heer Infantry Squad")
    grants = {option.name: option.grants_weapon for option in squad.options}
    assert grants["Anti-tank Grenades"] == "Anti-tank Grenades"
    assert grants["Demolition Charge"] == "Demolition Charge"


# The LMG team whose men are entries of their own


def test_the_free_lmg_team_choice_is_a_team_of_two_men_priced_as_its_gunner_and_loader(catalogue):
    squad = only_unit(catalogue, "Heer Infantry Squad")
    team = next(option for option in squad.options if option.name == "LMG Team (gunner and loader)")
    assert (team.adds_models, team.cost, team.grants_weapon) == (2, {"regular": 35, "veteran": 41}, "Light Machine Gun")
    assert (squad.base_models, squad.max_models, squad.base_cost, squad.per_model_cost) == (
        5,
        10,
        {"regular": 50, "veteran": 65},
        {"regular": 10, "veteran": 13},
    )


def test_squad_choices_are_not_men(catalogue):
    # "5. Squad Options" is a group of choices, not of the squad's men.
    squad = only_unit(catalogue, "Heer Infantry Squad")
    adds = {option.name: option.adds_models for option in squad.options}
    assert adds["Anti-tank Grenades"] == adds["Demolition Charge"] == 0


# Imported, listed and played


@pytest.mark.django_db
def test_the_roster_imports_at_its_own_total(client):
    make_chart("v3")
    import_files(read_de3())
    owner = make_user()
    result = import_roster("de3_roster.ros", ROSTER, owner=owner)
    assert (result.roster_points, result.muster_points, result.difference) == (533, 533, 0)


@pytest.mark.django_db
def test_the_team_s_men_listed_beside_it_are_the_team_s_not_the_squad_s():
    make_chart("v3")
    import_files(read_de3())
    document, _notes = roster_document(parse_roster("de3_roster.ros", ROSTER))
    squad = Unit.objects.get(name="Heer Infantry Squad")
    team = squad.options.get(name="LMG Team (gunner and loader)").slug
    squads = [entry for entry in document["entries"] if entry["unit"] == squad.slug]
    # NCO and seven riflemen are the squad's own; the gunner and the loader come with the team.
    assert [(entry["models"], entry["options"].get(team, 0)) for entry in squads] == [(8, 1), (7, 0)]


@pytest.mark.django_db
def test_a_weapon_with_no_range_is_kept_and_never_offered_to_shoot(client):
    load_reference()
    result = import_files(read_de3()).catalogues[0]
    assert result.weapons_refused == 0
    charge = Weapon.objects.get(edition__slug="v3", name="Demolition Charge")
    assert (charge.imported, charge.range_max, charge.he_size, charge.range_display) == (True, 0, 3, "–")
    squad = Unit.objects.get(name="Heer Infantry Squad")
    assert squad.options.get(name="Demolition Charge").grants_weapon == charge
    for url in ("/calc/shooting/?edition=v3", "/calc/anti-tank/?edition=v3"):
        page = client.get(url)
        assert page.status_code == 200, url
        assert f'value="{charge.slug}"' not in page.text
    chosen = client.get(f"/calc/shooting/?edition=v3&g0-weapon={charge.slug}&g0-models=1&g0-range=normal")
    assert chosen.status_code == 200
    assert chosen.context["result"] is None


@pytest.mark.django_db
def test_every_page_showing_the_imported_army_answers(client):
    load_reference()
    import_files(read_de3())
    owner = make_user()
    client.force_login(owner)
    army_list = list_of_every_unit(Unit.objects.get(name="Heer Infantry Squad").army, owner)
    squad = army_list.entries.get(unit__name="Heer Infantry Squad")
    squad.options = {
        option.slug: 1 for option in squad.unit.options.filter(name__in=["Demolition Charge", "Anti-tank Grenades"])
    }
    squad.save()
    for url in urls_showing(army_list, pdfs=False):
        assert get(client, url).status_code == 200, url
    odds = client.get(f"/calc/shooting/?from_entry={squad.pk}")
    weapons = {value for key, value in odds.context["form"].data.items() if key.endswith("-weapon")}
    assert "rifle" in weapons
    assert not weapons & set(Weapon.objects.filter(range_max=0).values_list("slug", flat=True))
