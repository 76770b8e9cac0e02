"""The reference pages (topics) and which tables each edition must have.

A topic is one page of the reference; each table of an edition names its topic. The expected
table sets are what the fixture-validation test checks, so a missing table fails CI.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Topic:
    slug: str
    title: str
    tables: tuple[str, ...]


TOPICS: tuple[Topic, ...] = (
    Topic("turn", _("Turn sequence"), ("turn-sequence",)),
    Topic("orders", _("Orders and FUBAR"), ("orders", "fubar")),
    Topic("morale", _("Quality and morale"), ("quality", "morale-modifiers")),
    Topic("officers", _("Officers"), ("officers",)),
    Topic("movement", _("Movement and terrain"), ("movement", "terrain", "terrain-legend", "vehicle-manoeuvre")),
    Topic("shooting", _("Shooting"), ("shooting-procedure", "hit-modifiers", "cover-saves", "pins")),
    Topic("damage", _("Damage values"), ("damage-values",)),
    Topic("he", _("High explosive"), ("he",)),
    Topic("vehicles", _("Vehicle damage"), ("pen-modifiers", "vehicle-damage", "turret-jam")),
    Topic("weapons", _("Weapons chart"), ()),
    Topic("close-quarters", _("Close quarters"), ("close-quarters", "assaulting-vehicles")),
    Topic("air-artillery", _("Air and artillery"), ("air-strikes", "artillery-barrage", "smoke-barrage")),
    Topic("buildings", _("Buildings"), ("buildings",)),
)

TOPICS_BY_SLUG = {topic.slug: topic for topic in TOPICS}

_ALL_TABLES = frozenset(table for topic in TOPICS for table in topic.tables)

# 1st edition: seed 004 is an infantry-only starter summary, so vehicle, air, artillery and
# building tables are not in the spec for it; cover saves and turret jam are later-edition rules.
EXPECTED_TABLES: dict[str, frozenset[str]] = {
    "v1": frozenset(
        {
            "turn-sequence",
            "orders",
            "fubar",
            "quality",
            "morale-modifiers",
            "officers",
            "movement",
            "terrain",
            "terrain-legend",
            "shooting-procedure",
            "hit-modifiers",
            "pins",
            "damage-values",
            "close-quarters",
        }
    ),
    "v2": _ALL_TABLES - {"cover-saves"},
    "v3": _ALL_TABLES,
}

# The 2nd and 3rd editions' weapons charts share their stable slugs.
_CHART_WEAPON_SLUGS = frozenset(
    {
        "rifle",
        "pistol",
        "smg",
        "lmg",
        "mmg",
        "hmg",
        "assault-rifle",
        "automatic-rifle",
        "shotgun",
        "anti-tank-rifle",
        "piat",
        "bazooka",
        "panzerschreck",
        "panzerfaust",
        "flamethrower",
        "vehicle-flamethrower",
        "light-at-gun",
        "medium-at-gun",
        "heavy-at-gun",
        "super-heavy-at-gun",
        "light-autocannon",
        "heavy-autocannon",
        "light-mortar",
        "medium-mortar",
        "heavy-mortar",
        "light-howitzer",
        "medium-howitzer",
        "heavy-howitzer",
    }
)

# Every edition has a weapons chart (the Weapon model), with at least these stable slugs.
REQUIRED_WEAPON_SLUGS: dict[str, frozenset[str]] = {
    "v1": frozenset({"rifle", "pistol", "smg", "lmg", "mmg", "assault-rifle", "automatic-rifle", "panzerfaust"}),
    "v2": _CHART_WEAPON_SLUGS,
    "v3": _CHART_WEAPON_SLUGS,
}
