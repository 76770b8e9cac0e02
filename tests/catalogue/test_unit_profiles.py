"""Unit profiles players check, in the built-in data: read from the committed fixtures (no database),
plus the reload that takes an option the data dropped off saved lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings

from armybuilder.catalogue.models import Option, Origin
from armybuilder.site.management.commands.load_reference_data import drop_stale_options
from tests.lists.factories import make_army, make_entry, make_list, make_option, make_unit

FIXTURES = Path(settings.BASE_DIR) / "fixtures"


def _rows(name, model):
    return [o["fields"] for o in json.loads((FIXTURES / name).read_text(encoding="utf-8")) if o["model"] == model]


def test_the_3rd_edition_sniper_team_fires_a_sniper_rifle_with_the_sniper_rule():
    sniper = next(u for u in _rows("60_catalogue_v3_generic.json", "catalogue.unit") if u["slug"] == "sniper-team")
    assert ["v3", "sniper-rifle"] in sniper["weapons"] and ["v3", "rifle"] not in sniper["weapons"]
    rifle = next(w for w in _rows("30_v3_reference.json", "reference.weapon") if w["slug"] == "sniper-rifle")
    assert ["v3", "sniper"] in rifle["special_rules"]


@pytest.mark.parametrize("name", ["50_catalogue_v2_generic.json", "60_catalogue_v3_generic.json"])
def test_generic_tanks_have_a_line_per_mount_and_mmgs_are_two_lines(name):
    tanks = [u for u in _rows(name, "catalogue.unit") if u["slot"] == "tank"]
    assert tanks
    for tank in tanks:
        mounts = [(line["weapon"], line["mount"]) for line in tank["weapon_lines"]]
        assert mounts[1:] == [("mmg", "coaxial"), ("mmg", "hull")], tank["slug"]


@pytest.mark.parametrize("name", ["50_catalogue_v2_generic.json", "60_catalogue_v3_generic.json"])
def test_no_option_is_a_plus_nothing_twin_of_none(name):
    options = _rows(name, "catalogue.option")
    assert not [o["slug"] for o in options if o["cost_regular"] == 0 and o["group"] and not o["replaces_weapon"]]
    assert not [o for o in options if o["slug"] == "nco-rifle"]


def test_2nd_edition_anti_tank_grenades_are_for_the_whole_squad():
    for name in ("50_catalogue_v2_generic.json", "55_catalogue_v2_barracks.json"):
        grenades = [o for o in _rows(name, "catalogue.option") if o["name"].startswith("Anti-tank grenades")]
        assert grenades and all(o["all_models"] for o in grenades), name


@pytest.mark.django_db
def test_a_reload_drops_an_option_the_data_no_longer_has_from_saved_lists():
    army = make_army(origin=Origin.BUILTIN)
    unit = make_unit(army)
    keep = make_option(unit, slug="nco-smg")
    make_option(unit, slug="nco-rifle")
    entry = make_entry(make_list(army=army), unit, options={"nco-smg": 1, "nco-rifle": 1})
    assert drop_stale_options({keep.natural_key()}) == 1
    entry.refresh_from_db()
    assert entry.options == {"nco-smg": 1}
    assert list(Option.objects.values_list("slug", flat=True)) == ["nco-smg"]
