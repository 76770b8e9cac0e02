"""On a 390 x 844 phone, the builder's catalogue puts what players mean first.

"MG42" used to list the LMG team first and a player added it by mistake: the MMG team now comes
first, then the LMG team, then units whose main weapon it is, then the rest.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from playwright.sync_api import expect

from armybuilder.catalogue.models import Army, Unit
from tests.conftest import PHONE_CONTEXT, log_in
from tests.lists.factories import make_list, make_user

FIXTURES = Path(settings.BASE_DIR) / "fixtures"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_mg42_puts_the_mmg_team_first_on_a_phone(new_browser_context, live_server, language):
    names = ("00_editions.json", "20_v2_reference.json", "40_search_aliases.json", "55_catalogue_v2_barracks.json")
    call_command("loaddata", *(str(FIXTURES / name) for name in names), verbosity=0)
    alice = make_user("alice")
    germany = Army.objects.get(edition__slug="v2", slug="germany")
    army_list = make_list(alice, army=germany, force_org="none")
    mmg = Unit.objects.get_by_natural_key("v2", "germany", "medium-machine-gun-team")
    lmg = Unit.objects.get_by_natural_key("v2", "germany", "light-machine-gun-team")
    context = new_browser_context(**PHONE_CONTEXT, locale=language)
    log_in(context, live_server, alice)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"/lists/{army_list.pk}/")

    page.fill("#catalogue-q", "MG42")
    rows = page.locator("#catalogue-results .catalogue-unit button[id^=add-unit-]")
    expect(rows.first).to_have_id(f"add-unit-{mmg.pk}")
    expect(rows.nth(1)).to_have_id(f"add-unit-{lmg.pk}")
    # The first result is on screen where the player typed, and a tap adds that unit.
    rows.first.scroll_into_view_if_needed()
    rows.first.click()
    shown = (mmg.name_fr or mmg.name) if language == "fr" else mmg.name
    expect(page.locator("#roster")).to_contain_text(shown)
    expect(page.locator(".unit-row.is-pending")).to_have_count(0, timeout=20_000)  # the server's answer is in
    assert list(army_list.entries.values_list("unit__slug", flat=True)) == ["medium-machine-gun-team"]

    # Typed as players do, with a space: the same order.
    page.fill("#catalogue-q", "mg 42")
    expect(rows.first).to_have_id(f"add-unit-{mmg.pk}")
    expect(rows.nth(1)).to_have_id(f"add-unit-{lmg.pk}")
