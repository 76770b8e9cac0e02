"""The compact roster on a phone, in a real browser: rows, the editor in place, undo, sharing."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from armybuilder.lists.models import Entry
from tests.conftest import PHONE, PHONE_CONTEXT, log_in
from tests.lists.factories import make_builder_list, make_officer, make_user

SHOTS = os.environ.get("MUSTER_SHOTS")  # a folder: save a screenshot of the roster after a change there


@pytest.fixture
def phone(new_browser_context, live_server):
    context = new_browser_context(**PHONE_CONTEXT)
    page = context.new_page()
    page.requests = []  # the builder's own requests (documents and htmx), in order

    def seen(request) -> None:
        if request.resource_type in ("document", "fetch", "xhr"):
            page.requests.append(request.url)

    page.on("request", seen)
    return page


def _twelve(alice):
    army_list = make_builder_list(alice, entries=11, points_limit=1500)
    officer = make_officer(army_list.army)
    platoon = army_list.platoons.get()
    Entry.objects.create(army_list=army_list, unit=officer, platoon=platoon, models_count=1, position=11)
    return army_list


def _rows(army_list) -> list[Entry]:
    return list(army_list.entries.order_by("position", "pk"))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_twelve_unit_list_fits_about_two_phone_screens_and_edits_in_place(phone, live_server):
    alice = make_user("alice")
    army_list = _twelve(alice)
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    phone.evaluate("window.__marker = 1")
    rows = _rows(army_list)
    # Collapsed: one short row per unit, the whole roster in about two screens.
    expect(phone.locator(".unit-row")).to_have_count(12)
    heights = phone.eval_on_selector_all(".unit-row", "rows => rows.map(r => r.getBoundingClientRect().height)")
    assert max(heights) <= 80
    roster = phone.eval_on_selector("#roster .platoon", "e => e.getBoundingClientRect().height")
    assert roster <= 2.2 * PHONE["height"]
    expect(phone.locator(f"#entry-{rows[3].pk}-open")).to_contain_text("Light machine gun")

    # Open with the keyboard: the editor loads in place, one request, and takes the focus.
    squad = rows[3]
    phone.requests.clear()
    phone.focus(f"#entry-{squad.pk}-open")
    phone.keyboard.press("Enter")
    expect(phone.locator(f"#entry-{squad.pk}-editor")).to_be_visible()
    expect(phone.locator(f"#entry-{squad.pk}-name")).to_be_focused()
    assert phone.requests == [f"{live_server.url}/lists/{army_list.pk}/entries/{squad.pk}/"]

    # A change answers in one request and closes the editor: the row shows the new count and
    # points, the totals follow, the focus is back on the row's link.
    phone.requests.clear()
    phone.tap(f"#entry-{squad.pk}-more")
    expect(phone.locator(f"#entry-{squad.pk}-editor")).to_have_count(0)
    expect(phone.locator(f"#entry-{squad.pk}-open")).to_contain_text("6 models")
    expect(phone.locator(f"#entry-{squad.pk}-points")).to_have_text("80")
    expect(phone.locator("#summary-points")).to_have_text("830")
    expect(phone.locator(f"#platoon-{squad.platoon_id}-points")).to_have_text("830 pts")
    expect(phone.locator(f"#entry-{squad.pk}-open")).to_be_focused()
    assert len(phone.requests) == 1
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        phone.screenshot(path=os.path.join(SHOTS, "after-change-closed.png"))

    # An option too: the row shows it as a chip. Enter on the focused row opens it again.
    phone.keyboard.press("Enter")
    expect(phone.locator(f"#entry-{squad.pk}-name")).to_be_focused()
    phone.tap(f"#entry-{squad.pk}-opt-lmg")
    expect(phone.locator(f"#entry-{squad.pk}-editor")).to_have_count(0)
    expect(phone.locator(f"#entry-{squad.pk}-open .chip")).to_have_count(0)
    expect(phone.locator(f"#entry-{squad.pk}-points")).to_have_text("60")
    expect(phone.locator(f"#entry-{squad.pk}-open")).to_be_focused()

    # "Done" closes it without a change.
    phone.keyboard.press("Enter")
    phone.tap(f"#entry-{squad.pk}-close")
    expect(phone.locator(f"#entry-{squad.pk}-editor")).to_have_count(0)
    expect(phone.locator(f"#entry-{squad.pk}-open")).to_contain_text("6 models")
    expect(phone.locator(f"#entry-{squad.pk}-open")).to_be_focused()

    # Escape closes an editor too.
    phone.focus(f"#entry-{squad.pk}-open")
    phone.keyboard.press("Enter")
    expect(phone.locator(f"#entry-{squad.pk}-name")).to_be_focused()
    phone.keyboard.press("Escape")
    expect(phone.locator(f"#entry-{squad.pk}-editor")).to_have_count(0)
    expect(phone.locator(f"#entry-{squad.pk}-open")).to_be_focused()

    # Jumping to the last unit (a problem's or officer's link) leaves it below the sticky summary.
    phone.tap("#summary-bar a[href='#officers']")
    phone.tap(f"#officers a[href='#entry-{rows[-1].pk}']")
    bar = phone.eval_on_selector("#summary-bar", "e => e.getBoundingClientRect().bottom")
    top = phone.eval_on_selector(f"#entry-{rows[-1].pk}", "e => e.getBoundingClientRect().top")
    assert 0 < bar <= top
    assert phone.evaluate("window.__marker") == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_duplicate_goes_under_the_original_and_remove_can_be_undone(phone, live_server):
    alice = make_user("alice")
    army_list = _twelve(alice)
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    phone.evaluate("window.__marker = 1")
    squad = _rows(army_list)[2]
    points = phone.locator("#summary-points")
    expect(points).to_have_text("820")

    phone.tap(f"#entry-{squad.pk}-open")
    phone.requests.clear()
    phone.tap(f"#entry-{squad.pk}-duplicate")
    expect(points).to_have_text("890")
    copy = _rows(army_list)[3]
    order = phone.eval_on_selector_all(f"#platoon-{squad.platoon_id}-rows > li", "rows => rows.map(r => r.id)")
    assert order[2:4] == [f"entry-{squad.pk}", f"entry-{copy.pk}"]
    assert len(phone.requests) == 1

    # Remove at once (no confirmation): an "Undo" bar in its place puts it back there.
    phone.tap(f"#entry-{copy.pk}-open")
    phone.tap(f"#entry-{copy.pk}-remove")
    expect(phone.locator(f"#entry-{copy.pk}")).to_contain_text("Removed Rifle Squad.")
    expect(points).to_have_text("820")
    assert not Entry.objects.filter(pk=copy.pk).exists()
    phone.tap(f"#entry-{copy.pk}-undo")
    expect(points).to_have_text("890")
    expect(phone.locator(f"#entry-{copy.pk}-open")).to_be_visible()
    order = phone.eval_on_selector_all(f"#platoon-{squad.platoon_id}-rows > li", "rows => rows.map(r => r.id)")
    assert order[3] == f"entry-{copy.pk}"
    assert Entry.objects.filter(pk=copy.pk).exists()

    # Moving swaps it with its neighbour and closes its editor, the focus on its row's link.
    phone.tap(f"#entry-{copy.pk}-open")
    phone.tap(f"#entry-{copy.pk}-up")
    expect(phone.locator(f"#platoon-{squad.platoon_id}-rows > li").nth(2)).to_have_id(f"entry-{copy.pk}")
    expect(phone.locator(f"#entry-{copy.pk}-editor")).to_have_count(0)
    expect(phone.locator(f"#entry-{copy.pk}-open")).to_be_focused()
    expect(phone.locator(f"#platoon-{squad.platoon_id}-rows > li").nth(3)).to_have_id(f"entry-{squad.pk}")
    assert phone.evaluate("window.__marker") == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_sharing_from_the_builder_and_copying_the_shared_list(phone, new_browser_context, live_server):
    alice = make_user("alice")
    army_list = _twelve(alice)
    log_in(phone.context, live_server, alice)
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    phone.goto(f"/lists/{army_list.pk}/")
    phone.tap("#share summary")
    phone.tap("#share-copy")
    expect(phone.locator("#share-copy")).to_have_text("Link copied")
    link = phone.evaluate("navigator.clipboard.readText()")
    assert link == f"{live_server.url}/s/{army_list.share_token}/"
    for name, href in (("text", "export.txt"), ("json", "export.json"), ("print", "print/")):
        expect(phone.locator(f"#share-{name}")).to_have_attribute("href", f"/lists/{army_list.pk}/{href}")

    # A friend without an account opens the link: the list, whether it is legal, and a copy of their own.
    friend = new_browser_context(viewport=PHONE).new_page()
    friend.goto(link)
    expect(friend.locator("#legality")).to_contain_text("Not legal yet")
    friend.click("#copy-to-my-lists")
    expect(friend.locator("#summary-points")).to_have_text("820")
    copy_pk = int(friend.url.rstrip("/").split("/")[-1])
    assert copy_pk != army_list.pk
    assert Entry.objects.filter(army_list_id=copy_pk).count() == 12
