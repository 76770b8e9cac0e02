"""A new player's first minute, in a real browser: a German 2nd-edition list with a squad and a tank.

Loads the built-in 2nd-edition data (the German army generated from the Barracks data) the way
``load_reference_data`` does, then goes through the new-list form and the builder.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from playwright.sync_api import expect

from armybuilder.catalogue.models import Unit
from armybuilder.lists.models import ArmyList

FIXTURES = Path(settings.BASE_DIR) / "fixtures"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_new_player_builds_a_german_list_with_a_squad_and_a_tank(page):
    names = ("00_editions.json", "20_v2_reference.json", "40_search_aliases.json", "55_catalogue_v2_barracks.json")
    call_command("loaddata", *(str(FIXTURES / name) for name in names), verbosity=0)
    squad = Unit.objects.get_by_natural_key("v2", "germany", "heer-infantry-squad")
    tank = Unit.objects.get_by_natural_key("v2", "germany", "panzer-iv-ausf-h")

    page.goto("/lists/new/")
    # 1st edition has no armies: not offered, and said so next to the field.
    expect(page.locator("#id_edition option")).to_have_text(["Choose an edition", "2nd edition"])
    page.select_option("#id_edition", "v2")
    expect(page.locator("#id_army option", has_text="Germany")).to_have_count(1)
    page.select_option("#id_army", label="Germany")
    page.fill("#id_name", "Kampfgruppe")
    page.fill("#id_points_limit", "1000")
    page.click("button[name=create]")

    expect(page.locator("h1")).to_have_text("Kampfgruppe")
    army_list = ArmyList.objects.get()
    expect(page.locator("#national-rules")).to_contain_text("Hitler's Buzzsaw")

    page.select_option("#new-platoon-kind", "reinforced_platoon")
    page.click("#new-platoon-submit")
    # The platoon is in once "Add to" offers it (until then the unit would go to no platoon).
    expect(page.locator("#add-platoon option:checked")).to_have_text("Reinforced Platoon")

    # Players' words: "MG" finds the machine-gun teams first; "panzer iv" the tank.
    page.fill("#catalogue-q", "Heer infantry")
    expect(page.locator(f"#add-unit-{squad.pk}")).to_be_visible()
    page.click(f"#add-unit-{squad.pk}")
    expect(page.locator("#summary-points")).to_have_text("50")
    page.fill("#catalogue-q", "panzer iv ausf h")
    expect(page.locator(f"#add-unit-{tank.pk}")).to_be_visible()
    page.click(f"#add-unit-{tank.pk}")
    expect(page.locator("#summary-points")).to_have_text(str(50 + tank.cost_regular))
    expect(page.locator("#summary-dice")).to_have_text("2")
    expect(page.locator(".unit-row.is-pending")).to_have_count(
        0
    )  # the server's answers are in (the totals move at the tap)
    assert sorted(army_list.entries.values_list("unit__slug", flat=True)) == [squad.slug, tank.slug]
