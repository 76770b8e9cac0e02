"""Unit profiles on the cards, the roster and the odds: one line per mount, replaced weapons gone."""

from __future__ import annotations

import pytest

from armybuilder.lists.models import Entry
from armybuilder.playsheets.context import entry_lines, mounted_line
from armybuilder.resolver.adapters import firer_from_entry
from tests.lists.factories import make_option, make_unit
from tests.playsheets.factories import make_playsheet_list

pytestmark = pytest.mark.django_db

LINES = [
    {"weapon": "medium-at-gun", "mount": "turret", "count": 1, "arc": "360"},
    {"weapon": "mmg", "mount": "coaxial", "count": 1, "arc": "360"},
    {"weapon": "mmg", "mount": "hull", "count": 1, "arc": "front"},
]


@pytest.fixture
def tank_entry(edition, alice):
    from tests.reference.factories import make_weapon

    team = edition.special_rules.get(slug="team")
    mmg = make_weapon(edition, (team,), name="Medium machine gun", slug="mmg", range_max=36, shots="5")
    army_list = make_playsheet_list(alice)
    entry = army_list.entries.get(unit__name="Medium Tank")
    tank = entry.unit
    tank.weapon_lines = LINES
    tank.save()
    tank.weapons.add(mmg)
    make_option(tank, slug="pintle", name="Pintle-mounted MMG with 360° arc", grants_weapon=mmg, cost_regular=15)
    return Entry.objects.select_related("unit", "army_list__edition").get(pk=entry.pk)


def _names(entry):
    return [mounted_line(weapon, line).name for weapon, line in entry_lines(entry)]


def test_a_tank_prints_one_line_per_mount_without_team_or_fixed(tank_entry):
    lines = [mounted_line(weapon, line) for weapon, line in entry_lines(tank_entry)]
    assert [line.name for line in lines] == [
        "Medium anti-tank gun (turret, 360°)",
        "Medium machine gun (co-axial, 360°)",
        "Medium machine gun (hull, front)",
    ]
    assert all("Team" not in line.rules for line in lines)


def test_a_pintle_mount_taken_is_its_own_line_and_the_odds_fire_every_weapon(tank_entry):
    tank_entry.options = {"pintle": 1}
    tank_entry.save()
    assert _names(tank_entry)[-1] == "Medium machine gun (pintle, 360°)"
    groups = {group.weapon: group.models for group in firer_from_entry(tank_entry).groups}
    assert groups == {"medium-at-gun": 1, "mmg": 3}


def test_a_weapon_replaced_on_every_model_leaves_the_cards(edition, alice):
    army_list = make_playsheet_list(alice)
    weapons = {w.slug: w for w in edition.weapons.all()}
    team_unit = make_unit(army_list.army, name="Scouts", base_models=2, max_models=2)
    team_unit.weapons.set([weapons["rifle"]])
    make_option(team_unit, slug="smg", name="SMG instead of rifle", grants_weapon=weapons["smg"],
                replaces_weapon=weapons["rifle"], per_model=True, max_count=2)  # fmt: skip
    entry = Entry.objects.create(army_list=army_list, unit=team_unit, models_count=2, options={"smg": 2})
    assert _names(entry) == ["2× Submachine gun"]
    entry.options = {"smg": 1}
    assert _names(entry) == ["Rifle", "Submachine gun"]


def test_a_flamethrower_reads_one_die_to_hit_and_d6_hits_on_chart_and_cards(edition, client):
    from armybuilder.playsheets.context import weapon_line
    from tests.reference.factories import make_special_rule, make_weapon

    flame = make_special_rule(edition, name="Flamethrower", slug="flamethrower")
    infantry = make_weapon(edition, (flame,), name="Flamethrower (infantry)", slug="flamethrower", shots="D6")
    vehicle = make_weapon(edition, (flame,), name="Flamethrower (vehicle)", slug="vehicle-flamethrower", shots="1")
    assert (infantry.shots_display, vehicle.shots_display) == ("1 (D6 hits)", "1 (D6+1 hits)")
    assert weapon_line(infantry).shots == "1 (D6 hits)"
    assert "1 (D6 hits)" in client.get(f"/reference/{edition.slug}/weapons/").text
