"""Staff change a price in the admin: a list using it is never served from before the change.

The builder reloaded with its old ETag is a 200 with the new points, and the roster PDF, kept
for a day under the list's revision, is rendered anew with the new total.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from armybuilder.catalogue.models import Option, Unit

pytestmark = pytest.mark.django_db


def _form_data(response) -> dict[str, object]:
    """What the admin change form posts back as it stands: its fields and its inlines' forms."""
    forms = [response.context["adminform"].form]
    data: dict[str, object] = {}
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        forms += list(formset.forms)
        management = formset.management_form
        data |= {management.add_prefix(name): management[name].value() for name in management.fields}
    for form in forms:
        for name in form.fields:
            value = form[name].value()
            if value is None or value is False:
                continue
            data[form.add_prefix(name)] = "on" if value is True else value
    return data


def _admin_save(client, url: str, changes: dict[str, object]):
    page = client.get(url)
    assert page.status_code == 200
    response = client.post(url, {**_form_data(page), **changes, "_save": "Save"})
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    return response


@pytest.fixture
def staff(client):
    staff = get_user_model().objects.create_superuser("staff", "staff@example.org", "correct-horse-battery")
    staff_client = type(client)()
    staff_client.force_login(staff)
    return staff_client


@pytest.fixture
def smg(army_list):
    option = Option.objects.get(slug="smg", unit__army=army_list.army)
    Option.objects.filter(pk=option.pk).update(cost_regular=3, cost_inexperienced=3, cost_veteran=3)
    army_list.save()
    return option


def _points(client, army_list, etag=None):
    headers = {"If-None-Match": etag} if etag else {}
    return client.get(f"/lists/{army_list.pk}/", headers=headers)


def test_an_option_price_changed_in_the_admin_reaches_the_builder_and_the_pdf(
    alice_client, staff, army_list, smg, read_pdf
):
    page = _points(alice_client, army_list)
    pdf = alice_client.get(f"/lists/{army_list.pk}/roster.pdf")
    total = page.context["summary"].points

    _admin_save(staff, f"/admin/catalogue/option/{smg.pk}/change/", {"cost_regular": 13})

    again = _points(alice_client, army_list, page["ETag"])
    assert again.status_code == 200
    assert again.context["summary"].points == total + 10
    new_pdf = alice_client.get(f"/lists/{army_list.pk}/roster.pdf")
    assert new_pdf.content != pdf.content
    assert f"{total + 10}" in read_pdf(new_pdf).text
    assert "Check them" in again.text  # the list says the squad's options changed


def test_an_option_price_changed_in_the_units_inline_reaches_the_builder(alice_client, staff, army_list, smg):
    page = _points(alice_client, army_list)
    total = page.context["summary"].points
    squad = smg.unit
    url = f"/admin/catalogue/unit/{squad.pk}/change/"
    form = staff.get(url)
    prefix = next(f.prefix for f in form.context["inline_admin_formsets"][0].formset.forms if f.instance.pk == smg.pk)

    _admin_save(staff, url, {f"{prefix}-cost_regular": 8})

    again = _points(alice_client, army_list, page["ETag"])
    assert again.status_code == 200
    assert again.context["summary"].points == total + 5


def test_an_admin_save_that_changes_nothing_keeps_the_304_and_adds_no_note(alice_client, staff, army_list, smg):
    page = _points(alice_client, army_list)
    squad = Unit.objects.get(pk=smg.unit_id)
    _admin_save(staff, f"/admin/catalogue/unit/{squad.pk}/change/", {})
    _admin_save(staff, f"/admin/catalogue/option/{smg.pk}/change/", {})
    assert _points(alice_client, army_list, page["ETag"]).status_code == 304
    assert "unit-flag" not in _points(alice_client, army_list).text
