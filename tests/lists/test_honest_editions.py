"""Honest editions: only an edition with armies is offered for a new list; the others say what they have.

Every refusal of the new-list form is the server's message next to its field (the form is
``novalidate``, so the browser's own bubble never stands in for it).
"""

from __future__ import annotations

import re

import pytest

from armybuilder.lists.models import ArmyList
from tests.lists.factories import make_army, make_edition


def _field_group(html: str, field: str) -> str:
    """The markup from the field's label to the next field's label."""
    start = html.index(f'for="id_{field}"')
    end = html.find("<label", start + 1)
    return html[start : end if end != -1 else len(html)]


@pytest.mark.django_db
def test_the_new_list_form_offers_only_editions_with_armies_and_says_why(client):
    v1 = make_edition("v1", number=1, name="1st edition")
    v2 = make_edition("v2", number=2, name="2nd edition")
    make_army(edition=v2, name="Germany")
    html = client.get("/lists/new/").text
    edition_select = re.search(r'<select name="edition".*?</select>', html, re.S).group(0)
    assert 'value="v2"' in edition_select and 'value="v1"' not in edition_select
    assert "1st edition: rules reference and odds only, no army lists to build from." in html
    assert "novalidate" in html
    response = client.post("/lists/new/", {"edition": v1.slug, "name": "Old", "points_limit": 500})
    assert "Lists can only be built for an edition with armies" in _field_group(response.text, "edition")
    assert not ArmyList.objects.exists()


@pytest.mark.django_db
def test_every_refusal_is_a_message_next_to_its_field(client):
    make_army(edition=make_edition("v2", number=2))
    response = client.post("/lists/new/", {"edition": "", "army": "", "name": "", "points_limit": ""})
    assert response.status_code == 200
    html = response.text
    assert "Choose an edition." in _field_group(html, "edition")
    assert "Choose an army." in _field_group(html, "army")
    assert "Give the list a name." in _field_group(html, "name")
    assert "Enter a points limit." in _field_group(html, "points_limit")


@pytest.mark.django_db
def test_an_edition_without_armies_says_it_has_the_reference_and_the_odds(client):
    make_edition("v1", number=1, name="1st edition")
    v2 = make_edition("v2", number=2, name="2nd edition")
    make_army(edition=v2)
    assert "not list building" in client.get("/reference/v1/").text
    assert "not list building" not in client.get("/reference/v2/").text


@pytest.mark.django_db
def test_the_about_data_page_lists_every_army_with_its_source_and_licence(client):
    v2 = make_edition("v2", number=2)
    make_army(edition=v2, name="Germany", source="Barracks 2nd-edition data (MIT)")
    make_army(edition=v2, name="Imported Poles", origin="battlescribe", source="BSData boltaction", hidden=True)
    html = client.get("/about/data/").text
    assert "Germany" in html and "Imported Poles" in html
    assert "MIT (Barracks" in html and "BattleScribe data repository" in html
    assert "Permission is hereby granted" in html  # the MIT notice itself
    assert 'href="/about/data/"' in client.get("/").text
