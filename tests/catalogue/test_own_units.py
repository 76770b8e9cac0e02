"""A player's own units: the form, the builder, deleting, sharing, and who may see what."""

from __future__ import annotations

import json
import re

import pytest

from armybuilder.catalogue.models import Unit, UnitShare
from armybuilder.lists.models import ArmyList, Entry
from armybuilder.lists.summary import list_summary
from rules.army import own_units as own_rules
from tests.catalogue.own_units import fill_own_units, grenadiers, hauptmann, make_own_list, panzer_iv, three_unit_list
from tests.lists.factories import make_user


def test_signed_out_visitors_are_sent_to_log_in(client, v3):
    alice = make_user("alice")
    tank = Unit.objects.create(
        army=v3, owner=alice, slug="own-tank", name="Tank", unit_type="vehicle_armoured", slot="tank", source="t"
    )
    for url in ("/units/", "/units/new/v3/", f"/units/{tank.pk}/"):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for url in (f"/units/{tank.pk}/delete/", "/units/share/v3/", f"/units/{tank.pk}/"):
        response = client.post(url, {"name": "Mine now"})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Unit.objects.get(pk=tank.pk).name == "Tank"
    assert not UnitShare.objects.exists()


def test_a_tank_is_saved_with_its_three_mounts_and_priced_from_the_book(alice_client, alice, v3):
    response = alice_client.post("/units/new/v3/", panzer_iv(v3))
    assert response.status_code == 302, response.content.decode()[:3000]
    tank = Unit.objects.get(owner=alice)
    assert tank.army == v3 and tank.is_own
    assert tank.base_cost() == {"inexperienced": 188, "regular": 235, "veteran": 282}
    assert tank.damage_value == 9
    assert [(line["weapon"], line["mount"], line["arc"]) for line in tank.weapon_lines] == [
        ("heavy-at-gun", "turret", "360"),
        ("mmg", "coaxial", "360"),
        ("mmg", "hull", "front"),
    ]
    assert sorted(tank.weapons.values_list("slug", flat=True)) == ["heavy-at-gun", "mmg"]
    page = alice_client.get("/units/").content.decode()
    assert "Panzer IV Ausf. H" in page and "your entry" in page


@pytest.mark.parametrize(
    ("change", "field_text"),
    [
        ({"damage_value": None}, "A vehicle needs its damage value."),
        ({"w-0-mount": ""}, "Give each of a vehicle&#x27;s weapons its mount."),
        ({"w-0-arc": ""}, "Give the arc of a mounted weapon."),
        ({"cost_regular": None, "cost_inexperienced": None, "cost_veteran": None}, "Give the cost of at least one"),
        ({"max_models": 0}, "Ensure this value is greater than or equal to 1."),
        ({"cost_regular": "lots"}, "Enter a whole number."),
        ({"w-0-weapon": 999999}, "That weapon is not on this edition"),
    ],
)
def test_a_wrong_field_is_refused_next_to_it(alice_client, alice, v3, change, field_text):
    data = {**panzer_iv(v3), **change}
    data = {k: v for k, v in data.items() if v is not None}
    response = alice_client.post("/units/new/v3/", data)
    assert response.status_code == 400
    assert field_text in response.content.decode()
    assert 'class="errorlist' in response.content.decode()
    assert not Unit.objects.filter(owner=alice).exists()


def test_the_rules_of_a_coherent_unit():
    spec = own_rules.OwnUnitSpec(
        name="Squad",
        unit_type="infantry",
        slot="infantry",
        base_cost={"regular": 50},
        per_model_cost={},
        base_models=5,
        max_models=10,
        weapons=(own_rules.WeaponLine("rifle", 1, "hull", "front"),),
        option_names=("SMG", "smg"),
    )
    assert own_rules.check(spec) == [
        ("per_model_regular", "per_model_missing"),
        ("weapons", "mount_only_vehicles"),
        ("options", "option_names_repeat"),
    ]


