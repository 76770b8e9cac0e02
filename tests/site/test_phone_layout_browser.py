"""Every page type on a 390 x 844 phone, in English and French: nothing wider than the screen.

A page wider than the viewport is panned sideways, and a page without a viewport tag is laid out
980 px wide and shown zoomed out to 0.40 (390 / 980): what a player saw when Django's own 404 page
(no viewport tag) came up. With ``is_mobile`` Chromium honours the viewport tag as a phone does and
widens the layout viewport to whatever overflows, so the test reads the scale and the layout width
the browser settled on, not only ``scrollWidth``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import expect

from armybuilder.games.models import Game
from armybuilder.lists.models import ArmyList
from tests.conftest import PHONE, PHONE_CONTEXT, log_in
from tests.lists.factories import make_user
from tests.security.pages import load_data, page_urls

VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'
FIXTURES = Path(settings.BASE_DIR) / "fixtures"


def _every_page(client: Client, owner) -> list[str]:
    """The page types a player meets, found by following links, plus the ones no link leads to."""
    army_list: ArmyList = load_data(owner)  # 3rd edition: reference, generic catalogue, a list
    call_command("loaddata", FIXTURES / "20_v2_reference.json", FIXTURES / "40_search_aliases.json", verbosity=0)
    client.force_login(owner)
    response = client.post(
        f"/games/new/?list={army_list.pk}",
        {"my_name": "Alice", "opponent": "dice", "opponent_name": "Bob", "opponent_dice": "3"},
    )
    assert response.status_code == 302, response.content[:500]
    game = Game.objects.get()
    start = [
        "/",
        f"/lists/{army_list.pk}/",
        f"/s/{army_list.share_token}/",
        f"/lists/{army_list.pk}/print/",
        f"/lists/{army_list.pk}/print/document/",
        "/lists/new/",
        "/lists/import/",
        "/lists/import/roster/",
        "/lists/trash/",
        "/reference/v3/weapons/",
        "/reference/v3/weapons/?q=MG42",
        "/reference/compare/weapons/?a=v2&b=v3",
        "/reference/compare/shooting/?a=v2&b=v3",
        "/calc/shooting/",
        f"/games/{game.pk}/",
        f"/g/{game.share_token}/",
        "/accounts/password_change/",
        "/offline/",
    ]
    urls = page_urls(client.get, start, limit=60)
    assert len(urls) >= 25, urls
    # Error pages: a 404, and the 403 a signed-in player gets from a staff page.
    return [*urls, "/no-such-page/", "/lists/999999/", "/catalogue/import/"]


@pytest.mark.django_db
def test_every_page_type_and_error_page_has_the_viewport_tag(client, alice):
    urls = _every_page(client, alice)
    statuses = set()
    for url in urls:
        response = client.get(url)
        statuses.add(response.status_code)
        assert VIEWPORT in response.content.decode(), (url, response.status_code)
    assert {200, 403, 404} <= statuses
    # Logged out, the pages visitors see too.
    client.logout()
    for url in ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/", "/no-such-page/"]:
        assert VIEWPORT in client.get(url).content.decode(), url


def test_the_error_pages_rendered_without_a_request_have_the_viewport_tag():
    from django.template.loader import render_to_string

    for name in ("500.html", "503.html", "error_standalone.html", "site/offline.html"):
        assert VIEWPORT in render_to_string(name), name


MEASURE = """() => {
  const header = document.querySelector('.site-header');
  const scrolls = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') return true;
    }
    return false;
  };
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    scale: window.visualViewport.scale,
    header: header ? header.getBoundingClientRect().height : 0,
    panned: [...document.querySelectorAll('.table-wrap')]
      .filter((wrap) => getComputedStyle(wrap).overflowX !== 'visible' && wrap.scrollWidth > wrap.clientWidth + 1)
      .map((wrap) => wrap.getAttribute('aria-labelledby')),
    wide: [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && el.checkVisibility())
      .filter((el) => !scrolls(el))
      .slice(0, 3).map((el) => el.tagName + '.' + el.className),
  };
}"""


# Opens the header's menu, reads where each of its links and controls sits, and closes it again.
MENU_REACH = """() => {
  // The offline and stand-alone error pages carry a header of their own, with no menu.
  const menu = document.querySelector('details[data-nav-menu]');
  if (menu) menu.open = true;
  const reachable = '.site-nav a, .site-nav button:not([hidden]), .site-nav select, .site-nav summary';
  const items = [...document.querySelectorAll(reachable)].filter((el) => el.checkVisibility());
  const off = items.filter((el) => {
    const box = el.getBoundingClientRect();
    return box.left < 0 || box.right > window.innerWidth + 1 || box.width === 0;
  }).map((el) => el.textContent.trim());
  if (menu) menu.open = false;
  return {menu: !!menu, items: items.length, off};
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
# German and Spanish have the longest words of the other languages (the header's "Odds" overflowed
# in both before its links could give way).
@pytest.mark.parametrize("language", ["en", "fr", "de", "es"])
def test_no_page_is_wider_than_a_phone(new_browser_context, live_server, language):
    alice = make_user("alice")
    urls = _every_page(Client(), alice)
    context = new_browser_context(**PHONE_CONTEXT, locale=language)
    log_in(context, live_server, alice)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    for url in urls:
        page.goto(url)
        page.wait_for_load_state("load")
        seen = page.evaluate(MEASURE)
        where = (language, url, seen)
        assert seen["innerWidth"] == PHONE["width"], where  # not widened by anything overflowing
        assert seen["scrollWidth"] <= seen["innerWidth"], where
        assert seen["scale"] == 1, where  # not shown zoomed out
        assert seen["wide"] == [], where
        # No table to pan sideways either: rules tables, the weapons chart and the compare view stack.
        assert seen["panned"] == [], where
        # The header is one line: at most a finger's height, whatever the language.
        if seen["header"]:
            assert seen["header"] <= 48, where
            # Everything the header offers is on screen, in the bar or in its opened menu.
            reach = page.evaluate(MENU_REACH)
            assert reach["off"] == [] and (reach["items"] >= 5 or not reach["menu"]), (where, reach)
    expect(page.locator("html")).to_have_attribute("lang", language)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_weapons_chart_shows_pen_and_special_rules_on_a_phone(new_browser_context, live_server, language):
    names = ("00_editions.json", "30_v3_reference.json", "40_search_aliases.json")
    call_command("loaddata", *(str(FIXTURES / name) for name in names), verbosity=0)
    context = new_browser_context(**PHONE_CONTEXT, locale=language)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.goto("/reference/v3/weapons/")
    for slug in ("rifle", "bazooka", "heavy-at-gun"):
        row = page.locator(f"tr[data-weapon='{slug}']")
        row.scroll_into_view_if_needed()
        for cell in row.locator("th, td.num, td.cell-rules").all():
            box = cell.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (slug, box)
        # Each value says what it is, in the header's words, the header being out of sight.
        pen = row.locator("td.num").nth(2)
        heading = page.locator("table.weapons-table").first.locator("thead th").nth(3).text_content()
        assert pen.evaluate("el => getComputedStyle(el, '::before').content") == f'"{heading}"'
        assert row.locator("td.cell-rules").evaluate("el => getComputedStyle(el, '::before').content") != "none"
    # The search ranks: "MG42" shows the medium machine gun's row first, then the light one's.
    page.fill("#id_q", "MG42")
    expect(page.locator("tr[data-weapon]")).to_have_count(2)
    assert page.locator("tr[data-weapon]").evaluate_all("rows => rows.map(r => r.dataset.weapon)") == ["mmg", "lmg"]
    # The first row is on the first screen, under the one-line header and the filters.
    page.evaluate("window.scrollTo(0, 0)")
    first = page.locator("tr[data-weapon='mmg'] td.cell-rules").bounding_box()
    assert first is not None and first["y"] + first["height"] <= PHONE["height"], first
