"""The builder in a real browser: every change updates the page in place, without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.lists.models import Entry
from tests.conftest import log_in
from tests.lists.factories import make_army, make_edition, make_list, make_officer, make_unit, make_user


def _entries(army_list) -> list[Entry]:
    return list(Entry.objects.filter(army_list=army_list).order_by("pk"))


def _open(page, entry: Entry) -> None:
    """Open a unit's editor from its compact row (loaded in place)."""
    page.click(f"#entry-{entry.pk}-open")
    expect(page.locator(f"#entry-{entry.pk}-editor")).to_be_visible()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_builds_a_list_without_reloading_the_page(page, live_server):
    alice = make_user("alice")
    army = make_army(edition=make_edition("v2"), name="British")
    officer = make_officer(army)
    squad = make_unit(army, name="Rifle Section")
    army_list = make_list(alice, army, name="Desert Rats")
    log_in(page.context, live_server, alice)

    page.goto(f"/lists/{army_list.pk}/")
    expect(page.locator("#roster")).to_contain_text("No units yet")
    page.evaluate("window.__marker = 1")
    points, dice, problems = page.locator("#summary-points"), page.locator("#summary-dice"), page.locator("#problems")

    # A platoon first: the catalogue's "Add to" list then offers it, already chosen.
    page.select_option("#new-platoon-kind", "reinforced_platoon")
    page.fill("#new-platoon-name", "1st Platoon")
    page.click("#new-platoon-submit")
    expect(page.locator("#roster h2", has_text="1st Platoon")).to_be_visible()
    expect(page.locator("#add-platoon option:checked")).to_have_text("1st Platoon")

    page.click(f"#add-unit-{officer.pk}")
    expect(dice).to_have_text("1")
    page.click(f"#add-unit-{squad.pk}")
    expect(dice).to_have_text("2")
    expect(points).to_have_text("100")
    expect(problems).to_contain_text("needs 2 infantry sections; it has 1")

    page.click(f"#add-unit-{squad.pk}")
    expect(dice).to_have_text("3")
    expect(points).to_have_text("150")
    expect(problems).to_contain_text("No problems: this list is legal.")
    expect(page.locator("#officers")).to_contain_text("Second Lieutenant")

    first_squad, second_squad = _entries(army_list)[1:]
    _open(page, first_squad)
    page.select_option(f"#entry-{first_squad.pk}-quality", "veteran")
    # A change keeps the editor open, its points updated in place; "Done" closes it, the row
    # showing the new quality and points.
    expect(page.locator(f"#entry-{first_squad.pk}-points")).to_have_text("65 pts")
    expect(points).to_have_text("165")
    expect(page.locator(f"#entry-{first_squad.pk}-editor")).to_be_visible()
    page.click(f"#entry-{first_squad.pk}-close")
    expect(page.locator(f"#entry-{first_squad.pk}-editor")).to_have_count(0)
    expect(page.locator(f"#entry-{first_squad.pk}-points")).to_have_text("65")
    expect(page.locator(f"#entry-{first_squad.pk}-open")).to_contain_text("Veteran · 5 models")

    # The stepper by keyboard: the editor stays open, the focus on the button; Escape closes
    # it, the focus back on the unit's row link, and Enter opens it again.
    _open(page, second_squad)
    page.focus(f"#entry-{second_squad.pk}-more")
    page.keyboard.press("Enter")
    expect(points).to_have_text("175")
    expect(page.locator(f"#entry-{second_squad.pk}-models")).to_have_value("6")
    expect(page.locator(f"#entry-{second_squad.pk}-more")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator(f"#entry-{second_squad.pk}-open")).to_contain_text("6 models")
    expect(page.locator(f"#entry-{second_squad.pk}-open")).to_be_focused()
    assert page.evaluate("document.activeElement.matches(':focus-visible')")  # its outline shows
    page.keyboard.press("Enter")
    expect(page.locator(f"#entry-{second_squad.pk}-name")).to_be_focused()
    page.fill(f"#entry-{second_squad.pk}-models", "8")
    page.keyboard.press("Enter")
    expect(points).to_have_text("195")
    expect(page.locator(f"#entry-{second_squad.pk}-points")).to_have_text("80 pts")
    expect(page.locator(f"#entry-{second_squad.pk}-models")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator(f"#entry-{second_squad.pk}-open")).to_contain_text("8 models")

    # A third squad outside any platoon is a force-organisation problem; moving it in fixes it.
    page.select_option("#add-platoon", "")
    page.click(f"#add-unit-{squad.pk}")
    expect(dice).to_have_text("4")
    expect(page.locator(".unit-row.is-pending")).to_have_count(
        0
    )  # the server's answers are in (the totals move at the tap)
    stray = _entries(army_list)[-1]
    expect(problems).to_contain_text("Rifle Section #3 is not in a platoon")  # the third of that name
    platoon_id = str(stray.army_list.platoons.get().pk)
    _open(page, stray)
    page.focus(f"#entry-{stray.pk}-platoon")  # as a tap on it does (Playwright's choice does not)
    page.select_option(f"#entry-{stray.pk}-platoon", platoon_id)
    expect(problems).to_contain_text("No problems: this list is legal.")
    # Its editor joined its platoon's rows, still open, the focus on the platoon select.
    expect(page.locator(f"#platoon-{platoon_id}-rows #entry-{stray.pk}-platoon")).to_be_focused()
    expect(page.locator(f"#entry-{stray.pk}-platoon")).to_have_value(platoon_id)
    expect(page.locator(f"#entry-{stray.pk}")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator(f"#platoon-{platoon_id}-rows #entry-{stray.pk}-open")).to_be_focused()
    expect(page.locator(f"#entry-{stray.pk}-editor")).to_have_count(0)

    assert page.evaluate("window.__marker") == 1
    stray.refresh_from_db()
    assert str(stray.platoon_id) == platoon_id


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_shows_a_refused_value_next_to_the_field(page, live_server):
    # The number fields' forms skip the browser's own validation, so the reason comes from the server.
    alice = make_user("alice")
    army = make_army(edition=make_edition("v2"))
    squad = make_unit(army, name="Rifle Section")
    army_list = make_list(alice, army)
    entry = Entry.objects.create(army_list=army_list, unit=squad, models_count=5)
    log_in(page.context, live_server, alice)

    page.goto(f"/lists/{army_list.pk}/")
    page.evaluate("window.__marker = 1")
    _open(page, entry)
    page.fill(f"#entry-{entry.pk}-models", "12")
    page.keyboard.press("Enter")
    expect(page.locator(f"#entry-{entry.pk}-models-errors")).to_have_text("This unit has 5 to 10 models.")
    # Refused: the editor stays open, the focus on the field.
    expect(page.locator(f"#entry-{entry.pk}-editor")).to_be_visible()
    expect(page.locator(f"#entry-{entry.pk}-models")).to_be_focused()
    assert page.evaluate("window.__marker") == 1
    entry.refresh_from_db()
    assert entry.models_count == 5


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_filters_the_catalogue_as_you_type(page, live_server):
    alice = make_user("alice")
    army = make_army(edition=make_edition("v2"))
    tank = make_unit(army, name="Cromwell", unit_type="vehicle_armoured", slot="tank", base_models=1, max_models=1)
    squad = make_unit(army, name="Rifle Section")
    army_list = make_list(alice, army)
    log_in(page.context, live_server, alice)

    page.goto(f"/lists/{army_list.pk}/")
    page.evaluate("window.__marker = 1")
    page.fill("#catalogue-q", "crom")
    expect(page.locator(f"#add-unit-{squad.pk}")).to_have_count(0)
    expect(page.locator(f"#add-unit-{tank.pk}")).to_be_visible()
    page.select_option("#catalogue-type", "infantry")
    expect(page.locator("#catalogue-results")).to_contain_text("No units match this filter.")
    assert page.evaluate("window.__marker") == 1
    assert page.url.endswith(f"/lists/{army_list.pk}/?q=crom&type=infantry")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_replaces_the_row_of_an_entry_removed_in_another_tab(page, live_server):
    alice = make_user("alice")
    squad = make_unit(make_army(edition=make_edition("v2")), name="Rifle Section")
    army_list = make_list(alice, squad.army)
    gone, kept = (Entry.objects.create(army_list=army_list, unit=squad, models_count=5) for _ in range(2))
    log_in(page.context, live_server, alice)

    page.goto(f"/lists/{army_list.pk}/")
    page.evaluate("window.__marker = 1")
    expect(page.locator("#summary-points")).to_have_text("100")
    card = f"#entry-{gone.pk}"
    _open(page, gone)
    gone.delete()  # as another tab would
    page.select_option(f"{card}-quality", "veteran")
    expect(page.locator(card)).to_have_text(
        "This unit is no longer in the list: it was removed in another tab or window."
    )
    expect(page.locator(f"{card}-quality")).to_have_count(0)
    expect(page.locator("#summary-points")).to_have_text("50")
    expect(page.locator(f"#entry-{kept.pk}-open")).to_be_visible()
    assert page.evaluate("window.__marker") == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_builds_without_javascript(new_browser_context, live_server):
    """Every change is a plain form post and a redirect; a row's link reloads the page with its
    editor open, a change reloads it with the editor still open, and removing a unit offers "Undo" on
    the page it comes back to."""
    alice = make_user("alice")
    army = make_army(edition=make_edition("v2"), name="British")
    officer = make_officer(army)
    squad = make_unit(army, name="Rifle Section")
    army_list = make_list(alice, army, name="Desert Rats", force_org="none")
    context = new_browser_context(java_script_enabled=False)
    log_in(context, live_server, alice)
    page = context.new_page()

    page.goto(f"/lists/{army_list.pk}/")
    page.click(f"#add-unit-{officer.pk}")
    page.click(f"#add-unit-{squad.pk}")
    page.click(f"#add-unit-{squad.pk}")
    expect(page.locator("#summary-dice")).to_have_text("3")
    expect(page.locator("#summary-points")).to_have_text("150")
    expect(page.locator(".unit-row.is-pending")).to_have_count(
        0
    )  # the server's answers are in (the totals move at the tap)
    first_squad = _entries(army_list)[1]
    card = f"#entry-{first_squad.pk}"
    page.click(f"{card}-open")
    assert page.url.endswith(f"?edit={first_squad.pk}#entry-{first_squad.pk}")
    page.select_option(f"{card}-quality", "veteran")
    page.locator(card).get_by_role("button", name="Set").click()
    # Back with the editor still open: it shows the change, and the next one is one tap away.
    assert page.url.endswith(f"/lists/{army_list.pk}/?edit={first_squad.pk}#entry-{first_squad.pk}")
    expect(page.locator(f"{card}-points")).to_have_text("65 pts")
    expect(page.locator("#summary-points")).to_have_text("165")
    page.click(f"{card}-more")
    expect(page.locator(f"{card}-models")).to_have_value("6")
    expect(page.locator("#summary-points")).to_have_text("178")
    # "Done" closes it: the row shows both changes.
    page.click(f"{card}-close")
    expect(page.locator(f"{card}-editor")).to_have_count(0)
    expect(page.locator(f"{card}-open")).to_contain_text("Veteran · 6 models")
    assert list(Entry.objects.filter(pk=first_squad.pk).values_list("quality", "models_count")) == [("veteran", 6)]
    page.click(f"{card}-open")
    page.click(f"{card}-remove")
    expect(page.locator("#summary-points")).to_have_text("100")
    page.click(f"{card}-undo")
    expect(page.locator("#summary-points")).to_have_text("178")
    assert list(Entry.objects.filter(pk=first_squad.pk).values_list("quality", "models_count")) == [("veteran", 6)]