def test_own_units_are_taken_in_a_list_as_built_in_ones_are(alice_client, alice, v3):
    for data in (panzer_iv(v3), grenadiers(v3), hauptmann(v3)):
        assert alice_client.post("/units/new/v3/", data).status_code == 302
    tank, squad, captain = (
        Unit.objects.get(owner=alice, name=n) for n in ("Panzer IV Ausf. H", "Grenadier Squad", "Hauptmann Krüger")
    )
    army_list = make_own_list(alice_client, v3)
    page = alice_client.get(f"/lists/{army_list.pk}/").content.decode()
    for unit in (tank, squad, captain):
        assert f'id="add-unit-{unit.pk}"' in page
    assert "Add a unit from your book" in page
    rifle = Unit.objects.get(army=v3, slug="rifle-squad")
    for unit in (tank, squad, captain, rifle):
        assert alice_client.post(f"/lists/{army_list.pk}/entries/add/", {"unit": unit.pk}).status_code in (200, 302)
    entry = Entry.objects.get(army_list=army_list, unit=squad)
    entry.options = {squad.options.get(name="SMG instead of rifle").slug: 3}
    entry.save()
    army_list = ArmyList.objects.for_builder().get(pk=army_list.pk)
    summary = list_summary(army_list)
    assert summary.points == 235 + (50 + 3 * 3) + 110 + rifle.cost_regular
    assert summary.order_dice == 4
    page = alice_client.get(f"/lists/{army_list.pk}/").content.decode()
    assert page.count("own-mark") >= 6  # three rows and three catalogue entries
    assert [o.rank for o in summary.officers] == ["captain"]


def test_another_player_never_sees_or_takes_them(client, alice_client, alice, v3):
    assert alice_client.post("/units/new/v3/", panzer_iv(v3)).status_code == 302
    tank = Unit.objects.get(owner=alice)
    bob = make_user("bob")
    client.force_login(bob)
    bob_list = make_own_list(client, v3, "Bob's")
    assert f"add-unit-{tank.pk}" not in client.get(f"/lists/{bob_list.pk}/").content.decode()
    client.post(f"/lists/{bob_list.pk}/entries/add/", {"unit": tank.pk})
    assert not bob_list.entries.exists()
    assert client.get(f"/units/{tank.pk}/").status_code == 404
    assert client.post(f"/units/{tank.pk}/", panzer_iv(v3)).status_code == 404
    assert client.post(f"/units/{tank.pk}/delete/").status_code == 404
    assert Unit.objects.filter(pk=tank.pk, name="Panzer IV Ausf. H").exists()
    assert "Panzer IV" not in client.get("/units/").content.decode()
    api = client.get("/api/editions/v3/armies/generic/units/").content.decode()
    assert "Panzer IV" not in api


def test_a_unit_used_in_lists_cannot_be_deleted_and_the_lists_are_named(alice_client, alice, v3):
    assert alice_client.post("/units/new/v3/", panzer_iv(v3)).status_code == 302
    tank = Unit.objects.get(owner=alice)
    army_list = make_own_list(alice_client, v3, "Kampfgruppe Nord")
    alice_client.post(f"/lists/{army_list.pk}/entries/add/", {"unit": tank.pk})
    page = alice_client.post(f"/units/{tank.pk}/delete/", follow=True).content.decode()
    assert "Kampfgruppe Nord" in page and "so it stays" in page
    assert Unit.objects.filter(pk=tank.pk).exists()
    army_list.entries.all().delete()
    alice_client.post(f"/units/{tank.pk}/delete/")
    assert not Unit.objects.filter(pk=tank.pk).exists()


def test_an_edit_keeps_the_options_a_list_took(alice_client, alice, v3):
    assert alice_client.post("/units/new/v3/", grenadiers(v3)).status_code == 302
    squad = Unit.objects.get(owner=alice)
    slug = squad.options.get(name="SMG instead of rifle").slug
    data = grenadiers(v3)
    data["o-0-cost"] = 4
    assert alice_client.post(f"/units/{squad.pk}/", data).status_code == 302
    assert squad.options.get(slug=slug).cost() == {"inexperienced": 4, "regular": 4, "veteran": 4}
    form = alice_client.get(f"/units/{squad.pk}/").content.decode()
    assert 'value="SMG instead of rifle"' in form


def test_a_unit_starts_as_a_copy_of_a_built_in_one(alice_client, v3):
    rifle = Unit.objects.get(army=v3, slug="rifle-squad")
    page = alice_client.get(f"/units/new/v3/?from={rifle.pk}").content.decode()
    assert f'value="{rifle.name} (mine)"' in page


def test_a_player_keeps_at_most_200_units(alice_client, alice, v3):
    fill_own_units(v3, alice)
    response = alice_client.post("/units/new/v3/", panzer_iv(v3))
    assert response.status_code == 400
    assert "the most one player can keep" in response.content.decode()


