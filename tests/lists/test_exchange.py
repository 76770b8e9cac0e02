"""Exports (plain text, muster-list/3 JSON) and JSON import, through the client."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from armybuilder.catalogue.models import Unit
from armybuilder.lists.exchange import export_data
from armybuilder.lists.models import ArmyList, Entry, Platoon
from tests.lists.factories import (
    make_army,
    make_edition,
    make_entry,
    make_list,
    make_option,
    make_platoon,
    make_unit,
    make_user,
)


def _full_list(owner) -> ArmyList:
    army = make_army(edition=make_edition("v3"), slug="british", name="British")
    rifles = make_unit(army=army, slug="rifle-section", name="Rifle section", cost_regular=50, per_model_regular=10)
    bren = make_option(rifles, slug="bren", name="Bren gun", cost_regular=20, cost_inexperienced=20, cost_veteran=20)
    make_option(rifles, slug="smg", name="SMG", per_model=True)
    officer = make_unit(
        army=army,
        slug="lieutenant",
        name="Lieutenant",
        unit_type="headquarters",
        slot="officer",
        officer_rank="platoon_commander",
        base_models=1,
        max_models=3,
    )
    army_list = make_list(owner=owner, army=army, name="Desert Rats", points_limit=1000, max_order_dice=12)
    platoon = make_platoon(army_list, kind="rifle_platoon", name="1st Platoon")
    make_entry(army_list, officer, platoon=platoon, models_count=2, position=0)
    make_entry(
        army_list,
        rifles,
        platoon=platoon,
        name="Jock's lads",
        quality="veteran",
        models_count=8,
        options={bren.slug: 1},
        position=1,
    )
    make_entry(army_list, rifles, quality="inexperienced", models_count=5, position=2)
    return army_list


def _import(client, data, **kwargs):
    text = data if isinstance(data, str) else json.dumps(data)
    return client.post("/lists/import/", {"text": text, **kwargs})


def _export_as_data(army_list):
    return export_data(ArmyList.objects.for_builder().get(pk=army_list.pk))


def _errors(response) -> list[str]:
    return [str(e) for e in response.context["errors"]]


# -- Plain text ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_exports_plain_text(alice_client, alice):
    army_list = _full_list(alice)
    response = alice_client.get(f"/lists/{army_list.pk}/export.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert "Jock's lads (Veteran, 8 models): Bren gun" in response.text
    assert "1st Platoon" in response.text


@pytest.mark.django_db
def test_it_counts_an_officers_extra_orders_in_good_english(alice_client, alice):
    # A 2nd-edition Second Lieutenant gives one extra order: "1 extra order", not "1 extra orders".
    army = make_army(edition=make_edition("v2"), slug="germany", name="Germany")
    leutnant = make_unit(
        army=army,
        slug="leutnant",
        name="Leutnant",
        unit_type="headquarters",
        slot="officer",
        officer_rank="second_lieutenant",
        base_models=1,
        max_models=3,
    )
    army_list = make_list(owner=alice, army=army, name="Grenadiers", points_limit=1000, force_org="none")
    make_entry(army_list, leutnant, models_count=1, position=0)
    text = alice_client.get(f"/lists/{army_list.pk}/export.txt").text
    officer_line = next((line for line in text.splitlines() if line.startswith("* Leutnant:")), text)
    assert "morale +1, 1 extra order, command range" in officer_line, officer_line


@pytest.mark.django_db
def test_it_puts_no_html_in_the_text_export(alice_client, alice):
    army_list = _full_list(alice)
    ArmyList.objects.filter(pk=army_list.pk).update(name="<b>Rats</b> & <script>x</script>")
    response = alice_client.get(f"/lists/{army_list.pk}/export.txt")
    assert "<" not in response.text and ">" not in response.text
    assert "&amp;" not in response.text
    assert response.text.startswith("Rats & x\n")


# -- JSON export and import ------------------------------------------------------------------


@pytest.mark.django_db
def test_it_exports_muster_list_json(alice_client, alice):
    army_list = _full_list(alice)
    response = alice_client.get(f"/lists/{army_list.pk}/export.json")
    data = response.json()
    assert response["Content-Disposition"] == 'attachment; filename="desert-rats.json"'
    assert (data["format"], data["edition"], data["army"]) == ("muster-list/3", "v3", ["v3", "british"])
    assert data["entries"][1] == {
        "unit": "rifle-section",
        "name": "Jock's lads",
        "quality": "veteran",
        "models": 8,
        "options": {"bren": 1},
        "platoon": 0,
    }


@pytest.mark.django_db
def test_it_round_trips_a_list_through_export_and_import(alice_client, alice):
    army_list = _full_list(alice)
    exported = alice_client.get(f"/lists/{army_list.pk}/export.json").json()
    response = _import(alice_client, exported)
    imported = ArmyList.objects.exclude(pk=army_list.pk).get()
    assert response["Location"] == f"/lists/{imported.pk}/"
    assert alice_client.get(f"/lists/{imported.pk}/export.json").json() == exported


@pytest.mark.django_db
def test_it_imports_an_uploaded_file(alice_client, alice):
    army_list = _full_list(alice)
    exported = alice_client.get(f"/lists/{army_list.pk}/export.json").content
    upload = SimpleUploadedFile("list.json", exported, content_type="application/json")
    response = alice_client.post("/lists/import/", {"file": upload})
    assert response.status_code == 302
    assert ArmyList.objects.filter(name="Desert Rats").count() == 2


@pytest.mark.django_db
def test_it_keeps_an_imported_list_in_a_visitors_session(client):
    owner = make_user("bob")
    exported = _export_as_data(_full_list(owner))
    response = _import(client, exported)
    imported = ArmyList.objects.get(owner__isnull=True)
    assert response.status_code == 302
    assert client.get(f"/lists/{imported.pk}/export.txt").status_code == 200


@pytest.mark.django_db
def test_it_reports_a_json_syntax_error_with_line_and_column(alice_client):
    response = _import(alice_client, '{\n  "format": "muster-list/1",\n  "name": "x"\n  "edition": "v3"\n}')
    assert _errors(response) == ["This is not valid JSON: line 4, column 3: Expecting ',' delimiter."]
    assert not ArmyList.objects.exists()


@pytest.mark.django_db
def test_it_rejects_another_format_version(alice_client):
    data = _export_as_data(_full_list(make_user("bob"))) | {"format": "muster-list/4"}
    response = _import(alice_client, data)
    assert _errors(response) == [
        'format: "muster-list/4" is not supported; this Muster reads "muster-list/3", "muster-list/2" '
        'or "muster-list/1" files.'
    ]
    assert ArmyList.objects.count() == 1


@pytest.mark.django_db
def test_it_rejects_an_unknown_unit_and_saves_nothing(alice_client):
    data = _export_as_data(_full_list(make_user("bob")))
    data["entries"][2]["unit"] = "panzer-iv"
    response = _import(alice_client, data)
    assert _errors(response) == ["entries[2] (panzer-iv): unit 'panzer-iv' is not in British."]
    assert (ArmyList.objects.count(), Entry.objects.count(), Platoon.objects.count()) == (1, 3, 1)


@pytest.mark.django_db
def test_it_rejects_a_quality_the_unit_does_not_offer(alice_client):
    data = _export_as_data(_full_list(make_user("bob")))
    data["entries"][2]["quality"] = "elite"
    response = _import(alice_client, data)
    assert _errors(response) == [
        'entries[2] (Rifle section): quality "elite" is not offered; choose inexperienced, regular or veteran.'
    ]
    assert ArmyList.objects.count() == 1


@pytest.mark.django_db
def test_it_rejects_models_out_of_range(alice_client):
    data = _export_as_data(_full_list(make_user("bob")))
    data["entries"][1]["models"] = 14
    response = _import(alice_client, data)
    assert _errors(response) == ["entries[1] (Jock's lads): models must be from 5 to 10, not 14."]
    assert ArmyList.objects.count() == 1


@pytest.mark.django_db
def test_it_rejects_an_unknown_option(alice_client):
    data = _export_as_data(_full_list(make_user("bob")))
    data["entries"][2]["options"] = {"piat": 1}
    response = _import(alice_client, data)
    assert _errors(response) == ["entries[2] (Rifle section): option 'piat' is not offered; choose 'bren' or 'smg'."]


@pytest.mark.django_db
def test_it_lists_every_error_at_once(alice_client):
    data = _export_as_data(_full_list(make_user("bob")))
    data["points_limit"] = 0
    data["entries"][0]["models"] = 9
    data["entries"][2]["quality"] = "green"
    response = _import(alice_client, data)
    assert len(_errors(response)) == 3
    assert "points_limit: must be a whole number from 1 to 10000, not 0." in _errors(response)
    assert ArmyList.objects.count() == 1


@pytest.mark.django_db
def test_it_rejects_an_army_of_another_edition(alice_client):
    data = _export_as_data(_full_list(make_user("bob"))) | {"edition": "v2"}
    make_edition("v2")
    response = _import(alice_client, data)
    assert _errors(response) == ["army: [\"v3\", \"british\"] belongs to edition 'v3', not 'v2'."]


@pytest.mark.django_db
def test_it_rejects_an_upload_over_one_megabyte(alice_client):
    upload = SimpleUploadedFile("big.json", b" " * (1024 * 1024 + 1), content_type="application/json")
    response = alice_client.post("/lists/import/", {"file": upload})
    assert "larger than 1 MB" in response.text
    assert not ArmyList.objects.exists()


@pytest.mark.django_db
def test_it_asks_for_a_file_or_text(alice_client):
    response = alice_client.post("/lists/import/", {})
    assert "Upload a file or paste the JSON of a list." in response.text


@pytest.mark.django_db
def test_it_shows_the_import_page(alice_client):
    response = alice_client.get("/lists/import/")
    assert response.status_code == 200
    assert 'enctype="multipart/form-data"' in response.text


@pytest.mark.django_db
def test_it_escapes_names_in_import_errors(alice_client):
    data = _export_as_data(_full_list(make_user("bob")))
    data["entries"][0]["unit"] = "<img src=x onerror=alert(1)>"
    response = _import(alice_client, data)
    assert "<img src=x" not in response.text
    assert "<strong>The list was not imported: 1 problem.</strong>" in response.text
    assert '<ul id="import-errors"><li>' in response.text


@pytest.mark.django_db
def test_it_rejects_an_option_with_one_it_excludes(alice_client):
    army_list = _full_list(make_user("bob"))
    rifles = Unit.objects.get(slug="rifle-section")
    make_option(
        rifles, slug="grenades", name="Anti-tank grenades (if no Bren gun taken)", excludes=["bren"], position=9
    )
    data = _export_as_data(army_list)
    data["entries"][2]["options"] = {"bren": 1, "grenades": 1}
    response = _import(alice_client, data)
    assert _errors(response) == [
        "entries[2] (Rifle section): option 'grenades' cannot be taken with 'bren' (Bren gun)."
    ]
    assert ArmyList.objects.count() == 1
