"""Every page type of Muster, found by following links from the home page, for the header tests."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

from armybuilder.catalogue.models import Army
from armybuilder.lists import services
from armybuilder.lists.models import ArmyList

LINK = re.compile(r'(?:href|src|hx-get)="(/[^"#]*)"')
SKIP = re.compile(r"\.(pdf|css|js|txt|json|woff2?|png|svg)(\?|$)|/accounts/logout/|/admin/|/i18n/")


def load_data(owner) -> ArmyList:
    """The editions, the 3rd edition's reference and generic catalogue, and a small list of ``owner``'s."""
    fixtures = Path(settings.BASE_DIR) / "fixtures"
    call_command(
        "loaddata",
        fixtures / "00_editions.json",
        fixtures / "30_v3_reference.json",
        fixtures / "60_catalogue_v3_generic.json",
        verbosity=0,
    )
    army = Army.objects.get(edition__slug="v3", slug="generic")
    army_list = ArmyList.objects.create(owner=owner, edition=army.edition, army=army, name="Headers", points_limit=1000)
    for unit in army.units.all()[:3]:
        services.entry_add(army_list=army_list, unit=unit)
    return army_list


def page_urls(get, start: list[str], limit: int = 60) -> list[str]:
    """Same-site pages reachable from ``start`` (one per path shape: /reference/v3/<topic>/ once)."""
    seen_shapes: set[str] = set()
    queue, pages = list(start), []
    while queue and len(pages) < limit:
        url = queue.pop(0)
        shape = re.sub(r"\d+", "N", url.split("?")[0])
        shape = re.sub(r"^/reference/([a-zN]+)/[a-z0-9-]+/$", r"/reference/\1/*/", shape)
        shape = re.sub(r"^/s/[^/]+/", "/s/*/", shape)
        if shape in seen_shapes or SKIP.search(url):
            continue
        seen_shapes.add(shape)
        response = get(url)
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        pages.append(url)
        queue += LINK.findall(response.content.decode())
    return pages
