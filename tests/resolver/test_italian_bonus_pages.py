"""The Italian bonus on the shooting page, the JSON API and game day's "Odds now": per unit, filled in
from a list's unit, and said when applied."""

from __future__ import annotations

from fractions import Fraction

import pytest

from armybuilder.games.models import Game
from tests.games.test_views import start
from tests.lists.factories import make_builder_list, make_user
from tests.lists.factories import make_entry as make_list_entry
from tests.lists.factories import make_unit as make_list_unit
from tests.resolver.factories import make_entry, make_list, make_rule, make_unit, make_weapon
from tests.resolver.test_api import post, shooting_body
from tests.resolver.test_national_pages import _exact

pytestmark = pytest.mark.django_db

RIFLES = "edition={ed}&order=advance&g0-weapon=rifle&g0-models=5&target_kind=infantry&target_models=10&cover=none"
# Four men who started six: one rifle kills a man a third of the time (3+ then 4+), which leaves the half
# that checks, with the pin just taken (morale 9 - 1: fails 10/36; ignoring the pin, 9: 6/36).
FOUR = "edition=v2&g0-weapon=rifle&g0-models=1&target_kind=infantry&target_models=4&target_starting=6&cover=none"


def test_bersaglieri_rifles_advance_without_the_minus_one(client, charts):
    html = client.get(f"/calc/shooting/?{RIFLES.format(ed='v2')}&fire_and_manoeuvre=on").text
    assert "No −1 for moving: Fire and Manoeuvre (Combattere) (Rifle)" in html
    assert "Fire on the move" not in html
    # 3+ then 4+: a third of a casualty a rifle; with the -1, 4+ then 4+: a quarter.
    assert _exact(html, "Casualties \\(average\\)") == Fraction(5, 3)
    plain = client.get(f"/calc/shooting/?{RIFLES.format(ed='v2')}").text
    assert "Fire on the move" in plain and _exact(plain, "Casualties \\(average\\)") == Fraction(5, 4)


def test_the_bonus_is_not_modelled_in_3rd_edition(client, charts):
    html = client.get(f"/calc/shooting/?{RIFLES.format(ed='v3')}&fire_and_manoeuvre=on").text
    assert "The Italian bonus is not modelled for this edition." in html and "(Combattere)" not in html


@pytest.mark.parametrize(
    ("rule", "note"),
    [
        ("fanatics", "Pins neither rout it nor count on its morale checks: Fanatics (Cedere)"),
        ("stubborn", "Pins do not count on its morale checks: Stubborn (Obbedire)"),
    ],
)
def test_a_fanatic_or_stubborn_target_ignores_its_pins_on_the_check(client, charts, rule, note):
    html = client.get(f"/calc/shooting/?{FOUR}&target_unit_rule={rule}").text
    assert note in html
    assert _exact(html, "Unit destroyed") == Fraction(1, 3) * Fraction(6, 36)
    plain = client.get(f"/calc/shooting/?{FOUR}").text
    assert "morale checks: " not in plain and _exact(plain, "Unit destroyed") == Fraction(1, 3) * Fraction(10, 36)


def test_the_notes_are_in_french(client, charts):
    french = {"Accept-Language": "fr"}
    html = client.get(f"/calc/shooting/?{RIFLES.format(ed='v2')}&fire_and_manoeuvre=on", headers=french).text
    assert "Pas de −1 pour le mouvement : Tir et mouvement (Combattere) (Fusil)" in html  # the chart's name, in French
    assert "Tir et mouvement (Bersaglieri, Combattere) : les fusils avancent sans le −1" in html
    html = client.get(f"/calc/shooting/?{FOUR}&target_unit_rule=stubborn", headers=french).text
    assert "Les marqueurs ne comptent pas pour ses tests de moral : Tenace (Obbedire)" in html


def test_an_unknown_target_rule_is_refused_next_to_its_field(client, charts):
    response = client.get(f"/calc/shooting/?{FOUR}&target_unit_rule=berserk")
    assert response.status_code == 200 and "Unit destroyed" not in response.text
    assert 'id="id_target_unit_rule_error"><li>' in response.text


def _italian_list(owner, edition, choice):
    army_list = make_list(owner=owner, edition=edition, national_choice=choice)
    army_list.army.national_rules.add(
        make_rule(edition, "large-squads"), make_rule(edition, "cedere-obbedire-combattere")
    )
    return army_list


