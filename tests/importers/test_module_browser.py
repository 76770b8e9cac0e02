"""The builder's catalogue in a real browser, for an army imported from an army-builder module."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.catalogue.models import Army, Unit
from armybuilder.importers.writer import import_files
from tests.conftest import log_in
from tests.importers.test_module import read_module
from tests.importers.test_module_writer import make_v3_chart
from tests.lists.factories import make_list, make_user


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_marked_units_appear_when_asked_for_and_the_period_filters_in_place(page, live_server):
    make_v3_chart()
    import_files(read_module())
    germany = Army.objects.get(name="Germany", origin="module")
    captain = Unit.objects.get(army=germany, name="Captain Wolf")
    tank = Unit.objects.get(army=germany, name="Panzer IV Ausf H Medium Tank")
    alice = make_user("alice")
    army_list = make_list(alice, germany, points_limit=1000)
    log_in(page.context, live_server, alice)
    page.set_viewport_size({"width": 390, "height": 844})

    page.goto(f"{live_server.url}/lists/{army_list.pk}/")
    page.evaluate("window.__marker = 1")
    expect(page.locator(f"#add-unit-{tank.pk}")).to_be_visible()
    expect(page.locator(f"#add-unit-{captain.pk}")).to_have_count(0)
    page.check("#catalogue-extra")
    expect(page.locator(f"#add-unit-{captain.pk}")).to_be_attached(timeout=15000)
    page.select_option("#catalogue-period", "E")
    expect(page.locator(f"#add-unit-{tank.pk}")).to_have_count(0, timeout=15000)
    expect(page.locator(f"#add-unit-{captain.pk}")).to_have_count(0)  # late war only
    assert page.evaluate("window.__marker") == 1  # filtered in place, no reload
    assert page.url.endswith(f"/lists/{army_list.pk}/?period=E&extra=on")
