"""The Soviet NewRecruit data's size caps and qualities, read as the data states them (``data/su3``).

The files reproduce shapes of ``Jelle-Kuipers/Bolt-Action-Third-Edition-NRData`` ("Armies of the
soviet union.cat"): a squad whose men's group of at most 10 holds nested groups of more men (the
NKVD Squad), and an LMG team typed as a unit inside a squad typed as a model, its men priced by
the squad's quality choice; and a gun whose crew of 5 may add a spotter from a group of upgrades
of at most 2 (Heavy Artillery: 6 men at most, not 7).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalogue.models import Unit
from armybuilder.importers.writer import import_files
from armydata.battlescribe import parse_battlescribe
from armydata.model import ImportedCatalogue
from tests.importers.helpers import only_unit
from tests.importers.test_writer import make_chart

SU3 = Path(__file__).parent / "data" / "su3"


def read_su3() -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(SU3.iterdir()) if path.suffix in (".gst", ".cat")}


@pytest.fixture(scope="module")
def catalogue() -> ImportedCatalogue:
    return parse_battlescribe(read_su3())


def test_a_groups_cap_bounds_the_men_of_the_groups_inside_it(catalogue):
    # NCO + at most 10 in "NKVD Troops", whose dog handlers (up to 2) sit in a group inside it.
    squad = only_unit(catalogue, "NKVD Squad")
    assert (squad.base_models, squad.max_models) == (5, 11)


def test_a_spotter_among_a_guns_upgrades_is_one_man_added_not_a_step_in_its_size(catalogue):
    # Five crewmen; the "Upgrades" group (at most 2) holds a spotter and an integrated tractor.
    gun = only_unit(catalogue, "Heavy Artillery")
    assert (gun.base_models, gun.max_models, gun.per_model_cost) == (5, 5, {})
    spotter = next(o for o in gun.options if o.name == "Spotter")
    assert (spotter.adds_models, spotter.max_count, spotter.cost) == (1, 1, {"inexperienced": 10, "regular": 10})
    tractor = next(o for o in gun.options if o.name.startswith("May take an integrated tractor"))
    assert (tractor.adds_models, tractor.cost) == (0, {"inexperienced": 10, "regular": 10})
    # At most six men: the crew and the spotter.
    assert gun.max_models + sum(o.adds_models * (o.max_count or 1) for o in gun.options) == 6


def test_a_team_priced_by_its_squads_quality_is_offered_at_each_quality_the_squad_offers(catalogue):
    team = only_unit(catalogue, "Light Machine Gun Team")
    # Loader and gunner at 14 (Regular) or 17 (Veteran) each, plus the LMG's 15.
    assert team.base_cost == {"regular": 43, "veteran": 49}
    assert (team.base_models, team.max_models) == (2, 2)
    assert not [w for w in catalogue.report.warnings if "Light Machine Gun Team" in w]


def test_a_unit_whose_costs_ignore_the_outer_choice_keeps_its_own_quality():
    # The same squad, but its team's men priced flat: the squad's quality says nothing about them.
    files = read_su3()
    flat = files["su3_soviet.cat"].decode()
    flat = flat.replace('scope="root-entry" childId="su3-riders-regular"', 'scope="root-entry" childId="elsewhere"')
    flat = flat.replace('scope="root-entry" childId="su3-riders-veteran"', 'scope="root-entry" childId="elsewhere"')
    team = only_unit(parse_battlescribe({**files, "su3_soviet.cat": flat.encode()}), "Light Machine Gun Team")
    assert list(team.base_cost) == ["regular"]


@pytest.mark.django_db
def test_the_imported_squad_and_team_keep_those_sizes_and_prices():
    make_chart("v3")
    import_files(read_su3())
    squad = Unit.objects.get(name="NKVD Squad")
    team = Unit.objects.get(name="Light Machine Gun Team")
    assert (squad.base_models, squad.max_models) == (5, 11)
    assert team.qualities() == ["regular", "veteran"]
    assert (team.cost_regular, team.cost_veteran, team.cost_inexperienced) == (43, 49, None)
    gun = Unit.objects.get(name="Heavy Artillery")
    assert (gun.base_models, gun.max_models) == (5, 5)
    assert [(o.name, o.adds_models, o.max_count) for o in gun.options.filter(adds_models__gt=0)] == [("Spotter", 1, 1)]
