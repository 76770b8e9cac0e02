"""The catalogue admin pages load for staff, with their filters, searches and option inline."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.catalogue.factories import make_army, make_option, make_special_rule, make_unit, make_weapon

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("alice", "alice@example.com", "correct-horse-battery")
    client.force_login(user)
    return client


@pytest.fixture
def unit():
    unit = make_unit(make_army(name="Generic"), name="Rifle squad")
    make_option(unit, name="NCO SMG")
    return unit


@pytest.mark.parametrize("model", ["army", "unit", "option"])
def test_it_lists_each_catalogue_model(staff_client, unit, model):
    assert staff_client.get(f"/admin/catalogue/{model}/").status_code == 200


def test_it_searches_units_by_name(staff_client, unit):
    response = staff_client.get("/admin/catalogue/unit/", {"q": "Rifle"})
    assert "Rifle squad" in response.text


def test_it_filters_units_by_slot(staff_client, unit):
    response = staff_client.get("/admin/catalogue/unit/", {"slot": "sniper"})
    assert "Rifle squad" not in response.text


def test_it_edits_a_unit_with_its_options_inline(staff_client, unit):
    response = staff_client.get(f"/admin/catalogue/unit/{unit.pk}/change/")
    assert "NCO SMG" in response.text


def test_it_filters_armies_by_origin(staff_client, unit):
    response = staff_client.get("/admin/catalogue/army/", {"origin": "barracks"})
    assert "Generic" not in response.text


def test_it_lists_units_with_their_armament_in_the_admins_language(staff_client, unit):
    unit.weapons_text, unit.weapons_text_fr = "Rifles", "Fusils"
    unit.save()
    staff_client.cookies["django_language"] = "fr"
    response = staff_client.get("/admin/catalogue/unit/")
    assert '<td class="field-armament">Fusils</td>' in response.text


def test_it_searches_units_by_french_armament(staff_client, unit):
    unit.weapons_text_fr = "Fusils"
    unit.save()
    response = staff_client.get("/admin/catalogue/unit/", {"q": "Fusils"})
    assert "Rifle squad" in response.text


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize(
    "page",
    [
        "/admin/catalogue/army/{army}/change/",
        "/admin/catalogue/unit/{unit}/change/",
        "/admin/catalogue/option/{option}/change/",
        "/admin/reference/weapon/{weapon}/change/",
    ],
)
def test_weapon_and_rule_choices_come_with_their_edition_not_a_query_each(staff_client, unit, page):
    # Each choice's text names its edition: fetched one query a choice, the page would grow with the chart.
    edition = unit.army.edition
    weapon, _rule = make_weapon(edition, "w-0"), make_special_rule(edition, "r-0")
    url = page.format(army=unit.army.pk, unit=unit.pk, option=unit.options.get().pk, weapon=weapon.pk)
    _queries(staff_client, url)  # the session and the admin's first reads
    few = _queries(staff_client, url)
    for n in range(1, 6):
        make_weapon(edition, f"w-{n}")
        make_special_rule(edition, f"r-{n}")
    assert _queries(staff_client, url) == few
