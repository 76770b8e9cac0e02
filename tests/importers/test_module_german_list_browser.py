"""A German player's 3rd-edition list from an imported army-builder module, on a phone, all the way:
built in the builder, printed as a PDF, and played for a turn on game day.

Only the import and the login are done behind the browser's back. The expected points and order
dice are worked out here from the module file itself (``MODULE``), not from Muster's code.
"""

from __future__ import annotations

import io
import json

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from armybuilder.games.models import Game
from armybuilder.importers.writer import import_files
from armybuilder.lists.models import ArmyList
from tests.conftest import PHONE, PHONE_CONTEXT, log_in, wait_until
from tests.importers.test_module import MODULE, read_module
from tests.importers.test_module_writer import make_v3_chart
from tests.lists.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The answers of a busy machine can be slow: every wait is on a condition, with room to spare.
SLOW = 30_000


def module_units(name: str, platoon: str) -> dict:
    """The module's entry for the German unit ``name`` in ``platoon``, read from the file."""
    units = json.loads(MODULE.read_bytes())["data"]["units"]
    for unit in units:
        places = [{clause["in"] for clause in choice["all"]} for choice in unit.get("availableIn", [])]
        if unit["name"] == name and {platoon, "Germany"} in places:
            return unit
    raise AssertionError(f"{name} is not in the module's German {platoon}")


def module_price(unit: dict, option: str, quality: str) -> int:
    """An option's price at ``quality``: the quality itself ("morale"), or an option unlocked at it."""
    for each in unit["options"]:
        if each["name"] != option:
            continue
        if each.get("requireChooseOneKey") == "morale" and option == quality:
            return each["points"]
        if quality in each.get("unlockedByLocal", []):
            return each["points"]
    raise AssertionError(f"{unit['name']}: no {option} at {quality}")


def expected_list() -> tuple[int, int]:
    """Points and order dice of the list the test builds, from the module's prices."""
    commander = module_units("Platoon Commander", "Rifle Platoon")
    heer = module_units("Heer Rifle Squad", "Rifle Platoon")
    grenadiers = module_units("Grenadier Squad", "Rifle Platoon")
    truck = module_units("Opel Blitz Truck", "Rifle Platoon")
    points = (
        module_price(commander, "Regular", "Regular")
        # Veteran, one man more, two SMGs in place of rifles and the NCO's SMG
        + module_price(heer, "Veteran", "Veteran")
        + module_price(heer, "Additional Men", "Veteran")
        + 2 * module_price(heer, "SMGs", "Veteran")
        + module_price(heer, "NCO SMG", "Veteran")
        + module_price(grenadiers, "Regular", "Regular")
        + module_price(truck, "Regular", "Regular")
    )
    dice = sum(unit["order"] for unit in (commander, heer, grenadiers, truck))
    return points, dice


def wait_for_htmx(page) -> None:
    """Until no htmx request of the page is in flight (each sets ``htmx-request`` on its element)."""
    expect(page.locator(".htmx-request")).to_have_count(0, timeout=SLOW)


def step(page, action) -> None:
    """A tap on game day, and the wait until its answer is swapped in (the board's revision moves)."""
    before = page.locator("#game-sync").get_attribute("data-revision")
    action()
    wait_until(page, "r => document.querySelector('#game-sync').dataset.revision !== r", before, timeout=SLOW / 1000)


def add_unit(page, name: str) -> None:
    page.get_by_role("button", name=f"Add {name}", exact=True).click()
    expect(page.locator("#roster .unit-row .unit-name", has_text=name)).to_have_count(1, timeout=SLOW)
    wait_for_htmx(page)


def entry_key(page, name: str) -> str:
    return page.locator("#roster li.unit-row", has=page.locator(".unit-name", has_text=name)).get_attribute("id")


