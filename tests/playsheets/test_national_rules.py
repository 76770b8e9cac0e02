"""An army's national rules: listed on the builder and printed on the roster, in Muster's words."""

from __future__ import annotations

import pytest

from armybuilder.reference.models import SpecialRule

pytestmark = pytest.mark.django_db


@pytest.fixture
def sisu_rule(army_list):
    rule = SpecialRule.objects.create(
        edition=army_list.edition,
        slug="winter-war",
        name="Winter War",
        name_fr="Guerre d'hiver",
        summary="Ignores snow penalties.",
        summary_fr="Ignore la neige.",
        source="test",
    )
    army_list.army.national_rules.add(rule)
    return rule


def test_the_builder_lists_the_armys_national_rules(alice_client, army_list, sisu_rule):
    html = alice_client.get(f"/lists/{army_list.pk}/").text
    assert 'id="national-rules"' in html
    assert "Winter War" in html and "Ignores snow penalties." in html


def test_the_roster_prints_the_national_rules(alice_client, army_list, sisu_rule, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/roster.pdf?lang=en"))
    assert "National rules" in pdf.text and "Winter War Ignores snow penalties." in pdf.text
    french = read_pdf(alice_client.get(f"/lists/{army_list.pk}/roster.pdf?lang=fr"))
    assert "Guerre d'hiver Ignore la neige." in french.text


def test_an_army_without_national_rules_shows_no_empty_block(alice_client, army_list):
    assert 'id="national-rules"' not in alice_client.get(f"/lists/{army_list.pk}/").text


def test_a_company_commander_is_worded_the_same_on_the_builder_and_the_roster(alice_client, army_list, read_pdf):
    from tests.lists.factories import make_entry, make_officer

    captain = make_officer(army_list.army, name="Kapteeni", officer_rank="company_commander")
    make_entry(army_list, captain, quality="regular", models_count=1, position=99)
    html = alice_client.get(f"/lists/{army_list.pk}/").text
    officer = html.split(">Kapteeni</a>")[1].split("</li>")[0]
    assert "Any unit in range" in officer and "no platoon" not in officer
    pdf = read_pdf(alice_client.get(f"/lists/{army_list.pk}/roster.pdf?lang=en"))
    assert "Kapteeni Company Commander" in pdf.text and "Any unit in range" in pdf.text
