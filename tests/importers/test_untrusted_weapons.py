"""One imported weapon must not take pages down, nor mount variants fill the rulebook chart.

``data/untrusted/untrusted.cat`` reproduces what the community 3rd-edition data did: a
"Co-axial Flamethrower" with shots "1(D6+1)", weapon profiles named with their mounts ("Front
Pintle-mounted LMG", "Co-axial MMG"), and more besides (a new weapon, an empty profile, huge
numbers, dice Muster cannot read, a missing profile, a duplicated name).
"""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps as django_apps
from django.utils import translation

from armybuilder.catalogue.models import Army, Unit
from armybuilder.importers.writer import import_files
from armybuilder.reference.models import Edition, Status, Weapon
from tests.importers.helpers import BATTLESCRIBE, DATA
from tests.importers.hostile import SYSTEM, UnitSpec, catalogue
from tests.importers.pages import get, list_of_every_unit, load_reference, urls_showing
from tests.lists.factories import make_user

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr class="status-[a-z]+" data-weapon="([^"]+)"')


def files() -> dict[str, bytes]:
    return {
        "system_v3.gst": (BATTLESCRIBE / "system_v3.gst").read_bytes(),
        "untrusted.cat": (DATA / "untrusted" / "untrusted.cat").read_bytes(),
    }