def build_the_list(page) -> ArmyList:
    """New list, a Rifle Platoon, four units from the catalogue, the squad's options in its editor."""
    page.goto("/lists/new/")
    page.select_option("#id_edition", "v3")
    expect(page.locator("#id_army option", has_text="Germany")).to_have_count(1, timeout=SLOW)
    page.select_option("#id_army", label="Germany")
    page.fill("#id_name", "Kampfgruppe Test")
    page.fill("#id_points_limit", "1000")
    page.click("button[name=create]")
    page.wait_for_url("**/lists/*/", timeout=SLOW)
    army_list = ArmyList.objects.get(name="Kampfgruppe Test")
    assert army_list.army.origin == "module" and army_list.edition.slug == "v3"

    page.select_option("#new-platoon-kind", "rifle_platoon")
    page.click("#new-platoon-submit")
    expect(page.locator("#add-platoon option", has_text="Rifle Platoon")).not_to_have_count(0, timeout=SLOW)
    wait_for_htmx(page)
    platoon = page.locator("#add-platoon option", has_text="Rifle Platoon").first.get_attribute("value")
    page.select_option("#add-platoon", platoon)

    add_unit(page, "Platoon Commander")
    add_unit(page, "Heer Rifle Squad")
    # One squad of the two a Rifle Platoon needs: the problems say so.
    expect(page.locator("#problems")).to_contain_text("needs 2 infantry squads; it has 1", timeout=SLOW)

    # The squad's editor: Veteran, one man more, two SMGs and the NCO's SMG.
    k = entry_key(page, "Heer Rifle Squad")
    page.click(f"#{k}-open")
    expect(page.locator(f"#{k}-editor")).to_be_visible(timeout=SLOW)
    page.select_option(f"#{k}-quality", "veteran")
    wait_for_htmx(page)
    page.click(f"#{k}-more")
    expect(page.locator(f"#{k}-models")).to_have_value("6", timeout=SLOW)
    wait_for_htmx(page)
    for option, count in (("smgs", 2), ("nco-smg", 1)):
        field = page.locator(f"#{k}-opt-{option}")
        field.fill(str(count))
        field.dispatch_event("change")
        wait_for_htmx(page)
        expect(page.locator(f"#{k}-opt-{option}")).to_have_value(str(count), timeout=SLOW)
    page.click(f"#{k}-close")
    expect(page.locator(f"#{k}-open")).to_contain_text("6 models", timeout=SLOW)

    add_unit(page, "Grenadier Squad (Rifle Platoon)")
    add_unit(page, "Opel Blitz Truck")
    return army_list


