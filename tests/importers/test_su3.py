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
from rules.army.points import options_cost
from rules.errors import RulesError
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


def test_a_team_inside_the_capped_group_of_men_takes_places_within_the_squads_size(catalogue):
    # The LMG team sits in a group nested in "NKVD Troops" (at most 10): 11 men with it, not 13.
    squad = only_unit(catalogue, "NKVD Squad")
    team = next(o for o in squad.options if o.name == "Light Machine Gun Team")
    assert (team.adds_models, team.within_size) == (2, True)
    # The spotter sits among the gun's upgrades, not its crew: one man on top of the five.
    spotter = next(o for o in only_unit(catalogue, "Heavy Artillery").options if o.name == "Spotter")
    assert (spotter.adds_models, spotter.within_size) == (1, False)


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
    assert squad.options.get(name="Light Machine Gun Team").within_size


@pytest.mark.django_db
def test_the_squad_with_its_team_is_refused_past_the_datas_11_men():
    make_chart("v3")
    import_files(read_su3())
    squad = Unit.objects.get(name="NKVD Squad")
    spec = squad.to_rules()
    team = squad.options.get(name="Light Machine Gun Team").slug
    # 9 men and the team's 2: 11, the data's cap. 10 and the team: 12, refused.
    assert options_cost(spec, "regular", 9, {team: 1}) >= 0
    with pytest.raises(RulesError) as refused:
        options_cost(spec, "regular", 10, {team: 1})
    assert refused.value.code == "models-with-teams"
    assert str(refused.value) == "NKVD Squad has 12 models with its teams; it may have at most 11."
    # Without the team the squad still reaches 11 men of its own.
    assert options_cost(spec, "regular", 11, {}) == 0


@pytest.mark.django_db
def test_the_builder_offers_no_more_men_once_the_team_fills_the_squad(client):
    from tests.lists.factories import make_entry, make_list, make_user

    make_chart("v3")
    import_files(read_su3())
    squad = Unit.objects.get(name="NKVD Squad")
    team = squad.options.get(name="Light Machine Gun Team").slug
    alice = make_user("alice")
    army_list = make_list(alice, squad.army, name="Chekists")
    entry = make_entry(army_list, squad, models_count=9, options={team: 1})
    client.force_login(alice)
    html = client.get(f"/lists/{army_list.pk}/entries/{entry.pk}/", headers={"HX-Request": "true"}).content.decode()
    more = next(line for line in html.splitlines() if f'id="entry-{entry.pk}-more"' in line)
    assert " disabled" in more
    entry.options = {}
    entry.save()
    html = client.get(f"/lists/{army_list.pk}/entries/{entry.pk}/", headers={"HX-Request": "true"}).content.decode()
    more = next(line for line in html.splitlines() if f'id="entry-{entry.pk}-more"' in line)
    assert " disabled" not in more


def test_a_team_priced_at_every_quality_of_its_squad_is_offered_at_all_three():
    # The same squad offering Inexperienced too, its men and its team's men priced 11 then.
    files = read_su3()
    three = files["su3_soviet.cat"].decode()
    three = three.replace(
        '<selectionEntry type="upgrade" import="true" name="Regular" hidden="false" id="su3-riders-regular"/>',
        '<selectionEntry type="upgrade" import="true" name="Regular" hidden="false" id="su3-riders-regular"/>'
        '<selectionEntry type="upgrade" import="true" name="Inexperienced" hidden="false" id="su3-riders-green"/>',
    )
    for scope in ("parent", "root-entry"):
        regular = (
            f'<modifier type="set" value="14" field="su3-pts"><conditions><condition type="atLeast" value="1" '
            f'field="selections" scope="{scope}" childId="su3-riders-regular" shared="true"/></conditions></modifier>'
        )
        assert regular in three
        green = regular.replace('value="14"', 'value="11"').replace("su3-riders-regular", "su3-riders-green")
        three = three.replace(regular, regular + green)
    catalogue = parse_battlescribe({**files, "su3_soviet.cat": three.encode()})
    team = only_unit(catalogue, "Light Machine Gun Team")
    # Loader and gunner at 11, 14 or 17 each, plus the LMG's 15.
    assert team.base_cost == {"inexperienced": 37, "regular": 43, "veteran": 49}
    assert not [w for w in catalogue.report.warnings if "Light Machine Gun Team" in w]
