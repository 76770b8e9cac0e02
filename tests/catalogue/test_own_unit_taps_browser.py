"""On a 390×844 phone: a Panzer IV and a squad with three weapon swaps typed from the book, taps counted.

Counted as a player's thumb does it: every tap on a link, button, chip or box is one; a box
typed into is one tap (to focus it) however long the text; a drop-down is two (open it, pick
the line). Typing into a box the page has just focused itself (the cost box after a swap chip)
needs no tap. The form's old layout took 26 taps for the tank and about 31 for the squad as a
player counted them, 29 and 29 counted this way (the same two units, every field typed or chosen).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.catalogue.models import Unit
from tests.catalogue.own_units import alice_in_a_browser, weapon_pk

MOST_TAPS = 15


class Thumb:
    """Drives the page and counts the taps each step needs."""

    def __init__(self, page) -> None:
        self.page = page
        self.taps = 0

    def tap(self, selector: str) -> None:
        self.page.locator(selector).tap()
        self.taps += 1

    def type(self, selector: str, text: str) -> None:
        box = self.page.locator(selector)
        box.tap()
        box.fill(text)
        self.taps += 1

    def type_focused(self, selector: str, text: str) -> None:
        """Type into the box the page focused itself: no tap, and it must really be that box."""
        expect(self.page.locator(selector)).to_be_focused()
        self.page.keyboard.type(text)

    def choose(self, selector: str, value: str) -> None:
        self.page.locator(selector).select_option(value)
        self.taps += 2


def _open_form(page, army_list) -> Thumb:
    page.goto(f"/lists/{army_list.pk}/")
    thumb = Thumb(page)
    thumb.tap(".own-add a")
    page.wait_for_url("**/units/new/v3/**")
    return thumb


def _save(thumb: Thumb, army_list) -> None:
    thumb.tap("#save-unit")
    thumb.page.wait_for_url(f"**/lists/{army_list.pk}/**")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_panzer_iv_and_a_squad_with_three_swaps_each_in_at_most_15_taps(live_server, new_browser_context):
    alice, generic, army_list, context, page = alice_in_a_browser(
        live_server, new_browser_context, "phone", "en", "Kampfgruppe"
    )

    # The Panzer IV Ausf. H: a medium tank whose turret gun is the heavy anti-tank gun.
    thumb = _open_form(page, army_list)
    thumb.tap("#kind-medium-tank")
    expect(page.locator("#id_damage_value")).to_have_value("9")
    expect(page.locator("#id_army")).to_have_value(str(generic.pk))  # the list's army, kept through the kind
    thumb.type("#id_name", "Panzer IV Ausf. H")
    thumb.choose("#id_w-0-weapon", str(weapon_pk("heavy-at-gun")))
    thumb.type("#id_cost_inexperienced", "188")
    thumb.type("#id_cost_regular", "235")
    thumb.type("#id_cost_veteran", "282")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the form is {overflow}px wider than the phone"
    _save(thumb, army_list)
    tank_taps = thumb.taps
    assert tank_taps <= MOST_TAPS, f"the Panzer IV took {tank_taps} taps"

    tank = Unit.objects.get(owner=alice, name="Panzer IV Ausf. H")
    assert (tank.army, tank.unit_type, tank.slot, tank.damage_value) == (generic, "vehicle_armoured", "tank", 9)
    assert tank.base_cost() == {"inexperienced": 188, "regular": 235, "veteran": 282}
    assert [(line["weapon"], line["mount"], line["arc"]) for line in tank.weapon_lines] == [
        ("heavy-at-gun", "turret", "360"),
        ("mmg", "coaxial", "360"),
        ("mmg", "hull", "front"),
    ]
    assert tank.options.count() == 0

    # A Grenadier squad: 5 men, up to 10; SMGs for up to 4 men, one LMG, Panzerfausts for up to 2.
    thumb = _open_form(page, army_list)
    thumb.tap("#kind-squad")
    expect(page.locator("#own-swaps")).to_be_visible()
    thumb.type("#id_name", "Grenadier Squad")
    thumb.type("#id_max_models", "10")
    thumb.type("#id_cost_regular", "50")
    thumb.type("#id_per_model_regular", "10")
    thumb.tap("#swap-smg")
    thumb.type_focused("#id_o-0-cost", "3")
    thumb.type("#id_o-0-max_count", "4")
    thumb.tap("#swap-lmg")
    thumb.type_focused("#id_o-1-cost", "15")
    thumb.tap("#swap-panzerfaust")
    thumb.type_focused("#id_o-2-cost", "5")
    thumb.type("#id_o-2-max_count", "2")
    expect(page.locator("#own-swaps-status")).to_have_text("Added: Panzerfaust. Type its cost.")
    _save(thumb, army_list)
    squad_taps = thumb.taps
    assert squad_taps <= MOST_TAPS, f"the squad took {squad_taps} taps"

    squad = Unit.objects.get(owner=alice, name="Grenadier Squad")
    assert (squad.unit_type, squad.slot, squad.base_models, squad.max_models) == ("infantry", "infantry", 5, 10)
    assert squad.base_cost() == {"regular": 50} and squad.per_model_cost() == {"regular": 10}
    assert list(squad.weapons.values_list("slug", flat=True)) == ["rifle"]
    options = [
        (
            o.name,
            o.cost_regular,
            o.per_model,
            o.max_count,
            o.grants_weapon.slug,
            o.replaces_weapon.slug if o.replaces_weapon else "",
        )
        for o in squad.options.order_by("position")
    ]
    assert options == [
        # Named from the chart's names: an SMG each man may take, one LMG for the unit (a team
        # weapon), and a one-shot Panzerfaust carried besides the rifle.
        ("Submachine gun (SMG) instead of rifle", 3, True, 4, "smg", "rifle"),
        ("Light machine gun (LMG) instead of rifle", 15, False, None, "lmg", "rifle"),
        ("Panzerfaust", 5, True, 2, "panzerfaust", ""),
    ]

    # Both are offered in the builder, at the points the form saved.
    page.goto(f"/lists/{army_list.pk}/")
    for unit in (tank, squad):
        expect(page.locator(f"#add-unit-{unit.pk}")).to_be_visible()

    # The steppers: a labelled −/+ pair beside the box, usable from the keyboard, the box still typeable.
    page.goto(f"/units/{squad.pk}/")
    more = page.get_by_role("button", name="More: Largest size")
    fewer = page.get_by_role("button", name="Fewer: Largest size")
    more.tap()
    expect(page.locator("#id_max_models")).to_have_value("11")
    fewer.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(page.locator("#id_max_models")).to_have_value("9")
    page.locator("#id_max_models").fill("12")
    expect(page.locator("#id_max_models")).to_have_value("12")
    # The option limits have theirs too; an empty limit starts at 1.
    page.get_by_role("button", name="More: Limit").nth(1).tap()
    expect(page.locator("#id_o-1-max_count")).to_have_value("1")
    print(f"taps: Panzer IV {tank_taps}, squad {squad_taps}")
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_without_javascript_the_folded_form_still_saves_and_keeps_a_refusal_open(live_server, new_browser_context):
    from tests.catalogue.own_units import load_v3_generic
    from tests.conftest import PHONE_CONTEXT, log_in
    from tests.lists.factories import make_list, make_user

    generic = load_v3_generic()
    alice = make_user("alice")
    army_list = make_list(owner=alice, army=generic, name="Kampfgruppe", force_org="none")
    context = new_browser_context(**PHONE_CONTEXT, java_script_enabled=False, locale="en-GB")
    context.set_default_timeout(20_000)
    log_in(context, live_server, alice)
    page = context.new_page()
    page.goto(f"/units/new/v3/?army=generic&list={army_list.pk}")
    page.click("#kind-squad")
    expect(page.locator("#own-swaps")).to_be_hidden()  # the swaps need the script
    page.fill("#id_name", "Grenadier Squad")
    page.fill("#id_max_models", "10")
    page.fill("#id_cost_regular", "50")
    page.click("#option-rows > summary")  # a folded section opens without a script
    page.fill("#id_o-0-cost", "3")  # a cost without a name is refused
    page.click("#save-unit")
    expect(page.locator("#option-rows")).to_have_attribute("open", "")
    expect(page.locator("#option-rows .errorlist").first).to_have_text("Name the option.")
    expect(page.locator("#id_per_model_regular_error, .errorlist").first).to_be_visible()
    expect(page.locator("#id_name")).to_have_value("Grenadier Squad")
    page.fill("#id_o-0-name", "SMG instead of rifle")
    page.fill("#id_per_model_regular", "10")
    page.click("#save-unit")
    page.wait_for_url(f"**/lists/{army_list.pk}/**")
    squad = Unit.objects.get(owner=alice, name="Grenadier Squad")
    assert (squad.max_models, squad.options.get().cost_regular) == (10, 3)
    context.close()
