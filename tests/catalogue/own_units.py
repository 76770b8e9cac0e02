"""Builders shared by the own-units tests: the Generic v3 data, the unit form's posts for the three
units typed from the book (a tank, a squad, a character officer), lists taking them, and a
player's browser session on a phone or a desktop.

The ``v3`` fixture that loads the data is in this folder's conftest.py.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management import call_command

from armybuilder.catalogue.models import Army, Unit
from armybuilder.lists.models import ArmyList, Entry
from rules.army import own_units as own_rules
from tests.conftest import PHONE_CONTEXT, log_in
from tests.lists.factories import make_list, make_user

FIXTURES = Path(settings.BASE_DIR) / "fixtures"
V3_GENERIC = ("00_editions.json", "30_v3_reference.json", "60_catalogue_v3_generic.json")


def load_v3_generic(*extra: str) -> Army:
    """Load the v3 reference and its Generic army (with ``extra`` fixture files), and return the army."""
    # Sorted: the files are numbered in the order they depend on each other.
    names = sorted((*V3_GENERIC, *extra))
    call_command("loaddata", *(str(FIXTURES / name) for name in names), verbosity=0)
    return Army.objects.get(edition__slug="v3", slug="generic")


def weapon_pk(slug: str) -> int:
    from armybuilder.reference.models import Weapon

    return Weapon.objects.get(edition__slug="v3", slug=slug).pk


def rule_pk(slug: str) -> int:
    from armybuilder.reference.models import SpecialRule

    return SpecialRule.objects.get(edition__slug="v3", slug=slug).pk


def post_data(army: Army, *, weapons=(), options=(), **fields) -> dict:
    """The unit form's POST: one-model 50-point infantry unless ``fields`` say otherwise (None drops a field)."""
    data = {
        "name": "Unit",
        "army": army.pk,
        "unit_type": "infantry",
        "slot": "infantry",
        "base_models": 1,
        "max_models": 1,
        "cost_regular": 50,
        "w-TOTAL_FORMS": str(max(len(weapons), 1)),
        "w-INITIAL_FORMS": "0",
        "o-TOTAL_FORMS": str(max(len(options), 1)),
        "o-INITIAL_FORMS": "0",
    }
    for i, (weapon, count, mount, arc) in enumerate(weapons):
        data.update(
            {f"w-{i}-weapon": weapon_pk(weapon), f"w-{i}-count": count, f"w-{i}-mount": mount, f"w-{i}-arc": arc}
        )
    for i, option in enumerate(options):
        for key, value in option.items():
            if key in ("grants_weapon", "replaces_weapon"):
                value = weapon_pk(value)
            data[f"o-{i}-{key}"] = value
    data.update(fields)
    return {k: v for k, v in data.items() if v is not None}


def panzer_iv(army: Army) -> dict:
    return post_data(
        army,
        name="Panzer IV Ausf. H",
        unit_type="vehicle_armoured",
        slot="tank",
        damage_value=9,
        cost_inexperienced=188,
        cost_regular=235,
        cost_veteran=282,
        weapons=[
            ("heavy-at-gun", 1, "turret", "360"),
            ("mmg", 1, "coaxial", "360"),
            ("mmg", 1, "hull", "front"),
        ],
    )


def grenadiers(army: Army) -> dict:
    return post_data(
        army,
        name="Grenadier Squad",
        base_models=5,
        max_models=10,
        cost_regular=50,
        cost_veteran=65,
        per_model_regular=10,
        per_model_veteran=13,
        weapons=[("rifle", 1, "", "")],
        options=[
            {
                "name": "SMG instead of rifle",
                "cost": 3,
                "per_model": "on",
                "max_count": 4,
                "grants_weapon": "smg",
                "replaces_weapon": "rifle",
            },
            {"name": "Panzerfaust", "cost": 5, "per_model": "on", "max_count": 2, "grants_weapon": "panzerfaust"},
        ],
    )


def hauptmann(army: Army) -> dict:
    return post_data(
        army,
        name="Hauptmann Krüger",
        unit_type="headquarters",
        slot="character",
        officer_rank="captain",
        base_models=1,
        max_models=3,
        cost_regular=110,
        per_model_regular=13,
        weapons=[("pistol", 1, "", "")],
        special_rules=[rule_pk("tough-fighters")],
    )


def make_own_list(client, army: Army, name: str = "Kampfgruppe") -> ArmyList:
    """An empty list of the client's user, with no force organisation."""
    from django.contrib.auth import get_user

    return make_list(owner=get_user(client), army=army, name=name, force_org="none")


def three_unit_list(client, owner, army: Army) -> ArmyList:
    """The three units made through the form and taken in a list with a Generic rifle squad
    (the squad with seven men, three of them swapping rifles for SMGs)."""
    for data in (panzer_iv(army), grenadiers(army), hauptmann(army)):
        assert client.post("/units/new/v3/", data).status_code == 302
    army_list = make_own_list(client, army)
    rifle = Unit.objects.get(army=army, slug="rifle-squad")
    for unit in [*Unit.objects.owned_by(owner).order_by("pk"), rifle]:
        client.post(f"/lists/{army_list.pk}/entries/add/", {"unit": unit.pk})
    squad = Unit.objects.get(owner=owner, name="Grenadier Squad")
    entry = Entry.objects.get(army_list=army_list, unit=squad)
    entry.options = {squad.options.get(name="SMG instead of rifle").slug: 3}
    entry.models_count = 7
    entry.save()
    return army_list


def fill_own_units(army: Army, owner, prefix: str = "own") -> None:
    """Give ``owner`` as many own units as one player may keep."""
    Unit.objects.bulk_create(
        Unit(
            army=army,
            owner=owner,
            slug=f"{prefix}-{n}",
            name=f"U{n}",
            unit_type="team",
            slot="other",
            source="t",
            cost_regular=1,
        )
        for n in range(own_rules.OWN_UNITS_MAX)
    )


def alice_in_a_browser(live_server, new_browser_context, device: str, lang: str, list_name: str, *fixtures: str):
    """Generic v3 loaded (with ``fixtures``), Alice with an empty list named ``list_name``, and a
    page of hers on a phone or a desktop in ``lang``: (alice, the army, her list, the context, the page)."""
    generic = load_v3_generic(*fixtures)
    alice = make_user("alice")
    army_list = make_list(owner=alice, army=generic, name=list_name, force_org="none")
    device_options = PHONE_CONTEXT if device == "phone" else {"viewport": {"width": 1280, "height": 900}}
    context = new_browser_context(**device_options, locale="fr-FR" if lang == "fr" else "en-GB")
    context.set_default_timeout(20_000)
    log_in(context, live_server, alice)
    return alice, generic, army_list, context, context.new_page()


def unfold(page, section: str) -> None:
    """Open a folded section of the unit form as a player does, by tapping its title (if closed)."""
    details = page.locator(section)
    if details.get_attribute("open") is None:
        details.locator("summary").click()
