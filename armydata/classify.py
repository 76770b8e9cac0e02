"""What kind of unit an imported entry is, and which platoon slot it fills: one classifier for every source.

The BattleScribe and Barracks importers used to carry their own slot rules, and they drifted
apart. Both now describe an entry the same way (the data's category names, most telling first,
its name, and the vehicle profile's damage and transport texts) and ask ``classify``.

Order of the tests, and why:

1. Roster settings ("Configuration", "Game options"...) are not units at all.
2. A vehicle profile (a damage value) makes a vehicle, unless the category says it is a gun
   (an "M7 Priest" is a vehicle whatever its name says). A vehicle that carries men is a
   transport even when its category says artillery (a tow filed beside the guns it pulls). The
   damage value may come from a profile or from the unit's type text ("6+ (soft-skin)"); either
   way it decides soft-skin or armoured, whatever a broad category ("Armour") says.
3. National characters (commissars, chaplains, political officers) are named by category or
   name; they are checked before the other categories so that a character filed under an
   infantry category is never counted as an infantry squad.
4. Categories that name one kind of unit decide it (the first one, in the data's order).
5. Broad categories ("Headquarters", "Infantry Squads and Teams", "Support") only narrow the
   kind; the unit's name then decides the slot.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .unit_kinds import first_int


@dataclass(frozen=True)
class Classification:
    unit_type: str
    slot: str
    officer_rank: str | None = None
    character: bool = False
    guessed: bool = False  # nothing in the data said what it is; the default was used


def _patterns(*pairs: tuple[str, tuple[str, str]]) -> tuple[tuple[re.Pattern[str], tuple[str, str]], ...]:
    return tuple((re.compile(pattern, re.IGNORECASE), kind) for pattern, kind in pairs)


SETTING_RE = re.compile(
    r"^\s*(configuration|config|roster (settings|options|configuration)|game (settings|options|type|size)|"
    r"settings|army (configuration|settings|options)|force (configuration|settings|options))\s*$",
    re.IGNORECASE,
)
CHARACTER_RE = re.compile(
    r"commiss?ar|kommiss?ar|politruk|political officer|chaplain|padre|priest|\bimam\b|\brabbi\b|"
    r"national characters?|^\s*characters?\s*$|\bhero\b",
    re.IGNORECASE,
)

# Vehicles that fill no fighting slot (they go with a headquarters or a platoon as support).
VEHICLE_OTHER_RE = re.compile(r"ambulance|recovery|\barv\b", re.IGNORECASE)
# Categories that name one kind of unit. Tested in this order against each category.
SPECIFIC_CATEGORIES = _patterns(
    # A category that names squads says so whatever other category the unit carries (the Soviet
    # 3rd-edition data files its squads under "Infantry Squads" and "Machine Gun Team" both, the
    # second for the platoon's count of support choices). "Squads and Teams" only narrows (below).
    (r"^\s*(infantry|rifle|engineer|pioneer|sapper|assault)?\s*(squads?|sections?)\s*$", ("infantry", "infantry")),
    (r"fore?ward observer|\bobservers?\b", ("headquarters", "forward_observer")),
    (r"\bmedics?\b|medical", ("headquarters", "medic")),
    (r"ambulance", ("vehicle_soft", "other")),
    (r"platoon commander|company commander|\bofficers?\b|command(ing)? officer", ("headquarters", "officer")),
    (r"sniper", ("team", "sniper")),
    (r"machine.?gun|\bmmg\b|\bhmg\b", ("team", "machine_gun")),
    (r"light mortar", ("team", "light_mortar")),
    (r"mortar", ("team", "mortar")),
    (r"flame", ("team", "flamethrower")),
    (r"anti-?\s?tank teams?|\bat teams?", ("team", "anti_tank")),
    (r"anti-?\s?tank guns?", ("artillery", "anti_tank_gun")),
    (
        r"anti-?\s?aircraft guns?|field artillery|^\s*artillery\s*$|\bhowitzers?\b",
        ("artillery", "artillery"),
    ),
    (
        r"self.propelled|tank destroyer|(^|[\s,])tanks?\b|assault guns?|anti-?\s?aircraft vehicle|"
        r"compulsory vehicle|command vehicle|lend.lease",
        ("vehicle_armoured", "tank"),
    ),
    (r"armou?red car|recce vehicle|reconnaissance vehicle", ("vehicle_armoured", "armoured_car")),
    (r"transport|\btows?\b|tractor", ("transport", "transport")),
    (r"artillery", ("artillery", "artillery")),
    (r"\barv\b|recovery", ("vehicle_armoured", "other")),
    (r"^\s*vehicles?\s*$|^\s*armou?r\s*$", ("vehicle_armoured", "tank")),
)
# Broad categories: they narrow the kind, the name decides the slot.
BROAD_CATEGORIES = _patterns(
    (r"headquarters|\bhq\b", ("headquarters", "other")),
    # Barracks files "Infantry Squads and Teams" together: a squad unless the name says a team.
    (r"squads? and teams", ("infantry", "infantry")),
    (r"infantry support|heavy weapons|support|^\s*teams?\s*$", ("team", "other")),
    (r"infantry|squads?|sections?|compulsory|engineers?|pioneers?|paratroop", ("infantry", "infantry")),
)
NAME_SLOTS = _patterns(
    (r"observer", ("headquarters", "forward_observer")),
    (r"\bmedic|corpsman|doctor", ("headquarters", "medic")),
    (
        r"officer|commander|lieutenant|captain|\bmajor\b|colonel|general|\bfenrik\b|\bkaptein\b|\bløytnant\b",
        ("headquarters", "officer"),
    ),
    # A "Light Machine Gun Squad" is a squad armed with LMGs, not a machine-gun team.
    (r"\b(squad|section)\b", ("infantry", "infantry")),
    (r"sniper", ("team", "sniper")),
    (r"flame|\broks\b", ("team", "flamethrower")),
    (r"light mortar|(50|51|60) ?mm mortar|knee mortar", ("team", "light_mortar")),
    (r"mortar", ("team", "mortar")),
    (r"machine gun|\bmmg\b|\bhmg\b", ("team", "machine_gun")),
    (r"anti-?\s?tank (rifle|team)|bazooka|\bpiat\b|panzerschreck|\bboys\b", ("team", "anti_tank")),
    (r"\b(squad|section|platoon|infantry|riflemen|guards?)\b", ("infantry", "infantry")),
)
RANKS = tuple(
    (re.compile(pattern, re.IGNORECASE), rank)
    for pattern, rank in (
        (r"lieutenant[\s-]+colonel|lt\.?[\s-]+col", "lieutenant_colonel"),
        # "Second (Junior) Lieutenant": a bracketed local rank may sit between the words.
        (r"\b(second|2nd)\b[^,;]*?\b(lieutenant|lt)\b|sub-?lieutenant", "second_lieutenant"),
        (r"\b(first|1st)\b[^,;]*?\b(lieutenant|lt)\b", "first_lieutenant"),
        (r"\bcaptain\b", "captain"),
        (r"\bmajor\b", "major"),
        (r"\bcolonel\b", "colonel"),
        (r"company commander", "company_commander"),
        (r"platoon commander", "platoon_commander"),
        (r"\blieutenant\b", "second_lieutenant"),
    )
)


PLATOON_KINDS = tuple(
    (re.compile(pattern, re.IGNORECASE), kind)
    for pattern, kind in (
        (r"reinforced platoon", "reinforced_platoon"),
        (r"heavy weapons? platoon", "heavy_weapons_platoon"),
        (r"artillery platoon", "artillery_platoon"),
        (r"armou?red platoon|tank platoon", "armoured_platoon"),
        (r"rec(ce|onnaissance)\b.*platoon", "recce_platoon"),
        (r"(engineer|pioneer|sapper)s? platoon", "engineer_platoon"),
        (r"(rifle|infantry) platoon", "rifle_platoon"),
    )
)


def platoon_kind(name: str) -> str | None:
    """The Muster platoon kind a force of this name stands for ("Heavy Weapon Platoon"...), if any."""
    return next((kind for pattern, kind in PLATOON_KINDS if pattern.search(name)), None)


def is_setting(*names: str) -> bool:
    """A roster setting (an entry or force every roster takes once), not a unit."""
    return any(SETTING_RE.match(name or "") for name in names)


def officer_rank(name: str) -> str | None:
    return next((rank for pattern, rank in RANKS if pattern.search(name)), None)


def _vehicle_type(damage: str) -> str:
    value = first_int(damage, r"(\d+)\s*\+")
    soft = "soft" in damage.lower() or (value is not None and value <= 6)
    return "vehicle_soft" if soft else "vehicle_armoured"


def _match(patterns: tuple[tuple[re.Pattern[str], tuple[str, str]], ...], text: str) -> tuple[str, str] | None:
    return next((kind for pattern, kind in patterns if pattern.search(text)), None)


def classify(
    categories: Sequence[str], name: str, *, damage: str | None = None, transport: str | None = None
) -> Classification:
    """Classify one unit from its category names (most telling first) and its name."""
    categories = [c for c in categories if c and not SETTING_RE.match(c)]
    specific = next((kind for c in categories if (kind := _match(SPECIFIC_CATEGORIES, c)) is not None), None)
    broad = next((kind for c in categories if (kind := _match(BROAD_CATEGORIES, c)) is not None), None)
    # A vehicle profile first: an "M7 Priest" is a self-propelled gun, not a priest. A gun category
    # does not make a vehicle that carries men a gun (a half-track tow filed under Artillery).
    carries_men = bool(first_int(transport, r"(\d+)"))
    if damage is not None and (specific is None or specific[0] != "artillery" or carries_men):
        vehicle = _vehicle_type(damage)
        if specific is not None and specific[0] in ("transport", "vehicle_soft", "vehicle_armoured"):
            unit_type, slot = specific
        elif VEHICLE_OTHER_RE.search(name) or (specific is None and broad is not None and broad[0] == "headquarters"):
            unit_type, slot = vehicle, "other"
        elif carries_men:
            unit_type, slot = "transport", "transport"
        else:
            unit_type, slot = vehicle, "tank"
        if unit_type in ("vehicle_soft", "vehicle_armoured"):
            unit_type = vehicle
        return Classification(unit_type, slot)
    if any(CHARACTER_RE.search(c) for c in categories) or CHARACTER_RE.search(name):
        return Classification("headquarters", "character", character=True)
    by_name = _match(NAME_SLOTS, name)
    guessed = False
    if specific is not None:
        unit_type, slot = specific
    elif broad is not None:
        unit_type, slot = broad
        if by_name is not None and (broad[0] != "headquarters" or by_name[0] == "headquarters"):
            unit_type, slot = by_name
    elif by_name is not None:
        unit_type, slot = by_name
    else:
        unit_type, slot, guessed = "infantry", "infantry", True
    rank = officer_rank(" ".join([name, *categories])) if slot == "officer" else None
    return Classification(unit_type, slot, officer_rank=rank, guessed=guessed)


# --- weapon mounts -------------------------------------------------------------------------------

COAXIAL_RE = re.compile(r"co-?\s?axial", re.IGNORECASE)
MOUNTS = (
    (re.compile(r"turret", re.IGNORECASE), "turret"),
    (re.compile(r"pintle", re.IGNORECASE), "pintle"),
    (re.compile(r"sponson", re.IGNORECASE), "sponson"),
    (re.compile(r"casemate", re.IGNORECASE), "casemate"),
    (re.compile(r"platform", re.IGNORECASE), "platform"),
    (re.compile(r"\bhull|forward.facing|front.facing|\bbow\b", re.IGNORECASE), "hull"),
)
ARCS = (
    (re.compile(r"360", re.IGNORECASE), "360"),
    (re.compile(r"rear", re.IGNORECASE), "rear"),
    (re.compile(r"forward|front", re.IGNORECASE), "front"),
    (re.compile(r"\bleft", re.IGNORECASE), "left"),
    (re.compile(r"\bright", re.IGNORECASE), "right"),
)


def weapon_mount(name: str, *notes: str) -> tuple[str, str, bool]:
    """The mount and arc a weapon entry's name gives ("Pintle-mounted MMG (360°)": pintle, 360), and
    whether it or its notes mention a co-axial weapon. Both importers describe weapons this way."""
    mount = next((m for pattern, m in MOUNTS if pattern.search(name)), "")
    coaxial = any(COAXIAL_RE.search(text) for text in (name, *notes))
    if coaxial and not mount:
        mount = "coaxial"
    arc = next((a for pattern, a in ARCS if pattern.search(name)), "")
    return mount, arc, coaxial