def test_a_shared_set_is_read_by_its_link_and_copied_never_edited(client, alice_client, alice, v3):
    assert alice_client.post("/units/new/v3/", panzer_iv(v3)).status_code == 302
    tank = Unit.objects.get(owner=alice)
    alice_client.post("/units/share/v3/")
    token = UnitShare.objects.get(owner=alice).token
    assert token in alice_client.get("/units/").content.decode()
    alice_client.logout()

    # Anyone with the link reads it; a visitor must log in to copy.
    page = client.get(f"/units/shared/{token}/")
    assert page.status_code == 200 and "Panzer IV Ausf. H" in page.content.decode()
    assert "/accounts/login/" in client.post(f"/units/shared/{token}/")["Location"]
    assert client.get("/units/shared/not-a-token/").status_code == 404

    bob = make_user("bob")
    client.force_login(bob)
    client.post(f"/units/shared/{token}/")
    copy = Unit.objects.get(owner=bob)
    assert copy.pk != tank.pk and copy.name == tank.name and copy.weapon_lines == tank.weapon_lines
    assert client.get(f"/units/{tank.pk}/").status_code == 404
    assert client.get(f"/units/{copy.pk}/").status_code == 200

    alice_client.force_login(alice)
    alice_client.post("/units/unshare/v3/")
    assert client.get(f"/units/shared/{token}/").status_code == 404


def test_a_copied_shared_list_takes_the_readers_own_copies(client, alice_client, alice, v3):
    assert alice_client.post("/units/new/v3/", panzer_iv(v3)).status_code == 302
    tank = Unit.objects.get(owner=alice)
    army_list = make_own_list(alice_client, v3)
    alice_client.post(f"/lists/{army_list.pk}/entries/add/", {"unit": tank.pk})
    # A visitor without an account has nowhere to keep the units: asked to log in.
    client.logout()
    page = client.post(f"/s/{army_list.share_token}/copy/", follow=True).content.decode()
    assert "log in to copy it" in page
    assert ArmyList.objects.count() == 1
    bob = make_user("bob")
    client.force_login(bob)
    client.post(f"/s/{army_list.share_token}/copy/")
    copy = ArmyList.objects.get(owner=bob)
    taken = copy.entries.get().unit
    assert taken.owner == bob and taken.name == tank.name
    shared = client.get(f"/s/{army_list.share_token}/").content.decode()
    assert "Panzer IV Ausf. H" in shared


def test_the_form_speaks_french(alice_client, v3):
    alice_client.cookies["django_language"] = "fr"
    page = alice_client.get("/units/new/v3/").content.decode()
    assert "Ajouter une unité de votre livre" in page


def test_the_json_export_carries_its_own_units_and_imports_for_another_player(client, alice_client, alice, v3):
    army_list = three_unit_list(alice_client, alice, v3)
    exported = alice_client.get(f"/lists/{army_list.pk}/export.json").content.decode()
    data = json.loads(exported)
    assert data["format"] == "muster-list/3"
    assert sorted(unit["name"] for unit in data["own_units"]) == [
        "Grenadier Squad",
        "Hauptmann Krüger",
        "Panzer IV Ausf. H",
    ]
    assert sum("own_unit" in entry for entry in data["entries"]) == 3
    points = list_summary(ArmyList.objects.for_builder().get(pk=army_list.pk)).points

    # A visitor without an account cannot take someone's own units in.
    client.logout()
    response = client.post("/lists/import/", {"text": exported})
    assert "log in to import it" in response.content.decode()

    bob = make_user("bob")
    client.force_login(bob)
    response = client.post("/lists/import/", {"text": exported})
    assert response.status_code == 302, response.content.decode()[:3000]
    imported = ArmyList.objects.for_builder().get(owner=bob)
    assert {entry.unit.owner_id for entry in imported.entries.all() if entry.unit.is_own} == {bob.pk}
    assert Unit.objects.filter(owner=bob).count() == 3
    assert list_summary(imported).points == points

    # Importing it again reuses the identical units rather than piling up copies.
    assert client.post("/lists/import/", {"text": exported}).status_code == 302
    assert Unit.objects.filter(owner=bob).count() == 3
    # Alice's own units are untouched.
    assert Unit.objects.filter(owner=alice).count() == 3


def _generic_file(file_format: str, name: str, entry: dict) -> str:
    """A list file of a 1,000-point Generic v3 list of one regular ``entry`` with no options, as text."""
    entry = {"quality": "regular", "options": {}, "platoon": None} | entry
    document = {
        "format": file_format,
        "name": name,
        "edition": "v3",
        "army": ["v3", "generic"],
        "points_limit": 1000,
        "entries": [entry],
    }
    return json.dumps(document)


