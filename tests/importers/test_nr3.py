"""3rd-edition community data (NewRecruit style): quality pricing, classification, settings, weapon mounts.

Each unit of ``data/nr3/nr3_testland.cat`` reproduces one way community files price quality.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from armydata.battlescribe import parse_battlescribe
from armydata.model import ImportedCatalogue, ImportedWeaponLine
from tests.importers.helpers import only_unit

NR3 = Path(__file__).parent / "data" / "nr3"


def read_nr3() -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(NR3.iterdir()) if path.suffix in (".gst", ".cat")}


@pytest.fixture(scope="module")
def catalogue() -> ImportedCatalogue:
    return parse_battlescribe(read_nr3())


def test_the_game_system_is_third_edition(catalogue):
    assert catalogue.edition == "v3"


def test_zero_priced_choices_price_each_quality_through_the_model_cost_modifiers(catalogue):
    unit = only_unit(catalogue, "Rifle Squad")
    assert unit.base_cost == {"inexperienced": 35, "regular": 50, "veteran": 65}
    assert unit.per_model_cost == {"inexperienced": 7, "regular": 10, "veteran": 13}
    assert (unit.base_models, unit.max_models) == (5, 10)


def test_experienced_is_the_regular_quality_and_no_quality_becomes_an_option(catalogue):
    unit = only_unit(catalogue, "Rifle Squad")
    assert [option.name for option in unit.options] == ["Anti-tank grenades"]


def test_zero_priced_choices_price_each_quality_through_the_unit_cost_modifiers(catalogue):
    unit = only_unit(catalogue, "Machine Gun Team")
    assert unit.base_cost == {"inexperienced": 35, "regular": 50, "veteran": 65}


def test_absolute_prices_on_the_choices_offer_only_the_qualities_given(catalogue):
    assert only_unit(catalogue, "Sniper Team").base_cost == {"regular": 50, "veteran": 65}


def test_a_hidden_quality_choice_is_not_offered(catalogue):
    assert only_unit(catalogue, "Medium Mortar Team").base_cost == {"regular": 50, "veteran": 65}


def test_a_link_can_price_the_shared_quality_choice(catalogue):
    assert only_unit(catalogue, "Commissar").base_cost == {"inexperienced": 20, "regular": 25, "veteran": 30}


def test_a_single_quality_unit_is_offered_at_that_quality_only(catalogue):
    assert only_unit(catalogue, "Truck").base_cost == {"regular": 39}


def test_attendants_cost_changes_with_the_officers_quality(catalogue):
    unit = only_unit(catalogue, "Second Lieutenant")
    assert unit.base_cost == {"inexperienced": 35, "regular": 50, "veteran": 65}
    assert unit.per_model_cost == {"inexperienced": 7, "regular": 10, "veteran": 13}
    assert (unit.slot, unit.officer_rank, unit.max_models) == ("officer", "second_lieutenant", 3)


def test_a_national_character_is_never_an_infantry_squad(catalogue):
    unit = only_unit(catalogue, "Commissar")
    assert (unit.unit_type, unit.slot) == ("headquarters", "character")


def test_the_roster_configuration_is_a_setting_not_a_unit(catalogue):
    names = [unit.name for army in catalogue.armies for unit in army.units]
    assert "Configuration" not in names
    assert ("Configuration (nr3-config)", "roster setting, not a unit") in catalogue.report.skipped


def test_vehicle_weapons_keep_their_mounts_as_separate_lines(catalogue):
    unit = only_unit(catalogue, "Panzer III")
    assert (unit.unit_type, unit.slot) == ("vehicle_armoured", "tank")
    assert unit.weapon_lines == [
        ImportedWeaponLine("Medium anti-tank gun", "turret", 1, ""),
        ImportedWeaponLine("MMG", "coaxial", 1, ""),
        ImportedWeaponLine("MMG", "hull", 1, ""),
    ]
    pintle = next(option for option in unit.options if option.name.startswith("Pintle"))
    assert pintle.cost["regular"] == 15


def test_classification_follows_the_categories(catalogue):
    kinds = {unit.name: (unit.unit_type, unit.slot) for unit in catalogue.armies[0].units}
    assert kinds["Machine Gun Team"] == ("team", "machine_gun")
    assert kinds["Medium Mortar Team"] == ("team", "mortar")
    assert kinds["Truck"] == ("transport", "transport")
