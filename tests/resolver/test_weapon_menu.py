"""The odds pages' weapon menu, read from the real charts: the chart's order, what players fire most first.

The weapons' default ordering sorts their categories by name, so "heavy" came before "small-arms":
the menu opened on the HMG and the autocannons, and the rifle was 25th.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from armybuilder.resolver.adapters import weapons_for_edition

FIXTURES = Path(settings.BASE_DIR) / "fixtures"


@pytest.fixture
def real_charts(db):
    names = ("00_editions.json", "20_v2_reference.json", "30_v3_reference.json")
    call_command("loaddata", *(str(FIXTURES / name) for name in names), verbosity=0)


@pytest.mark.parametrize("edition", ["v2", "v3"])
def test_the_menu_starts_with_small_arms_in_chart_order(real_charts, edition):
    rows = weapons_for_edition(edition)
    slugs = [row.slug for row in rows]
    assert set(slugs[:3]) == {"rifle", "pistol", "smg"}  # as each chart prints them (2nd: the pistol first)
    categories = [row.category for row in rows if not row.imported]
    assert categories == sorted(categories, key=["small-arms", "heavy"].index)  # small arms, then heavy
    assert slugs.index("lmg") < slugs.index("mmg") < slugs.index("hmg")


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("page", ["shooting", "anti-tank"])
def test_the_odds_pages_offer_small_arms_first(client, real_charts, language, page):
    client.cookies["django_language"] = language
    html = client.get(f"/calc/{page}/", {"edition": "v3"}).content.decode()
    select = re.search(r'<select name="[^"]*weapon"[^>]*>(.*?)</select>', html, re.S)
    assert select, html[:500]
    values = [value for value in re.findall(r'<option value="([^"]*)"', select.group(1)) if value]
    if page == "shooting":
        assert values[0] in {"rifle", "pistol", "smg"}
    else:  # the anti-tank page offers the weapons with a penetration, the HMG first
        assert values[0] == "hmg"
    # Whatever the page offers, it is in chart order: small arms before heavy weapons.
    rows = {row.slug: row.category for row in weapons_for_edition("v3")}
    categories = [rows[value] for value in values if value in rows]
    assert categories == sorted(categories, key=["small-arms", "heavy"].index)
