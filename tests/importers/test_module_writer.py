"""An army-builder module written into the catalogue: armies, prices, swaps, dice, flags, re-import, refusal."""

from __future__ import annotations

import io
import json
import zipfile
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.importers.writer import import_files
from armybuilder.reference.models import SpecialRule, Status
from armydata import github
from armydata.safety import CatalogueImportError
from tests.importers.test_module import MODULE, read_module
from tests.reference.factories import make_edition, make_weapon

pytestmark = pytest.mark.django_db


def make_v3_chart():
    edition = make_edition(slug="v3", number=3)
    for slug, name in (
        ("rifle", "Rifle"),
        ("smg", "Submachine gun (SMG)"),
        ("lmg", "Light machine gun (LMG)"),
        ("mmg", "Medium machine gun (MMG)"),
        ("heavy-at-gun", "Heavy anti-tank gun"),
        ("panzerfaust", "Panzerfaust"),
    ):
        make_weapon(edition, slug=slug, name=name)
    return edition


@pytest.fixture
def imported():
    make_v3_chart()
    return import_files(read_module())


def unit(name: str, army: str = "Germany") -> Unit:
    return Unit.objects.get(army__name=army, name=name)


def test_each_nation_is_an_army_of_the_third_edition_with_its_national_rules(imported):
    germany = Army.objects.get(name="Germany")
    assert (germany.edition.slug, germany.origin, germany.source_id) == ("v3", "module", "germany")
    rules = list(germany.national_rules.order_by("name"))
    assert [rule.name for rule in rules] == ["Quick Orders", "Steady Nerves"]
    # The source's text is not presented as Muster's: the rule waits for a paraphrase, credited to the import
    # (the text is kept apart on the army and shown quoted: test_module_rule_texts).
    assert all(rule.status == Status.UNVERIFIED and rule.summary == "" for rule in rules)
    assert rules[0].source.startswith("import: TTAMBA-Test")


def test_prices_sizes_and_per_quality_options(imported):
    squad = unit("Heer Rifle Squad")
    assert squad.base_cost() == {"inexperienced": 42, "regular": 60, "veteran": 78}
    assert squad.per_model_cost() == {"inexperienced": 7, "regular": 10, "veteran": 13}
    assert (squad.base_models, squad.max_models) == (5, 10)
    panzerfaust = squad.options.get(name="Panzerfaust")
    assert panzerfaust.cost() == {"regular": 6, "veteran": 5}  # not offered to inexperienced men


def test_per_man_swaps_keep_their_own_cap_and_the_shared_one(imported):
    squad = unit("Heer Rifle Squad")
    smgs = squad.options.get(name="SMGs")
    assert (smgs.per_model, smgs.max_count, smgs.group) == (True, 2, "gun")
    assert (smgs.grants_weapon.slug, smgs.replaces_weapon.slug) == ("smg", "rifle")
    assert squad.option_groups == [
        {"key": "gun", "label": "Weapons (gun)", "minimum": 0, "maximum": 1, "per_model": True}
    ]
    assert squad.options.get(name="LMG Team").adds_models == 2
    assert squad.options.get(name="LMG").excludes == ["automatic-rifle"]


def test_vehicles_keep_damage_value_transport_and_mounts(imported):
    tank = unit("Panzer IV Ausf H Medium Tank")
    assert (tank.unit_type, tank.damage_value) == ("vehicle_armoured", 9)
    assert [(line["weapon"], line["mount"], line["arc"]) for line in tank.weapon_lines] == [
        ("heavy-at-gun", "turret", "360"),
        ("mmg", "coaxial", "360"),
        ("mmg", "hull", "front"),
    ]
    truck = unit("Opel Blitz Truck")
    assert (truck.unit_type, truck.damage_value, truck.transport_capacity) == ("transport", 6, 12)
    assert unit("Kubelwagen").unit_type == "vehicle_soft"
    assert SpecialRule.objects.filter(units=truck, name="Open Topped").exists()


def test_order_dice_periods_and_flags_are_stored(imported):
    assert unit("Attached Observer").order_dice == 0
    assert unit("Heer Rifle Squad").order_dice == 1
    assert unit("Panzer IV Ausf H Medium Tank").periods == "ML"
    assert unit("Captain Wolf").source_flags == ["campaign"]
    assert unit("Heer Rifle Squad").source_flags == []


def test_the_report_says_what_was_read_guessed_and_dropped(imported):
    lines = "\n".join(imported.lines())
    assert "Bolt Action army-builder module (army-builder module, edition v3): 1 file" in lines
    assert "Germany: Stuka: only in Air Support, which Muster has no platoon for" in lines
    assert "given rifles" in lines


