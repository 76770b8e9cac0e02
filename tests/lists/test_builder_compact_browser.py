"""The compact roster on a phone, in a real browser: rows, the editor in place, undo, sharing."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from armybuilder.lists.models import Entry
from tests.conftest import PHONE, PHONE_CONTEXT, log_in
from tests.lists.factories import (
    make_army,
    make_builder_list,
    make_deep_catalogue,
    make_edition,
    make_entry,
    make_list,
    make_officer,
    make_option,
    make_platoon,
    make_unit,
    make_user,
)

SHOTS = os.environ.get("MUSTER_SHOTS")  # a folder: save a screenshot of the roster after a change there


@pytest.fixture
def phone(new_browser_context, live_server):
    context = new_browser_context(**PHONE_CONTEXT)
    page = context.new_page()
    page.requests = []  # the builder's own requests (documents and htmx), in order
    # Every unit's editor, fetched in the background when the page is idle: its timing depends on
    # the machine's load, so the tests that count an action's requests count it apart.
    page.background = []

    def seen(request) -> None:
        if request.resource_type in ("document", "fetch", "xhr"):
            (page.background if request.url.endswith("/editors/") else page.requests).append(request.url)

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
    # Without the background copy of every editor (failed): an opening fetches its editor.
    phone.route("**/editors/", lambda route: route.abort())
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

    # Three changes (a "+", a ticked option, the quality), one request each: the editor stays
    # open all along, the focus on the control used; the row's figures and the totals follow.
    phone.requests.clear()
    editor = phone.locator(f"#entry-{squad.pk}-editor")
    phone.tap(f"#entry-{squad.pk}-more")
    expect(phone.locator(f"#entry-{squad.pk}-points")).to_have_text("80 pts")
    expect(phone.locator("#summary-points")).to_have_text("830")
    expect(phone.locator(f"#platoon-{squad.platoon_id}-points")).to_have_text("830 pts")
    expect(phone.locator(f"#entry-{squad.pk}-models")).to_have_value("6")
    expect(editor).to_be_visible()
    expect(phone.locator(f"#entry-{squad.pk}-more")).to_be_focused()
    phone.tap(f"#entry-{squad.pk}-opt-lmg")
    expect(phone.locator(f"#entry-{squad.pk}-points")).to_have_text("60 pts")
    expect(phone.locator("#summary-points")).to_have_text("810")
    expect(phone.locator(f"#entry-{squad.pk}-opt-lmg")).not_to_be_checked()
    expect(phone.locator(f"#entry-{squad.pk}-opt-lmg")).to_be_focused()
    phone.focus(f"#entry-{squad.pk}-quality")  # as a tap on it does (Playwright's choice does not)
    phone.select_option(f"#entry-{squad.pk}-quality", "veteran")
    expect(phone.locator(f"#entry-{squad.pk}-points")).to_have_text("78 pts")
    expect(phone.locator("#summary-points")).to_have_text("828")
    expect(editor).to_be_visible()
    expect(phone.locator(f"#entry-{squad.pk}-quality")).to_be_focused()
    expect(phone.locator(f"#entry-{squad.pk}-quality")).to_have_value("veteran")
    # The figures are guessed at once; the changes are sent one after the other, each once the
    # one before is answered: the last answer is in when the figures are no longer a guess.
    expect(phone.locator(f"#entry-{squad.pk}-points")).not_to_have_class(re.compile("is-guess"))
    urls = [
        f"{live_server.url}/lists/{army_list.pk}/entries/{squad.pk}/{action}/"
        for action in ("models", "options", "quality")
    ]
    assert phone.requests == urls
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        phone.screenshot(path=os.path.join(SHOTS, "after-three-changes-open.png"))

    # Escape closes it without a request: the row shows the changes, the focus on its link.
    phone.requests.clear()
    phone.keyboard.press("Escape")
    expect(editor).to_have_count(0)
    expect(phone.locator(f"#entry-{squad.pk}-open")).to_contain_text("6 models")
    expect(phone.locator(f"#entry-{squad.pk}-open")).to_contain_text("Veteran · 6 models")
    expect(phone.locator(f"#entry-{squad.pk}-open .chip")).to_have_count(0)
    expect(phone.locator(f"#entry-{squad.pk}-points")).to_have_text("78")
    expect(phone.locator(f"#entry-{squad.pk}-open")).to_be_focused()

    # Opened again (the browser kept it) and closed with "Done": no request either way.
    phone.keyboard.press("Enter")
    expect(phone.locator(f"#entry-{squad.pk}-name")).to_be_focused()
    expect(phone.locator(f"#entry-{squad.pk}-models")).to_have_value("6")
    phone.tap(f"#entry-{squad.pk}-close")
    expect(editor).to_have_count(0)
    expect(phone.locator(f"#entry-{squad.pk}-open")).to_be_focused()
    assert phone.requests == []

    # Opening another unit closes the one open.
    other = rows[4]
    phone.tap(f"#entry-{squad.pk}-open")
    expect(editor).to_be_visible()
    phone.tap(f"#entry-{other.pk}-open")
    expect(phone.locator(f"#entry-{other.pk}-editor")).to_be_visible()
    expect(editor).to_have_count(0)
    expect(phone.locator(".unit-editor")).to_have_count(1)
    phone.keyboard.press("Escape")
    expect(phone.locator(".unit-editor")).to_have_count(0)

    # Quick taps, then Escape at once: the editor closes once every tap is answered, none lost.
    phone.tap(f"#entry-{squad.pk}-open")
    expect(editor).to_be_visible()
    phone.tap(f"#entry-{squad.pk}-more")
    phone.tap(f"#entry-{squad.pk}-more")
    phone.keyboard.press("Escape")
    expect(phone.locator(f"#entry-{squad.pk}-open")).to_contain_text("8 models")
    expect(editor).to_have_count(0)
    expect(phone.locator("#summary-points")).to_have_text("854")
    assert Entry.objects.get(pk=squad.pk).models_count == 8

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
    first, second, squad = _rows(army_list)[:3]
    points = phone.locator("#summary-points")
    expect(points).to_have_text("820")

    phone.tap(f"#entry-{squad.pk}-open")
    phone.requests.clear()
    phone.tap(f"#entry-{squad.pk}-duplicate")
    expect(points).to_have_text("890")
    # The copy's own row, once the server has answered (the greyed one before it has no id).
    expect(phone.locator(f"#platoon-{squad.platoon_id}-rows > li[id]")).to_have_count(13)
    expect(phone.locator(".unit-row.is-pending")).to_have_count(0)
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

    # Moving swaps it with its neighbour and keeps its editor open, the focus on the button used.
    phone.tap(f"#entry-{copy.pk}-open")
    phone.tap(f"#entry-{copy.pk}-up")
    expect(phone.locator(f"#platoon-{squad.platoon_id}-rows > li").nth(2)).to_have_id(f"entry-{copy.pk}")
    expect(phone.locator(f"#entry-{copy.pk}-editor")).to_be_visible()
    expect(phone.locator(f"#entry-{copy.pk}-up")).to_be_focused()
    expect(phone.locator(f"#platoon-{squad.platoon_id}-rows > li").nth(3)).to_have_id(f"entry-{squad.pk}")
    # Up, up, down before the first is answered (held back): one request at a time, in order,
    # none lost; the second up takes it to the top, the down one place back.
    held = _held(phone, "**/move/")
    phone.tap(f"#entry-{copy.pk}-up")
    expect(phone.locator(f"#entry-{copy.pk}-up")).to_have_class(re.compile("htmx-request"))
    phone.tap(f"#entry-{copy.pk}-up")
    phone.tap(f"#entry-{copy.pk}-down")
    assert len(held) == 1
    for left in (2, 1, 0):
        if left:
            with phone.expect_request("**/move/"):
                held.pop().continue_()
            for _ in range(400):  # until the route has it (its handler runs a moment after the request)
                if held:
                    break
                phone.wait_for_timeout(25)
        else:
            held.pop().continue_()
    phone.unroute("**/move/")
    expect(phone.locator(f"#platoon-{squad.platoon_id}-rows > li").nth(1)).to_have_id(f"entry-{copy.pk}")
    assert [e.pk for e in _rows(army_list)][:2] == [first.pk, copy.pk]
    # Up to the top: its "up" is now disabled, the focus on its heading; "Done" still closes it.
    phone.tap(f"#entry-{copy.pk}-up")
    expect(phone.locator(f"#platoon-{squad.platoon_id}-rows > li").first).to_have_id(f"entry-{copy.pk}")
    expect(phone.locator(f"#entry-{copy.pk}-up")).to_be_disabled()
    expect(phone.locator(f"#entry-{copy.pk}-name")).to_be_focused()
    phone.tap(f"#entry-{copy.pk}-close")
    expect(phone.locator(f"#entry-{copy.pk}-editor")).to_have_count(0)
    expect(phone.locator(f"#entry-{copy.pk}-open")).to_be_focused()
    assert [e.pk for e in _rows(army_list)][:4] == [copy.pk, first.pk, second.pk, squad.pk]
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


def _held(page, pattern: str) -> list:
    """Requests to ``pattern`` held back until the test lets them go (``route.continue_()``)."""
    held = []
    page.route(pattern, lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
    return held


def _wait_held(page, held: list, count: int = 1) -> None:
    """Until the route holds ``count`` requests: its handler runs a moment after the request, and
    a men, quality or option change is sent only once its guess is painted (the next frame)."""
    for _ in range(400):
        if len(held) >= count:
            return
        page.wait_for_timeout(25)
    raise AssertionError(f"{len(held)} requests held, {count} expected")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_remove_and_duplicate_show_their_result_before_the_server_answers(phone, live_server, monkeypatch):
    alice = make_user("alice")
    army_list = _twelve(alice)
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    phone.evaluate("window.__marker = 1")
    squad = _rows(army_list)[2]
    points, head = phone.locator("#summary-points"), phone.locator(f"#platoon-{squad.platoon_id}-points")
    rows = phone.locator(f"#platoon-{squad.platoon_id}-rows > li:visible")
    expect(points).to_have_text("820")

    # Duplicate, the server's answer held back: a greyed copy is already under the original and
    # the totals have moved; once the answer comes, the copy is the server's own row.
    phone.tap(f"#entry-{squad.pk}-open")
    held = _held(phone, "**/duplicate/")
    phone.tap(f"#entry-{squad.pk}-duplicate")
    expect(points).to_have_text("890")
    expect(head).to_have_text("890 pts")
    expect(rows).to_have_count(13)
    expect(phone.locator(f"#entry-{squad.pk} + .unit-row.is-pending")).to_contain_text("Rifle Squad")
    assert len(held) == 1 and Entry.objects.filter(army_list=army_list).count() == 12
    held.pop().continue_()
    expect(phone.locator(f"#platoon-{squad.platoon_id}-rows > li[id]")).to_have_count(13)
    expect(phone.locator(".unit-row.is-pending")).to_have_count(0)
    copy = _rows(army_list)[3]
    expect(phone.locator(f"#entry-{squad.pk} + #entry-{copy.pk}")).to_be_visible()
    expect(points).to_have_text("890")
    phone.unroute("**/duplicate/")

    # Remove, held back: the row is gone and the totals are down at once; the answer puts the
    # "Undo" bar in its place.
    phone.tap(f"#entry-{copy.pk}-open")
    held = _held(phone, "**/remove/")
    phone.tap(f"#entry-{copy.pk}-remove")
    expect(points).to_have_text("820")
    expect(head).to_have_text("820 pts")
    expect(rows).to_have_count(12)
    assert len(held) == 1 and Entry.objects.filter(pk=copy.pk).exists()
    held.pop().continue_()
    expect(phone.locator(f"#entry-{copy.pk}")).to_contain_text("Removed Rifle Squad.")
    expect(points).to_have_text("820")
    assert not Entry.objects.filter(pk=copy.pk).exists()
    phone.unroute("**/remove/")

    # A removal that gets no answer (the network failed): the row and the totals come back, with
    # a message next to the buttons.
    phone.tap(f"#entry-{squad.pk}-open")
    held = _held(phone, "**/remove/")
    phone.tap(f"#entry-{squad.pk}-remove")
    expect(points).to_have_text("750")
    expect(phone.locator(f"#entry-{squad.pk}-editor")).to_be_hidden()
    held.pop().abort()
    expect(phone.locator(f"#entry-{squad.pk}-editor")).to_be_visible()
    expect(phone.locator(f"#entry-{squad.pk}-actions-errors")).to_have_text(
        "No answer from the server: the list may not have changed. Try again."
    )
    expect(points).to_have_text("820")
    expect(head).to_have_text("820 pts")
    assert Entry.objects.filter(pk=squad.pk).exists()
    phone.unroute("**/remove/")

    # A duplicate the server refuses (the list is full): the copy goes, the totals come back, the
    # reason next to the buttons, the editor still open.
    monkeypatch.setattr("armybuilder.lists.services.ENTRIES_MAX", 12)
    held = _held(phone, "**/duplicate/")
    phone.tap(f"#entry-{squad.pk}-duplicate")
    expect(points).to_have_text("890")
    expect(rows).to_have_count(14)  # 12 units, the "Undo" bar and the greyed copy
    held.pop().continue_()
    expect(phone.locator(f"#entry-{squad.pk}-editor")).to_contain_text("A list holds at most")
    expect(phone.locator(".unit-row.is-pending")).to_have_count(0)
    expect(points).to_have_text("820")
    expect(head).to_have_text("820 pts")
    expect(rows).to_have_count(13)
    assert Entry.objects.filter(army_list=army_list).count() == 12
    assert phone.evaluate("window.__marker") == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_grenadier_squad_is_built_in_nine_taps(phone, live_server):
    """The measured phone squad (three extra men, 2 SMGs, an LMG, a Panzerfaust) took 15 taps when each
    change closed the editor; every tap and key press is counted here."""
    alice = make_user("alice")
    army = make_army(edition=make_edition("v2"), name="Germany")
    grenadiers = make_unit(army, name="Grenadier Squad")
    make_option(grenadiers, slug="smg", name="Submachine gun", per_model=True, position=1)
    make_option(grenadiers, slug="lmg", name="Light machine gun", cost_regular=20, position=2)
    make_option(grenadiers, slug="panzerfaust", name="Panzerfaust", cost_regular=5, position=3)
    army_list = make_list(alice, army, force_org="none")
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    phone.evaluate("window.__marker = 1")
    taps = 0

    def tap(selector: str) -> None:
        nonlocal taps
        phone.tap(selector)
        taps += 1

    def key(text: str) -> None:
        nonlocal taps
        phone.keyboard.press(text)
        taps += 1

    # The unit just added has its editor fetched at once: opening it costs no round trip.
    with phone.expect_response(lambda response: "/entries/" in response.url and response.request.method == "GET"):
        tap(f"#add-unit-{grenadiers.pk}")
    expect(phone.locator("#summary-points")).to_have_text("50")
    k = f"#entry-{Entry.objects.get(army_list=army_list).pk}"
    phone.requests.clear()
    tap(f"{k}-open")
    expect(phone.locator(f"{k}-editor")).to_be_visible()
    assert phone.requests == []
    for _ in range(3):  # as fast as a thumb: each tap is sent in turn, the editor never closes
        tap(f"{k}-more")
    expect(phone.locator(f"{k}-models")).to_have_value("8")
    expect(phone.locator("#summary-points")).to_have_text("80")
    # Shown at once, priced in the browser: the server's answers in (as this test always waited).
    expect(phone.locator(".is-guess")).to_have_count(0)
    tap(f"{k}-opt-smg")
    key("2")
    tap(f"{k}-opt-lmg")  # leaving the SMG field sends it too
    expect(phone.locator(f"{k}-opt-lmg")).to_be_checked()
    tap(f"{k}-opt-panzerfaust")
    # 50 + 3 men at 10 + 2 SMGs at 3 + 20 + 5, the editor open all along.
    expect(phone.locator(f"{k}-points")).to_have_text("111 pts")
    expect(phone.locator("#summary-points")).to_have_text("111")
    expect(phone.locator(f"{k}-editor")).to_be_visible()
    expect(phone.locator(".is-guess")).to_have_count(0)
    expect(phone.locator(f"{k}-points")).to_have_text("111 pts")
    assert taps <= 9, taps
    entry = Entry.objects.get(army_list=army_list)
    assert entry.models_count == 8
    assert {slug: entry.options.get(slug) for slug in ("smg", "lmg", "panzerfaust")} == {
        "smg": 2,
        "lmg": 1,
        "panzerfaust": 1,
    }
    assert phone.evaluate("window.__marker") == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_unit_opens_without_a_request_once_the_page_has_loaded(phone, live_server):
    alice = make_user("alice")
    army_list = _twelve(alice)
    rows = _rows(army_list)
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    phone.evaluate("window.__marker = 1")
    # Once the page is idle, one background request brings every unit's editor.
    expect(phone.locator("#roster")).to_have_attribute("data-editors-kept", "12", timeout=15_000)
    assert phone.background == [f"{live_server.url}/lists/{army_list.pk}/editors/"]

    # Filtering the catalogue reads, changes nothing: the kept editors stay.
    phone.fill("#catalogue-q", "Lieutenant")
    expect(phone.locator("#catalogue-results .catalogue-unit")).to_have_count(1)
    with phone.expect_response(lambda response: "/catalogue/" in response.url):
        phone.locator("#catalogue-q").blur()  # its "change" asks once more
    expect(phone.locator("#roster")).to_have_attribute("data-editors-kept", "12")
    assert phone.background == [f"{live_server.url}/lists/{army_list.pk}/editors/"]

    # Three different units opened in turn: not one request.
    phone.requests.clear()
    phone.background.clear()
    for entry in (rows[1], rows[7], rows[11]):
        phone.tap(f"#entry-{entry.pk}-open")
        expect(phone.locator(f"#entry-{entry.pk}-editor")).to_be_visible()
        expect(phone.locator(f"#entry-{entry.pk}-name")).to_be_focused()
        expect(phone.locator(".unit-editor")).to_have_count(1)
    assert phone.requests == [] and phone.background == []

    # A change still answers in one request, the editor open.
    squad = rows[7]
    k = f"#entry-{squad.pk}"
    phone.tap(f"{k}-open")
    phone.tap(f"{k}-more")
    expect(phone.locator(f"{k}-models")).to_have_value("6")
    expect(phone.locator(f"{k}-points")).to_have_text("80 pts")
    expect(phone.locator(".is-guess")).to_have_count(0)  # the server's answer in, not just the guess
    assert phone.requests == [f"{live_server.url}/lists/{army_list.pk}/entries/{squad.pk}/models/"]

    # Enter in the number field: the change it fires is the one request (no second submit that
    # would cancel it).
    phone.requests.clear()
    phone.fill(f"{k}-models", "8")
    phone.keyboard.press("Enter")
    expect(phone.locator(f"{k}-points")).to_have_text("100 pts")
    expect(phone.locator(".is-guess")).to_have_count(0)
    expect(phone.locator("#summary-points")).to_have_text("850")
    expect(phone.locator(f"{k}-models")).to_be_focused()
    phone.tap(f"{k}-more")  # the next request shows nothing else was sent meanwhile
    expect(phone.locator(f"{k}-models")).to_have_value("9")
    expect(phone.locator(".is-guess")).to_have_count(0)
    assert phone.requests == [f"{live_server.url}/lists/{army_list.pk}/entries/{squad.pk}/models/"] * 2
    assert Entry.objects.get(pk=squad.pk).models_count == 9

    # A closed editor reopened after the change shows it (the answer replaced the kept copy).
    phone.keyboard.press("Escape")
    phone.tap(f"#entry-{rows[2].pk}-open")
    phone.tap(f"{k}-open")
    expect(phone.locator(f"{k}-models")).to_have_value("9")
    assert phone.background == []

    # A move changes the list: the kept copies are dropped, the editor stays open, and once the
    # page is quiet again every editor is fetched anew, so the next opening is local again.
    phone.requests.clear()
    phone.tap(f"{k}-down")
    expect(phone.locator(f"#platoon-{squad.platoon_id}-rows > li").nth(8)).to_have_id(f"entry-{squad.pk}")
    expect(phone.locator(f"{k}-down")).to_be_focused()
    expect(phone.locator("#roster")).to_have_attribute("data-editors-kept", "11", timeout=15_000)
    assert phone.background == [f"{live_server.url}/lists/{army_list.pk}/editors/"]
    phone.requests.clear()
    phone.tap(f"#entry-{rows[8].pk}-open")
    expect(phone.locator(f"#entry-{rows[8].pk}-editor")).to_be_visible()
    # Its move buttons as they now are: it went up one place.
    expect(phone.locator(f"#platoon-{squad.platoon_id}-rows > li").nth(7)).to_have_id(f"entry-{rows[8].pk}")
    assert phone.requests == []
    assert phone.evaluate("window.__marker") == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_men_quality_and_options_show_their_points_before_the_server_answers(phone, live_server):
    alice = make_user("alice")
    army_list = _twelve(alice)
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    squad = _rows(army_list)[3]
    k = f"entry-{squad.pk}"
    points, total, head = (
        phone.locator(f"#{k}-points"),
        phone.locator("#summary-points"),
        phone.locator(f"#platoon-{squad.platoon_id}-points"),
    )
    phone.tap(f"#{k}-open")
    expect(phone.locator(f"#{k}-editor")).to_be_visible()
    expect(points).to_have_text("70 pts")
    expect(total).to_have_text("820")

    # One man more, the answer held back: the men, the unit's points and both totals move at once,
    # marked as a guess; the answer then has the same figures, no longer marked.
    held = _held(phone, "**/models/")
    phone.tap(f"#{k}-more")
    expect(phone.locator(f"#{k}-models")).to_have_value("6")
    expect(points).to_have_text("80 pts")
    expect(total).to_have_text("830")
    expect(head).to_have_text("830 pts")
    expect(points).to_have_class(re.compile("is-guess"))
    _wait_held(phone, held)
    assert len(held) == 1 and Entry.objects.get(pk=squad.pk).models_count == 5
    held.pop().continue_()
    expect(points).not_to_have_class(re.compile("is-guess"))
    expect(total).not_to_have_class(re.compile("is-guess"))
    expect(points).to_have_text("80 pts")
    expect(total).to_have_text("830")
    assert Entry.objects.get(pk=squad.pk).models_count == 6
    phone.unroute("**/models/")

    # Veteran (65 + 13 a man beyond 5, the LMG 3 at Veteran), held back.
    held = _held(phone, "**/quality/")
    phone.select_option(f"#{k}-quality", "veteran")
    expect(points).to_have_text("81 pts")
    expect(total).to_have_text("831")
    expect(head).to_have_text("831 pts")
    _wait_held(phone, held)
    assert len(held) == 1 and Entry.objects.get(pk=squad.pk).quality == "regular"
    held.pop().continue_()
    expect(points).not_to_have_class(re.compile("is-guess"))
    expect(points).to_have_text("81 pts")
    expect(total).to_have_text("831")
    phone.unroute("**/quality/")

    # The LMG unticked, held back.
    held = _held(phone, "**/options/")
    phone.tap(f"#{k}-opt-lmg")
    expect(points).to_have_text("78 pts")
    expect(total).to_have_text("828")
    _wait_held(phone, held)
    assert len(held) == 1 and Entry.objects.get(pk=squad.pk).options == {"lmg": 1}
    held.pop().continue_()
    expect(points).not_to_have_class(re.compile("is-guess"))
    expect(points).to_have_text("78 pts")
    expect(total).to_have_text("828")
    expect(head).to_have_text("828 pts")
    phone.unroute("**/options/")

    # Two quick taps on "+", the first answer held: both show at once, and the page ends on the
    # server's figures for eight men.
    held = _held(phone, "**/models/")
    phone.tap(f"#{k}-more")
    phone.tap(f"#{k}-more")
    expect(phone.locator(f"#{k}-models")).to_have_value("8")
    expect(points).to_have_text("104 pts")
    expect(total).to_have_text("854")
    _wait_held(phone, held)
    with phone.expect_request("**/models/"):  # the queued second tap, sent once the first is answered
        held.pop().continue_()
    for _ in range(400):  # until the route has it (its handler runs a moment after the request)
        if held:
            break
        phone.wait_for_timeout(25)
    expect(points).to_have_text("104 pts")
    expect(total).to_have_text("854")
    held.pop().continue_()
    expect(points).not_to_have_class(re.compile("is-guess"))
    expect(points).to_have_text("104 pts")
    expect(total).to_have_text("854")
    assert Entry.objects.get(pk=squad.pk).models_count == 8
    phone.unroute("**/models/")

    # A man more that never gets an answer (the network failed): the figures come back.
    held = _held(phone, "**/models/")
    phone.tap(f"#{k}-more")
    expect(total).to_have_text("867")
    _wait_held(phone, held)
    held.pop().abort()
    expect(total).to_have_text("854")
    expect(points).to_have_text("104 pts")
    expect(phone.locator(f"#{k}-models")).to_have_value("8")
    expect(points).not_to_have_class(re.compile("is-guess"))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_two_changes_of_one_editor_sent_back_to_back_end_on_the_servers_figures(phone, live_server):
    """A "+" whose answer is slow, then a typed count and a ticked option before it comes: the
    page must end on the server's final figures, never on the slow answer's older ones."""
    alice = make_user("alice")
    army_list = _twelve(alice)
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    squad = _rows(army_list)[3]
    k = f"entry-{squad.pk}"
    points, total, models = (
        phone.locator(f"#{k}-points"),
        phone.locator("#summary-points"),
        phone.locator(f"#{k}-models"),
    )
    phone.tap(f"#{k}-open")
    expect(points).to_have_text("70 pts")
    expect(total).to_have_text("820")

    # The first change's answer is held (the server has applied it); every later one goes through.
    slow = []  # (route, the server's answer)
    changes = []

    def answer_late(route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        changes.append(route.request.url)
        if len(changes) > 1:
            route.continue_()
        else:
            slow.append((route, route.fetch()))

    phone.route("**/entries/*/*/", answer_late)
    phone.tap(f"#{k}-more")
    _wait_held(phone, slow)
    assert Entry.objects.get(pk=squad.pk).models_count == 6
    # Before the "+" is answered: nine men typed, then the LMG unticked. Both show at once
    # (5 + 4 men at 10, no LMG: 90) and are sent only once the "+" is answered, in order.
    models.fill("9")
    models.press("Enter")
    phone.tap(f"#{k}-opt-lmg")
    expect(points).to_have_text("90 pts")
    expect(total).to_have_text("840")
    # Two frames later (a change is sent once its guess is painted), still one request: the other
    # two wait for the "+"'s answer.
    phone.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done))))"
    )
    assert len(changes) == 1, changes
    late, response = slow.pop()
    late.fulfill(response=response)
    expect(points).not_to_have_class(re.compile("is-guess"))
    entry = Entry.objects.get(pk=squad.pk)
    assert (entry.models_count, entry.options) == (9, {})
    assert [url.rsplit("/", 2)[1] for url in changes] == ["models", "models", "options"]
    # The page shows what the server has: its figures, its men, its options.
    expect(points).to_have_text("90 pts")
    expect(total).to_have_text("840")
    expect(phone.locator(f"#platoon-{squad.platoon_id}-points")).to_have_text("840 pts")
    expect(models).to_have_value("9")
    expect(phone.locator(f"#{k}-opt-lmg")).not_to_be_checked()
    phone.unroute("**/entries/*/*/")
    phone.reload()
    expect(phone.locator("#summary-points")).to_have_text("840")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_answer_morphed_into_the_editor_keeps_its_elements_the_focus_and_the_typing(phone, live_server):
    """The answer to a change is morphed into the open editor: its forms and controls are the same
    elements after it (a change queued in one of them is sent from it), the focused control is the
    one the player was in, a field being typed in keeps what was typed (the caret where it was),
    and a control whose change is still on its way shows that change, not the answer's older state."""
    alice = make_user("alice")
    army_list = _twelve(alice)
    log_in(phone.context, live_server, alice)
    errors = []  # the scripts' (idiomorph's extension is loaded after htmx, which it registers with)
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    phone.goto(f"/lists/{army_list.pk}/")
    squad = _rows(army_list)[3]
    k = f"entry-{squad.pk}"
    points, models, name, lmg = (
        phone.locator(f"#{k}-points"),
        phone.locator(f"#{k}-models"),
        phone.locator(f"#{k}-name-input"),
        phone.locator(f"#{k}-opt-lmg"),
    )
    phone.tap(f"#{k}-open")
    expect(points).to_have_text("70 pts")
    # Every form of the editor and every element of it with an id, kept to compare.
    kept = phone.evaluate(
        "k => (window.__kept = Array.from(document.querySelectorAll(`#${k} form, #${k} [id]`))).length", k
    )
    assert kept > 20
    still_there = "window.__kept.filter((el) => !el.isConnected || !el.closest('.unit-row.is-open')).length"

    # A "+" whose answer is held; meanwhile the LMG is unticked (sent once the "+" is answered, and
    # held too) and the player types a name, the caret after "Al".
    held_men, held_options = _held(phone, "**/models/"), _held(phone, "**/options/")
    phone.tap(f"#{k}-more")
    _wait_held(phone, held_men)
    lmg.tap()
    name.fill("Alpha team")
    name.evaluate("field => { field.setSelectionRange(2, 2); window.__focused = field; }")
    held_men.pop().continue_()
    _wait_held(phone, held_options)  # sent once the "+"'s answer (six men, the LMG on) is in
    expect(models).to_have_value("6")
    expect(lmg).not_to_be_checked()  # its change is on its way: the answer's tick is not shown
    assert phone.evaluate("document.activeElement === window.__focused")
    assert name.evaluate("field => [field.value, field.selectionStart]") == ["Alpha team", 2]
    assert phone.evaluate(still_there) == 0
    held_options.pop().continue_()
    expect(points).not_to_have_class(re.compile("is-guess"))
    expect(points).to_have_text("60 pts")
    expect(lmg).not_to_be_checked()
    phone.unroute("**/models/")
    phone.unroute("**/options/")

    # A typed count, then the LMG ticked again: each answered into the same elements, the focus on
    # the control used.
    name.fill("")
    models.fill("8")
    models.press("Enter")
    expect(points).to_have_text("80 pts")
    expect(points).not_to_have_class(re.compile("is-guess"))
    assert phone.evaluate(
        f"window.__kept.includes(document.activeElement) && document.activeElement.id === '{k}-models'"
    )
    lmg.tap()
    expect(points).to_have_text("100 pts")
    expect(points).not_to_have_class(re.compile("is-guess"))
    assert phone.evaluate(
        f"window.__kept.includes(document.activeElement) && document.activeElement.id === '{k}-opt-lmg'"
    )
    expect(models).to_have_value("8")
    assert phone.evaluate(still_there) == 0
    squad.refresh_from_db()
    assert (squad.models_count, squad.options, squad.name) == (8, {"lmg": 1}, "")
    assert errors == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_change_made_while_the_unit_moves_to_another_platoon_is_sent_from_its_new_editor(phone, live_server):
    """The move answers a new editor in the other platoon: a change queued behind it is sent
    from there, with the values it was made with, and saved."""
    alice = make_user("alice")
    army_list = make_builder_list(alice, entries=3, points_limit=1500)
    other = make_platoon(army_list, kind="reinforced_platoon", position=1)
    squad = _rows(army_list)[1]
    k = f"entry-{squad.pk}"
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    phone.tap(f"#{k}-open")
    expect(phone.locator(f"#{k}-points")).to_have_text("70 pts")
    held = _held(phone, "**/platoon/")
    sent = []
    phone.on("request", lambda request: sent.append(request.url) if request.method == "POST" else None)
    phone.focus(f"#{k}-platoon")  # as a tap on it does (Playwright's choice does not)
    phone.select_option(f"#{k}-platoon", str(other.pk))
    _wait_held(phone, held)
    phone.tap(f"#{k}-opt-lmg")  # the LMG dropped (-20) while the move is under way
    expect(phone.locator(f"#{k}-points")).to_have_text("50 pts")
    phone.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done))))"
    )
    assert [url.rsplit("/", 2)[1] for url in sent] == ["platoon"]  # the option waits for the move
    held.pop().continue_()
    expect(phone.locator(f"#platoon-{other.pk}-rows #{k}-editor")).to_be_visible()
    expect(phone.locator(f"#{k}-points")).not_to_have_class(re.compile("is-guess"))
    expect(phone.locator(f"#{k}-opt-lmg")).not_to_be_checked()
    expect(phone.locator(f"#{k}-points")).to_have_text("50 pts")
    expect(phone.locator("#summary-points")).to_have_text("190")
    assert [url.rsplit("/", 2)[1] for url in sent] == ["platoon", "options"]
    squad.refresh_from_db()
    assert (squad.platoon_id, squad.options) == (other.pk, {})


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_options_priced_at_once_whole_squad_and_teams_and_a_refusal_puts_them_back(phone, live_server):
    alice = make_user("alice")
    army = make_army(edition=make_edition("v3"), slug="soviet", name="Soviet Union")
    units = make_deep_catalogue(army)
    army_list = make_list(alice, army, name="Guards", force_org="none")
    # 50 + 3 men at 10, 3 SMGs at 4, a Panzerfaust 5: 97.
    squad = make_entry(army_list, units["guards"], models_count=8, options={"smg": 3, "panzerfaust": 1})
    make_entry(army_list, units["gun"], position=1)  # 75
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    k = f"entry-{squad.pk}"
    points, total = phone.locator(f"#{k}-points"), phone.locator("#summary-points")
    phone.tap(f"#{k}-open")
    expect(points).to_have_text("97 pts")
    expect(total).to_have_text("172")

    def held_change(selector: str, guessed: str, guessed_total: str) -> None:
        held = _held(phone, "**/options/")
        phone.locator(selector).click()
        expect(points).to_have_text(guessed)
        expect(total).to_have_text(guessed_total)
        expect(points).to_have_class(re.compile("is-guess"))
        _wait_held(phone, held)
        assert len(held) == 1
        held.pop().continue_()
        expect(points).not_to_have_class(re.compile("is-guess"))
        phone.unroute("**/options/")

    # Grenades for the whole squad: 2 a man, 8 men.
    held_change(f"#{k}-opt-grenades", "113 pts", "188")
    expect(points).to_have_text("113 pts")  # the server's figure is the guess
    expect(total).to_have_text("188")
    # An LMG team (20) adds 2 men, who buy the grenades too (+4).
    held_change(f"#{k}-opt-lmg-team", "137 pts", "212")
    expect(points).to_have_text("137 pts")
    expect(total).to_have_text("212")
    assert Entry.objects.get(pk=squad.pk).options == {"smg": 3, "panzerfaust": 1, "grenades": 1, "lmg-team": 1}

    # A rifle grenade with the Panzerfaust: priced at once (+5), refused by the server: its
    # answer puts the figures back, the reason next to the options, the box unticked.
    held_change(f"#{k}-opt-rifle-grenade", "142 pts", "217")
    expect(phone.locator(f"#{k}-editor")).to_contain_text("Rifle grenade cannot be taken with Panzerfaust")
    expect(points).to_have_text("137 pts")
    expect(total).to_have_text("212")
    expect(phone.locator(f"#{k}-opt-rifle-grenade")).not_to_be_checked()
    assert "rifle-grenade" not in Entry.objects.get(pk=squad.pk).options

    # The gun made free by its option: the table does not guess (the list's limit on free units
    # is the server's to judge); the answer alone moves the figures.
    gun = army_list.entries.get(unit=units["gun"])
    g = f"entry-{gun.pk}"
    phone.tap(f"#{g}-open")
    expect(phone.locator(f"#{g}-points")).to_have_text("75 pts")
    held = _held(phone, "**/options/")
    phone.locator(f"#{g}-opt-free-unit").click()
    expect(phone.locator(f"#{g}-points")).to_have_class(re.compile("is-guess"))
    expect(phone.locator(f"#{g}-points")).to_have_text("75 pts")
    expect(total).to_have_text("212")
    _wait_held(phone, held)
    held.pop().continue_()
    expect(phone.locator(f"#{g}-points")).to_have_text("0 pts")
    expect(total).to_have_text("137")
    expect(phone.locator(f"#{g}-points")).not_to_have_class(re.compile("is-guess"))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_duplicate_and_remove_wait_for_the_units_changes_made_before_them(phone, live_server):
    """A "Duplicate" or a "Remove" tapped while a change of the unit is still on the server: shown
    at once, sent only once that change is answered, so the server copies or removes the unit the
    player saw; a change made after the tap is the original's only, and nothing is lost."""
    alice = make_user("alice")
    army_list = _twelve(alice)
    squad = _rows(army_list)[3]
    Entry.objects.filter(pk=squad.pk).update(options={})  # no LMG: 50 points, the list 800
    k = f"entry-{squad.pk}"
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    total, head = phone.locator("#summary-points"), phone.locator(f"#platoon-{squad.platoon_id}-points")
    phone.tap(f"#{k}-open")
    expect(phone.locator(f"#{k}-points")).to_have_text("50 pts")
    expect(total).to_have_text("800")

    # Option answers are held once the server has applied them; the next action's request is held
    # before it reaches the server; everything else goes through.
    sent, slow, held = [], [], []

    def hold(route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append(route.request.url.rsplit("/", 2)[1])
        if sent[-1] == "options":
            slow.append((route, route.fetch()))
        elif sent[-1] in ("duplicate", "remove"):
            held.append(route)
        else:
            route.continue_()

    def two_frames() -> None:
        phone.evaluate(
            "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done))))"
        )

    phone.route("**/entries/*/*/", hold)
    # The LMG ticked (+20), its answer held; then "Duplicate", a man more for the original only
    # and "Done", all before the LMG is answered.
    phone.tap(f"#{k}-opt-lmg")
    _wait_held(phone, slow)
    assert Entry.objects.get(pk=squad.pk).options == {"lmg": 1}
    phone.tap(f"#{k}-duplicate")
    # At once: a greyed copy at the points shown (the LMG's guess), the totals up as much.
    pending = phone.locator(f"#{k} + .unit-row.is-pending")
    expect(pending.locator(".unit-points")).to_have_text("70")
    expect(total).to_have_text("890")
    expect(head).to_have_text("890 pts")
    phone.tap(f"#{k}-more")
    expect(phone.locator(f"#{k}-points")).to_have_text("80 pts")
    expect(total).to_have_text("900")  # 800 + 20 (LMG) + 10 (a man) + 70 (the copy)
    expect(pending.locator(".unit-points")).to_have_text("70")  # the man is the original's only
    phone.tap(f"#{k}-close")
    two_frames()
    assert sent == ["options"], sent  # the copy waits for the LMG
    assert Entry.objects.filter(army_list=army_list).count() == 12

    # The LMG answered: the copy is sent, held before the server; its preview stays laid on the
    # server's figures (the copy now with the LMG), the man still a guess behind it.
    late, response = slow.pop()
    late.fulfill(response=response)
    _wait_held(phone, held)
    assert sent == ["options", "duplicate"], sent
    expect(pending).to_contain_text("Light machine gun")
    expect(pending.locator(".unit-points")).to_have_text("70")
    expect(total).to_have_text("900")
    expect(head).to_have_text("900 pts")
    assert Entry.objects.filter(army_list=army_list).count() == 12
    held.pop().continue_()

    # The copy answered (it has the LMG, not the man), then the man sent from the original's
    # editor, which closes once it is answered ("Done" was tapped).
    expect(phone.locator(f"#{k}-editor")).to_have_count(0)
    expect(phone.locator(".unit-row.is-pending")).to_have_count(0)
    copy = _rows(army_list)[4]
    assert (copy.options, copy.models_count) == ({"lmg": 1}, 5)
    expect(phone.locator(f"#{k} + #entry-{copy.pk}")).to_be_visible()
    expect(phone.locator(f"#{k}-points")).to_have_text("80")
    expect(phone.locator(f"#entry-{copy.pk}-points")).to_have_text("70")
    expect(total).to_have_text("900")
    expect(head).to_have_text("900 pts")
    assert sent == ["options", "duplicate", "models"], sent
    squad.refresh_from_db()
    assert (squad.options, squad.models_count) == ({"lmg": 1}, 6)

    # The copy's LMG unticked (its answer held), then "Remove": the row goes and the totals fall
    # by its points as shown (50) at once; the removal waits for the LMG's answer, and its
    # preview stays once that answer is morphed into the (hidden) editor.
    c = f"entry-{copy.pk}"
    phone.tap(f"#{c}-open")
    phone.tap(f"#{c}-opt-lmg")
    _wait_held(phone, slow)
    # Shown within the tap's own event, before anything else runs (the request waits).
    assert phone.evaluate(
        "(id) => { document.getElementById(id + '-remove').click();"
        " return document.getElementById(id).classList.contains('is-leaving'); }",
        c,
    )
    expect(phone.locator(f"#{c}-editor")).to_be_hidden()
    expect(total).to_have_text("830")
    expect(head).to_have_text("830 pts")
    two_frames()
    assert sent[3:] == ["options"], sent
    late, response = slow.pop()
    late.fulfill(response=response)
    _wait_held(phone, held)
    assert sent[3:] == ["options", "remove"], sent
    assert Entry.objects.get(pk=copy.pk).options == {}
    expect(phone.locator(f"#{c}-editor")).to_be_hidden()
    expect(total).to_have_text("830")
    expect(head).to_have_text("830 pts")
    held.pop().continue_()
    expect(phone.locator(f"#{c}")).to_contain_text("Removed Rifle Squad.")
    expect(total).to_have_text("830")
    assert not Entry.objects.filter(pk=copy.pk).exists()
    # "Undo" puts back the unit the server removed: without its LMG.
    phone.tap(f"#{c}-undo")
    expect(total).to_have_text("880")
    assert Entry.objects.get(pk=copy.pk).options == {}
    phone.unroute("**/entries/*/*/")

    phone.reload()
    expect(phone.locator("#summary-points")).to_have_text("880")
    expect(phone.locator(f"#{k}-points")).to_have_text("80")
    expect(phone.locator(f"#{k}-open")).to_contain_text("Light machine gun")
    expect(phone.locator(f"#{c}-points")).to_have_text("50")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_add_shows_its_row_and_the_totals_before_the_server_answers(phone, live_server, monkeypatch):
    alice = make_user("alice")
    army_list = _twelve(alice)
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    phone.evaluate("window.__marker = 1")
    squad = _rows(army_list)[0]
    group = f"platoon-{squad.platoon_id}"
    points, dice, head = (
        phone.locator("#summary-points"),
        phone.locator("#summary-dice"),
        phone.locator(f"#{group}-points"),
    )
    note = phone.locator("#summary-bar .summary-note")
    rows = phone.locator(f"#{group}-rows > li")
    pending = phone.locator(".unit-row.is-pending")
    expect(points).to_have_text("820")
    expect(dice).to_have_text("12")

    # The answer held back (the server has added the unit): a pending row is already last in the
    # platoon chosen in "Add to", at the unit's Regular price for 5 men, and the totals have moved.
    slow = []  # (route, the server's answer)

    def answer_late(route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        slow.append((route, route.fetch()))

    phone.route("**/entries/add/", answer_late)
    phone.tap(f"#add-unit-{squad.unit_id}")
    expect(points).to_have_text("870")
    expect(head).to_have_text("870 pts")
    expect(dice).to_have_text("13")
    expect(rows).to_have_count(13)
    expect(phone.locator(f"#{group}-rows > li:last-child.is-pending")).to_contain_text("Rifle Squad")
    expect(pending.locator(".unit-points")).to_have_text("50")
    expect(pending.locator(".unit-facts")).to_have_text("Regular · 5 models")
    expect(note).to_have_class(re.compile("is-guess"))  # "n left": the server's to say
    _wait_held(phone, slow)
    assert Entry.objects.filter(army_list=army_list).count() == 13
    late, response = slow.pop()
    late.fulfill(response=response)
    # The server's row replaces it, with its totals: the page shows what the server has.
    added = _rows(army_list)[-1]
    expect(pending).to_have_count(0)
    expect(phone.locator(f"#{group}-rows > li:last-child")).to_have_id(f"entry-{added.pk}")
    expect(phone.locator(f"#entry-{added.pk}-points")).to_have_text("50")
    expect(rows).to_have_count(13)
    expect(points).to_have_text("870")
    expect(head).to_have_text("870 pts")
    expect(dice).to_have_text("13")
    expect(note).to_have_text("630 left")
    expect(note).not_to_have_class(re.compile("is-guess"))
    phone.unroute("**/entries/add/")
    ids = phone.eval_on_selector_all(f"#{group}-rows > li", "rows => rows.map(r => r.id)")
    assert ids == [f"entry-{e.pk}" for e in _rows(army_list)]

    # No answer (the network failed): the pending row goes, the totals come back, with a message.
    held = _held(phone, "**/entries/add/")
    phone.tap(f"#add-unit-{squad.unit_id}")
    expect(points).to_have_text("920")
    expect(pending).to_have_count(1)
    _wait_held(phone, held)
    held.pop().abort()
    expect(pending).to_have_count(0)
    expect(phone.locator("#add-errors")).to_have_text(
        "No answer from the server: the list may not have changed. Try again."
    )
    expect(points).to_have_text("870")
    expect(head).to_have_text("870 pts")
    expect(dice).to_have_text("13")
    expect(note).not_to_have_class(re.compile("is-guess"))
    expect(rows).to_have_count(13)
    phone.unroute("**/entries/add/")

    # An add the server refuses (the list is full): the same, with the server's reason.
    monkeypatch.setattr("armybuilder.lists.services.ENTRIES_MAX", 13)
    held = _held(phone, "**/entries/add/")
    phone.tap(f"#add-unit-{squad.unit_id}")
    expect(points).to_have_text("920")
    expect(dice).to_have_text("14")
    _wait_held(phone, held)
    held.pop().continue_()
    expect(phone.locator("#add-errors")).to_contain_text("A list holds at most")
    expect(pending).to_have_count(0)
    expect(points).to_have_text("870")
    expect(head).to_have_text("870 pts")
    expect(dice).to_have_text("13")
    expect(rows).to_have_count(13)
    assert Entry.objects.filter(army_list=army_list).count() == 13
    assert phone.evaluate("window.__marker") == 1
    phone.unroute("**/entries/add/")

    # After a reload, the same page.
    phone.reload()
    expect(points).to_have_text("870")
    expect(dice).to_have_text("13")
    ids = phone.eval_on_selector_all(f"#{group}-rows > li", "rows => rows.map(r => r.id)")
    assert ids == [f"entry-{e.pk}" for e in _rows(army_list)]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_quick_adds_each_show_at_once_and_are_sent_in_turn_none_lost(phone, live_server):
    """Three taps on "Add" before any answer: three pending rows and the totals at once; sent one
    after the other, each with its own unit (htmx alone would drop the middle one)."""
    alice = make_user("alice")
    army_list = _twelve(alice)
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    squad, officer = _rows(army_list)[0], _rows(army_list)[-1]
    group = f"platoon-{squad.platoon_id}"
    points, dice = phone.locator("#summary-points"), phone.locator("#summary-dice")
    pending = phone.locator(".unit-row.is-pending")
    expect(points).to_have_text("820")
    held = _held(phone, "**/entries/add/")
    for unit in (squad.unit_id, officer.unit_id, squad.unit_id):
        phone.tap(f"#add-unit-{unit}")
    expect(points).to_have_text("970")
    expect(dice).to_have_text("15")
    expect(pending).to_have_count(3)
    expect(pending.nth(1)).to_contain_text("Second Lieutenant")
    # One at a time: each is sent once the one before is answered; the totals stay the same.
    for left in (2, 1, 0):
        _wait_held(phone, held)
        held.pop().continue_()
        expect(pending).to_have_count(left)
        expect(phone.locator(f"#{group}-rows > li[id]")).to_have_count(15 - left)
        expect(points).to_have_text("970")
        expect(dice).to_have_text("15")
    phone.unroute("**/entries/add/")
    added = _rows(army_list)[12:]
    assert [e.unit_id for e in added] == [squad.unit_id, officer.unit_id, squad.unit_id]
    ids = phone.eval_on_selector_all(f"#{group}-rows > li", "rows => rows.map(r => r.id)")
    assert ids == [f"entry-{e.pk}" for e in _rows(army_list)]
    phone.reload()
    expect(points).to_have_text("970")
    expect(dice).to_have_text("15")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_pending_add_stays_shown_when_a_new_platoon_redraws_the_roster(phone, live_server):
    """ "Add platoon" answers a new roster: a unit added meanwhile, its answer still held, keeps its
    pending row and its place in the totals until that answer comes."""
    alice = make_user("alice")
    army_list = _twelve(alice)
    log_in(phone.context, live_server, alice)
    phone.goto(f"/lists/{army_list.pk}/")
    squad = _rows(army_list)[0]
    points, pending = phone.locator("#summary-points"), phone.locator(".unit-row.is-pending")
    expect(points).to_have_text("820")
    platoons = _held(phone, "**/platoons/add/")
    adds = _held(phone, "**/entries/add/")
    phone.select_option("#new-platoon-kind", "reinforced_platoon")
    phone.tap("#new-platoon-submit")
    _wait_held(phone, platoons)
    phone.tap(f"#add-unit-{squad.unit_id}")
    expect(pending).to_have_count(1)
    expect(points).to_have_text("870")
    _wait_held(phone, adds)

    platoons.pop().continue_()
    expect(phone.locator("#add-platoon option")).to_have_count(3)  # "No platoon" and two platoons
    expect(pending).to_have_count(1)
    expect(pending).to_contain_text("Rifle Squad")
    expect(points).to_have_text("870")

    adds.pop().continue_()
    expect(pending).to_have_count(0)
    expect(phone.locator(f"#platoon-{squad.platoon_id}-rows > li[id]")).to_have_count(13)
    expect(points).to_have_text("870")
    assert army_list.entries.count() == 13
    phone.unroute("**/entries/add/")
    phone.unroute("**/platoons/add/")
