"""The close quarters page and API: the defenders' reaction fire before the assault, and Blood Curdling
Charge switching it off (figures worked by hand in tests/rules/combat/test_reaction.py)."""

from __future__ import annotations

import pytest

from tests.lists.factories import make_user
from tests.resolver.factories import make_entry, make_list, make_rule, make_unit
from tests.resolver.test_api import post

pytestmark = pytest.mark.django_db

CQ = (
    "/calc/close-quarters/?edition={ed}&attacker_models=3&attacker_quality={q}"
    "&defender_models=1&defender_quality=regular"
)
REACTION = "&reaction_shots=1&reaction_to_hit=3&attacker_pins=0"


def test_reaction_fire_thins_the_attackers_and_the_page_says_how_it_reads_the_rules(client, charts):
    html = client.get(CQ.format(ed="v2", q="regular") + REACTION).text
    assert "286/315" in html  # 2/3 x 14/15 + 1/3 x 6/7
    assert "Reaction fire" in html and "1 shot" in html and "Assault goes in" in html
    assert "Reaction fire [R]" in html  # the reading Muster took, marked as reasoned
    assert "Attackers lost to the reaction fire" in html and "0 when the fire stops the assault" in html
    plain = client.get(CQ.format(ed="v2", q="regular")).text
    assert "14/15" in plain and "Assault goes in" not in plain and "Reaction fire [R]" not in plain
    french = client.get(CQ.format(ed="v2", q="regular") + REACTION, headers={"Accept-Language": "fr"}).text
    assert "Tir de réaction [R]" in french and "L&#x27;assaut a lieu" in french and "1 tir" in french


def test_the_default_reaction_hits_on_the_edition_s_base_score(client, charts):
    assert '<option value="3" selected>3+</option>' in client.get(CQ.format(ed="v2", q="regular")).text
    assert '<option value="4" selected>4+</option>' in client.get(CQ.format(ed="v3", q="regular")).text


def test_blood_curdling_charge_switches_the_reaction_off_and_says_so(client, charts):
    url = CQ.format(ed="v2", q="regular") + REACTION + "&attacker_blood=on"
    html = client.get(url).text
    assert "No reaction fire: Blood Curdling Charge" in html
    assert "14/15" in html and "286/315" not in html and "Assault goes in" not in html
    french = client.get(url, headers={"Accept-Language": "fr"}).text
    assert "Pas de tir de réaction : Charge à glacer le sang" in french


def test_green_attackers_get_no_blood_curdling_charge_and_the_page_says_why(client, charts):
    html = client.get(CQ.format(ed="v2", q="inexperienced") + REACTION + "&attacker_blood=on").text
    assert "Blood Curdling Charge does not act here" in html and "Assault goes in" in html


@pytest.mark.parametrize(
    ("query", "field"),
    [("&reaction_shots=lots", "id_reaction_shots"), ("&reaction_shots=101", "id_reaction_shots"),
     ("&reaction_shots=2&reaction_to_hit=9", "id_reaction_to_hit"), ("&attacker_pins=-1", "id_attacker_pins")],
)  # fmt: skip
def test_a_bad_reaction_field_is_marked_not_a_server_error(client, charts, query, field):
    response = client.get(CQ.format(ed="v2", q="regular") + query)
    assert response.status_code == 200
    assert "Fix the fields marked in red" in response.text
    assert f'<div id="{field}-errors" class="field-errors"><ul' in response.text


