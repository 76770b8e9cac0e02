"""In a real browser, the two device and language pairs the long own-units test leaves out.

``test_own_units_browser`` runs a desktop in English and a phone in French; this lighter test
runs a phone in English and a desktop in French through the unit form itself: open it from the
builder, have a field refused with its message next to it, correct it, save, and find the unit
offered in the builder.
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

REFUSED = {"en": "Only a vehicle can be open-topped.", "fr": "Seul un véhicule peut être découvert."}
SAVE = {"en": "Save the unit", "fr": "Enregistrer l'unité"}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "fr")])
def test_the_unit_form_refuses_next_to_the_field_then_saves(live_server, new_browser_context, device, lang):
    names = ("00_editions.json", "30_v3_reference.json", "60_catalogue_v3_generic.json")
    call_command("loaddata", *(str(FIXTURES / name) for name in names), verbosity=0)
    generic = Army.objects.get(edition__slug="v3", slug="generic")
    alice = make_user("alice")
    army_list = make_list(owner=alice, army=generic, name="Kampfgruppe", force_org="none")
    device_options = PHONE_CONTEXT if device == "phone" else {"viewport": {"width": 1280, "height": 900}}
    context = new_browser_context(**device_options, locale="fr-FR" if lang == "fr" else "en-GB")
    context.set_default_timeout(20_000)
    log_in(context, live_server, alice)
    page = context.new_page()

    page.goto(f"/lists/{army_list.pk}/")
    page.click(".own-add a")
    page.wait_for_url("**/units/new/v3/**")
    expect(page.locator("#save-unit")).to_have_text(SAVE[lang])
    page.fill("#id_name", "Grenadier Squad")
    page.select_option("#id_unit_type", "infantry")
    page.fill("#id_base_models", "5")
    page.fill("#id_max_models", "5")
    page.fill("#id_cost_regular", "50")
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