def chart_rows(client, language: str = "en") -> list[str]:
    response = client.get("/reference/v3/weapons/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return ROW.findall(response.text)


def compare_counts(client) -> tuple[int, int, int]:
    response = client.get("/reference/compare/weapons/?a=v2&b=v3")
    assert response.status_code == 200
    diff = response.context["diffs"][0]
    return diff.added, diff.removed, len(diff.rows)


@pytest.fixture
def reference():
    load_reference()


@pytest.fixture
def imported(reference):
    return import_files(files())


def test_the_3rd_edition_chart_and_the_compare_view_are_the_same_after_the_import(client, reference):
    before = chart_rows(client), chart_rows(client, "fr"), compare_counts(client)
    assert len(before[0]) == 31
    import_files(files())
    assert (chart_rows(client), chart_rows(client, "fr"), compare_counts(client)) == before


def test_mount_variants_are_the_chart_weapon_on_a_mount(imported):
    tank = Unit.objects.get(name="Testwagen IV")
    lines = [(line["weapon"], line["mount"], line["arc"]) for line in tank.weapon_lines]
    assert lines == [
        ("medium-at-gun", "turret", ""),
        ("vehicle-flamethrower", "coaxial", ""),
        ("lmg", "pintle", "front"),
        ("lmg", "pintle", "left"),
        ("lmg", "pintle", "right"),
        ("mmg", "coaxial", ""),
    ]
    assert set(tank.weapons.values_list("slug", flat=True)) == {"medium-at-gun", "vehicle-flamethrower", "lmg", "mmg"}
    assert not Weapon.objects.filter(name__icontains="mounted").exists()
    assert not Weapon.objects.filter(name__icontains="co-axial").exists()


def test_a_new_weapon_is_an_imported_row_of_its_army_with_its_source(imported):
    new = Weapon.objects.get(imported=True)
    assert (new.name, new.range_max, new.shots, new.pen, new.status) == ("Testgewehr 99", 30, "3", 1, Status.UNVERIFIED)
    assert new.source.startswith("import: ")
    assert set(Weapon.objects.filter(edition__slug="v3", imported=False).values_list("position", flat=True)) == set(
        range(1, 32)
    )


def test_refused_weapons_are_reported_and_their_units_kept_without_them(imported):
    result = imported.catalogues[0]
    assert "Weapons: 6 (5 matched to the v3 weapons chart, 1 created); 5 refused (see the warnings)" in result.counts()
    refused = [warning for warning in result.warnings if " refused, " in warning]
    assert [warning.split("'")[1] for warning in refused] == [
        "Empty Launcher",
        "Big Bertha",
        "Dice Gun",
        "Half Gun",
        "Backwards Mortar",
    ]
    assert "range: '' holds no distance" in refused[0]
    assert "shots: 'D7+1' is not a dice expression" in refused[2]
    for name in ("Empty Profile Team", "Huge Gun Team", "Odd Dice Team", "Ghost Team"):
        assert not Unit.objects.get(name=name).weapons.exists()


def test_importing_again_changes_nothing(imported):
    weapons = list(Weapon.objects.order_by("pk").values())
    units = list(Unit.objects.order_by("pk").values("name", "weapon_lines", "updated_at"))
    result = import_files(files()).catalogues[0]
    assert list(Weapon.objects.order_by("pk").values()) == weapons
    assert list(Unit.objects.order_by("pk").values("name", "weapon_lines", "updated_at")) == units
    assert (result.weapons_created, result.weapons_kept) == (0, 1)


def test_the_new_weapon_is_listed_under_its_army_on_the_data_page_and_not_in_the_chart(client, imported):
    army = Army.objects.get(name="Untrusted Testland")
    about = client.get("/about/data/")
    section = about.text.split('id="imported-weapons"')[1]
    assert army.name in section
    assert 'data-weapon="testgewehr-99"' in section
    assert "import: " in section and "Unverified" in section
    assert "testgewehr-99" not in chart_rows(client)
    french = client.get("/about/data/", HTTP_ACCEPT_LANGUAGE="fr")
    assert "Armes des listes d'armée importées" in french.text
    chart = client.get("/reference/v3/weapons/")
    assert 'href="/about/data/#imported-weapons"' in chart.text.split('id="imported-weapons-note"')[1]
    assert "figurent sous leur armée" in client.get("/reference/v3/weapons/", HTTP_ACCEPT_LANGUAGE="fr").text
    assert 'id="imported-weapons-note"' not in client.get("/reference/v2/weapons/").text


def test_every_page_that_shows_the_imported_army_answers(client, imported):
    owner = make_user()
    client.force_login(owner)
    army_list = list_of_every_unit(Army.objects.get(name="Untrusted Testland"), owner)
    for url in urls_showing(army_list):
        assert get(client, url).status_code == 200, url


def test_the_odds_offer_the_new_weapon_under_its_own_heading_and_fire_it(client, imported):
    page = client.get("/calc/shooting/?edition=v3")
    heading = page.text.index('<optgroup label="From imported army lists">')
    assert page.text.index('value="testgewehr-99"') > heading > page.text.index('value="rifle"')
    fired = client.get("/calc/shooting/?edition=v3&g0-weapon=testgewehr-99&g0-models=5&g0-range=normal")
    assert fired.status_code == 200
    assert fired.context["result"] is not None


def test_a_unit_of_huge_cost_is_refused_and_a_huge_damage_value_left_out(reference):
    units = [
        UnitSpec("Fortune Squad", cost=10**15),
        UnitSpec("Fortress", damage="99999999999+ (Super-heavy)", cost=300),
    ]
    result = import_files({SYSTEM: files()[SYSTEM], "huge.cat": catalogue(units)}).catalogues[0]
    reason = "a cost of 1000000000000000 points, beyond any unit's (at most 10000)"
    assert ("Hostile Testland: Fortune Squad", reason) in result.skipped
    fortress = Unit.objects.get(name="Fortress")
    assert (fortress.unit_type, fortress.damage_value, fortress.cost_regular) == ("vehicle_armoured", None, 300)
    assert any("a damage value of 99999999999 is beyond any vehicle's" in warning for warning in result.warnings)


# What an older import left behind must not take the odds pages down either.


@pytest.fixture
def unreadable(reference):
    """A row as the import before this fix wrote it: the data's shots string copied as it was."""
    return Weapon.objects.create(
        edition=Edition.objects.get(slug="v3"),
        slug="co-axial-flamethrower",
        name="Co-axial Flamethrower",
        category="heavy",
        position=900,
        range_max=12,
        shots="1(D6+1)",
        pen=2,
        source="import: Bolt Action: Third Edition.gst + 12 more files (BattleScribe)",
        status=Status.UNVERIFIED,
    )


def test_the_odds_pages_leave_out_a_weapon_whose_stats_cannot_be_read(client, unreadable):
    for url in ("/calc/shooting/", "/calc/anti-tank/", "/calc/shooting/?edition=v3", "/calc/anti-tank/?edition=v3"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert 'value="co-axial-flamethrower"' not in response.text
    chosen = client.get("/calc/shooting/?edition=v3&g0-weapon=co-axial-flamethrower&g0-models=1&g0-range=normal")
    assert chosen.status_code == 200
    assert chosen.context["result"] is None


def test_what_are_my_odds_of_a_unit_carrying_it_fires_its_other_weapons(client, unreadable):
    import_files(files())
    tank = Unit.objects.get(name="Testwagen IV")
    tank.weapons.add(unreadable)
    tank.weapon_lines = [*tank.weapon_lines, {"weapon": unreadable.slug, "mount": "coaxial", "count": 1, "arc": ""}]
    tank.save()
    owner = make_user()
    client.force_login(owner)
    army_list = list_of_every_unit(tank.army, owner)
    entry = army_list.entries.get(unit=tank)
    response = client.get(f"/calc/shooting/?from_entry={entry.pk}")
    assert response.status_code == 200
    weapons = {value for key, value in response.context["form"].data.items() if key.endswith("-weapon")}
    assert "co-axial-flamethrower" not in weapons
    assert {"medium-at-gun", "lmg", "mmg"} <= weapons


def test_importing_again_drops_the_rows_an_older_import_made_of_mount_variants(unreadable):
    import_files(files())
    tank = Unit.objects.get(name="Testwagen IV")
    old = Weapon.objects.create(
        edition=unreadable.edition,
        slug="front-pintle-mounted-lmg",
        name="Front Pintle-mounted LMG",
        category="small-arms",
        range_max=36,
        shots="4",
        source=unreadable.source,
        imported=True,
    )
    Weapon.objects.filter(pk=unreadable.pk).update(imported=True)
    tank.weapons.add(old, unreadable)  # as the older import left the tank
    kept = Weapon.objects.get(name="Testgewehr 99")
    result = import_files(files()).catalogues[0]
    assert not Weapon.objects.filter(pk__in=[old.pk, unreadable.pk]).exists()
    assert list(Weapon.objects.filter(imported=True)) == [kept]
    assert result.weapons_dropped == 2
    assert "2 imported earlier and carried by no unit any more, deleted" in result.counts()[3]


def test_the_migration_takes_weapons_earlier_imports_created_out_of_the_chart(unreadable):
    Weapon.objects.filter(pk=unreadable.pk).update(imported=False)
    migration = importlib.import_module("armybuilder.reference.migrations.0005_weapon_imported")
    migration.mark_imported(django_apps, None)
    assert list(Weapon.objects.filter(imported=True)) == [unreadable]
    with translation.override("en"):
        assert Weapon.objects.filter(edition__slug="v3").rulebook().count() == 31
