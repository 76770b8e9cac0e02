"""The writer, one construct at a time: parsed test catalogues written into the catalogue tables."""

from __future__ import annotations

import pytest

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.importers import writer
from armybuilder.importers.writer import import_files, parse_files
from armybuilder.reference.models import SpecialRule, Weapon
from armydata.safety import CatalogueImportError
from tests.catalogue.factories import make_army, make_edition, make_special_rule, make_weapon
from tests.importers.helpers import read_barracks, read_battlescribe

pytestmark = pytest.mark.django_db


def make_chart(slug: str = "v2"):
    """The edition with the few reference rows the test data can match: two weapons and a rule."""
    edition = make_edition(slug)
    make_weapon(edition, "rifle", name="Rifle")
    make_weapon(edition, "smg", name="Submachine gun (SMG)", range_max=12, shots="2")
    make_special_rule(edition, "assault", name="Assault")
    return edition


def unit(name: str) -> Unit:
    return Unit.objects.get(name=name)


def option(unit_name: str, name: str) -> Option:
    return Option.objects.get(unit__name=unit_name, name=name)


@pytest.fixture
def barracks():
    make_chart()
    return import_files(read_barracks())


# costs and sizes


def test_it_puts_each_quality_cost_in_its_own_field(barracks):
    squad = unit("Rifle Squad")
    assert (squad.cost_inexperienced, squad.cost_regular, squad.cost_veteran) == (35, 50, None)
    assert (squad.per_model_inexperienced, squad.per_model_regular, squad.per_model_veteran) == (7, 10, None)


def test_it_keeps_the_model_counts(barracks):
    squad = unit("Rifle Squad")
    assert (squad.base_models, squad.max_models) == (5, 10)


def test_it_keeps_the_ids_and_origin_of_the_source(barracks):
    army = Army.objects.get(name="Armies of Testland")
    assert (army.origin, army.source_id) == ("barracks", "testland")
    assert unit("Rifle Squad").source_id == "testland/rifle-squad"


def test_it_reads_officer_ranks_and_vehicles(barracks):
    assert unit("First Lieutenant").officer_rank == "first_lieutenant"
    truck = unit("Truck")
    assert (truck.unit_type, truck.damage_value, truck.transport_capacity) == ("transport", 6, 12)


# options


def test_it_writes_a_weapon_swap_option_with_its_weapons():
    make_chart()
    import_files(read_battlescribe("shared_groups.cat"))
    smg = option("Regular Officer", "SMG")
    assert (smg.group, smg.per_model, smg.cost_regular) == ("Sidearm", False, 3)
    assert (smg.grants_weapon.slug, smg.replaces_weapon.name) == ("smg", "Pistol")


def test_it_prices_an_option_at_every_quality(barracks):
    spotter = option("Medium Mortar Team", "Spotter")
    assert (spotter.cost_inexperienced, spotter.cost_regular, spotter.cost_veteran) == (10, 10, 10)


def test_it_keeps_a_negative_option_cost(barracks):
    assert option("Test Tank", "Recce").cost_veteran == -25


def test_it_lets_every_model_take_a_whole_unit_upgrade():
    make_chart()
    import_files(read_battlescribe("grenades.cat"))
    grenades = option("Veteran Grenadiers", "Anti-tank grenades")
    assert (grenades.per_model, grenades.max_count, grenades.cost_veteran) == (True, None, 2)


# weapons


def test_it_links_unit_weapons_to_the_reference_chart(barracks):
    squad = unit("Rifle Squad")
    # Its own armament, and the weapon its option adds, both from the chart.
    assert list(squad.weapons.values_list("slug", flat=True)) == ["rifle"]
    swap = squad.options.get(name="SMG (replaces rifle)")
    assert (swap.grants_weapon.slug, swap.replaces_weapon.slug) == ("smg", "rifle")


def test_it_does_not_duplicate_a_weapon_the_chart_has(barracks):
    assert Weapon.objects.filter(name__icontains="smg").count() == 1


def test_it_creates_a_weapon_the_chart_lacks_from_its_profile():
    make_chart()
    import_files(read_battlescribe("profiles.cat"))
    gun = Weapon.objects.get(name="Medium AT gun")
    assert (gun.range_max, gun.shots, gun.pen, gun.he_size, gun.category) == (60, "1", 5, 2, "heavy")
    assert gun.source == "import: system.gst + 1 more file (BattleScribe)"


