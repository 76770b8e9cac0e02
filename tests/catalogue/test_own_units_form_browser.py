"""In a real browser, the two device and language pairs the long own-units test leaves out.

``test_own_units_browser`` runs a desktop in English and a phone in French; this lighter test
runs a phone in English and a desktop in French through the unit form itself: open it from the
builder, have a field refused with its message next to it, correct it, save, and find the unit
offered in the builder.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.catalogue.models import Unit
from tests.catalogue.own_units import alice_in_a_browser, unfold

REFUSED = {"en": "Only a vehicle can be open-topped.", "fr": "Seul un véhicule peut être découvert."}
SAVE = {"en": "Save the unit", "fr": "Enregistrer l'unité"}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "fr")])
def test_the_unit_form_refuses_next_to_the_field_then_saves(live_server, new_browser_context, device, lang):
    alice, _generic, army_list, context, page = alice_in_a_browser(
        live_server, new_browser_context, device, lang, "Kampfgruppe"
    )

    page.goto(f"/lists/{army_list.pk}/")
    page.click(".own-add a")
    page.wait_for_url("**/units/new/v3/**")
    expect(page.locator("#save-unit")).to_have_text(SAVE[lang])
    page.fill("#id_name", "Grenadier Squad")
    page.select_option("#id_unit_type", "infantry")
    page.fill("#id_base_models", "5")
    page.fill("#id_max_models", "5")
    page.fill("#id_cost_regular", "50")
    unfold(page, "#own-profile")  # folded for a squad: the player opens it
    page.check("#id_open_topped")  # a squad cannot be open-topped
    page.check("#id_scope_1")  # only this army
    page.click("#save-unit")

    # The refusal sits in the open-topped field's own row, and what was typed is kept.
    message = page.locator(".own-open-topped .errorlist")
    expect(message).to_have_text(REFUSED[lang])
    expect(message).to_be_visible()
    expect(page.locator("#id_name")).to_have_value("Grenadier Squad")
    expect(page.locator("#id_scope_1")).to_be_checked()
    assert not Unit.objects.filter(owner=alice).exists()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the refused form is {overflow}px wider than the screen"

    page.uncheck("#id_open_topped")
    page.click("#save-unit")
    page.wait_for_url(f"**/lists/{army_list.pk}/**")
    unit = Unit.objects.get(owner=alice, name="Grenadier Squad")
    assert unit.army_only and not unit.special_rules.exists()
    expect(page.locator(f"#add-unit-{unit.pk}")).to_be_visible()
    context.close()
