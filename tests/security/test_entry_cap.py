"""The cap on units per list holds in the builder (add, duplicate) and the JSON import alike."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from armybuilder.lists import services
from armybuilder.lists.exchange import export_data
from armybuilder.lists.models import ENTRIES_MAX, ArmyList, Entry
from tests.lists.factories import make_entry

HX = {"HX-Request": "true"}


def _fill(army_list: ArmyList, count: int) -> Entry:
    unit = army_list.entries.first().unit
    Entry.objects.bulk_create(
        Entry(army_list=army_list, unit=unit, models_count=unit.base_models, position=10 + i) for i in range(count)
    )
    return army_list.entries.first()


def test_the_cap_is_well_above_real_lists_and_well_below_the_500_that_took_the_site_down():
    assert 40 < ENTRIES_MAX <= 100


@pytest.mark.django_db
def test_the_service_refuses_a_unit_beyond_the_cap(army_list):
    entry = _fill(army_list, ENTRIES_MAX - 2)
    with pytest.raises(services.ListFull, match=f"at most {ENTRIES_MAX} units"):
        services.entry_add(army_list=army_list, unit=entry.unit)
    with pytest.raises(services.ListFull):
        services.entry_duplicate(entry=entry)
    assert army_list.entries.count() == ENTRIES_MAX


@pytest.mark.django_db
def test_the_service_still_adds_the_last_unit(army_list):
    entry = _fill(army_list, ENTRIES_MAX - 3)
    services.entry_add(army_list=army_list, unit=entry.unit)
    assert army_list.entries.count() == ENTRIES_MAX


@pytest.mark.django_db
def test_the_builder_explains_a_refused_add_with_htmx(alice_client, army_list):
    entry = _fill(army_list, ENTRIES_MAX - 2)
    response = alice_client.post(f"/lists/{army_list.pk}/entries/add/", {"unit": entry.unit_id}, headers=HX)
    assert response.status_code == 200
    assert f"A list holds at most {ENTRIES_MAX} units" in response.content.decode()
    assert army_list.entries.count() == ENTRIES_MAX


@pytest.mark.django_db
def test_the_builder_explains_a_refused_add_without_javascript(alice_client, army_list):
    entry = _fill(army_list, ENTRIES_MAX - 2)
    response = alice_client.post(f"/lists/{army_list.pk}/entries/add/", {"unit": entry.unit_id})
    assert response.status_code == 400
    assert f"A list holds at most {ENTRIES_MAX} units" in response.content.decode()


@pytest.mark.django_db
def test_the_builder_explains_a_refused_duplicate_in_french(alice_client, army_list):
    entry = _fill(army_list, ENTRIES_MAX - 2)
    url = f"/lists/{army_list.pk}/entries/{entry.pk}/duplicate/"
    response = alice_client.post(url, headers={**HX, "Accept-Language": "fr"})
    assert response.status_code == 200
    assert f"Une liste compte au plus {ENTRIES_MAX} unités" in response.content.decode()
    assert army_list.entries.count() == ENTRIES_MAX


@pytest.mark.django_db
def test_the_import_refuses_a_list_beyond_the_cap(alice_client, army_list):
    data = export_data(ArmyList.objects.for_builder().get(pk=army_list.pk))
    data["entries"] = data["entries"][:1] * (ENTRIES_MAX + 1)
    before = ArmyList.objects.count()
    response = alice_client.post("/lists/import/", {"text": json.dumps(data)})
    assert response.status_code == 200
    assert [str(e) for e in response.context["errors"]] == [
        f"entries: at most {ENTRIES_MAX} units, not {ENTRIES_MAX + 1}."
    ]
    assert ArmyList.objects.count() == before


@pytest.mark.django_db
def test_the_import_accepts_a_list_at_the_cap(alice_client, army_list):
    data = export_data(ArmyList.objects.for_builder().get(pk=army_list.pk))
    data["entries"] = data["entries"][:1] * ENTRIES_MAX
    response = alice_client.post("/lists/import/", {"text": json.dumps(data)})
    assert response.status_code == 302
    assert ArmyList.objects.latest("pk").entries.count() == ENTRIES_MAX


@pytest.mark.django_db
def test_a_refusal_is_translated_when_raised(army_list):
    entry = make_entry(army_list, army_list.entries.first().unit)
    _fill(army_list, ENTRIES_MAX - 3)
    with translation.override("fr"), pytest.raises(services.ListFull) as raised:
        services.entry_duplicate(entry=entry)
    assert "Une liste compte au plus" in raised.value.messages[0]
