"""The Soviet NewRecruit data's guns, read in the shape the data gives them (``data/su3_guns``).

The files reproduce how ``Jelle-Kuipers/Bolt-Action-Third-Edition-NRData`` ("Armies of the soviet
union.cat") writes its field artillery: a shared entry typed as an upgrade reached from a root
link, its quality a group of links to shared quality entries priced on the links, its crew one
"Crewman" model held to exactly the crew by min and max (each with a collective link to the game
system's "Unarmed"), and an "Upgrades" group whose link to a shared Spotter allows one. The data
caps Heavy Artillery at 6 men (5 crew and the spotter); Muster once allowed 7.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalogue.models import Unit
from armybuilder.importers.writer import import_files
from armydata.battlescribe import parse_battlescribe
from armydata.model import ImportedUnit
from rules.army.model import EntrySpec
from rules.army.points import entry_points
from rules.errors import RulesError
from tests.importers.helpers import only_unit
from tests.importers.test_writer import make_chart

GUNS = Path(__file__).parent / "data" / "su3_guns"
SPOTTER = b'type="model" import="true" name="Spotter"'


def read_guns(spotter_type: str = "model") -> dict[str, bytes]:
    files = {path.name: path.read_bytes() for path in sorted(GUNS.iterdir())}
    # The shared spotter's own type lives in the game system; whichever it is, he is one man.
    files["su3_guns.gst"] = files["su3_guns.gst"].replace(
        SPOTTER, f'type="{spotter_type}" import="true" name="Spotter"'.encode()
    )
    assert spotter_type == "model" or SPOTTER not in files["su3_guns.gst"]
    return files


def largest(unit: ImportedUnit) -> int:
    """The most men the unit can field: its own largest size and every man its options add."""
    return unit.max_models + sum(option.adds_models * (option.max_count or 1) for option in unit.options)


@pytest.mark.parametrize("spotter_type", ["model", "upgrade"])
def test_heavy_artillery_is_five_crew_and_six_men_with_its_spotter(spotter_type):
    catalogue = parse_battlescribe(read_guns(spotter_type))
    gun = only_unit(catalogue, "Heavy Artillery")
    assert (gun.base_models, gun.max_models) == (5, 5)
    assert gun.base_cost == {"inexperienced": 95, "regular": 135, "veteran": 175}
    spotter = next(option for option in gun.options if option.name == "Spotter")
    assert (spotter.adds_models, spotter.max_count, spotter.within_size) == (1, 1, False)
    assert spotter.cost == {"inexperienced": 10, "regular": 10, "veteran": 10}
    # The group's second choice is the tractor, which is no man: the group's 2 is not 2 men.
    tractor = next(option for option in gun.options if "tractor" in option.name)
    assert tractor.adds_models == 0
    assert largest(gun) == 6
    assert not catalogue.report.warnings


def test_medium_artillery_is_four_crew_and_five_men_with_its_spotter():
    gun = only_unit(parse_battlescribe(read_guns()), "Medium Artillery")
    assert (gun.base_models, gun.max_models) == (4, 4)
    assert [(option.name, option.adds_models) for option in gun.options] == [("Spotter", 1)]
    assert largest(gun) == 5


@pytest.mark.django_db
def test_the_imported_heavy_artillery_fields_six_men_and_no_seventh():
    make_chart("v3")
    import_files(read_guns())
    gun = Unit.objects.get(name="Heavy Artillery")
    spec = gun.to_rules()
    spotter = gun.options.get(name="Spotter").slug
    tractor = gun.options.get(name__contains="tractor").slug

    def entry(models: int, **options: int) -> EntrySpec:
        return EntrySpec(key="e", name=gun.name, unit=spec, quality="regular", models=models, options=options)

    full = entry(5, **{spotter: 1, tractor: 1})
    assert entry_points(full) == 135 + 10 + 10
    assert full.total_models == 6
    # A sixth crewman, or a second spotter, is refused: 6 men is the most.
    with pytest.raises(RulesError):
        entry_points(entry(6, **{spotter: 1}))
    with pytest.raises(RulesError):
        entry_points(entry(5, **{spotter: 2}))


@pytest.mark.django_db
def test_the_builder_offers_no_sixth_crewman_and_counts_the_spotter(client):
    from tests.lists.factories import make_entry, make_list, make_user

    make_chart("v3")
    import_files(read_guns())
    gun = Unit.objects.get(name="Heavy Artillery")
    spotter = gun.options.get(name="Spotter").slug
    alice = make_user("alice")
    army_list = make_list(alice, gun.army, name="Guns")
    entry = make_entry(army_list, gun, models_count=5, options={spotter: 1})
    client.force_login(alice)
    url = f"/lists/{army_list.pk}/entries/{entry.pk}/"
    html = client.get(url, headers={"HX-Request": "true"}).content.decode()
    # A crew of exactly five: no stepper to add a sixth crewman.
    assert f'id="entry-{entry.pk}-more"' not in html and f'id="entry-{entry.pk}-models"' not in html
    client.post(f"{url}models/", {"models": "6"}, headers={"HX-Request": "true"})
    entry.refresh_from_db()
    assert entry.models_count == 5
    page = client.get(f"/lists/{army_list.pk}/").content.decode()
    row = page[page.index(f'<li id="entry-{entry.pk}"') :]
    assert "6 models" in row[: row.index("</li>")]
