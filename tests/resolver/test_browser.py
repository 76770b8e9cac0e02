"""The calculator in Debian's Chromium: results update in place, and a list's unit opens prefilled."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from tests.lists.factories import make_user
from tests.resolver.factories import make_chart, make_entry, make_list, make_unit, make_weapon

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

V02 = (
    "/calc/shooting/?edition=v2&order=fire&firer_quality=regular&firer_pins=0"
    "&g0-weapon=rifle&g0-models=10&g0-range=long"
    "&target_kind=infantry&target_quality=regular&target_models=10&cover=soft&facing=front"
)


def test_it_updates_the_odds_in_place_when_the_cover_changes(page):
    make_chart("v2")
    page.goto(V02)
    page.evaluate("window.__marker = 'same page'")
    casualty = page.locator(".stat", has_text="At least one casualty").locator(".stat-value")
    before = casualty.inner_text()
    chart_before = page.locator("svg.bar-chart").first.inner_html()

    page.select_option("#id_cover", "hard")

    expect(casualty).not_to_have_text(before)
    assert page.locator("svg.bar-chart").first.inner_html() != chart_before
    assert page.evaluate("window.__marker") == "same page"
    assert "cover=hard" in page.url


def test_it_adds_a_weapon_group_in_place(page):
    make_chart("v2")
    page.goto(V02)
    page.evaluate("window.__marker = 'same page'")

    page.get_by_role("button", name="Add a group").click()

    expect(page.locator("#id_g3-weapon")).to_be_visible()
    assert page.evaluate("window.__marker") == "same page"


def test_it_shows_a_field_error_without_a_reload(page):
    make_chart("v2")
    page.goto(V02)
    page.evaluate("window.__marker = 'same page'")

    page.fill("#id_target_models", "0")

    expect(page.locator("#id_target_models-errors")).to_contain_text("At least 1.")
    assert page.evaluate("window.__marker") == "same page"


def test_it_opens_the_calculator_from_a_list_unit(page, live_server):
    weapons = make_chart("v2")
    alice = make_user("alice")
    unit = make_unit(weapons["rifle"].edition, weapons=(weapons["rifle"], weapons["lmg"]), name="Grenadiers")
    entry = make_entry(make_list(owner=alice), unit, quality="veteran", models_count=8)
    client = Client()
    client.force_login(alice)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )

    page.goto(f"/calc/shooting/?from_entry={entry.pk}")

    expect(page.locator(".prefill")).to_contain_text("Grenadiers")
    expect(page.locator("#id_firer_quality")).to_have_value("veteran")
    expect(page.locator("#id_g0-weapon")).to_have_value("rifle")
    expect(page.locator("#id_g0-models")).to_have_value("6")
    expect(page.locator("#id_g1-weapon")).to_have_value("lmg")


def test_it_swaps_in_the_weapons_of_another_edition(page):
    make_chart("v2")
    v3 = make_chart("v3")
    make_weapon(v3["rifle"].edition, "bazooka", pen=5)
    page.goto(V02)
    page.evaluate("window.__marker = 'same page'")

    page.select_option("#id_edition", "v3")

    expect(page.locator("#id_g0-weapon option[value=bazooka]")).to_have_count(1)
    expect(page.locator(".roll-card").first).to_contain_text("base 4+")
    assert page.evaluate("window.__marker") == "same page"
    assert "edition=v3" in page.url


def test_a_slow_answer_still_swaps_in_the_other_editions_weapons(new_browser_context):
    # Choosing an edition fires `input` and `change`. When the edition's own request is slower than the
    # form's 300 ms live update (a busy server, a hall's patchy signal), the live update must not cancel
    # it, or the weapons stay those of the old edition: it did, under load in CI. The edition's request
    # is held here while every pending timer runs, then let through.
    make_chart("v2")
    v3 = make_chart("v3")
    make_weapon(v3["rifle"].edition, "bazooka", pen=5)
    # Without the site's service worker: once it controls the page, the page's requests go through
    # it, and Playwright's routing (which holds the request below) no longer sees them.
    page = new_browser_context(service_workers="block").new_page()
    page.goto(V02)
    held = []

    def hold_the_editions_request(route):
        if route.request.headers.get("hx-target") == "resolver":
            held.append(route)
        else:
            route.continue_()

    page.route("**/calc/shooting/**", hold_the_editions_request)
    cancelled = []
    page.on("requestfailed", lambda request: cancelled.append(request.headers.get("hx-target")))
    with page.expect_request(lambda request: request.headers.get("hx-target") == "resolver"):
        page.select_option("#id_edition", "v3")
    deadline = time.monotonic() + 20
    while not held and time.monotonic() < deadline:
        page.evaluate("0")  # a round trip, in which Playwright hands the held request to the test
        time.sleep(0.05)
    assert len(held) == 1
    # Timers fire in the order they fall due: once a 1 s timer set now has fired, the form's 300 ms
    # live update, had the edition set it off, has gone too.
    page.evaluate("new Promise(resolve => setTimeout(resolve, 1000))")
    held[0].continue_()

    expect(page.locator("#id_g0-weapon option[value=bazooka]")).to_have_count(1)
    expect(page.locator(".roll-card").first).to_contain_text("base 4+")
    assert cancelled == [], "the form's live update cancelled the edition's request"


def test_it_updates_the_order_dice_odds_without_a_reload(django_db_setup, page):
    # django_db_setup first: the test database must exist before Playwright starts its event loop.
    make_chart("v2")
    page.goto("/calc/order-dice/?edition=v2&own_dice=12&enemy_dice=16&draws=3&turns=5")
    page.evaluate("window.__marker = 'same page'")
    next_die = page.locator(".stat", has_text="Next die is yours").locator(".stat-value")
    expect(next_die).to_have_attribute("title", "3/7")

    page.fill("#id_own_dice", "4")

    expect(next_die).to_have_attribute("title", "1/5")
    expect(next_die).to_have_text("20.0%")
    assert page.evaluate("window.__marker") == "same page"
    assert "own_dice=4" in page.url


def test_it_shows_the_he_fields_only_for_a_weapon_that_fires_he(django_db_setup, page):
    make_chart("v3")
    page.goto("/calc/shooting/?edition=v3")
    page.evaluate("window.__marker = 'same page'")
    expect(page.locator("#id_g0-template")).to_be_hidden()
    expect(page.locator(".no-js-only")).to_be_hidden()

    page.select_option("#id_g0-weapon", "light-mortar")

    expect(page.locator("#id_g0-template")).to_be_visible()
    expect(page.locator("#id_g0-fire")).to_be_visible()
    expect(page.locator("#id_g0-ammo")).to_be_hidden()  # a mortar only fires HE
    expect(page.locator(".roll-card").first).to_contain_text("Indirect fire, ranging attempt 1")

    page.select_option("#id_g0-weapon", "medium-at-gun")
    expect(page.locator("#id_g0-ammo")).to_be_visible()
    page.select_option("#id_g0-ammo", "ap")
    expect(page.locator("#id_g0-template")).to_be_hidden()
    assert page.evaluate("window.__marker") == "same page"


def test_it_offers_only_the_bands_the_weapon_can_fire_in_and_flags_a_stale_one(page):
    make_chart("v3")
    page.goto(V02.replace("edition=v2", "edition=v3"))
    page.evaluate("window.__marker = 'same page'")

    page.select_option("#id_g0-weapon", "flamethrower")

    # The stylesheet hides what a 6" flamethrower cannot do; the band still chosen is refused in place.
    shown = page.eval_on_selector_all(
        "#id_g0-range option", "els => els.filter(o => getComputedStyle(o).display !== 'none').map(o => o.value)"
    )
    assert shown == ["point_blank"]
    expect(page.locator("#id_g0-range-errors")).to_contain_text("Only point blank for this weapon.")
    page.select_option("#id_g0-range", "point_blank")
    expect(page.locator("#id_g0-range-errors")).to_be_empty()
    expect(page.locator(".stat", has_text="Hits (average)")).to_be_visible()
    assert page.evaluate("window.__marker") == "same page"
