"""An imported NKVD squad on a phone: its LMG team's men take places within the data's 11 men."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.catalogue.models import Unit
from armybuilder.importers.writer import import_files
from tests.conftest import PHONE_CONTEXT, log_in
from tests.importers.test_su3 import read_su3
from tests.importers.test_writer import make_chart
from tests.lists.factories import make_entry, make_list, make_user


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_team_fills_the_squad_and_one_man_too_many_is_refused(new_browser_context, live_server):
    make_chart("v3")
    import_files(read_su3())
    squad = Unit.objects.get(name="NKVD Squad")
    team = squad.options.get(name="Light Machine Gun Team").slug
    alice = make_user("alice")
    army_list = make_list(alice, squad.army, name="Chekists", force_org="none")
    entry = make_entry(army_list, squad, models_count=9)
    page = new_browser_context(**PHONE_CONTEXT).new_page()
    log_in(page.context, live_server, alice)
    page.goto(f"/lists/{army_list.pk}/")
    k = f"entry-{entry.pk}"

    page.click(f"#{k}-open")
    expect(page.locator(f"#{k}-editor")).to_be_visible()
    expect(page.locator(f"#{k}-more")).to_be_enabled()
    # Nine men and the team's two: the squad's 11, so no more men.
    page.check(f"#{k}-opt-{team}")
    expect(page.locator(f"#{k}-models-hint")).to_contain_text("11 with the teams")
    expect(page.locator(f"#{k}-more")).to_be_disabled()
    entry.refresh_from_db()
    assert entry.options == {team: 1}

    # Without the team the squad may grow again; ten men and the team are refused, nothing saved.
    page.uncheck(f"#{k}-opt-{team}")
    expect(page.locator(f"#{k}-more")).to_be_enabled()
    page.click(f"#{k}-more")
    expect(page.locator(f"#{k}-models")).to_have_value("10")
    page.check(f"#{k}-opt-{team}")
    expect(page.locator(f"#{k}-editor")).to_contain_text(
        "NKVD Squad has 12 models with its teams; it may have at most 11."
    )
    entry.refresh_from_db()
    assert (entry.models_count, entry.options.get(team, 0)) == (10, 0)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_CONTEXT["viewport"]["width"]