def test_importing_the_same_file_again_changes_nothing_and_keeps_the_ids(imported):
    before = dict(Unit.objects.values_list("source_id", "pk"))
    stamps = dict(Unit.objects.values_list("pk", "updated_at"))
    options = dict(Option.objects.values_list("pk", "updated_at"))
    again = import_files(read_module())
    assert not again.catalogues[0].changed
    assert dict(Unit.objects.values_list("source_id", "pk")) == before
    assert dict(Unit.objects.values_list("pk", "updated_at")) == stamps
    assert dict(Option.objects.values_list("pk", "updated_at")) == options


def test_a_malformed_module_writes_nothing():
    make_v3_chart()
    data = json.loads(MODULE.read_bytes())
    data["data"]["factions"].append({"additionalRules": []})
    with pytest.raises(CatalogueImportError, match="TTAMBA-Test: data.factions\\[3\\] has no name"):
        import_files({"TTAMBA-Test": json.dumps(data).encode()})
    assert not Army.objects.filter(origin="module").exists()
    assert not Unit.objects.exists()


def test_the_command_imports_a_file_with_no_extension():
    make_v3_chart()
    out = StringIO()
    call_command("import_catalogue", str(MODULE), "--verbosity", "0", stdout=out)
    assert "Import complete." in out.getvalue()
    assert Unit.objects.filter(army__name="Germany", name="Heer Rifle Squad").exists()


def test_the_command_refuses_a_malformed_module_with_the_files_name(tmp_path):
    make_v3_chart()
    broken = tmp_path / "TTAMBA-Broken"
    broken.write_text('{"game": "Bolt Action", "data": {"factions": [], "units": []}}')
    with pytest.raises(CommandError, match="TTAMBA-Broken: data.factions is not a list of nations. Nothing was"):
        call_command("import_catalogue", str(broken), "--verbosity", "0")
    assert not Unit.objects.exists()


# the staff page and GitHub


@pytest.fixture
def staff(client):
    make_v3_chart()
    client.force_login(get_user_model().objects.create_user("quartermaster", password=None, is_staff=True))
    return client


def test_the_staff_page_imports_a_module_uploaded_with_no_extension(staff):
    upload = SimpleUploadedFile("TTAMBA-Test", MODULE.read_bytes())
    response = staff.post("/catalogue/import/", {"files": [upload]}, follow=True)
    assert response.status_code == 200
    assert "Import complete." in response.content.decode()
    assert Unit.objects.filter(army__name="Germany", name="Heer Rifle Squad").exists()


def test_the_staff_page_offers_files_with_no_extension_and_refuses_a_file_that_is_no_module(staff):
    page = staff.get("/catalogue/import/").content.decode()
    assert 'accept="' not in page  # a picker filtered by suffix would grey out "TTAMBA-Condensed"
    response = staff.post("/catalogue/import/", {"files": [SimpleUploadedFile("notes", b"shopping list")]})
    assert "notes is not a catalogue file" in response.content.decode()
    assert not Army.objects.filter(origin="module").exists()


def test_the_staff_page_shows_why_a_malformed_module_is_refused_and_writes_nothing(staff):
    data = json.loads(MODULE.read_bytes())
    data["data"]["units"] = "none"
    upload = SimpleUploadedFile("TTAMBA-Test", json.dumps(data).encode())
    response = staff.post("/catalogue/import/", {"files": [upload]}, follow=True)
    assert "TTAMBA-Test: data.units is not a list. Nothing was imported." in response.content.decode()
    assert not Army.objects.filter(origin="module").exists()


def test_a_repository_archive_yields_the_module_although_it_has_no_extension():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("BoltAction3D-WWII-main/README.md", b"# models\n")
        archive.writestr("BoltAction3D-WWII-main/LICENSE", b"no licence given")
        archive.writestr("BoltAction3D-WWII-main/other.json", b'{"not": "a module"}')
        archive.writestr("BoltAction3D-WWII-main/TTAMBA-Test", MODULE.read_bytes())
    repository = github.parse_repository("someone/BoltAction3D-WWII")
    assert list(github.catalogue_files(repository, buffer.getvalue())) == ["TTAMBA-Test"]


def test_the_data_page_says_no_licence_is_stated_for_a_module_army(imported, client):
    page = client.get("/about/data/").content.decode()
    assert "None stated: an army-builder module imported by this site&#x27;s staff for their own use" in page