def test_a_bersaglieri_squad_from_a_combattere_list_brings_its_rule(client, charts):
    edition = charts["v2"]["rifle"].edition
    alice = make_user("alice")
    army_list = _italian_list(alice, edition, "combattere")
    bersaglieri = make_unit(edition, weapons=(charts["v2"]["rifle"],), name="Bersaglieri Infantry Section")
    fucilieri = make_unit(edition, weapons=(charts["v2"]["rifle"],), name="Fucilieri Squad")
    entry = make_entry(army_list, bersaglieri, models_count=10)
    other = make_entry(army_list, fucilieri, models_count=10)
    client.force_login(alice)
    html = client.get(f"/calc/shooting/?from_entry={entry.pk}&order=advance").text
    assert 'id="id_fire_and_manoeuvre" checked' in html and '<option value="italy" selected>' in html
    assert "No −1 for moving: Fire and Manoeuvre (Combattere) (Rifle)" in html
    plain = client.get(f"/calc/shooting/?from_entry={other.pk}&order=advance").text
    assert 'id="id_fire_and_manoeuvre" checked' not in plain and "(Combattere)" not in plain


def test_a_target_chosen_from_a_list_brings_fanatics_or_stubborn(client, charts):
    edition = charts["v2"]["rifle"].edition
    alice = make_user("alice")
    client.force_login(alice)
    cedere = _italian_list(alice, edition, "cedere")
    blackshirts = make_entry(cedere, make_unit(edition, name="Blackshirt 'M' Battalion Squad"), models_count=10)
    obbedire = _italian_list(alice, edition, "obbedire")
    alpini = make_entry(obbedire, make_unit(edition, name="Alpini squad"), models_count=10)  # a player's own unit
    officer = make_unit(edition, name="Captain", unit_type="headquarters", slot="officer")
    captain = make_entry(obbedire, officer, models_count=1, quality="veteran", name="Capitano degli Alpini")
    plain = make_entry(obbedire, officer, models_count=1, quality="veteran")
    for entry, rule in ((blackshirts, "fanatics"), (alpini, "stubborn"), (captain, "stubborn"), (plain, "")):
        html = client.get(f"/calc/shooting/?edition=v2&target_entry={entry.pk}").text
        assert f'<option value="{rule}" selected>' in html, (entry, rule)


def test_the_api_takes_the_bonus_per_unit(client, charts):
    body = shooting_body(
        order="advance",
        firer={"quality": "regular", "pins": 0, "fire_and_manoeuvre": True},
        groups=[{"weapon": "rifle", "models": 5, "range": "normal"}],
        target={"kind": "infantry", "quality": "regular", "models": 4, "starting_models": 6, "unit_rule": "fanatics"},
    )
    data = post(client, "/api/resolve/shooting/", body).json()
    assert [(r["rule"], r["name"], r["change"], r["group"]) for r in data["national_rules"]] == [
        ("combattere", "Fire and Manoeuvre (Combattere)", "moving", 0),
        ("cedere", "Fanatics (Cedere)", "fanatic", None),
    ]
    assert data["need_to_hit"][0]["need"] == 3
    for field, value in (("firer", {"fire_and_manoeuvre": "yes"}), ("target", {"unit_rule": "berserk"})):
        bad = shooting_body()
        bad[field].update(value)
        response = post(client, "/api/resolve/shooting/", bad)
        assert response.status_code == 400 and response.json()["field"].startswith(field)


def test_odds_now_freezes_the_bonus_per_unit(client):
    alice = make_user("alice")
    client.force_login(alice)
    ours = make_builder_list(alice, entries=0, national_choice="combattere")
    theirs = make_builder_list(make_user("bob"), entries=0, national_choice="cedere")
    for army_list in (ours, theirs):
        army_list.army.national_rules.add(make_rule(army_list.edition, "cedere-obbedire-combattere"))
    rifle = make_weapon(ours.edition, "rifle")
    bersaglieri = make_list_unit(ours.army, name="Bersaglieri Infantry Section")
    bersaglieri.weapons.set([rifle])
    make_list_entry(ours, bersaglieri, models_count=10)
    make_list_entry(theirs, make_list_unit(theirs.army, name="Blackshirt 'M' Battalion Squad"), models_count=10)
    start(client, ours, opponent="link", opponent_link=f"/s/{theirs.share_token}/")
    game = Game.objects.get()
    firer, target = (side["units"][0]["key"] for side in game.setup["sides"])
    assert game.setup["odds"][firer]["unit_rules"] == ["fire_and_manoeuvre"]
    assert game.setup["odds"][target]["unit_rules"] == ["fanatics"]
    response = client.get(f"/games/{game.pk}/odds/?firer={firer}&target={target}", follow=True)
    url = response.redirect_chain[0][0]
    assert "fire_and_manoeuvre=on" in url and "target_unit_rule=fanatics" in url
    assert "Fanatics (Cedere)" in response.text