def test_an_own_unit_is_never_taken_by_its_slug_alone(client, alice_client, alice, v3):
    assert alice_client.post("/units/new/v3/", panzer_iv(v3)).status_code == 302
    tank = Unit.objects.get(owner=alice)
    document = _generic_file("muster-list/3", "Sneaky", {"unit": tank.slug, "models": 1})
    bob = make_user("bob")
    client.force_login(bob)
    response = client.post("/lists/import/", {"text": document})
    assert "is not in Generic" in response.content.decode()
    assert not ArmyList.objects.filter(owner=bob).exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"damage_value": None}, "own_units[0].damage_value: A vehicle needs its damage value."),
        (
            {"weapons": [{"weapon": "death-ray", "count": 1, "mount": "turret", "arc": "360"}]},
            "own_units[0].weapons[0]",
        ),
        ({"cost": {"regular": -5}}, "own_units[0].cost.regular"),
        ({"name": "x" * 500}, "own_units[0].name"),
        ({"options": [{"key": "A B", "name": "x", "cost": 1}]}, "own_units[0].options[0].key"),
    ],
)
def test_a_wrong_own_unit_in_a_file_is_refused_with_its_place(alice_client, alice, v3, change, message):
    army_list = three_unit_list(alice_client, alice, v3)
    data = json.loads(alice_client.get(f"/lists/{army_list.pk}/export.json").content)
    tank = next(i for i, unit in enumerate(data["own_units"]) if unit["name"] == "Panzer IV Ausf. H")
    data["own_units"].insert(0, data["own_units"].pop(tank))
    data["own_units"][0].update(change)
    response = alice_client.post("/lists/import/", {"text": json.dumps(data)})
    assert message in response.content.decode()
    assert ArmyList.objects.filter(owner=alice).count() == 1


def test_an_older_file_still_imports(alice_client, v3):
    document = _generic_file("muster-list/2", "Old", {"unit": "rifle-squad", "models": 5})
    assert alice_client.post("/lists/import/", {"text": document}).status_code == 302


