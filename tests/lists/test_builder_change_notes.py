"""The builder tells the player when an import changed or removed a unit their list uses."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from armybuilder.catalogue.models import Unit
from tests.lists.factories import make_army, make_entry, make_list, make_unit, make_user


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


@pytest.mark.django_db
def test_it_notes_a_unit_changed_since_the_list_was_saved(client, listed_unit):
    army_list, unit = listed_unit
    Unit.objects.filter(pk=unit.pk).update(updated_at=timezone.now() + timedelta(minutes=5))
    response = client.get(f"/lists/{army_list.pk}/")
    assert "Grenadiers changed in the catalogue since this list was last saved" in response.text


@pytest.mark.django_db
def test_it_notes_a_unit_removed_from_the_catalogue(client, listed_unit):
    army_list, unit = listed_unit
    Unit.objects.filter(pk=unit.pk).update(removed=True)
    response = client.get(f"/lists/{army_list.pk}/")
    assert "Grenadiers is no longer in the latest catalogue data" in response.text
