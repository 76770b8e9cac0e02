"""Imported squads fire every man with his own weapon: the odds page, game day, the cards and the text export.

The squads (``imported_squads``) are written as the importer writes them; before, the odds page
loaded 1 SMG for the 5-man SMG squad and 1 rifle, 1 SMG and the LMG for the 9-man Guard Squad.
"""

from __future__ import annotations

import pytest

from armybuilder.games.services import lists_for_game, side_from_list
from armybuilder.lists.models import ArmyList, Entry
from armybuilder.playsheets.context import entry_lines
from armybuilder.resolver.adapters import armament, firer_from_entry, target_from_entry
from tests.lists.factories import make_list, make_user
from tests.resolver.imported_squads import add_imported_entries, make_imported_soviets

pytestmark = pytest.mark.django_db


@pytest.fixture
def soviets(charts):
    owner = make_user("ivan")
    units = make_imported_soviets(charts["v3"])
    army_list = make_list(owner, units["guard"].army, name="Red Guards", points_limit=1000)
    entries = add_imported_entries(army_list, units)
    return owner, army_list, entries


def _groups(data) -> list[tuple[str, str]]:
    rows = sorted(key.split("-")[0] for key in data if key.endswith("-weapon"))
    return [(data[f"{row}-weapon"], data[f"{row}-models"]) for row in rows if data.get(f"{row}-weapon")]


def test_the_odds_page_of_an_imported_smg_squad_fires_all_five_smgs(client, soviets):
    owner, _list, entries = soviets
    client.force_login(owner)
    response = client.get(f"/calc/shooting/?from_entry={entries['smg'].pk}")
    assert response.status_code == 200
    assert _groups(response.context["form"].data) == [("smg", "5")]
    assert 'name="g0-models" value="5"' in response.text


def test_the_odds_page_of_a_guard_squad_fires_each_man_and_the_team_with_its_men(client, soviets):
    owner, _list, entries = soviets
    client.force_login(owner)
    response = client.get(f"/calc/shooting/?from_entry={entries['guard'].pk}")
    assert response.status_code == 200
    # 7 men: 4 rifles and 3 SMGs; the LMG team's 2 men: the gunner's LMG (his loader does not fire).
    assert _groups(response.context["form"].data) == [("rifle", "4"), ("smg", "3"), ("lmg", "1")]
    # As a target the squad is all 9 men.
    target = client.get(f"/calc/shooting/?target_entry={entries['guard'].pk}")
    assert target.context["form"].data["target_models"] == "9"


def test_another_players_squad_is_not_loaded(client, soviets):
    _owner, _list, entries = soviets
    client.force_login(make_user("mallory"))
    response = client.get(f"/calc/shooting/?from_entry={entries['guard'].pk}")
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, [("rifle", 7)]),
        ({"submachine-gun-smg": 7}, [("smg", 7)]),
        ({"light-machine-gun-team": 1}, [("rifle", 7), ("lmg", 1)]),
        ({"submachine-gun-smg": 2, "light-machine-gun-team": 1}, [("rifle", 5), ("smg", 2), ("lmg", 1)]),
    ],
)
def test_each_mans_weapon_follows_the_options_taken(soviets, options, expected):
    _owner, _list, entries = soviets
    entry = entries["guard"]
    entry.options = options
    entry.save()
    entry = Entry.objects.select_related("unit", "army_list__edition").get(pk=entry.pk)
    assert [(group.weapon, group.models) for group in firer_from_entry(entry).groups] == expected
    assert target_from_entry(entry).models == 7 + 2 * options.get("light-machine-gun-team", 0)


def test_a_whole_unit_swap_arms_every_man_who_carried_the_weapon(charts, soviets):
    from armybuilder.catalogue.models import Option

    _owner, _list, entries = soviets
    guard = entries["guard"].unit
    Option.objects.create(
        unit=guard,
        slug="all-smgs",
        name="The whole squad may swap rifles for SMGs",
        all_models=True,
        grants_weapon=charts["v3"]["smg"],
        replaces_weapon=charts["v3"]["rifle"],
    )
    entry = entries["guard"]
    entry.options = {"all-smgs": 1, "light-machine-gun-team": 1}
    entry.save()
    entry = Entry.objects.get(pk=entry.pk)
    assert [(group.weapon, group.models) for group in firer_from_entry(entry).groups] == [("smg", 7), ("lmg", 1)]


def test_game_day_freezes_the_same_groups(soviets):
    _owner, army_list, entries = soviets
    loaded = lists_for_game().get(pk=army_list.pk)
    _side, odds = side_from_list("a", "Ivan", loaded)
    assert odds[f"a{entries['smg'].pk}"]["groups"] == [["smg", 5]]
    assert odds[f"a{entries['guard'].pk}"]["groups"] == [["rifle", 4], ["smg", 3], ["lmg", 1]]


def test_the_cards_print_what_the_men_carry(soviets):
    _owner, army_list, _entries = soviets
    loaded = ArmyList.objects.for_builder().get(pk=army_list.pk)
    lines = {
        entry.unit.slug: [(w.slug, line["count"]) for w, line in entry_lines(entry)] for entry in loaded.entries.all()
    }
    assert lines == {"submachine-gun-squad": [("smg", 5)], "guard-squad": [("rifle", 4), ("smg", 3), ("lmg", 1)]}


def test_the_text_export_says_each_mans_weapon(client, soviets):
    owner, army_list, _entries = soviets
    client.force_login(owner)
    text = client.get(f"/lists/{army_list.pk}/export.txt").content.decode()
    lines = text.splitlines()
    smg = lines.index(next(line for line in lines if line.startswith("* Submachine Gun Squad")))
    guard = lines.index(next(line for line in lines if line.startswith("* Guard Squad")))
    assert lines[smg + 1] == "  Weapons: SMG x5"
    assert lines[guard + 1] == "  Weapons: Rifle x4, SMG x3, LMG"
    assert "(Regular, 9 models)" in lines[guard]


def test_a_fixed_team_still_fires_its_weapon_once(charts):
    from tests.resolver.factories import make_entry, make_unit

    weapons = charts["v3"]
    team = make_unit(weapons["rifle"].edition, weapons=(weapons["lmg"],), unit_type="team", base_models=3, max_models=3)
    entry = make_entry(make_list(army=team.army), team, models_count=3)
    assert [(armed.weapon.slug, armed.models) for armed in armament(entry)] == [("lmg", 1)]
