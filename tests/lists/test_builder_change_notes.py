"""The builder tells the player when an import changed or removed a unit their list uses."""

from __future__ import annotations

import html
import re

import pytest

from armybuilder.catalogue.models import Option, Unit
from tests.catalogue.factories import make_weapon
from tests.lists.factories import make_army, make_entry, make_list, make_option, make_unit, make_user


@pytest.fixture
def listed_unit(client):
    alice = make_user("alice")
    army = make_army()
    unit = make_unit(army, name="Grenadiers")
    army_list = make_list(alice, army)
    make_entry(army_list, unit)
    client.force_login(alice)
    return army_list, unit


@pytest.mark.django_db
def test_it_shows_no_note_for_an_unchanged_unit(client, listed_unit):
    army_list, _unit = listed_unit
    response = client.get(f"/lists/{army_list.pk}/")
    assert "entry-change-note" not in response.text


def _note(client, army_list) -> str | None:
    response = client.get(f"/lists/{army_list.pk}/")
    # The unit's row carries the note as its flag's title (the editor shows it when opened).
    notes = re.findall(r'<span class="unit-flag" title="([^"]*)">', response.text)
    assert len(notes) <= 1
    return html.unescape(notes[0]) if notes else None


@pytest.mark.django_db
def test_it_notes_a_unit_whose_points_changed_since_the_list_was_saved(client, listed_unit):
    army_list, unit = listed_unit
    unit.cost_regular += 5
    unit.save()
    assert _note(client, army_list) == (
        "Grenadiers changed in the catalogue since this list was last saved: its points. Check them."
    )


@pytest.mark.django_db
def test_it_says_each_kind_of_change(client, listed_unit):
    army_list, unit = listed_unit
    option = make_option(unit, name="Panzerfaust")
    Option.objects.filter(pk=option.pk).update(cost_regular=5)
    unit.weapons.add(make_weapon(unit.army.edition))
    assert _note(client, army_list) == (
        "Grenadiers changed in the catalogue since this list was last saved: its options, "
        "its profile (models, weapons or rules). Check them."
    )


@pytest.mark.django_db
def test_it_says_it_in_french(client, listed_unit):
    army_list, unit = listed_unit
    Unit.objects.filter(pk=unit.pk).update(max_models=12)
    client.cookies["django_language"] = "fr"
    assert _note(client, army_list) == (
        "Grenadiers a changé dans le catalogue depuis le dernier enregistrement de cette liste : "
        "son profil (figurines, armes ou règles). À vérifier."
    )


@pytest.mark.django_db
def test_it_notes_nothing_for_a_change_the_list_does_not_show_as_points_options_or_profile(client, listed_unit):
    army_list, unit = listed_unit
    unit.name_fr = "Grenadiers (FR)"
    unit.position = 40
    unit.save()
    Unit.objects.filter(pk=unit.pk).update(source="elsewhere")
    assert _note(client, army_list) is None


@pytest.mark.django_db
def test_it_notes_nothing_for_a_save_that_changed_nothing(client, listed_unit):
    army_list, unit = listed_unit
    make_option(unit, name="Panzerfaust")
    army_list.save()  # the list is saved after the option came
    for row in (*Unit.objects.all(), *Option.objects.all()):
        row.save()
    assert _note(client, army_list) is None


@pytest.mark.django_db
def test_the_note_goes_once_the_list_is_saved_again(client, listed_unit):
    army_list, unit = listed_unit
    Unit.objects.filter(pk=unit.pk).update(cost_regular=60)
    assert _note(client, army_list) is not None
    army_list.save()
    assert _note(client, army_list) is None


@pytest.mark.django_db
def test_it_notes_a_unit_removed_from_the_catalogue(client, listed_unit):
    army_list, unit = listed_unit
    Unit.objects.filter(pk=unit.pk).update(removed=True)
    response = client.get(f"/lists/{army_list.pk}/")
    assert "Grenadiers is no longer in the latest catalogue data" in response.text
