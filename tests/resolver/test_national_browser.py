"""A German MMG from a list rolls six dice everywhere: "What are my odds?", its unit card and game day's "Odds now"."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import log_in
from tests.lists.factories import make_entry, make_unit, make_user
from tests.playsheets.factories import make_playsheet_list, make_rules_edition
from tests.reference.factories import make_special_rule, make_weapon
from tests.resolver import factories as resolver_factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _german_list(alice):
    edition = make_rules_edition("v2")
    mmg = make_weapon(edition, name="Medium machine gun", slug="mmg", range_max=36, shots="5")
    army_list = make_playsheet_list(alice, edition=edition)
    army_list.army.national_rules.add(make_special_rule(edition, name="Hitler's Buzzsaw", slug="hitler-s-buzzsaw"))
    team = make_unit(army_list.army, name="MMG team", unit_type="team", slot="team", base_models=3, max_models=3)
    team.weapons.set([mmg])
    make_entry(army_list, team, models_count=3, position=50)
    return army_list


def test_a_german_mmg_rolls_six_dice_on_the_page_the_card_and_odds_now(page, live_server):
    alice = make_user("alice")
    army_list = _german_list(alice)
    log_in(page.context, live_server, alice)

    # The builder's "What are my odds?" on the MMG team.
    page.goto(f"/lists/{army_list.pk}/")
    row = page.locator("li.unit-row", has_text="MMG team")
    row.locator("a.unit-open").click()
    row = page.locator("li.unit-row.is-open")
    row.get_by_role("link", name="What are my odds?").click()
    expect(page.locator("#id_army")).to_have_value("germany")
    result = page.locator("#result")
    expect(result).to_contain_text("6 dice", timeout=15_000)
    expect(result).to_contain_text("+1 shot: Hitler's Buzzsaw (Medium machine gun)")

    # The unit card prints six shots and names the rule.
    page.goto(f"/lists/{army_list.pk}/print/document/?parts=cards")
    card = page.locator("article.unit-card", has_text="MMG team")
    line = card.locator("tr", has_text="Medium machine gun")
    expect(line.locator("td").nth(1)).to_have_text("6")
    expect(line).to_contain_text("+1 shot: Hitler's Buzzsaw")

    # Game day: start a game against a number of dice, then "Odds now" from the MMG team.
    page.goto(f"/games/new/?list={army_list.pk}")
    page.check("input[name=opponent][value=dice]")
    page.fill("input[name=opponent_name]", "Bob")
    page.click("button:has-text('Start the game')")
    page.wait_for_url("**/games/*/")
    unit = page.locator("#side-a li.unit", has_text="MMG team")
    unit.locator("details.unit-tools summary").click()
    unit.get_by_role("button", name="Odds now").click()
    page.wait_for_url("**/calc/shooting/**")
    expect(page.locator("#id_army")).to_have_value("germany")
    expect(page.locator("#result")).to_contain_text("6 dice", timeout=15_000)
    expect(page.locator("#result")).to_contain_text("+1 shot: Hitler's Buzzsaw")


def test_picking_germany_on_the_plain_calculator_updates_the_odds_in_place(page):
    edition = resolver_factories.make_chart("v2")["rifle"].edition
    resolver_factories.make_weapon(edition, "mmg", name="MMG", range_max=36, shots="5", category="small-arms")
    page.goto("/calc/shooting/?edition=v2&g0-weapon=mmg&g0-models=1&target_kind=infantry&cover=none")
    expect(page.locator("#result")).to_contain_text("5 dice")
    page.evaluate("window.__marker = 'same page'")

    page.select_option("#id_army", "germany")

    expect(page.locator("#result")).to_contain_text("6 dice")
    expect(page.locator("#result")).to_contain_text("+1 shot: Hitler's Buzzsaw (MMG)")
    assert page.evaluate("window.__marker") == "same page"
    assert "army=germany" in page.url
