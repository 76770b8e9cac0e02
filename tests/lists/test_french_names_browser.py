"""A German list in French on a 390×844 phone: the built-in units and options read in French,
and a second squad of the same kind numbers both in place."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from playwright.sync_api import expect

from armybuilder.catalogue.models import Army, Unit
from tests.conftest import PHONE_CONTEXT, log_in
from tests.lists.factories import make_entry, make_list, make_platoon, make_user

FIXTURES = Path(settings.BASE_DIR) / "fixtures"
SHOTS = os.environ.get("MUSTER_SHOTS")  # a folder: save a screenshot of the French roster there


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_german_list_reads_in_french_on_a_phone(new_browser_context, live_server):
    names = ("00_editions.json", "20_v2_reference.json", "40_search_aliases.json", "55_catalogue_v2_barracks.json")
    call_command("loaddata", *(str(FIXTURES / name) for name in names), verbosity=0)
    hans = make_user("hans")
    army_list = make_list(hans, Army.objects.get_by_natural_key("v2", "germany"), name="Kampfgruppe")
    platoon = make_platoon(army_list, kind="reinforced_platoon")
    grenadiers = Unit.objects.get_by_natural_key("v2", "germany", "heer-grenadier-squad")
    options = {"assault-rifle": 1, "anti-tank-grenades-if-no-panzerfaust-taken": 1}
    first = make_entry(army_list, grenadiers, platoon=platoon, options=options)

    context = new_browser_context(**PHONE_CONTEXT)
    context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    log_in(context, live_server, hans)
    phone = context.new_page()
    phone.goto(f"/lists/{army_list.pk}/")

    row = phone.locator(f"#entry-{first.pk}-open")
    expect(row.locator(".unit-name")).to_have_text("Escouade de grenadiers (Heer)")
    expect(row.locator(".chip")).to_have_text(["Fusil d'assaut", "Grenades antichar (si pas de Panzerfaust)"])

    # Players search in French and add a second squad of the kind: both are numbered, the first in place.
    phone.fill("#catalogue-q", "grenadiers")
    expect(phone.locator(f"#add-unit-{grenadiers.pk}")).to_be_visible()
    phone.tap(f"#add-unit-{grenadiers.pk}")
    expect(phone.locator(".unit-row.is-pending")).to_have_count(0, timeout=20_000)  # the server's answer is in
    second = army_list.entries.exclude(pk=first.pk)
    expect(phone.locator(".unit-row .unit-name")).to_have_count(2)
    expect(row.locator(".unit-name")).to_have_text("Escouade de grenadiers (Heer) #1")
    expect(phone.locator(f"#entry-{second.get().pk}-open .unit-name")).to_have_text("Escouade de grenadiers (Heer) #2")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_CONTEXT["viewport"]["width"]

    # The editor offers the squad's options by their French names.
    row.tap()
    editor = phone.locator(f"#entry-{first.pk}-editor")
    expect(editor).to_be_visible()
    expect(editor).to_contain_text("Grenades antichar (si pas de Panzerfaust)")
    expect(editor).to_contain_text("Fusil d'assaut")
    expect(editor).not_to_contain_text("Assault rifle")
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        phone.screenshot(path=os.path.join(SHOTS, "french-roster-phone.png"), full_page=True)
