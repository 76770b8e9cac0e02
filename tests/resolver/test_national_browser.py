"""A German MMG from a list rolls six dice everywhere: "What are my odds?", its unit card and game day's "Odds now";
an Italian Bersaglieri squad of a Combattere list advances without the -1 on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import PHONE_CONTEXT, log_in
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


def test_a_bersaglieri_squad_advances_without_the_minus_one_on_a_phone(new_browser_context, live_server):
    """Italy's Combattere, per unit: the Bersaglieri squad of a list that chose it, opened with "What are
    my odds?" on a 390x844 phone, has its Fire and Manoeuvre ticked, and an Advance keeps its rifles' 3+."""
    alice = make_user("alice")
    edition = make_rules_edition("v2")
    army_list = make_playsheet_list(alice, edition=edition, national_choice="combattere")
    army_list.army.national_rules.add(
        make_special_rule(edition, name="Cedere, Obbedire, Combattere", slug="cedere-obbedire-combattere")
    )
    squad = make_unit(army_list.army, name="Bersaglieri Infantry Section")
    squad.weapons.set([edition.weapons.get(slug="rifle")])
    make_entry(army_list, squad, models_count=10, position=50)
    context = new_browser_context(**PHONE_CONTEXT)
    log_in(context, live_server, alice)
    page = context.new_page()

    page.goto(f"/lists/{army_list.pk}/")
    row = page.locator("li.unit-row", has_text="Bersaglieri Infantry Section")
    row.locator("a.unit-open").click()
    row = page.locator("li.unit-row.is-open")
    row.get_by_role("link", name="What are my odds?").click()
    page.wait_for_url("**/calc/shooting/**")
    expect(page.locator("#id_fire_and_manoeuvre")).to_be_checked()
    result = page.locator("#result")
    expect(result).to_contain_text("10 dice")

    # The Advance order, through htmx: the rifles keep their 3+ and the page names the rule.
    page.select_option("#id_order", "advance")
    expect(result).to_contain_text("No −1 for moving: Fire and Manoeuvre (Combattere) (Rifle)")
    expect(result).not_to_contain_text("Fire on the move")
    assert "order=advance" in page.url and "fire_and_manoeuvre=on" in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_CONTEXT["viewport"]["width"]
