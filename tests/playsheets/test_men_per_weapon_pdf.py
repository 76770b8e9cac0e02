"""The roster and the unit cards say how many men carry each weapon, counted as the odds count them
(``lists.armament.armament``): from the unit's men and its options taken, per-man swaps and teams.

A Guard Squad of 7 men with rifles, 3 of whom took an SMG each, and an LMG team (2 more men with
their LMG): 4 rifles, 3 SMGs and the LMG; a single man's weapon (the tank's gun) says no count.
"""

from __future__ import annotations

import os

import pytest

from armybuilder.lists.models import Entry
from tests.lists.factories import make_option, make_unit
from tests.playsheets.factories import make_playsheet_list
from tests.reference.factories import make_weapon

pytestmark = pytest.mark.django_db


@pytest.fixture
def guards_list(alice, edition):
    army_list = make_playsheet_list(alice, squads=0)
    weapons = {w.slug: w for w in edition.weapons.all()}
    team = edition.special_rules.get(slug="team")
    lmg = make_weapon(
        edition, (team,), name="Light machine gun", slug="lmg", name_fr="Fusil-mitrailleur", range_max=36, shots="4"
    )
    guards = make_unit(army_list.army, name="Guard Squad", base_models=7, max_models=12)
    guards.weapons.set([weapons["rifle"]])
    make_option(
        guards, slug="smg", name="Submachine gun", grants_weapon=weapons["smg"], replaces_weapon=weapons["rifle"],
        per_model=True, cost_regular=4, position=1,
    )  # fmt: skip
    make_option(guards, slug="lmg-team", name="LMG team", grants_weapon=lmg, adds_models=2, max_count=1, position=2)
    Entry.objects.create(
        army_list=army_list, unit=guards, models_count=7, options={"smg": 3, "lmg-team": 1}, position=5
    )
    return army_list


def test_the_roster_says_how_many_men_carry_each_weapon(alice_client, guards_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{guards_list.pk}/roster.pdf?lang=en"))
    assert "4× Rifle, 3× Submachine gun, Light machine gun" in pdf.text
    # One gun on the tank, one rifle for the officer: no count.
    assert "Medium anti-tank gun Team 195" in pdf.text
    assert "1× " not in pdf.text
    shots = os.environ.get("MUSTER_SHOTS")
    if shots:
        os.makedirs(shots, exist_ok=True)
        with open(os.path.join(shots, "men-per-weapon-roster.pdf"), "wb") as out:
            out.write(pdf.content)


def test_the_cards_count_the_men_of_each_weapon_line(alice_client, guards_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{guards_list.pk}/cards.pdf?lang=en"))
    assert '4× Rifle 24" 1' in pdf.text
    assert '3× Submachine gun 12" 2 – Assault' in pdf.text
    assert 'Light machine gun 36" 4 – Team' in pdf.text
    shots = os.environ.get("MUSTER_SHOTS")  # a folder: keep the cards to look at them
    if shots:
        os.makedirs(shots, exist_ok=True)
        with open(os.path.join(shots, "men-per-weapon-cards.pdf"), "wb") as out:
            out.write(pdf.content)


def test_the_counts_follow_the_options_taken(alice_client, guards_list, read_pdf):
    entry = guards_list.entries.get(unit__name="Guard Squad")
    entry.options = {"smg": 7}  # every man swaps his rifle, and no team
    entry.save()
    pdf = read_pdf(alice_client.get(f"/lists/{guards_list.pk}/roster.pdf?lang=en"))
    assert "7× Submachine gun" in pdf.text
    assert "Rifle," not in pdf.text.split("Guard Squad", 1)[1].split("Medium Tank", 1)[0]


def test_the_french_roster_counts_them_too(alice_client, guards_list, read_pdf):
    pdf = read_pdf(alice_client.get(f"/lists/{guards_list.pk}/roster.pdf?lang=fr"))
    # The narrow column may break "Fusil-mitrailleur" after its hyphen.
    assert "4× Fusil, 3× Pistolet mitrailleur, Fusil-" in pdf.text
