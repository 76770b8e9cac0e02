"""Every catalogue row's stamp moves with every real write, and only with a real one.

A list's revision (ETags, kept PDFs) and its "changed in the catalogue" notes read these stamps
(``armybuilder.stamps.Stamped``), so each way of writing is tried on each table: ``save()`` after
a change, ``save()`` of an unchanged row, ``QuerySet.update()``, ``bulk_update()``, links.
"""

from __future__ import annotations

import pytest

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.reference.models import SpecialRule, Weapon
from tests.catalogue.factories import make_army, make_edition, make_option, make_special_rule, make_unit, make_weapon

pytestmark = pytest.mark.django_db

UNIT_STAMPS = ("updated_at", "points_updated_at", "options_updated_at", "profile_updated_at")


@pytest.fixture
def rows():
    edition = make_edition()
    army = make_army(edition, name="Finland")
    unit = make_unit(army, name="Rifle Squad", weapons_text="Rifles")
    option = make_option(unit, name="SMG", cost_regular=3)
    weapon = make_weapon(edition, "smg")
    rule = make_special_rule(edition, "assault")
    return {Army: army, Unit: unit, Option: option, Weapon: weapon, SpecialRule: rule}


# A field of each table that a write can change, and a new value for it.
EDITS = {Army: ("name", "Suomi"), Unit: ("name", "Jäkärit"), Option: ("cost_regular", 5)}
EDITS |= {Weapon: ("range_max", 30), SpecialRule: ("name", "Assault!")}
TABLES = list(EDITS)


def _stamp(model, pk):
    return model.objects.values_list("updated_at", flat=True).get(pk=pk)


def _unit_stamps(unit):
    return Unit.objects.values(*UNIT_STAMPS).get(pk=unit.pk)


def _moved(before, after):
    return {name for name in before if after[name] != before[name]}


@pytest.mark.parametrize("model", TABLES, ids=lambda model: model.__name__)
def test_a_save_that_changes_a_value_moves_the_stamp(rows, model):
    row = model.objects.get(pk=rows[model].pk)
    before = row.updated_at
    field, value = EDITS[model]
    setattr(row, field, value)
    row.save()
    assert _stamp(model, row.pk) > before


@pytest.mark.parametrize("model", TABLES, ids=lambda model: model.__name__)
def test_a_save_that_changes_nothing_moves_nothing(rows, model):
    row = model.objects.get(pk=rows[model].pk)
    before = row.updated_at
    row.save()
    field, _value = EDITS[model]
    row.save(update_fields=[field])
    assert _stamp(model, row.pk) == before


@pytest.mark.parametrize("model", TABLES, ids=lambda model: model.__name__)
def test_a_queryset_update_moves_the_stamp(rows, model):
    before = _stamp(model, rows[model].pk)
    field, value = EDITS[model]
    model.objects.filter(pk=rows[model].pk).update(**{field: value})
    assert _stamp(model, rows[model].pk) > before


@pytest.mark.parametrize("model", TABLES, ids=lambda model: model.__name__)
def test_a_bulk_update_moves_the_stamp(rows, model):
    row = model.objects.get(pk=rows[model].pk)
    before = row.updated_at
    field, value = EDITS[model]
    setattr(row, field, value)
    model.objects.bulk_update([row], [field])
    assert _stamp(model, row.pk) > before


def test_a_change_made_in_place_in_a_json_value_is_a_change(rows):
    unit = Unit.objects.get(pk=rows[Unit].pk)
    before = _unit_stamps(unit)
    unit.weapon_lines.append({"weapon": "rifle", "mount": "", "count": 1, "arc": ""})
    unit.save()
    assert _moved(before, _unit_stamps(unit)) == {"updated_at", "profile_updated_at"}


def test_a_second_save_of_the_same_instance_compares_with_what_the_first_wrote(rows):
    unit = Unit.objects.get(pk=rows[Unit].pk)
    unit.cost_regular = 60
    unit.save()
    before = _unit_stamps(unit)
    unit.save()
    assert _unit_stamps(unit) == before


