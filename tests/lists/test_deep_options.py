"""The community data's shapes downstream, through the client and the adapters: the builder (per-man counts,
teams, shared limits refused beside their field, variants carrying quality prices, whole-unit
choices, free units), the JSON list format, cards, game day and the resolver's prefill."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armybuilder.games.services import lists_for_game, side_from_list
from armybuilder.lists.exchange import export_data
from armybuilder.lists.models import ArmyList, Entry
from armybuilder.playsheets.context import list_context
from armybuilder.resolver.adapters import firer_from_entry, target_from_entry
from tests.lists.factories import (
    make_army,
    make_deep_catalogue,
    make_edition,
    make_entry,
    make_list,
    make_option,
    make_unit,
)

HX = {"HX-Request": "true"}


@pytest.fixture
def deep(alice):
    army = make_army(edition=make_edition("v3"), slug="soviet", name="Soviet Union")
    units = make_deep_catalogue(army)
    army_list = make_list(alice, army, name="Guards", force_org="none", points_limit=1000)
    squad = make_entry(army_list, units["guards"], models_count=8, position=0)
    return army_list, squad, units


def _options_url(entry: Entry) -> str:
    return f"/lists/{entry.army_list_id}/entries/{entry.pk}/options/"


def _editor(client, entry: Entry) -> str:
    return client.get(f"/lists/{entry.army_list_id}/entries/{entry.pk}/", headers=HX).content.decode()


def _loaded(army_list: ArmyList) -> ArmyList:
    return ArmyList.objects.for_builder().get(pk=army_list.pk)


# --- The builder ------------------------------------------------------------------------------


def test_each_man_may_swap_and_the_count_shows_on_the_row(alice_client, deep):
    _army_list, squad, _units = deep
    html = _editor(alice_client, squad)
    assert "+4 pts a man, up to 8" in html
    response = alice_client.post(_options_url(squad), {"opt-smg": "8"}, headers=HX)
    squad.refresh_from_db()
    assert squad.options == {"smg": 8}
    assert f'id="entry-{squad.pk}-points">112</span>' in response.content.decode()  # 50 + 3 men + 8 SMGs
    assert "8× SMG instead of rifle" in response.content.decode()


def test_a_swap_beyond_the_men_is_refused_next_to_its_field(alice_client, deep):
    _army_list, squad, _units = deep
    response = alice_client.post(_options_url(squad), {"opt-smg": "9"}, headers=HX)
    html = response.content.decode()
    squad.refresh_from_db()
    assert squad.options == {}
    errors = re.search(rf'<ul class="errorlist" role="alert" id="entry-{squad.pk}-opt-smg-errors">(.*?)</ul>', html)
    assert errors and "SMG instead of rifle can be taken at most 8 times." in errors.group(1)
    assert f'aria-describedby="entry-{squad.pk}-opt-smg-errors"' in html


def test_a_team_adds_its_men_to_the_row_and_its_price(alice_client, deep):
    _army_list, squad, _units = deep
    assert "adds 2 men" in _editor(alice_client, squad)
    response = alice_client.post(_options_url(squad), {"opt-lmg-team": "1"}, headers=HX)
    html = response.content.decode()
    assert f'id="entry-{squad.pk}-points">100</span>' in html  # 50 + 3 men + the team's 20
    assert "10 models" in html
    squad.refresh_from_db()
    assert (squad.models_count, squad.total_models) == (8, 10)
    assert "5–10, +10 pts each extra, 10 with the teams" in _editor(alice_client, squad)


def test_a_shared_group_shows_its_limit_and_refuses_beyond_it_beside_the_group(alice_client, deep):
    _army_list, squad, _units = deep
    html = _editor(alice_client, squad)
    assert re.search(r"<legend>Upgrades <span class=\"hint\">Up to 2 of these.</span></legend>", html)
    response = alice_client.post(_options_url(squad), {"opt-scope": "1", "opt-bayonets": "1", "opt-flag": "1"})
    html = response.content.decode()
    squad.refresh_from_db()
    assert squad.options == {}
    group = re.search(
        rf'<fieldset class="option-group has-errors" id="entry-{squad.pk}-grp-1">(.*?)</fieldset>', html, re.S
    )
    assert group and "Upgrades allows at most 2 choices; 3 were chosen." in group.group(1)
    alice_client.post(_options_url(squad), {"opt-scope": "1", "opt-flag": "1"})
    squad.refresh_from_db()
    assert squad.options == {"scope": 1, "flag": 1}


def test_options_that_exclude_each_other_are_refused_both_ways(alice_client, deep):
    _army_list, squad, _units = deep
    response = alice_client.post(_options_url(squad), {"opt-panzerfaust": "1", "opt-rifle-grenade": "1"})
    assert "Rifle grenade cannot be taken with Panzerfaust." in response.content.decode()
    squad.refresh_from_db()
    assert squad.options == {}


def test_whole_unit_grenades_are_one_choice_priced_for_every_man(alice_client, deep):
    _army_list, squad, _units = deep
    assert "+2 pts a man, whole unit" in _editor(alice_client, squad)
    response = alice_client.post(_options_url(squad), {"opt-grenades": "1", "opt-lmg-team": "1"}, headers=HX)
    squad.refresh_from_db()
    assert squad.options == {"grenades": 1, "lmg-team": 1}
    assert f'id="entry-{squad.pk}-points">120</span>' in response.content.decode()  # 80 + 20 + 10 men at 2


def test_a_variant_is_a_required_choice_carrying_the_price_of_each_quality(alice_client, deep):
    army_list, _squad, units = deep
    tank = make_entry(army_list, units["panzer"], position=1)
    html = _editor(alice_client, tank)
    assert f'id="entry-{tank.pk}-grp-1-none"' not in html  # no "None": a variant must be chosen
    assert re.search(rf'id="entry-{tank.pk}-grp-1-ausf-j" name="grp-1" value="ausf-j" disabled>', html)
    assert "not offered at Regular" in html
    page = alice_client.get(f"/lists/{army_list.pk}/").content.decode()
    assert "Panzer III: choose one of Variant." in page
    # The catalogue prices it through its variants: Ausf. F at Regular, from Ausf. F's at Veteran.
    assert '<span class="catalogue-costs">Regular 120 · Veteran from 145 pts</span>' in page
    refused = alice_client.post(_options_url(tank), {"grp-1": "ausf-j"}).content.decode()
    assert "Ausf. J is not offered at Regular." in refused
    alice_client.post(_options_url(tank), {"grp-1": "ausf-f"})
    tank.refresh_from_db()
    assert tank.options == {"ausf-f": 1}
    page = alice_client.get(f"/lists/{army_list.pk}/").content.decode()
    assert "choose one of Variant" not in page
    alice_client.post(f"/lists/{army_list.pk}/entries/{tank.pk}/quality/", {"quality": "veteran"})
    alice_client.post(_options_url(tank), {"grp-1": "ausf-j"})
    tank.refresh_from_db()
    assert (tank.quality, tank.options) == ("veteran", {"ausf-j": 1})
    refused = alice_client.post(f"/lists/{army_list.pk}/entries/{tank.pk}/quality/", {"quality": "regular"})
    assert "Ausf. J is not offered at Regular; choose another first." in refused.content.decode()
    tank.refresh_from_db()
    assert tank.quality == "veteran"
    response = alice_client.get(f"/lists/{army_list.pk}/entries/{tank.pk}/row/", headers=HX)
    assert f'id="entry-{tank.pk}-points">160</span>' in response.content.decode()


def test_free_units_cost_nothing_and_beyond_the_limit_the_option_is_named(alice_client, deep):
    army_list, _squad, units = deep
    first = make_entry(army_list, units["gun"], position=1, options={"free-unit": 1, "spotter": 1})
    page = alice_client.get(f"/lists/{army_list.pk}/").content.decode()
    assert f'id="entry-{first.pk}-points">0</span>' in page
    assert "the whole unit free" in _editor(alice_client, first)
    make_entry(army_list, units["gun"], position=2, options={"free-unit": 1})
    page = alice_client.get(f"/lists/{army_list.pk}/").content.decode()
    # The two guns share a name: numbered, so the problem says which is which.
    expected = "Free Unit: 2 units are free through it (Medium Artillery #1 and Medium Artillery #2); a list may have 1"
    assert expected in page


def test_a_free_unit_names_the_national_rule_that_makes_it_free(alice_client, deep):
    from tests.catalogue.factories import make_special_rule

    army_list, _squad, units = deep
    rule = make_special_rule(army_list.edition, "forward-artillery-doctrine", name="Forward Artillery Doctrine")
    army_list.army.national_rules.add(rule)
    gun = make_entry(army_list, units["gun"], position=1, options={"free-unit": 1})
    assert "the whole unit free: Forward Artillery Doctrine" in _editor(alice_client, gun)
    french = alice_client.get(
        f"/lists/{army_list.pk}/entries/{gun.pk}/", headers={**HX, "Accept-Language": "fr"}
    ).content.decode()
    assert "toute l&#x27;unité gratuite : " in french


def _queries(client, army_list, method: str, url: str, data: dict) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert getattr(client, method)(url, data, headers=HX).status_code == 200
    return len(queries)


def test_deep_units_cost_the_same_queries_for_few_and_many_entries(alice_client, deep):
    army_list, squad, units = deep
    counts = []
    for extra in (1, 12):
        for position in range(extra):
            make_entry(army_list, units["guards"], models_count=8, position=position + 1, options={"lmg-team": 1})
            make_entry(army_list, units["panzer"], position=position + 1, options={"ausf-f": 1})
        counts.append(
            (
                _queries(alice_client, army_list, "get", f"/lists/{army_list.pk}/", {}),
                _queries(alice_client, army_list, "post", _options_url(squad), {"opt-smg": "2", "opt-lmg-team": "1"}),
                _queries(alice_client, army_list, "post", _options_url(squad), {"opt-smg": "9"}),
            )
        )
    assert counts[0] == counts[1]


# --- The list format ---------------------------------------------------------------------------


def _import(client, data):
    return client.post("/lists/import/", {"text": json.dumps(data)})


def test_each_shape_survives_an_export_and_import(alice_client, deep):
    army_list, squad, units = deep
    Entry.objects.filter(pk=squad.pk).update(
        options={"smg": 3, "lmg-team": 1, "grenades": 1, "scope": 1, "flag": 1, "panzerfaust": 1}
    )
    make_entry(army_list, units["panzer"], position=1, quality="veteran", options={"ausf-j": 1})
    make_entry(army_list, units["gun"], position=2, options={"free-unit": 1})
    data = export_data(_loaded(army_list))
    assert data["format"] == "muster-list/3"
    assert [entry["options"] for entry in data["entries"]] == [
        {"flag": 1, "grenades": 1, "lmg-team": 1, "panzerfaust": 1, "scope": 1, "smg": 3},
        {"ausf-j": 1},
        {"free-unit": 1},
    ]
    assert _import(alice_client, data).status_code == 302
    copy = ArmyList.objects.exclude(pk=army_list.pk).get()
    assert export_data(_loaded(copy))["entries"] == data["entries"]
    assert [entry.total_models for entry in _loaded(copy).entries.all()] == [10, 1, 4]


def test_a_list_of_the_previous_format_still_imports(alice_client, deep):
    army_list, _squad, _units = deep
    old = export_data(_loaded(army_list)) | {"format": "muster-list/1"}
    # muster-list/1 stored a whole-unit option as a count of men.
    old["entries"][0]["options"] = {"grenades": 8, "smg": 2}
    assert _import(alice_client, old).status_code == 302
    copy = ArmyList.objects.exclude(pk=army_list.pk).get()
    [entry] = copy.entries.all()
    assert (entry.models_count, entry.options) == (8, {"grenades": 1, "smg": 2})


def test_an_import_over_a_shared_limit_is_refused_naming_the_group(alice_client, deep):
    army_list, _squad, _units = deep
    data = export_data(_loaded(army_list))
    data["entries"][0]["options"] = {"scope": 1, "bayonets": 1, "flag": 1}
    response = _import(alice_client, data)
    assert [str(e) for e in response.context["errors"]] == [
        "entries[0] (Guards Squad): Upgrades allows at most 2 of its options; 3 were taken."
    ]


# --- Cards, game day, the resolver ------------------------------------------------------------


def test_cards_count_a_teams_men_and_print_its_weapon_only_when_taken(deep):
    army_list, squad, _units = deep
    [card] = list_context(_loaded(army_list), paper="a4")["units"]
    assert (card.models, card.casualty_boxes, [w.name for w in card.weapons]) == (8, 8, ["8× Rifle"])
    Entry.objects.filter(pk=squad.pk).update(options={"lmg-team": 1})
    [card] = list_context(_loaded(army_list), paper="a4")["units"]
    assert (card.models, card.casualty_boxes) == (10, 10)
    assert [w.name for w in card.weapons] == ["8× Rifle", "Light machine gun"]


def test_game_day_counts_a_teams_men_and_keeps_one_order_die(deep):
    army_list, squad, _units = deep
    Entry.objects.filter(pk=squad.pk).update(options={"lmg-team": 1})
    side, _odds = side_from_list("a", "Alice", lists_for_game().get(pk=army_list.pk))
    [unit] = side["units"]
    assert (unit["models"], unit["dice"], unit["points"]) == (10, 1, 100)


def test_the_resolver_gives_a_team_its_men_and_weapon(deep):
    _army_list, squad, _units = deep
    Entry.objects.filter(pk=squad.pk).update(options={"lmg-team": 1, "smg": 3})
    entry = Entry.objects.select_related("unit", "army_list__edition").get(pk=squad.pk)
    groups = [(group.weapon, group.models) for group in firer_from_entry(entry).groups]
    # 8 men: 5 rifles and 3 SMGs; the team of 2: its LMG (the loader does not fire).
    assert groups == [("rifle", 5), ("smg", 3), ("lmg", 1)]
    assert target_from_entry(entry).models == 10


def test_a_vehicle_card_prints_only_the_weapons_it_carries_and_one_pintle_takes_one_gun(alice_client, deep):
    from tests.catalogue.factories import make_weapon

    army_list, _squad, _units = deep
    edition = army_list.edition
    mmg = make_weapon(edition, "mmg", name="Medium machine gun", range_max=36, shots="5")
    hmg = make_weapon(edition, "hmg", name="Heavy machine gun", range_max=36, shots="3")
    jeep = make_unit(army_list.army, name="Jeep", unit_type="vehicle_soft", slot="transport", base_models=1,
                     max_models=1, weapon_lines=[])  # fmt: skip
    make_option(jeep, slug="pintle-mmg", name="Pintle-mounted MMG", group="pintle", grants_weapon=mmg, position=1)
    make_option(jeep, slug="pintle-hmg", name="Pintle-mounted HMG", group="pintle", grants_weapon=hmg, position=2)
    entry = make_entry(army_list, jeep, position=1)
    cards = list_context(_loaded(army_list), paper="a4")["units"]
    assert [w.name for w in cards[1].weapons] == []
    # One pintle, one gun: the two are one choice (radio buttons), so both cannot be posted.
    html = _editor(alice_client, entry)
    assert html.count('name="grp-1"') == 3  # None, MMG, HMG
    assert 'name="opt-pintle-mmg"' not in html
    alice_client.post(_options_url(entry), {"grp-1": "pintle-hmg"})
    entry.refresh_from_db()
    assert entry.options == {"pintle-hmg": 1}
    cards = list_context(_loaded(army_list), paper="a4")["units"]
    assert [w.name for w in cards[1].weapons] == ["Heavy machine gun"]


def test_a_per_man_group_allows_one_choice_a_man_in_the_builder(alice_client, deep):
    army_list, _squad, _units = deep
    squad = make_unit(army_list.army, name="Assault Squad", option_groups=[
        {"key": "swap", "label": "Swap a rifle", "minimum": 0, "maximum": 1, "per_model": True}
    ])  # fmt: skip
    make_option(squad, slug="smg", name="SMG", per_model=True, group="swap", position=1, cost_regular=4)
    make_option(squad, slug="shotgun", name="Shotgun", per_model=True, group="swap", position=2, cost_regular=3)
    entry = make_entry(army_list, squad, position=1)
    assert "Up to one a man (5 in all)." in _editor(alice_client, entry)
    refused = alice_client.post(_options_url(entry), {"opt-smg": "3", "opt-shotgun": "3"}).content.decode()
    assert "Swap a rifle allows at most 5 choices; 6 were chosen." in refused
    alice_client.post(_options_url(entry), {"opt-smg": "3", "opt-shotgun": "2"})
    entry.refresh_from_db()
    assert entry.options == {"smg": 3, "shotgun": 2}


def test_the_text_export_counts_a_teams_men(alice_client, deep):
    army_list, squad, _units = deep
    Entry.objects.filter(pk=squad.pk).update(options={"lmg-team": 1, "smg": 3})
    text = alice_client.get(f"/lists/{army_list.pk}/export.txt").content.decode()
    assert "* Guards Squad (Regular, 10 models): SMG instead of rifle x3, LMG team - 112 pts" in text