def test_the_api_resolves_the_reaction_and_blood_curdling_charge(client, charts):
    body = {
        "edition": "v2",
        "attacker": {"models": 2},
        "defender": {"models": 1},
        "reaction": {"shots": 1, "to_hit": 2},
    }
    data = post(client, "/api/resolve/close-quarters/", body).json()
    assert data["p_attacker_wins"] == "1751/2592" and data["p_defender_wins"] == "97/324"
    assert data["reaction"]["p_check"] == "5/12" and data["reaction"]["p_broken"] == "25/216"
    assert data["reaction"]["casualties"]["pmf"] == {"0": "7/12", "1": "5/12"}
    assert data["no_reaction"] == ""
    british = post(
        client, "/api/resolve/close-quarters/", {**body, "attacker": {"models": 2, "blood_curdling_charge": True}}
    )
    data = british.json()
    assert data["reaction"] is None and data["no_reaction"] == "blood-curdling-charge"
    assert data["p_attacker_wins"] == "6/7"
    plain = post(client, "/api/resolve/close-quarters/", {**body, "reaction": None}).json()
    assert plain["reaction"] is None and plain["p_attacker_wins"] == "6/7"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"reaction": {"shots": 0, "to_hit": 3}}, "reaction.shots"),
        ({"reaction": {"shots": 2, "to_hit": 8}}, "reaction.to_hit"),
        ({"reaction": {"to_hit": 3}}, "reaction.shots"),
        ({"reaction": {"shots": 2, "to_hit": 3, "range": 6}}, "reaction.range"),
        ({"reaction": "lots"}, "reaction"),
        ({"defender": {"models": 5, "blood_curdling_charge": True}}, "defender.blood_curdling_charge"),
        ({"attacker": {"models": 5, "blood_curdling_charge": "yes"}}, "attacker.blood_curdling_charge"),
        ({"attacker": {"models": 21}, "reaction": {"shots": 2, "to_hit": 3}}, "attacker.models"),
        ({"defender": {"models": 21}, "reaction": {"shots": 2, "to_hit": 3}}, "defender.models"),
    ],
)
def test_the_api_names_the_bad_reaction_field(client, charts, overrides, field):
    body = {"edition": "v2", "attacker": {"models": 5}, "defender": {"models": 5}, **overrides}
    response = post(client, "/api/resolve/close-quarters/", body)
    assert (response.status_code, response.json()["field"]) == (400, field)


def test_a_british_list_that_chose_another_trait_brings_no_rapid_fire_to_the_shooting_page(client, charts):
    # Only Rapid Fire acts on the shooting page: a list that chose Blood Curdling Charge (or Tough as
    # Boots) must not fill in "Great Britain (Rapid Fire)" for its riflemen.
    alice = make_user("alice")
    army_list = make_list(owner=alice)
    rifle = charts["v2"]["rifle"]
    army_list.army.national_rules.add(make_rule(rifle.edition, "a-national-characteristic"))
    squad = make_unit(rifle.edition, weapons=(rifle,), base_models=6, max_models=10)
    entry = make_entry(army_list, squad, models_count=6)
    client.force_login(alice)
    for trait in ("blood-curdling-charge", "tough-as-boots"):
        army_list.national_choice = trait
        army_list.save()
        html = client.get(f"/calc/shooting/?from_entry={entry.pk}").text
        assert '<option value="great-britain" selected>' not in html and "Rapid Fire (Rifle)" not in html
    army_list.national_choice = "rapid-fire"
    army_list.save()
    assert "Rapid Fire (Rifle)" in client.get(f"/calc/shooting/?from_entry={entry.pk}").text


def test_reaction_fire_is_for_units_of_up_to_twenty_men(client, charts):
    big = "/calc/close-quarters/?edition=v2&attacker_models=21&attacker_quality=regular&defender_models=6"
    html = client.get(big + REACTION).text
    assert '<div id="id_attacker_models-errors" class="field-errors"><ul' in html
    assert "At most 20 men a side with reaction fire." in html
    # Without the fire, or with Blood Curdling Charge forbidding it, 21 men fight as before.
    assert "Attacker wins" in client.get(big).text
    assert "No reaction fire: Blood Curdling Charge" in client.get(big + REACTION + "&attacker_blood=on").text
    # The API takes 21 men when the charge forbids the fire.
    body = {"edition": "v2", "attacker": {"models": 21, "blood_curdling_charge": True}, "defender": {"models": 6}}
    response = post(client, "/api/resolve/close-quarters/", {**body, "reaction": {"shots": 2, "to_hit": 3}})
    assert response.status_code == 200 and response.json()["no_reaction"] == "blood-curdling-charge"
