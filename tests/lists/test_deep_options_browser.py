"""Per-man counts and a team inside a squad, on a phone, in a real browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import PHONE, PHONE_CONTEXT, log_in
from tests.lists.factories import make_army, make_deep_catalogue, make_edition, make_entry, make_list, make_user


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_per_man_swaps_and_a_team_on_a_phone(new_browser_context, live_server):
    page = new_browser_context(**PHONE_CONTEXT).new_page()
    alice = make_user("alice")
    army = make_army(edition=make_edition("v3"), slug="soviet", name="Soviet Union")
    units = make_deep_catalogue(army)
    army_list = make_list(alice, army, name="Guards", force_org="none")
    squad = make_entry(army_list, units["guards"], models_count=8)
    tank = make_entry(army_list, units["panzer"], position=1)
    log_in(page.context, live_server, alice)
    page.goto(f"/lists/{army_list.pk}/")
    page.evaluate("window.__marker = 1")
    k = f"entry-{squad.pk}"

    page.click(f"#{k}-open")
    expect(page.locator(f"#{k}-editor")).to_be_visible()
    smg = page.locator(f"#{k}-opt-smg")
    expect(page.locator(f"label[for='{k}-opt-smg']")).to_contain_text("+4 pts a man, up to 8")
    expect(page.locator(f"#{k}-opt-lmg-team").locator("xpath=..")).to_contain_text("adds 2 men")
    expect(page.locator(f"#{k}-grp-1 legend")).to_contain_text("Up to 2 of these.")
    # Nothing of the editor spills beyond the phone's width.
    widest = page.eval_on_selector(
        f"#{k}-editor", "e => Math.max(...[...e.querySelectorAll('*')].map(c => c.getBoundingClientRect().right))"
    )
    assert widest <= PHONE["width"]
    page.screenshot(path="/tmp/deep-options-editor.png", full_page=True)

    smg.fill("3")
    smg.dispatch_event("change")
    # The editor stays open: its points (50 + 3 men + 3 SMGs) change in place.
    points = page.locator(f"#{k}-points")
    expect(points).to_have_text("92 pts")

    page.check(f"#{k}-opt-lmg-team")
    expect(points).to_have_text("112 pts")
    expect(page.locator(f"#{k}-models-hint")).to_contain_text("10 with the teams")
    expect(page.locator("#summary-dice")).to_have_text("2")  # the squad and the tank: the team adds no die

    # Three upgrades of two: refused beside the group, nothing saved, the box the player ticked
    # unticked again.
    page.check(f"#{k}-opt-scope")
    expect(points).to_have_text("117 pts")
    page.check(f"#{k}-opt-flag")
    expect(points).to_have_text("124 pts")
    page.locator(f"#{k}-opt-bayonets").click()
    expect(page.locator(f"#{k}-grp-1-errors")).to_contain_text("Upgrades allows at most 2 choices; 3 were chosen.")
    page.screenshot(path="/tmp/deep-options-refused.png", full_page=True)
    assert page.evaluate("window.__marker") == 1
    squad.refresh_from_db()
    assert squad.options == {"smg": 3, "lmg-team": 1, "scope": 1, "flag": 1}
    expect(page.locator(f"#{k}-opt-bayonets")).not_to_be_checked()

    # "Done": the row shows the count and the options taken.
    page.click(f"#{k}-close")
    row = page.locator(f"#{k}-open")
    expect(row).to_contain_text("3× SMG instead of rifle")
    expect(row).to_contain_text("10 models")
    expect(row).to_contain_text("LMG team")
    expect(row).to_contain_text("Flag")

    # A tank priced through its variant: one must be chosen, Ausf. J only at Veteran.
    t = f"entry-{tank.pk}"
    page.click(f"#{t}-open")
    expect(page.locator(f"#{t}-grp-1-ausf-j")).to_be_disabled()
    expect(page.locator(f"#{t}-grp-1-none")).to_have_count(0)
    page.screenshot(path="/tmp/deep-options-variant.png", full_page=True)
    page.check(f"#{t}-grp-1-ausf-f")
    expect(page.locator(f"#{t}-points")).to_have_text("120 pts")
    expect(page.locator("#problems")).not_to_contain_text("choose one of Variant")
