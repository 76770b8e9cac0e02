"""Hostile input gets a 400 (or a form error) naming the field, never a 500, and writes nothing."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from armybuilder.lists.exchange import export_data
from armybuilder.lists.models import ArmyList
from armydata.safety import CatalogueImportError, parse_json
from armydata.untrusted import UntrustedInput, loads, objects

DEEP = "[" * 100_000 + "]" * 100_000
LONG_INT = "1" + "0" * 5000
RESOLVERS = ["shooting", "anti-tank", "order-test", "close-quarters", "order-dice", "ranging-in"]


# -- The helper ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        (DEEP, "body", "nests more than 64 levels"),
        ('{"a": ' + LONG_INT + "}", "a", "5001 digits"),
        ('{"a": [{"b": -' + LONG_INT + "}]}", "a[0].b", "5001 digits"),
        ('{"a": [1, {"name": "x\\ud800y"}]}', "a[1].name", "lone surrogate (U+D800)"),
        ('{"name": "Jock\\u0000s lads"}', "name", "control character (U+0000)"),
        ('{"name": "bell\\u0007"}', "name", "control character (U+0007)"),
        ('{"x\\u0000": 1}', "'x\\x00'", "control character"),
        ('{"a": NaN}', "a", "NaN"),
        ('{"a": 1e999}', "a", "too large"),
        ("-Infinity", "body", "Infinity"),
    ],
)
def test_loads_refuses_and_names_the_place(text, field, words):
    with pytest.raises(UntrustedInput) as raised:
        loads(text)
    assert raised.value.field == field
    assert words in raised.value.message


def test_loads_keeps_honest_text():
    assert loads('{"name": "Jock\'s \\"lads\\"\\n\\tÉté [{}]", "n": -12, "f": 1.5}') == {
        "name": 'Jock\'s "lads"\n\tÉté [{}]',
        "n": -12,
        "f": 1.5,
    }


def test_objects_passes_over_and_names_each_item_that_is_not_an_object():
    errors: list[str] = []
    found = list(objects([{"kind": "x"}, 7, ["y"], {}], "platoons", errors, "must be an object with kind and name."))
    assert found == [(0, "platoons[0]", {"kind": "x"}), (3, "platoons[3]", {})]
    assert errors == [
        "platoons[1]: must be an object with kind and name.",
        "platoons[2]: must be an object with kind and name.",
    ]


# -- List import -----------------------------------------------------------------------------


def _import_text(alice_client, army_list, mutate):
    data = export_data(ArmyList.objects.for_builder().get(pk=army_list.pk))
    text = mutate(data)
    return alice_client.post("/lists/import/", {"text": text})


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda data: DEEP, "This file nests more than 64 levels deep."),
        (lambda data: json.dumps(data)[:-1] + ', "x": ' + LONG_INT + "}", "x is a number of 5001 digits"),
        (lambda data: json.dumps({**data, "name": "A\ud800B"}), "name contains a lone surrogate (U+D800)"),
        (lambda data: json.dumps({**data, "name": "A\x00B"}), "name contains a control character (U+0000)"),
        (
            lambda data: json.dumps({**data, "entries": [{**data["entries"][0], "name": "\x00"}]}),
            "entries[0].name contains a control character (U+0000)",
        ),
        (
            lambda data: json.dumps({**data, "entries": [{**data["entries"][0], "unit": "rifle\x00"}]}),
            "entries[0].unit contains a control character (U+0000)",
        ),
        (
            lambda data: json.dumps({**data, "platoons": [*data["platoons"], 7]}),
            "platoons[1]: must be an object with kind and name.",
        ),
    ],
)
def test_the_list_import_refuses_hostile_json_and_saves_nothing(alice_client, army_list, mutate, expected):
    before = ArmyList.objects.count()
    response = _import_text(alice_client, army_list, mutate)
    assert response.status_code == 200
    errors = [str(e) for e in response.context["errors"]]
    assert len(errors) == 1 and errors[0].startswith(expected), errors
    assert ArmyList.objects.count() == before


# -- Resolver API ----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name", RESOLVERS)
@pytest.mark.parametrize(
    ("body", "field"),
    [
        (DEEP, "body"),
        ('{"edition": ' + LONG_INT + "}", "edition"),
        ('{"edition": "v2\\ud800"}', "edition"),
        ('{"edition": "v2\\u0000"}', "edition"),
        (b'{"edition": "\xff"}', "body"),
    ],
)
def test_every_resolver_answers_400_naming_the_field(client, charts, name, body, field):
    response = client.post(f"/api/resolve/{name}/", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == field


# -- Catalogue import (Barracks JSON) --------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (DEEP.encode(), "core.json nests more than 64 levels deep"),
        (b'{"units": [{"cost": ' + LONG_INT.encode() + b"}]}", "core.json at units[0].cost is a number of 5001 digits"),
        (b'{"units": [{"name": "x\\ud800"}]}', "core.json at units[0].name contains a lone surrogate"),
    ],
)
def test_the_catalogue_import_refuses_hostile_json(data, words):
    with pytest.raises(CatalogueImportError, match=words.replace("[", r"\[").replace("]", r"\]")):
        parse_json("core.json", data)


# -- The edge: paths, queries and forms -------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    ["/s/abc%00def/", "/reference/?q=%00", "/lists/?q=a%01b", "/calc/?x%00=1"],
)
def test_nul_and_control_characters_in_urls_get_a_400(client, url):
    response = client.get(url)
    assert response.status_code == 400
    assert "does not accept" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["Rats\x00", "Rats\x01", "Rats\x1b[31m"])
@pytest.mark.parametrize("form_encoded", [True, False])
def test_control_characters_in_a_form_field_get_a_400_naming_it_and_write_nothing(
    alice_client, army_list, value, form_encoded
):
    url = f"/lists/{army_list.pk}/rename/"
    if form_encoded:
        body = urlencode({"name": value})
        response = alice_client.post(url, body, content_type="application/x-www-form-urlencoded")
    else:
        response = alice_client.post(url, {"name": value})
    assert response.status_code == 400
    assert "“name”" in response.content.decode()
    army_list.refresh_from_db()
    assert not army_list.name.startswith("Rats")


@pytest.mark.django_db
def test_the_refusal_is_json_for_the_api(client, charts):
    response = client.post("/api/resolve/shooting/?x=%00", data="{}", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "x"


@pytest.mark.django_db
def test_an_anonymous_oversized_body_is_refused_before_it_is_read(client):
    # The body is never read: only the declared length counts, so a small body stands in for 3 MB.
    response = client.generic(
        "POST",
        "/lists/import/",
        data=b"--x--",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(3 * 1024 * 1024),
    )
    assert response.status_code == 413
    assert "larger than 2 MB" in response.content.decode()


@pytest.mark.django_db
def test_staff_may_send_a_catalogue_archive_larger_than_that(client, django_user_model):
    staff = django_user_model.objects.create_user("staff", password="x", is_staff=True)
    client.force_login(staff)
    upload = SimpleUploadedFile("big.json", b" " * (3 * 1024 * 1024) + b"{}")
    response = client.post("/catalogue/import/", {"files": upload, "dry_run": "on"}, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[0][0].startswith("/catalogue/import/jobs/")  # taken, and handed to the worker
    assert "larger than 2 MB" not in response.content.decode()
