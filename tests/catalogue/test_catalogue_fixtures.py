"""The built-in Generic armies: every unit prices cleanly through rules/, cites a source, and
every kind of unit each army needs is there, in both editions. Loading twice changes nothing.

This is the one test module that loads the whole of fixtures/ (STYLE P14).
"""

from __future__ import annotations

import html
import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import F
from django.utils import translation

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.lists.models import ArmyList, Entry
from armybuilder.reference.version import data_version
from rules.army.model import EntrySpec
from rules.army.points import entry_points, option_limit
from tests.builtin_data import module_data

pytestmark = pytest.mark.django_db

EDITIONS = ["v2", "v3"]
RANKS = {
    "v2": {"second_lieutenant", "first_lieutenant", "captain", "major"},
    "v3": {"platoon_commander", "company_commander"},
}


def _weapons(unit):
    return {weapon.slug for weapon in unit.weapons.all()}


def _has(slot, weapon=None, damage_value=None):
    def check(unit):
        return (
            unit.slot == slot
            and (weapon is None or weapon in _weapons(unit))
            and (damage_value is None or unit.damage_value == damage_value)
        )

    return check


# Kind of unit -> a test a unit of that kind passes.
REQUIRED_KINDS = {
    "medic": _has("medic"),
    "forward observer": _has("forward_observer"),
    "sniper team": _has("sniper"),
    "MMG team": _has("machine_gun", "mmg"),
    "light mortar": _has("light_mortar", "light-mortar"),
    "medium mortar": _has("mortar", "medium-mortar"),
    "heavy mortar": _has("mortar", "heavy-mortar"),
    "flamethrower team": _has("flamethrower", "flamethrower"),
    "anti-tank team": _has("anti_tank"),
    "light AT gun": _has("anti_tank_gun", "light-at-gun"),
    "medium AT gun": _has("anti_tank_gun", "medium-at-gun"),
    "heavy AT gun": _has("anti_tank_gun", "heavy-at-gun"),
    "light howitzer": _has("artillery", "light-howitzer"),
    "medium howitzer": _has("artillery", "medium-howitzer"),
    "truck": lambda u: u.slot == "transport" and u.damage_value == 6 and (u.transport_capacity or 0) > 0,
    "half-track": lambda u: u.slot == "transport" and u.damage_value == 7 and (u.transport_capacity or 0) > 0,
    "armoured car (DV 7)": _has("armoured_car", damage_value=7),
    "light tank (DV 8)": _has("tank", damage_value=8),
    "medium tank (DV 9)": _has("tank", damage_value=9),
    "heavy tank (DV 10)": _has("tank", damage_value=10),
}


loaded = module_data(reference=True)


def generic_units(edition):
    return list(
        Unit.objects.filter(army__edition__slug=edition, army__slug="generic").prefetch_related(
            "options", "weapons", "special_rules"
        )
    )


