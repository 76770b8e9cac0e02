"""An imported Soviet-like army in French: units, options and chart weapons through the glossary.

The importer stores no French for a name with a part the glossary lacks, and none for the
weapons it brings, so these pages used to show the data's English. The glossary now gives
each name at render time, part by part, leaving what it does not know as the data wrote it.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from armybuilder import localised
from armybuilder.catalogue.models import Army, Option, Origin, Unit
from armybuilder.reference.models import Weapon
from tests.lists.factories import make_edition, make_entry, make_list, make_user

pytestmark = pytest.mark.django_db

UNITS = ("Guard Squad", "Submachine Gun Squad", "NKVD Squad", "Commisar", "Platoon Commander", "Shtrafbat Squad")
OPTIONS = ("Submachine gun (SMG)", "Light Machine Gun Team", "Anti-tank Grenades (Molotov cocktails)", "Extra Men")
WEAPONS = ("Rifle", "Submachine gun (SMG)", "Light machine gun (LMG)")


@pytest.fixture
def soviet_list():
    edition = make_edition("v3")
    weapons = {}
    for position, (slug, name, shots) in enumerate(
        (
            ("rifle-imp", "Rifle", "1"),
            ("smg-imp", "Submachine gun (SMG)", "2"),
            ("lmg-imp", "Light machine gun (LMG)", "4"),
        )
    ):
        weapons[slug] = Weapon.objects.create(
            edition=edition, slug=slug, name=name, category="small-arms", position=position,
            range_max=24, shots=shots, source="BattleScribe import", imported=True,
        )  # fmt: skip
    army = Army.objects.create(
        edition=edition, slug="soviets", name="Armies of the soviet union", origin=Origin.BATTLESCRIBE, source="import"
    )
    units = {}
    for position, name in enumerate(UNITS):
        officer = name in ("Commisar", "Platoon Commander")
        units[name] = unit = Unit.objects.create(
            army=army, slug=f"u{position}", name=name, position=position,
            unit_type="headquarters" if officer else "infantry", slot="officer" if officer else "infantry",
            cost_regular=50, per_model_regular=10, base_models=1 if officer else 5, max_models=3 if officer else 11,
            weapons_text="Rifle, Submachine gun (SMG)", source="import",
        )  # fmt: skip
        unit.weapons.set([weapons["rifle-imp"], weapons["smg-imp"]])
    guard = units["Guard Squad"]
    for position, name in enumerate(OPTIONS):
        Option.objects.create(
            unit=guard, slug=f"o{position}", name=name, position=position,
            grants_weapon=weapons["smg-imp"] if position == 0 else weapons["lmg-imp"] if position == 1 else None,
            adds_models=2 if position == 1 else 0, per_model=position == 0,
        )  # fmt: skip
    owner = make_user("ivan")
    army_list = make_list(owner, army, name="Krasnaya", points_limit=1000)
    squad = make_entry(army_list, guard, position=0, options={"o0": 2, "o1": 1})
    for position, key in enumerate(UNITS[1:], start=1):
        make_entry(army_list, units[key], position=position)
    return army_list, squad


def _lines(army_list, squad) -> list[str]:
    client = Client()
    client.force_login(army_list.owner)
    client.cookies["django_language"] = "fr"
    page = client.get(f"/lists/{army_list.pk}/", {"edit": squad.pk}).content.decode()
    assert '<html lang="fr">' in page
    body = re.sub(r"(?s)<(script|style|head)\b.*?</\1>", " ", page)
    text = html.unescape(re.sub(r"<[^>]+>", "\n", body))
    return [line.strip() for line in text.splitlines() if line.strip()]


def _english(lines: list[str]) -> list[str]:
    """Lines that carry an English unit, option or weapon name of the data."""
    names = {*UNITS, *OPTIONS, *WEAPONS}
    return [line for line in lines if any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", line) for name in names)]


def test_the_builder_in_french_names_imported_units_options_and_weapons_through_the_glossary(soviet_list, monkeypatch):
    army_list, squad = soviet_list
    after = _lines(army_list, squad)
    with monkeypatch.context() as patched:
        # As before: only the French the rows stored, no glossary at render time.
        patched.setattr(localised, "shown_parts", lambda name, language: name)
        before = _lines(army_list, squad)
    english_before, english_after = _english(before), _english(after)
    assert len(english_before) >= 20, english_before
    # What the glossary does not know stays as the data wrote it: the penal squad's name.
    assert english_after == [line for line in english_after if "Shtrafbat" in line], english_after
    assert len(english_after) < len(english_before) / 4
    text = "\n".join(after)
    for french in (
        "Escouade de la Garde",
        "Escouade de pistolets mitrailleurs",
        "Escouade NKVD",
        "Commissaire politique",
        "Chef de section",
        "Escouade Shtrafbat",  # the known part translated, the unknown kept
        "Pistolet mitrailleur (SMG)",
        "Équipe de mitrailleuse légère",
        "Grenades antichar (cocktails Molotov)",
        "Hommes supplémentaires",
        "Fusil, Pistolet mitrailleur (SMG)",
    ):
        assert french in text, french


def test_the_english_pages_are_unchanged(soviet_list):
    army_list, squad = soviet_list
    client = Client()
    client.force_login(army_list.owner)
    client.cookies["django_language"] = "en"
    page = html.unescape(client.get(f"/lists/{army_list.pk}/", {"edit": squad.pk}).content.decode())
    for name in ("Guard Squad", "Commisar", "Anti-tank Grenades (Molotov cocktails)", "Rifle, Submachine gun (SMG)"):
        assert name in page
    assert "Escouade de la Garde" not in page


def test_a_players_own_unit_keeps_the_name_they_typed(soviet_list):
    army_list, _squad = soviet_list
    own = Unit.objects.create(
        army=army_list.army, owner=army_list.owner, slug="own", name="Guard Squad", unit_type="infantry",
        slot="infantry", cost_regular=60, base_models=5, max_models=10, source="own",
    )  # fmt: skip
    from django.utils import translation

    with translation.override("fr"):
        assert own.display_name == "Guard Squad"
        assert Unit.objects.get(army=army_list.army, slug="u0").display_name == "Escouade de la Garde"
