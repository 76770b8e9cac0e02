"""On a phone, "What are my odds?" of an imported Guard Squad fires each man with his own weapon."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import PHONE_CONTEXT, log_in
from tests.lists.factories import make_list, make_user
from tests.resolver.factories import make_chart
from tests.resolver.imported_squads import add_imported_entries, make_imported_soviets

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_what_are_my_odds_of_an_imported_squad_loads_every_man_on_a_phone(new_browser_context, live_server):
    ivan = make_user("ivan")
    units = make_imported_soviets(make_chart("v3"))
    army_list = make_list(ivan, units["guard"].army, name="Red Guards", points_limit=1000)
    add_imported_entries(army_list, units)
    context = new_browser_context(**PHONE_CONTEXT)
    log_in(context, live_server, ivan)
    page = context.new_page()

    page.goto(f"/lists/{army_list.pk}/")
    row = page.locator("li.unit-row", has_text="Guard Squad")
    row.locator("a.unit-open").click()
    row = page.locator("li.unit-row.is-open")
    row.get_by_role("link", name="What are my odds?").click()
    page.wait_for_url("**/calc/shooting/**")

    # 4 rifles, 3 SMGs and the LMG team's gunner (his loader does not fire).
    for i, (weapon, models) in enumerate([("rifle", "4"), ("smg", "3"), ("lmg", "1")]):
        expect(page.locator(f"#id_g{i}-weapon")).to_have_value(weapon)
        expect(page.locator(f"#id_g{i}-models")).to_have_value(models)
    result = page.locator("#result")
    expect(result).to_contain_text("4 × Rifle")
    expect(result).to_contain_text("3 × SMG")
    expect(result).to_contain_text("1 × LMG · Normal · 4 dice")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_CONTEXT["viewport"]["width"]

    # The SMG squad: all five SMGs.
    page.goto(f"/lists/{army_list.pk}/")
    row = page.locator("li.unit-row", has_text="Submachine Gun Squad")
    row.locator("a.unit-open").click()
    page.locator("li.unit-row.is-open").get_by_role("link", name="What are my odds?").click()
    page.wait_for_url("**/calc/shooting/**")
    expect(page.locator("#id_g0-weapon")).to_have_value("smg")
    expect(page.locator("#id_g0-models")).to_have_value("5")
    expect(page.locator("#result")).to_contain_text("5 × SMG")
