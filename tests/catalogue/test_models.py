"""The catalogue's language-dependent display fields: French when French is active and given, else English."""

from __future__ import annotations

from django.utils import translation

from armybuilder.catalogue.models import Unit


def test_it_shows_the_french_armament_in_french():
    unit = Unit(weapons_text="Pistol, SMG or rifle", weapons_text_fr="Pistolet, pistolet mitrailleur ou fusil")
    with translation.override("fr"):
        assert unit.display_weapons == "Pistolet, pistolet mitrailleur ou fusil"


def test_it_shows_the_english_armament_in_english():
    unit = Unit(weapons_text="Pistol, SMG or rifle", weapons_text_fr="Pistolet, pistolet mitrailleur ou fusil")
    with translation.override("en"):
        assert unit.display_weapons == "Pistol, SMG or rifle"


def test_it_falls_back_to_the_printed_armament_without_french():
    # Imported lists carry English armament only.
    with translation.override("fr"):
        assert Unit(weapons_text="Rifles").display_weapons == "Rifles"