def test_it_reads_a_minimum_range_and_the_rules_of_a_created_weapon(barracks):
    mortar = Weapon.objects.get(name="Medium mortar")
    assert (mortar.range_min, mortar.range_max, mortar.pen) == (12, 60, 0)
    assert sorted(mortar.special_rules.values_list("slug", flat=True)) == ["fixed", "indirect-fire", "team"]


# rules


def test_it_links_a_unit_rule_creating_it_with_a_cited_source(barracks):
    rule = unit("Rifle Squad").special_rules.get()
    assert (rule.name, rule.source) == ("Tough Fighters", "import: core.json + 2 more files (Barracks)")


def test_it_never_copies_a_rule_text_from_the_data(barracks):
    assert SpecialRule.objects.get(name="Tough Fighters").summary == ""


def test_it_links_national_rules_to_the_army(barracks):
    army = Army.objects.get(name="Armies of Testland")
    assert list(army.national_rules.values_list("name", flat=True)) == ["Dogged"]


def test_it_matches_a_rule_the_edition_has_by_name(barracks):
    assert SpecialRule.objects.filter(name__iexact="assault").count() == 1


# visibility, slugs, editions


def test_it_keeps_a_hidden_entry_hidden():
    make_chart()
    import_files(read_battlescribe("hidden.cat"))
    assert unit("Regular Secret Squad").hidden
    assert list(Unit.objects.all().available().values_list("name", flat=True)) == ["Regular Theatre Squad"]


def test_it_adds_a_suffix_to_a_slug_another_army_has():
    make_army(make_chart(), slug="armies-of-testland", name="Testland (built in)")
    import_files(read_barracks())
    assert Army.objects.get(origin="barracks", source_id="testland").slug == "armies-of-testland-2"


def test_it_refuses_an_edition_the_database_does_not_have():
    make_chart("v2")
    with pytest.raises(CatalogueImportError, match="edition 'v3' is not in the database"):
        import_files(read_battlescribe("modifiers.cat", system="system_v3.gst"))


def test_it_imports_into_the_edition_given_when_the_data_does_not_say():
    make_chart("v2")
    files = read_battlescribe("rating.cat")
    files["system.gst"] = files["system.gst"].replace(b"Bolt Action 2nd Edition (test)", b"Skirmish Rules")
    import_files(files, edition="v2")
    assert unit("Second Lieutenant").army.edition.slug == "v2"


def test_it_parses_battlescribe_and_barracks_given_together():
    parsed = parse_files({**read_battlescribe("rating.cat"), **read_barracks()})
    assert [item.origin for item in parsed] == ["battlescribe", "barracks"]


# transactions


def test_it_writes_nothing_on_a_dry_run_but_reports_what_it_would_do():
    make_chart()
    result = import_files(read_barracks(), dry_run=True)
    assert result.catalogues[0].units.created == 6
    assert (Army.objects.count(), Unit.objects.count(), Weapon.objects.count()) == (0, 0, 2)


def test_it_rolls_everything_back_when_a_unit_fails_midway(monkeypatch):
    make_chart()
    written = writer._CatalogueWriter._unit
    calls = []

    def fail_on_the_third(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("disk full")
        return written(self, *args, **kwargs)

    monkeypatch.setattr(writer._CatalogueWriter, "_unit", fail_on_the_third)
    with pytest.raises(RuntimeError):
        import_files(read_barracks())
    assert (Army.objects.count(), Unit.objects.count(), Weapon.objects.count(), SpecialRule.objects.count()) == (
        0,
        0,
        2,
        1,
    )


# French names


def test_it_gives_imported_units_and_options_the_glossarys_french_and_leaves_unknown_names_english(barracks):
    assert unit("Rifle Squad").name_fr == "Escouade de fusiliers"
    assert option("Rifle Squad", "Anti-tank grenades").name_fr == "Grenades antichar"
    assert option("Medium Mortar Team", "Spotter").name_fr == "Observateur"
    # "Test" is no word of the glossary: the name stays English (display_name falls back to it).
    assert unit("Test Tank").name_fr == ""