def test_a_german_list_from_the_module_is_built_printed_and_played_on_a_phone(
    django_db_setup, live_server, new_browser_context
):
    make_v3_chart()
    import_files(read_module())
    alice = make_user("alice")
    context = new_browser_context(**PHONE_CONTEXT)
    context.set_default_timeout(SLOW)
    log_in(context, live_server, alice)
    page = context.new_page()

    # 1. Built in the builder.
    army_list = build_the_list(page)
    points, dice = expected_list()
    expect(page.locator("#summary-points")).to_have_text(str(points), timeout=SLOW)
    expect(page.locator("#summary-dice")).to_have_text(str(dice), timeout=SLOW)
    expect(page.locator("#problems")).to_contain_text("No problems: this list is legal.", timeout=SLOW)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The module lists the Panzer IV in the Armored Platoon only: a Rifle Platoon has no place for it.
    add_unit(page, "Panzer IV Ausf H Medium Tank")
    expect(page.locator("#problems")).to_contain_text("has no place for Panzer IV Ausf H Medium Tank")
    tank = entry_key(page, "Panzer IV Ausf H Medium Tank")
    page.click(f"#{tank}-open")
    page.click(f"#{tank}-remove")
    expect(page.locator(f"#{tank}-undo")).to_be_visible()
    expect(page.locator("#summary-points")).to_have_text(str(points))
    expect(page.locator("#problems")).to_contain_text("No problems: this list is legal.")

    # 2. Printed: the builder's print link, the PDF downloaded from the print page.
    page.click("#share summary")
    page.click("#share-print")
    page.wait_for_url(f"**/lists/{army_list.pk}/print/", timeout=SLOW)
    with page.expect_download(timeout=SLOW) as download_info:
        page.click("#download-pdf")
    with open(download_info.value.path(), "rb") as file:
        content = file.read()
    assert content.startswith(b"%PDF-")
    text = " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(io.BytesIO(content)).pages)
    lower = text.casefold()
    for name in ("Platoon Commander", "Heer Rifle Squad", "Grenadier Squad (Rifle Platoon)", "Opel Blitz Truck"):
        assert name in text
    assert "SMGs ×2; NCO SMG" in text  # the options chosen in the editor
    assert "Submachine gun (SMG)" in text  # the weapon they hand the men, from the chart
    assert f"points {points} / 1000" in lower and f"order dice {dice}" in lower
    # The truck's card carries the damage value the module gives it ("Damage Value:6+").
    truck = module_price(module_units("Opel Blitz Truck", "Rifle Platoon"), "Regular", "Regular")
    truck_card = lower[lower.rindex(f"opel blitz truck {truck} pts") :]
    assert "damage value 6+" in truck_card

    # 3. Played for a turn: "Play" from the player's lists, against an opponent with one die.
    page.goto("/lists/")
    page.locator(f"#list-{army_list.pk}").get_by_role("link", name="Play").click()
    page.wait_for_url("**/games/new/?list=*", timeout=SLOW)
    page.fill("input[name=my_name]", "Alice")
    page.check("input[name=opponent][value=dice]")
    page.fill("input[name=opponent_name]", "Bob")
    page.fill("input[name=opponent_dice]", "1")
    page.click("button:has-text('Start the game')")
    page.wait_for_url("**/games/*/", timeout=SLOW)
    mine = page.locator("#side-a li.unit")
    expect(mine).to_have_count(4)
    expect(page.locator("#dice-a strong")).to_have_text(str(dice))
    expect(page.locator(".game-turn")).to_contain_text("Turn 1")
    expect(mine.filter(has_text="Heer Rifle Squad")).to_contain_text("Veteran · 6/6 models")

    # Bob's die comes out of the bag first, recorded as a player with a real bag does; then Alice
    # draws her four on the phone and gives each to a unit without an order, her officer's last.
    step(page, page.locator("#current-die .record-form button[name=side][value=b]").click)
    step(page, page.locator("#side-b li.unit").first.locator("button[name=order][value=advance]").click)
    for _ in range(dice):
        step(page, page.locator("#draw-die").click)
        expect(page.locator("#current-die")).to_contain_text("Die drawn: Alice")
        waiting = mine.filter(has=page.locator("form.order-form:not(.snap-form)"))
        others = waiting.filter(has_not=page.locator(".unit-name", has_text="Platoon Commander"))
        choice = others.first if others.count() else waiting.first
        step(page, choice.locator("button[name=order][value=advance]").click)
    expect(page.locator("#current-die")).to_contain_text("The bag is empty.")
    # The officer's "snap to action" is not offered: every other unit has its order already.
    expect(page.locator("#snap")).to_have_count(0)
    for unit in mine.all():
        expect(unit.locator(".badge-order")).to_have_text("Advance")
    expect(page.locator("#side-b li.unit .badge-order")).to_have_text("Advance")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    step(page, page.locator("#end-turn-button").click)
    expect(page.locator(".game-turn")).to_contain_text("Turn 2")
    expect(page.locator("#dice-a strong")).to_have_text(str(dice))  # the bag is refilled
    expect(mine.locator(".badge-order")).to_have_count(0)
    game = Game.objects.get()
    assert game.turn == 2
    assert [a.kind for a in game.actions.all()].count("order") == dice + 1