@pytest.mark.parametrize(
    ("field", "value", "moved"),
    [
        ("cost_regular", 55, {"points_updated_at"}),
        ("per_model_regular", 11, {"points_updated_at"}),
        ("option_groups", [{"key": "kit", "label": "Kit", "minimum": 0, "maximum": 1}], {"options_updated_at"}),
        ("damage_value", 7, {"profile_updated_at"}),
        ("weapons_text", "Rifles, SMG", {"profile_updated_at"}),
        ("name", "Jäkärit", set()),
        ("position", 99, set()),
    ],
)
def test_a_unit_says_which_kind_of_change_it_had(rows, field, value, moved):
    unit = Unit.objects.get(pk=rows[Unit].pk)
    before = _unit_stamps(unit)
    setattr(unit, field, value)
    unit.save()
    assert _moved(before, _unit_stamps(unit)) == {"updated_at", *moved}
    before = _unit_stamps(unit)
    Unit.objects.filter(pk=unit.pk).update(**{field: value})
    assert _moved(before, _unit_stamps(unit)) == {"updated_at", *moved}


def _option_writes(option):
    def save():
        option.cost_regular = 7
        option.save()

    def create():
        make_option(option.unit, name="Panzerfaust")

    writes = {
        "save": save,
        "create": create,
        "update": lambda: Option.objects.filter(pk=option.pk).update(cost_regular=9),
        "bulk_update": lambda: Option.objects.bulk_update([option], ["max_count"]),
        "delete": lambda: option.delete(),
        "queryset delete": lambda: Option.objects.filter(pk=option.pk).delete(),
    }
    assert list(writes) == OPTION_WRITES
    return writes


OPTION_WRITES = ["save", "create", "update", "bulk_update", "delete", "queryset delete"]


@pytest.mark.parametrize("write", OPTION_WRITES)
def test_every_write_of_an_option_moves_its_units_options_stamp(rows, write):
    option = Option.objects.get(pk=rows[Option].pk)
    before = _unit_stamps(option.unit)
    _option_writes(option)[write]()
    assert _moved(before, _unit_stamps(option.unit)) == {"updated_at", "options_updated_at"}


def test_an_option_saved_unchanged_leaves_its_unit_alone(rows):
    option = Option.objects.get(pk=rows[Option].pk)
    before = _unit_stamps(option.unit)
    option.save()
    assert _unit_stamps(option.unit) == before


@pytest.mark.parametrize(
    "link",
    [
        lambda unit, weapon, rule: unit.weapons.add(weapon),
        lambda unit, weapon, rule: weapon.units.add(unit),
        lambda unit, weapon, rule: unit.special_rules.set([rule]),
        lambda unit, weapon, rule: rule.units.add(unit),
    ],
    ids=["unit.weapons.add", "weapon.units.add", "unit.special_rules.set", "rule.units.add"],
)
def test_linking_a_weapon_or_a_rule_moves_the_units_profile_stamp(rows, link):
    unit = rows[Unit]
    before = _unit_stamps(unit)
    link(unit, rows[Weapon], rows[SpecialRule])
    assert _moved(before, _unit_stamps(unit)) == {"updated_at", "profile_updated_at"}


def test_unlinking_moves_it_too(rows):
    unit, weapon = rows[Unit], rows[Weapon]
    unit.weapons.add(weapon)
    before = _unit_stamps(unit)
    weapon.units.clear()
    assert _moved(before, _unit_stamps(unit)) == {"updated_at", "profile_updated_at"}


def test_an_armys_national_rules_move_its_stamp(rows):
    army = rows[Army]
    before = _stamp(Army, army.pk)
    army.national_rules.add(rows[SpecialRule])
    assert _stamp(Army, army.pk) > before


def test_linking_what_is_already_linked_moves_nothing(rows):
    unit, weapon = rows[Unit], rows[Weapon]
    unit.weapons.add(weapon)
    before = _unit_stamps(unit)
    unit.weapons.set([weapon])
    unit.weapons.add(weapon)
    assert _unit_stamps(unit) == before