def test_the_builder_page_is_not_answered_from_cache_once_a_unit_is_added(alice_client, alice, v3):
    army_list = make_own_list(alice_client, v3)
    first = alice_client.get(f"/lists/{army_list.pk}/")
    assert alice_client.get(f"/lists/{army_list.pk}/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert alice_client.post("/units/new/v3/", panzer_iv(v3)).status_code == 302
    again = alice_client.get(f"/lists/{army_list.pk}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and "Panzer IV Ausf. H" in again.content.decode()


def test_cards_and_roster_print_own_units_marked_as_the_players_entry(alice_client, alice, v3):
    from tests.playsheets.conftest import Pdf

    army_list = three_unit_list(alice_client, alice, v3)
    cards = alice_client.get(f"/lists/{army_list.pk}/cards.pdf?lang=en")
    assert cards.status_code == 200
    pdf = Pdf(cards.content)
    for name in ("Panzer IV Ausf. H 235 pts", "Grenadier Squad 79 pts", "Hauptmann Krüger 110 pts", "Rifle squad"):
        assert name in pdf.text
    assert pdf.text.count("player's entry") >= 3
    assert "turret, 360°" in pdf.text and "hull, front" in pdf.text
    roster = Pdf(alice_client.get(f"/lists/{army_list.pk}/roster.pdf?lang=en").content)
    summary = list_summary(ArmyList.objects.for_builder().get(pk=army_list.pk))
    assert f"points {summary.points} / 1000" in roster.lower
    shared = alice_client.get(f"/s/{army_list.share_token}/").content.decode()
    assert shared.count("player's entry") == 3
    text = alice_client.get(f"/lists/{army_list.pk}/export.txt").content.decode()
    assert text.count("[player's own entry]") == 3
    assert "* Panzer IV Ausf. H (Regular, 1 model) [player's own entry] - 235 pts" in text


def test_the_odds_open_from_the_tank_with_its_chart_weapons(alice_client, alice, v3):
    army_list = three_unit_list(alice_client, alice, v3)
    tank = Entry.objects.get(army_list=army_list, unit__name="Panzer IV Ausf. H")
    page = alice_client.get(f"/calc/shooting/?from_entry={tank.pk}")
    assert page.status_code == 200
    html = page.content.decode()
    # The turret gun fires once, the co-axial and hull MMGs together: two MMG shots.
    assert re.search(r'<option value="heavy-at-gun" selected[^>]*>[^<]*</option>', html)
    assert '<option value="mmg" selected>' in html
    assert 'name="g0-models" value="1"' in html and 'name="g1-models" value="2"' in html


def test_a_shared_list_is_not_copied_past_the_readers_limit(client, alice_client, alice, v3):
    assert alice_client.post("/units/new/v3/", panzer_iv(v3)).status_code == 302
    army_list = make_own_list(alice_client, v3)
    alice_client.post(f"/lists/{army_list.pk}/entries/add/", {"unit": Unit.objects.get(owner=alice).pk})
    bob = make_user("bob")
    fill_own_units(v3, bob, prefix="b")
    client.force_login(bob)
    page = client.post(f"/s/{army_list.share_token}/copy/", follow=True).content.decode()
    assert "the most one player can keep" in page
    assert not ArmyList.objects.filter(owner=bob).exists()


def test_a_player_who_goes_takes_their_units_and_the_lists_using_them(alice_client, alice, v3):
    army_list = three_unit_list(alice_client, alice, v3)
    alice.delete()
    assert not Unit.objects.filter(owner__isnull=False).exists()
    assert not ArmyList.objects.filter(pk=army_list.pk).exists()
    assert Unit.objects.filter(army=v3, slug="rifle-squad").exists()


def test_a_unit_a_list_takes_still_cannot_be_deleted_on_its_own(alice_client, alice, v3):
    from django.db.models import RestrictedError

    army_list = three_unit_list(alice_client, alice, v3)
    for entry in army_list.entries.select_related("unit"):
        with pytest.raises(RestrictedError):
            entry.unit.delete()


@pytest.mark.parametrize(
    ("form_change", "file_change", "place", "message"),
    [
        # A field's range, from the field itself.
        ({"damage_value": 20}, {"damage_value": 20}, "damage_value", "Ensure this value is less than or equal to 15."),
        # A choice the edition does not offer.
        (
            {"w-0-weapon": "death-ray"},
            {"weapons": [{"weapon": "death-ray"}]},
            "weapons[0].weapon",
            "That weapon is not on this edition&#x27;s chart.",
        ),
        # The coherence of the whole (``rules.army.own_units.check``).
        ({"damage_value": None}, {"damage_value": None}, "damage_value", "A vehicle needs its damage value."),
        # A cost below 0, with the unit form's own words.
        (
            {"cost_regular": -5},
            {"cost": {"regular": -5}},
            "cost.regular",
            "A cost cannot be below 0: type the cheaper price itself instead.",
        ),
    ],
)
def test_a_bad_value_gets_the_same_message_from_the_form_and_from_a_file(
    alice_client, alice, v3, form_change, file_change, place, message
):
    """One validation for both: the unit form shows the message next to its field, and a list file
    carrying the same unit is refused with that message at the field's place in the file."""
    data = {k: v for k, v in {**panzer_iv(v3), **form_change}.items() if v is not None}
    form_page = alice_client.post("/units/new/v3/", data).content.decode()
    assert message in form_page and 'class="errorlist' in form_page
    army_list = three_unit_list(alice_client, alice, v3)
    document = json.loads(alice_client.get(f"/lists/{army_list.pk}/export.json").content)
    tank = next(i for i, unit in enumerate(document["own_units"]) if unit["name"] == "Panzer IV Ausf. H")
    document["own_units"][tank].update(file_change)
    import_page = alice_client.post("/lists/import/", {"text": json.dumps(document)}).content.decode()
    assert f"own_units[{tank}].{place}: {message}" in import_page
    assert ArmyList.objects.filter(owner=alice).count() == 1


def test_a_files_definition_is_read_in_the_same_queries_for_one_row_or_many(alice, v3, django_assert_num_queries):
    """The weapon chart is read once per definition, not once per weapon line or option."""
    from armybuilder.catalogue.own_units import parse_definition

    unit = {
        "name": "Squad",
        "unit_type": "infantry",
        "slot": "infantry",
        "base_models": 5,
        "max_models": 10,
        "cost": {"regular": 50},
        "per_model": {"regular": 10},
    }

    def definition(rows: int) -> dict:
        weapons = [{"weapon": "rifle", "count": 1} for _ in range(rows)]
        options = [{"key": f"o-{i}", "name": f"Option {i}", "cost": 5, "grants": "smg"} for i in range(rows)]
        return {**unit, "weapons": weapons, "options": options}

    edition = v3.edition
    for rows in (1, 12):
        errors: list[str] = []
        # The chart, the edition's rules, and whether it has an open-topped rule.
        with django_assert_num_queries(3):
            assert parse_definition(definition(rows), "own_units[0]", edition, errors) is not None, errors
