"""The pages that show imported data, for the untrusted-data tests: a list of every unit of an army, and its URLs."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from armybuilder.catalogue.models import Army
from armybuilder.lists import services
from armybuilder.lists.models import ArmyList


def load_reference() -> None:
    """The editions and the 2nd- and 3rd-edition rulebook data, as ``load_reference_data`` loads them."""
    fixtures = Path(settings.BASE_DIR) / "fixtures"
    names = ("00_editions.json", "20_v2_reference.json", "30_v3_reference.json")
    call_command("loaddata", *(fixtures / name for name in names), verbosity=0)


def list_of_every_unit(army: Army, owner) -> ArmyList:
    army_list = ArmyList.objects.create(owner=owner, edition=army.edition, army=army, name="Hostile", points_limit=5000)
    for unit in army.units.filter(removed=False):
        services.entry_add(army_list=army_list, unit=unit)
    return army_list


def get(client, url: str):
    """GET ``url`` as the site asks for it: the builder's fragments through htmx."""
    headers = {"HTTP_HX_REQUEST": "true"} if url.endswith("?hx=1") else {}
    return client.get(url.removesuffix("?hx=1"), **headers)


def urls_showing(army_list: ArmyList, *, pdfs: bool = True) -> list[str]:
    """Every page that shows the list's army, its units or the edition's weapons."""
    edition = army_list.edition.slug
    urls = [
        reverse("ab-list-builder", args=[army_list.pk]),
        reverse("ab-list-shared", args=[army_list.share_token]),
        reverse("ps-print", args=[army_list.pk]),
        reverse("ab-list-export-text", args=[army_list.pk]),
        reverse("ab-list-export-json", args=[army_list.pk]),
        f"/calc/shooting/?edition={edition}",
        f"/calc/anti-tank/?edition={edition}",
        reverse("ref-weapons", args=[edition]),
        reverse("ref-compare", args=["weapons"]) + f"?a=v2&b={edition}",
        reverse("ref-api-table", args=[edition, "weapons"]),
        reverse("cat-api-units", args=[edition, army_list.army.slug]),
        reverse("about-data"),
    ]
    # "What are my odds?" from each unit of the list, as the builder links it.
    urls += [f"/calc/shooting/?from_entry={entry.pk}" for entry in army_list.entries.all()]
    urls += [f"/calc/shooting/?edition={edition}&target_entry={entry.pk}" for entry in army_list.entries.all()]
    # The builder's catalogue of units, as htmx loads it into the builder page.
    urls.append(reverse("ab-builder-catalogue", args=[army_list.pk]) + "?hx=1")
    if pdfs:
        urls += [reverse("ps-roster-pdf", args=[army_list.pk]), reverse("ps-cards-pdf", args=[army_list.pk])]
    return urls