def entry(unit, quality, models, options=None):
    return EntrySpec(
        key=unit.slug, name=unit.name, unit=unit.to_rules(), quality=quality, models=models, options=options or {}
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_it_loads_a_builtin_generic_army_for_each_edition(loaded, edition):
    army = Army.objects.get_by_natural_key(edition, "generic")
    assert (army.origin, army.name, bool(army.source)) == ("builtin", "Generic", True)


@pytest.mark.parametrize("edition", EDITIONS)
def test_it_prices_every_unit_at_each_offered_quality_and_base_models(loaded, edition):
    for unit in generic_units(edition):
        assert unit.qualities(), unit.slug
        for quality, cost in unit.base_cost().items():
            assert entry_points(entry(unit, quality, unit.base_models)) == cost, (unit.slug, quality)


@pytest.mark.parametrize("edition", EDITIONS)
def test_it_prices_every_unit_at_full_size_with_every_option_it_can_take(loaded, edition):
    for unit in generic_units(edition):
        spec = unit.to_rules()
        groups_used: set[str] = set()
        options = {}
        for option in spec.options:
            if option.group and option.group in groups_used:
                continue
            groups_used.add(option.group)
            options[option.key] = option_limit(option, spec.max_models)
        for quality in unit.qualities():
            full = entry(unit, quality, spec.max_models, options)
            assert entry_points(full) >= entry_points(entry(unit, quality, spec.base_models)), (unit.slug, quality)


@pytest.mark.parametrize("edition", EDITIONS)
def test_it_cites_a_source_for_every_unit(loaded, edition):
    assert [u.slug for u in generic_units(edition) if not u.source.strip()] == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_it_has_an_officer_of_every_rank_of_the_edition(loaded, edition):
    assert {u.officer_rank for u in generic_units(edition) if u.officer_rank} == RANKS[edition]


@pytest.mark.parametrize("edition", EDITIONS)
def test_it_has_infantry_squads_at_every_quality(loaded, edition):
    squads = [u for u in generic_units(edition) if u.slot == "infantry"]
    assert {quality for squad in squads for quality in squad.qualities()} == {"inexperienced", "regular", "veteran"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_it_gives_every_infantry_squad_rifles_and_lmg_and_smg_options(loaded, edition):
    for squad in (u for u in generic_units(edition) if u.slot == "infantry"):
        granted = {o.grants_weapon.slug for o in squad.options.all() if o.grants_weapon}
        # The rifle is what they carry; no "+0 keeps his rifle" option duplicates "None".
        assert {"lmg", "smg"} <= granted and "rifle" in _weapons(squad), squad.slug


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("kind", REQUIRED_KINDS)
def test_it_has_every_kind_of_unit_every_army_has(loaded, edition, kind):
    assert any(REQUIRED_KINDS[kind](unit) for unit in generic_units(edition)), kind


@pytest.mark.parametrize("edition", EDITIONS)
def test_it_gives_every_vehicle_a_damage_value(loaded, edition):
    vehicles = [u for u in generic_units(edition) if u.unit_type in ("transport", "vehicle_soft", "vehicle_armoured")]
    assert [u.slug for u in vehicles if u.damage_value is None] == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_it_gives_every_armament_a_french_summary(loaded, edition):
    units = generic_units(edition)
    assert [u.slug for u in units if u.weapons_text and not u.weapons_text_fr] == []
    with translation.override("fr"):
        officers = [u.display_weapons for u in units if u.officer_rank]
    assert officers and all(text.startswith("Pistolet") for text in officers), officers


def _snapshot():
    """Every catalogue row with its stamps, and the rules data's version: what lists' pages read."""
    rows = {}
    for model in (Army, Unit, Option):
        rows[model.__name__] = list(model.objects.order_by("pk").values())
    rows["unit weapons"] = list(Unit.weapons.through.objects.order_by("pk").values())
    rows["unit rules"] = list(Unit.special_rules.through.objects.order_by("pk").values())
    rows["rules data"] = data_version()
    return rows


def test_it_changes_nothing_when_loaded_twice(loaded):
    before = _snapshot()
    call_command("load_reference_data", verbosity=0)
    assert _snapshot() == before


@pytest.fixture
def saved_list(client):
    """A list of built-in units, one with an option taken, saved before the reload."""
    user = get_user_model().objects.create_user("alice", password="correct-horse-battery")
    army = Army.objects.get(edition__slug="v2", slug="generic")
    army_list = ArmyList.objects.create(owner=user, edition=army.edition, army=army, name="Reloaded")
    squad = Unit.objects.filter(army=army, options__isnull=False).distinct().first()
    option = squad.options.first()
    Entry.objects.create(army_list=army_list, unit=squad, models_count=squad.base_models, options={option.slug: 1})
    Entry.objects.create(army_list=army_list, unit=Unit.objects.filter(army=army).exclude(pk=squad.pk).first())
    client.force_login(user)
    return army_list


def _builder(client, army_list, etag=None):
    headers = {"If-None-Match": etag} if etag else {}
    return client.get(f"/lists/{army_list.pk}/", headers=headers)


def test_an_identical_reload_leaves_saved_lists_unflagged_and_their_pages_current(loaded, client, saved_list):
    first = _builder(client, saved_list)
    assert first.status_code == 200 and "unit-flag" not in first.text
    call_command("load_reference_data", verbosity=0)
    assert _builder(client, saved_list, first["ETag"]).status_code == 304
    assert "unit-flag" not in _builder(client, saved_list).text


def _unit_stamps():
    fields = ("updated_at", "points_updated_at", "options_updated_at", "profile_updated_at")
    return {row["pk"]: row for row in Unit.objects.values("pk", *fields)}


def test_a_reload_that_changes_a_price_moves_exactly_that(loaded, client, saved_list):
    """A unit's and an option's stored prices differ from the fixtures (as after a release that
    changes them): the reload writes those two rows, moves their stamps and no other."""
    squad, other = (entry.unit for entry in saved_list.entries.order_by("pk"))
    option = squad.options.get(slug=next(iter(saved_list.entries.get(unit=squad).options)))
    Unit.objects.filter(pk=other.pk).update(cost_regular=F("cost_regular") + 5)
    Option.objects.filter(pk=option.pk).update(cost_regular=F("cost_regular") + 5)
    saved_list.save()  # the list was saved with those prices
    first = _builder(client, saved_list)
    units, options = _unit_stamps(), dict(Option.objects.values_list("pk", "updated_at"))

    out = StringIO()
    call_command("load_reference_data", stdout=out)
    assert "0 rows added, 2 changed" in out.getvalue()

    after = _unit_stamps()
    moved = {pk: {name for name in row if row[name] != units[pk][name]} for pk, row in after.items()}
    assert {pk: names for pk, names in moved.items() if names} == {
        other.pk: {"updated_at", "points_updated_at"},
        squad.pk: {"updated_at", "options_updated_at"},
    }
    assert [pk for pk, stamp in Option.objects.values_list("pk", "updated_at") if stamp != options[pk]] == [option.pk]
    response = _builder(client, saved_list, first["ETag"])
    assert response.status_code == 200
    notes = re.findall(r'class="unit-flag" title="([^"]*)"', response.text)
    assert sorted(html.unescape(note).split(": ")[1] for note in notes) == [
        "its options. Check them.",
        "its points. Check them.",
    ]
