"""In a real browser: a 3rd-edition German list from Generic units and three units typed from the book.

On a phone in French and on a desktop in English: the three own units are made through the
unit form from the builder (a Panzer IV with its turret gun, co-axial and hull MMG; a squad
whose men may swap rifles for SMGs; a character officer), taken in the list with a Generic
rifle squad, the squad's SMG swaps set in the builder, then the list is printed, shared,
exported and imported again, the odds opened from the tank, and one turn played on game day.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from armybuilder.catalogue.models import Unit
from armybuilder.games.models import Game
from armybuilder.lists.models import ArmyList
from armybuilder.reference.models import SpecialRule, Weapon
from tests.catalogue.own_units import alice_in_a_browser, unfold
from tests.conftest import wait_until

SHOTS = Path(settings.BASE_DIR).parent / "_notes" / "shots"

WORDS = {
    "en": {"your_entry": "your entry", "player_entry": "player's entry", "turn2": "Turn 2"},
    "fr": {"your_entry": "votre saisie", "player_entry": "saisie d'un joueur", "turn2": "Tour 2"},
}


def _pdf_text(content: bytes) -> str:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(content))
    return " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)


def _weapon(slug: str) -> str:
    return str(Weapon.objects.get(edition__slug="v3", slug=slug).pk)


def _fill_unit(page, fields: dict, weapons=(), options=(), rules=()) -> None:
    # The form folds the sections a unit may not need; a player opens the ones they fill.
    if {"officer_rank", "damage_value", "transport_capacity"} & set(fields):
        unfold(page, "#own-profile")
    if weapons:
        unfold(page, "#weapon-lines")
    if options:
        unfold(page, "#option-rows")
    if rules:
        unfold(page, "#own-rules")
    for name, value in fields.items():
        selector = f"#id_{name}"
        if page.locator(selector).evaluate("el => el.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, str(value))
    for i, (slug, count, mount, arc) in enumerate(weapons):
        page.select_option(f"#id_w-{i}-weapon", _weapon(slug))
        page.fill(f"#id_w-{i}-count", str(count))
        page.select_option(f"#id_w-{i}-mount", mount)
        if mount:  # a carried weapon has no arc, and the form shows no box for it
            page.select_option(f"#id_w-{i}-arc", arc)
    for i, option in enumerate(options):
        page.fill(f"#id_o-{i}-name", option["name"])
        page.fill(f"#id_o-{i}-cost", str(option["cost"]))
        if option.get("per_model"):
            page.check(f"#id_o-{i}-per_model")
        if option.get("max_count"):
            page.fill(f"#id_o-{i}-max_count", str(option["max_count"]))
        if option.get("grants"):
            page.select_option(f"#id_o-{i}-grants_weapon", _weapon(option["grants"]))
        if option.get("replaces"):
            page.select_option(f"#id_o-{i}-replaces_weapon", _weapon(option["replaces"]))
    for slug in rules:
        rule = SpecialRule.objects.get(edition__slug="v3", slug=slug)
        page.check(f"input[name=special_rules][value='{rule.pk}']")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("device", "lang"), [("desktop", "en"), ("phone", "fr")])
def test_a_german_list_with_three_units_from_the_book(live_server, new_browser_context, device, lang):
    alice, generic, army_list, context, page = alice_in_a_browser(
        live_server, new_browser_context, device, lang, "Kampfgruppe Krüger", "40_search_aliases.json"
    )
    words = WORDS[lang]

    def add_own_unit(fields, weapons=(), options=(), rules=(), shot: str = "") -> Unit:
        page.goto(f"/lists/{army_list.pk}/")
        page.click(".own-add a")
        page.wait_for_url("**/units/new/v3/**")
        _fill_unit(page, fields, weapons, options, rules)
        if shot:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"own-unit-form-{device}-{lang}.png"), full_page=True)
            page.locator("#weapon-lines").scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"own-unit-form-weapons-{device}-{lang}.png"))
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"the unit form is {overflow}px wider than the screen"
        page.click("#save-unit")
        page.wait_for_url(f"**/lists/{army_list.pk}/**")
        unit = Unit.objects.get(owner=alice, name=fields["name"])
        expect(page.locator(f"#add-unit-{unit.pk}")).to_be_visible()
        return unit

    tank = add_own_unit(
        {
            "name": "Panzer IV Ausf. H",
            "unit_type": "vehicle_armoured",
            "slot": "tank",
            "damage_value": 9,
            "cost_inexperienced": 188,
            "cost_regular": 235,
            "cost_veteran": 282,
        },
        weapons=[("heavy-at-gun", 1, "turret", "360"), ("mmg", 1, "coaxial", "360"), ("mmg", 1, "hull", "front")],
        shot="form",
    )
    # A refusal is shown next to its field: a squad cannot grow without a price per extra man.
    page.goto(f"/lists/{army_list.pk}/")
    page.click(".own-add a")
    _fill_unit(page, {"name": "Grenadier Squad", "base_models": 5, "max_models": 10, "cost_regular": 50})
    page.click("#save-unit")
    expect(page.locator("#id_per_model_regular_error, .errorlist").first).to_be_visible()
    squad = add_own_unit(
        {
            "name": "Grenadier Squad",
            "unit_type": "infantry",
            "slot": "infantry",
            "base_models": 5,
            "max_models": 10,
            "cost_regular": 50,
            "cost_veteran": 65,
            "per_model_regular": 10,
            "per_model_veteran": 13,
        },
        weapons=[("rifle", 1, "", "")],
        options=[
            {
                "name": "SMG instead of rifle",
                "cost": 3,
                "per_model": True,
                "max_count": 4,
                "grants": "smg",
                "replaces": "rifle",
            }
        ],
    )
    captain = add_own_unit(
        {
            "name": "Hauptmann Krüger",
            "unit_type": "headquarters",
            "slot": "character",
            "officer_rank": "captain",
            "base_models": 1,
            "max_models": 3,
            "cost_regular": 110,
            "per_model_regular": 13,
        },
        weapons=[("pistol", 1, "", "")],
        rules=["tough-fighters"],
    )

    # The list: the three own units and a Generic rifle squad, added from the catalogue.
    page.goto(f"/lists/{army_list.pk}/")
    rifle = Unit.objects.get(army=generic, slug="rifle-squad")
    expected = 0
    for unit in (captain, squad, tank, rifle):
        page.click(f"#add-unit-{unit.pk}")
        expected += unit.cost_regular
        expect(page.locator("#summary-points")).to_have_text(str(expected))
    expect(page.locator("#summary-dice")).to_have_text("4")
    expect(page.locator(".unit-row.is-pending")).to_have_count(0, timeout=20_000)  # the server's answer is in
    expect(page.locator(".unit-row .own-mark")).to_have_count(3)
    expect(page.locator(".unit-row .own-mark").first).to_have_text(words["your_entry"])

    # Three of the squad's men swap their rifles for SMGs, in the builder's editor.
    squad_entry = army_list.entries.get(unit=squad)
    page.click(f"#entry-{squad_entry.pk}-open")
    smg = page.locator(f"#entry-{squad_entry.pk} .options-form input[type=number]").first
    smg.fill("3")
    smg.press("Tab")
    expected += 9
    expect(page.locator("#summary-points")).to_have_text(str(expected))
    page.click(f"#entry-{squad_entry.pk}-close")  # "Done" closes the editor again
    page.screenshot(path=str(SHOTS / f"own-units-list-{device}-{lang}.png"), full_page=True)

    # Printed: the unit cards, each own unit marked as the player's entry.
    cards = page.request.get(f"{live_server.url}/lists/{army_list.pk}/cards.pdf?lang={lang}")
    assert cards.ok
    text = _pdf_text(cards.body())
    assert "Panzer IV Ausf. H" in text and "Hauptmann Krüger" in text
    assert text.count(words["player_entry"]) == 3

    # Shared: the share page marks them too.
    army_list.refresh_from_db()
    page.goto(f"/s/{army_list.share_token}/")
    expect(page.locator(".own-mark")).to_have_count(3)
    page.screenshot(path=str(SHOTS / f"own-units-shared-{device}-{lang}.png"), full_page=True)

    # Exported and imported again: the same list, and no copies of units Alice already has.
    exported = page.request.get(f"{live_server.url}/lists/{army_list.pk}/export.json").text()
    assert '"muster-list/3"' in exported
    page.goto("/lists/import/")
    page.fill("#id_text", exported)
    page.locator("form[method=post] button[type=submit]").last.click()
    wait_until(page, "() => /\\/lists\\/\\d+\\/$/.test(location.pathname) && !location.pathname.endsWith('/import/')")
    copy = ArmyList.objects.exclude(pk=army_list.pk).get(owner=alice)
    expect(page.locator("#summary-points")).to_have_text(str(expected))
    assert Unit.objects.filter(owner=alice).count() == 3
    assert set(copy.entries.values_list("unit", flat=True)) == {captain.pk, squad.pk, tank.pk, rifle.pk}

    # The odds, opened from the tank: its turret gun, and its two MMGs firing together.
    tank_entry = army_list.entries.get(unit=tank)
    page.goto(f"/lists/{army_list.pk}/")
    page.click(f"#entry-{tank_entry.pk}-open")
    page.locator(f"#entry-{tank_entry.pk} .odds-link").click()
    page.wait_for_url("**/calc/shooting/?*")
    expect(page.locator("select[name=g0-weapon]")).to_have_value("heavy-at-gun")
    expect(page.locator("select[name=g1-weapon]")).to_have_value("mmg")
    expect(page.locator("input[name=g1-models]")).to_have_value("2")
    expect(page.locator(".stat-value").first).to_be_visible()

    # Game day: one turn. Alice draws her die and her tank fires, then the turn ends.
    page.goto(f"/games/new/?list={army_list.pk}")
    page.check("input[name=opponent][value=dice]")
    page.fill("input[name=opponent_name]", "Bob")
    page.fill("input[name=opponent_dice]", "2")
    page.locator("button.big-button").click()
    page.wait_for_url("**/games/*/")
    game = Game.objects.get()
    tank_row = page.locator("#side-a li.unit", has_text="Panzer IV Ausf. H")
    expect(tank_row).to_have_count(1)

    def step(action) -> None:
        before = page.locator("#game-sync").get_attribute("data-revision")
        action()
        wait_until(page, "r => document.querySelector('#game-sync').dataset.revision !== r", before)

    step(lambda: page.click("button[name=side][value=a]"))
    step(lambda: tank_row.locator("button[name=order][value=fire]").click())
    expect(tank_row.locator(".badge-order")).to_be_visible()
    # Every other die of the bag: Alice's units and Bob's go Down, one die each.
    mine, his = page.locator("#side-a li.unit"), page.locator("#side-b li.unit")
    for side, units in (("a", mine), ("b", his)):
        for i in range(units.count()):
            unit = units.nth(i)
            if unit.locator(".badge-order").count():
                continue  # the tank has its order already
            step(lambda side=side: page.click(f"button[name=side][value={side}]"))
            step(lambda unit=unit: unit.locator("button[name=order][value=down]").click())
    expect(page.locator("input[name=force]")).to_have_count(0)  # the bag is empty
    step(lambda: page.click("#end-turn-button"))
    expect(page.locator(".game-turn")).to_contain_text(words["turn2"])

    # "Odds now" from the tank on game day: the calculator opens with its chart weapons.
    if not tank_row.locator("details.unit-tools").get_attribute("open"):
        tank_row.locator("details.unit-tools summary").click()
    tank_row.locator(".odds-form button[type=submit]").click()
    page.wait_for_url("**/calc/shooting/?*")
    expect(page.locator("select[name=g0-weapon]")).to_have_value("heavy-at-gun")
    expect(page.locator("select[name=g1-weapon]")).to_have_value("mmg")
    assert Game.objects.filter(pk=game.pk).exists()

    # My units: the three, shared as a set by link.
    page.goto("/units/")
    expect(page.locator(".own-units li")).to_have_count(3)
    page.click("#share-v3")
    expect(page.locator("#share-url-v3")).to_have_value(re.compile(r"/units/shared/[\w-]+/$"))
    page.screenshot(path=str(SHOTS / f"own-units-page-{device}-{lang}.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"My units is {overflow}px wider than the screen"
