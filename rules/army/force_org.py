"""Force organisation: which units a platoon may hold, per edition, and the tournament limits.

A unit's *role* is the slot it fills in a platoon: its officer rank decides for officers
(Lieutenants and Platoon Commanders fill "officer"; Captains, Majors and Company Commanders fill
"company_commander"), its ``slot`` for everything else.

The tables are data with their sources: ``REINFORCED_PLATOON`` (2nd ed, also used for 1st ed
and flagged), ``V3_PLATOONS`` (3rd ed: the Rifle Platoon from the community 3rd-edition points
notes, the source tag ``v3-generic-costs.md`` of fixtures/src/catalogue_generic.py; the support
platoons from JK3, see docs/rules-notes.md §0), gathered per edition in ``EDITION_RULES``. A 3rd-ed Company Commander is
0-1 per list and may sit outside the platoons.

Problems come back in a stable order: units outside any platoon (list order), then each platoon
in list order (wrong kind, units it has no place for, each requirement and maximum in table
order, transports), then the list-wide rules (at least one core platoon, support platoons,
Company Commander), then the tournament limits (points, order dice, platoons).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.army.model import (
    PLATOON_KINDS,
    EntrySpec,
    ForceEntrySpec,
    ForceLimitSpec,
    LimitAdjustment,
    ListSpec,
    PlatoonSpec,
    Problem,
)
from rules.army.order_dice import order_dice
from rules.army.points import entry_points, join_words
from rules.errors import ForceOrgError, RulesError

# Unit types that can ride in a transport or be towed: one transport may join the platoon for each.
CARRIED_TYPES = ("headquarters", "infantry", "team", "artillery")

SENIOR_RANKS = ("captain", "major", "company_commander")
JUNIOR_RANKS = ("second_lieutenant", "first_lieutenant", "platoon_commander")


@dataclass(frozen=True)
class SlotLimit:
    """Between ``minimum`` and ``maximum`` units whose role is one of ``slots``.

    A limit read from imported data also names the data's ``categories``: a unit that carries
    categories counts when it has one of them, a unit without (built in) by its role. Its
    ``adjustments`` move the bounds with what else the platoon holds.
    """

    key: str
    slots: tuple[str, ...]
    singular: str
    plural: str
    minimum: int = 0
    maximum: int | None = None  # None: no fixed maximum
    categories: tuple[str, ...] = ()
    adjustments: tuple[LimitAdjustment, ...] = ()


@dataclass(frozen=True)
class PlatoonRules:
    kind: str
    label: str
    limits: tuple[SlotLimit, ...]
    source: str
    transports: bool = True  # one transport (or tow) per unit of a CARRIED_TYPES type
    unverified: bool = False


@dataclass(frozen=True)
class EditionRules:
    edition: str
    label: str  # "2nd-edition"
    platoons: dict[str, PlatoonRules]
    core_kind: str  # the list needs at least one platoon of this kind
    support_limited_by_core: bool  # 3rd ed: each support kind at most as many as core platoons
    company_commanders_per_list: int | None  # 3rd ed: 0-1 for the list, outside the platoon tables
    source: str


REINFORCED_PLATOON_SOURCE = (
    "2nd-edition rulebook, generic Reinforced Platoon; structure corroborated by BSData/boltaction "
    '"Bolt Action 2.gst" forceEntry "Reinforced Platoon" (2 compulsory infantry, 0-1 artillery, '
    "one transport per infantry or headquarters unit, one tow per artillery unit)"
)

REINFORCED_PLATOON = PlatoonRules(
    kind="reinforced_platoon",
    label="Reinforced Platoon",
    source=REINFORCED_PLATOON_SOURCE,
    limits=(
        SlotLimit("officer", ("officer",), "Lieutenant (2nd or 1st)", "Lieutenants (2nd or 1st)", 1, 1),
        SlotLimit("infantry", ("infantry",), "infantry section", "infantry sections", 2, 6),
        SlotLimit("senior-officer", ("company_commander",), "Captain or Major", "Captains or Majors", 0, 1),
        SlotLimit("medic", ("medic",), "medic", "medics", 0, 1),
        # National characters (commissars, chaplains) come from the national lists, one per platoon [R].
        SlotLimit("character", ("character",), "national character", "national characters", 0, 1),
        SlotLimit("forward-observer", ("forward_observer",), "forward observer", "forward observers", 0, 1),
        SlotLimit("machine-gun", ("machine_gun",), "machine-gun team", "machine-gun teams", 0, 1),
        SlotLimit("mortar", ("light_mortar", "mortar"), "mortar team", "mortar teams", 0, 1),
        SlotLimit("sniper", ("sniper",), "sniper", "snipers", 0, 1),
        SlotLimit("flamethrower", ("flamethrower",), "flamethrower team", "flamethrower teams", 0, 1),
        SlotLimit("anti-tank", ("anti_tank",), "anti-tank team", "anti-tank teams", 0, 1),
        SlotLimit(
            "artillery", ("artillery", "anti_tank_gun"), "field or anti-tank gun", "field or anti-tank guns", 0, 1
        ),
        SlotLimit(
            "tank",
            ("tank",),
            "tank, tank destroyer, self-propelled gun or anti-aircraft vehicle",
            "tanks, tank destroyers, self-propelled guns or anti-aircraft vehicles",
            0,
            1,
        ),
        SlotLimit(
            "armoured-car", ("armoured_car",), "armoured car or recce vehicle", "armoured cars or recce vehicles", 0, 1
        ),
    ),
)

V3_SOURCE = (
    "v3-force-org.md: 3rd-edition platoon structures (community 3rd-edition BattleScribe game system, "
    "December 2025, checked against Warlord's July 2024 army-building preview)"
)
JK3_SOURCE = 'JK3: Jelle-Kuipers/Bolt-Action-Third-Edition-NRData, "Bolt Action: Third Edition.gst" forceEntries'

_COMMANDER = SlotLimit("officer", ("officer",), "Platoon Commander", "Platoon Commanders", 1, 1)
_CHARACTER = SlotLimit("character", ("character",), "national character", "national characters", 0, 1)

RIFLE_PLATOON = PlatoonRules(
    kind="rifle_platoon",
    label="Rifle Platoon",
    source=f"{V3_SOURCE}; the same in {JK3_SOURCE}",
    limits=(
        _COMMANDER,
        SlotLimit("infantry", ("infantry",), "infantry squad", "infantry squads", 2, 4),
        SlotLimit("sniper", ("sniper",), "sniper", "snipers", 0, 1),
        SlotLimit("forward-observer", ("forward_observer",), "forward observer", "forward observers", 0, 1),
        SlotLimit("medic", ("medic",), "medic", "medics", 0, 1),
        SlotLimit("anti-tank", ("anti_tank",), "anti-tank team", "anti-tank teams", 0, 1),
        SlotLimit("light-mortar", ("light_mortar",), "light mortar", "light mortars", 0, 2),
        _CHARACTER,
    ),
)

V3_PLATOONS = {
    "rifle_platoon": RIFLE_PLATOON,
    "heavy_weapons_platoon": PlatoonRules(
        "heavy_weapons_platoon",
        "Heavy Weapons Platoon",
        (
            _COMMANDER,
            SlotLimit("machine-gun", ("machine_gun",), "machine-gun team", "machine-gun teams", 0, 5),
            SlotLimit("mortar", ("mortar",), "mortar team", "mortar teams", 0, 5),
            # 5 of one kind leaves room for 3 of the other, 4 for 4: at most 8 together, and at least 2.
            SlotLimit(
                "support-weapons",
                ("machine_gun", "mortar"),
                "machine-gun or mortar team",
                "machine-gun or mortar teams",
                2,
                8,
            ),
            SlotLimit("anti-tank", ("anti_tank",), "anti-tank team", "anti-tank teams", 0, 3),
        ),
        f'{V3_SOURCE}, "Heavy Weapons Platoon"',
    ),
    "artillery_platoon": PlatoonRules(
        "artillery_platoon",
        "Artillery Platoon",
        (_COMMANDER, SlotLimit("guns", ("artillery", "anti_tank_gun"), "gun", "guns", 1, 4)),
        f'{V3_SOURCE}, "Artillery Platoon": 1-4 anti-aircraft, anti-tank or field guns in all',
    ),
    "armoured_platoon": PlatoonRules(
        "armoured_platoon",
        "Armoured Platoon",
        (SlotLimit("vehicles", ("tank", "armoured_car"), "vehicle", "vehicles", 1, None),),
        f'{V3_SOURCE}, "Armoured Platoon": a platoon command vehicle and further vehicles; the command '
        "vehicle is not marked on units, so this counts at least one vehicle [R]",
        transports=False,
        unverified=True,
    ),
    "recce_platoon": PlatoonRules(
        "recce_platoon",
        "Recce Infantry Platoon",
        (
            _COMMANDER,
            SlotLimit("infantry", ("infantry",), "infantry squad", "infantry squads", 1, 4),
            SlotLimit("forward-observer", ("forward_observer",), "forward observer", "forward observers", 0, 1),
            SlotLimit("anti-tank", ("anti_tank",), "anti-tank team", "anti-tank teams", 0, 1),
        ),
        f'{V3_SOURCE}, "Recce Infantry Platoon"',
    ),
    "engineer_platoon": PlatoonRules(
        "engineer_platoon",
        "Engineer Platoon",
        (
            _COMMANDER,
            SlotLimit("infantry", ("infantry",), "engineer squad", "engineer squads", 2, 4),
            SlotLimit("flamethrower", ("flamethrower",), "flamethrower team", "flamethrower teams", 0, 3),
        ),
        f'{V3_SOURCE}, "Engineer Platoon"',
    ),
}

# 1st ed: the same Reinforced Platoon as 2nd ed; no source in rules-notes covers it [R].
V1_REINFORCED_PLATOON = PlatoonRules(
    kind="reinforced_platoon",
    label="Reinforced Platoon",
    limits=REINFORCED_PLATOON.limits,
    source="2nd-edition Reinforced Platoon applied to 1st ed [R]: no 1st-ed force organisation in rules-notes",
    unverified=True,
)

EDITION_RULES: dict[str, EditionRules] = {
    "v1": EditionRules(
        "v1",
        "1st-edition",
        {"reinforced_platoon": V1_REINFORCED_PLATOON},
        "reinforced_platoon",
        False,
        None,
        V1_REINFORCED_PLATOON.source,
    ),
    "v2": EditionRules(
        "v2",
        "2nd-edition",
        {"reinforced_platoon": REINFORCED_PLATOON},
        "reinforced_platoon",
        False,
        None,
        REINFORCED_PLATOON_SOURCE,
    ),
    "v3": EditionRules("v3", "3rd-edition", V3_PLATOONS, "rifle_platoon", True, 1, V3_SOURCE),
}

KIND_LABELS = {
    "reinforced_platoon": "Reinforced Platoon",
    "rifle_platoon": "Rifle Platoon",
    "heavy_weapons_platoon": "Heavy Weapons Platoon",
    "artillery_platoon": "Artillery Platoon",
    "armoured_platoon": "Armoured Platoon",
    "recce_platoon": "Recce Infantry Platoon",
    "engineer_platoon": "Engineer Platoon",
}


def edition_rules(edition: str, forces: Sequence[ForceEntrySpec] = ()) -> EditionRules:
    """The edition's tables; an imported army's own platoon tables (``forces``) replace those of their kind."""
    rules = EDITION_RULES.get(edition)
    if rules is None:
        raise ForceOrgError(f"Unknown edition “{edition}”.")
    if not forces:
        return rules
    platoons = dict(rules.platoons)
    for force in forces:
        if force.kind not in PLATOON_KINDS:
            raise ForceOrgError(f"Unknown platoon kind “{force.kind}” in the army's force organisation.")
        built_in = platoons.get(force.kind)
        platoons[force.kind] = PlatoonRules(
            kind=force.kind,
            label=force.label or KIND_LABELS.get(force.kind, force.kind),
            limits=tuple(_data_limit(limit) for limit in force.limits),
            source=force.source,
            transports=built_in.transports if built_in is not None else True,
        )
    return replace(rules, platoons=platoons)


def _plural(label: str) -> str:
    return label if label.endswith("s") else f"{label}s"


def _data_limit(limit: ForceLimitSpec) -> SlotLimit:
    return SlotLimit(
        key=limit.key,
        slots=limit.slots,
        singular=limit.label,
        plural=_plural(limit.label),
        minimum=limit.minimum,
        maximum=limit.maximum,
        categories=limit.categories,
        adjustments=limit.adjustments,
    )


def _fills(limit: SlotLimit, entry: EntrySpec, role: str) -> bool:
    """Whether an entry counts toward a limit: by the data's categories when both have them, else by role."""
    if limit.categories and entry.unit.categories:
        return not set(limit.categories).isdisjoint(entry.unit.categories)
    return role in limit.slots


_COMPARE = {
    "lessThan": lambda count, value: count < value,
    "greaterThan": lambda count, value: count > value,
    "equalTo": lambda count, value: count == value,
    "notEqualTo": lambda count, value: count != value,
    "atLeast": lambda count, value: count >= value,
    "atMost": lambda count, value: count <= value,
}


def _bounds(limit: SlotLimit, entries: Sequence[EntrySpec], roles: dict[int, str]) -> tuple[int, int | None]:
    """The limit's minimum and maximum once its adjustments have looked at the rest of the platoon."""
    minimum, maximum = limit.minimum, limit.maximum
    for adjustment in limit.adjustments:
        held = sum(
            1 for e in entries if adjustment.category in e.unit.categories or roles[id(e)] == adjustment.category
        )
        if adjustment.comparison == "per":
            # Once per ``threshold`` units held (one more transport per infantry unit).
            times = held // adjustment.threshold if adjustment.threshold > 0 else 0
        else:
            compare = _COMPARE.get(adjustment.comparison)
            times = 1 if compare is not None and compare(held, adjustment.threshold) else 0
        if not times:
            continue
        current = minimum if adjustment.bound == "min" else maximum
        if adjustment.type == "set":
            current = adjustment.value
        elif current is not None and adjustment.type == "increment":
            current += adjustment.value * times
        elif current is not None and adjustment.type == "decrement":
            current -= adjustment.value * times
        if adjustment.bound == "min":
            minimum = max(0, current or 0)
        else:
            maximum = None if current is None or current < 0 else current
    return minimum, maximum


def entry_role(entry: EntrySpec) -> str:
    """The slot an entry fills: officers by rank, everything else by its unit's slot."""
    rank = entry.unit.officer_rank
    if rank in SENIOR_RANKS:
        return "company_commander"
    if rank in JUNIOR_RANKS:
        return "officer"
    return entry.unit.slot


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _count(n: int) -> str:
    return f"{n:,}"


def _many(n: int, singular: str, plural: str) -> str:
    return f"{_count(n)} {singular if n == 1 else plural}"


def _names(entries: Sequence[EntrySpec]) -> str:
    return ", ".join(entry.name for entry in entries)


def _platoon_names(platoons: Sequence[PlatoonSpec]) -> str:
    return ", ".join(platoon.name for platoon in platoons)


def _kind_id(kind: str) -> str:
    return kind.replace("_", "-")


def _platoon_problems(rules: EditionRules, platoon: PlatoonSpec, entries: list[EntrySpec]) -> list[Problem]:
    table = rules.platoons.get(platoon.kind)
    kind_label = KIND_LABELS.get(platoon.kind, platoon.kind)
    if table is None:
        allowed = join_words([f"{p.label}s" for p in rules.platoons.values()], "or")
        return [
            Problem(
                f"{platoon.name}: {_article(kind_label)} {kind_label} is not a {rules.label} platoon; "
                f"{rules.label} lists use {allowed}.",
                "platoon-kind",
                platoon_key=platoon.key,
                params={
                    "platoon": platoon.name,
                    "kind": platoon.kind,
                    "kind_label": kind_label,
                    "edition": rules.edition,
                    "edition_label": rules.label,
                    "allowed": allowed,
                    "allowed_kinds": ",".join(rules.platoons),
                },
            )
        ]
    problems: list[Problem] = []
    company_exempt = rules.company_commanders_per_list is not None
    # Units in the platoon that the rules look at (a 3rd-ed Company Commander sits outside the tables).
    roles = {id(entry): entry_role(entry) for entry in entries}  # looked up once, used per slot
    counted = [e for e in entries if not (company_exempt and roles[id(e)] == "company_commander")]
    by_role: dict[str, list[EntrySpec]] = {}  # in list order, for the single-slot limits
    for entry in counted:
        by_role.setdefault(roles[id(entry)], []).append(entry)
    for entry in counted:
        role = roles[id(entry)]
        fits = any(_fills(limit, entry, role) for limit in table.limits)
        if not fits and not (table.transports and role == "transport"):
            problems.append(
                Problem(
                    f"{platoon.name}: {_article(table.label)} {table.label} has no place for {entry.name} "
                    f"({_role_label(role)}).",
                    f"{_kind_id(table.kind)}-slot",
                    entry_key=entry.key,
                    platoon_key=platoon.key,
                    params={
                        "platoon": platoon.name,
                        "kind": table.kind,
                        "kind_label": table.label,
                        "name": entry.name,
                        "role": role,
                        "role_label": _role_label(role),
                    },
                )
            )
    for limit in table.limits:
        if limit.categories:
            members = [e for e in counted if _fills(limit, e, roles[id(e)])]
        elif len(limit.slots) == 1:
            members = by_role.get(limit.slots[0], [])
        else:
            members = [e for e in counted if roles[id(e)] in limit.slots]
        minimum, maximum = _bounds(limit, counted, roles) if limit.adjustments else (limit.minimum, limit.maximum)
        rule = f"{_kind_id(table.kind)}-{limit.key}"
        if len(members) < minimum:
            wanted = limit.singular if minimum == 1 else limit.plural
            problems.append(
                Problem(
                    f"{platoon.name}: {_article(table.label)} {table.label} needs {minimum} {wanted}; "
                    f"it has {len(members)}.",
                    f"{rule}-min",
                    platoon_key=platoon.key,
                    params={
                        "platoon": platoon.name,
                        "kind": table.kind,
                        "kind_label": table.label,
                        "minimum": minimum,
                        "units": wanted,
                        "count": len(members),
                    },
                )
            )
        if maximum is not None and len(members) > maximum:
            problems.append(
                Problem(
                    f"{platoon.name}: {_article(table.label)} {table.label} allows {minimum}–{maximum} "
                    f"{limit.plural}; it has {len(members)} ({_names(members)}).",
                    f"{rule}-max",
                    platoon_key=platoon.key,
                    params={
                        "platoon": platoon.name,
                        "kind": table.kind,
                        "kind_label": table.label,
                        "minimum": minimum,
                        "maximum": maximum,
                        "units": limit.plural,
                        "count": len(members),
                        "names": _names(members),
                    },
                )
            )
    if table.transports:
        transports = [e for e in counted if roles[id(e)] == "transport"]
        carried = [e for e in entries if roles[id(e)] != "transport" and e.unit.unit_type in CARRIED_TYPES]
        if len(transports) > len(carried):
            problems.append(
                Problem(
                    f"{platoon.name}: {_article(table.label)} {table.label} allows one transport or tow per "
                    f"infantry or artillery unit ({len(carried)}); it has {len(transports)} ({_names(transports)}).",
                    f"{_kind_id(table.kind)}-transport-max",
                    platoon_key=platoon.key,
                    params={
                        "platoon": platoon.name,
                        "kind": table.kind,
                        "kind_label": table.label,
                        "carried": len(carried),
                        "count": len(transports),
                        "names": _names(transports),
                    },
                )
            )
    return problems


ROLE_LABELS = {
    "officer": "an officer",
    "company_commander": "a senior officer",
    "character": "a national character",
    "infantry": "an infantry squad",
    "medic": "a medic",
    "forward_observer": "a forward observer",
    "sniper": "a sniper",
    "machine_gun": "a machine gun",
    "light_mortar": "a light mortar",
    "mortar": "a mortar",
    "flamethrower": "a flamethrower",
    "anti_tank": "an anti-tank team",
    "anti_tank_gun": "an anti-tank gun",
    "artillery": "artillery",
    "armoured_car": "an armoured car",
    "tank": "a tank",
    "transport": "a transport",
    "other": "a unit outside the platoon slots",
}


def _role_label(role: str) -> str:
    return ROLE_LABELS.get(role, role)


def platoon_problems(spec: ListSpec) -> list[Problem]:
    """Force-organisation problems of a list; none when its force_org is "none"."""
    if spec.force_org == "none":
        return []
    if spec.force_org != "platoons":
        raise ForceOrgError(f"Unknown force organisation “{spec.force_org}”.")
    rules = edition_rules(spec.edition, spec.forces)
    platoon_keys = {platoon.key for platoon in spec.platoons}
    company_exempt = rules.company_commanders_per_list is not None
    problems: list[Problem] = []

    for entry in spec.entries:
        if entry.platoon in platoon_keys:
            continue
        if company_exempt and entry_role(entry) == "company_commander":
            continue
        problems.append(
            Problem(
                f"{entry.name} is not in a platoon; with platoon force organisation every unit belongs to one.",
                "unit-outside-platoon",
                entry_key=entry.key,
                params={"name": entry.name},
            )
        )

    for platoon in spec.platoons:
        members = [entry for entry in spec.entries if entry.platoon == platoon.key]
        problems += _platoon_problems(rules, platoon, members)

    core = rules.platoons[rules.core_kind]
    core_count = sum(1 for platoon in spec.platoons if platoon.kind == rules.core_kind)
    if core_count == 0:
        problems.append(
            Problem(
                f"A {rules.label} list needs at least one {core.label}; this list has none.",
                f"{_kind_id(rules.core_kind)}-required",
                params={
                    "edition": rules.edition,
                    "edition_label": rules.label,
                    "kind": rules.core_kind,
                    "kind_label": core.label,
                },
            )
        )
    if rules.support_limited_by_core:
        for kind in PLATOON_KINDS:
            if kind == rules.core_kind or kind not in rules.platoons:
                continue
            of_kind = [platoon for platoon in spec.platoons if platoon.kind == kind]
            if len(of_kind) > core_count:
                label = rules.platoons[kind].label
                problems.append(
                    Problem(
                        f"The list has {_many(len(of_kind), label, label + 's')} ({_platoon_names(of_kind)}); "
                        f"it may have no more {label}s than {core.label}s ({core_count}).",
                        f"{_kind_id(kind)}-max",
                        params={
                            "kind": kind,
                            "kind_label": label,
                            "count": len(of_kind),
                            "names": _platoon_names(of_kind),
                            "core_kind": rules.core_kind,
                            "core_kind_label": core.label,
                            "core_count": core_count,
                        },
                    )
                )
    if rules.company_commanders_per_list is not None:
        commanders = [entry for entry in spec.entries if entry_role(entry) == "company_commander"]
        if len(commanders) > rules.company_commanders_per_list:
            problems.append(
                Problem(
                    f"The list has {len(commanders)} Company Commanders ({_names(commanders)}); it allows "
                    f"0–{rules.company_commanders_per_list}.",
                    "company-commander-max",
                    params={
                        "count": len(commanders),
                        "names": _names(commanders),
                        "maximum": rules.company_commanders_per_list,
                    },
                )
            )
    return problems


def list_points(spec: ListSpec) -> int:
    """Total points of the entries whose points can be worked out (the others are problems elsewhere)."""
    total = 0
    for entry in spec.entries:
        try:
            total += entry_points(entry)
        except RulesError:
            continue
    return total


def tournament_problems(spec: ListSpec, points: int | None = None) -> list[Problem]:
    """Points limit, order-dice cap and platoon cap; they apply whatever the force organisation."""
    problems: list[Problem] = []
    total = list_points(spec) if points is None else points
    if total > spec.points_limit:
        problems.append(
            Problem(
                f"The list is {_count(total)} points; the limit is {_count(spec.points_limit)}.",
                "points-limit",
                params={"points": total, "limit": spec.points_limit},
            )
        )
    dice = order_dice(spec)
    if spec.max_order_dice is not None and dice > spec.max_order_dice:
        problems.append(
            Problem(
                f"The list has {_many(dice, 'order die', 'order dice')}; the limit is {spec.max_order_dice}.",
                "max-order-dice",
                params={"count": dice, "limit": spec.max_order_dice},
            )
        )
    platoons = len(spec.platoons)
    if spec.max_platoons is not None and platoons > spec.max_platoons:
        problems.append(
            Problem(
                f"The list has {_many(platoons, 'platoon', 'platoons')}; the limit is {spec.max_platoons}.",
                "max-platoons",
                params={"count": platoons, "limit": spec.max_platoons},
            )
        )
    return problems


def validate(spec: ListSpec, points: int | None = None) -> tuple[Problem, ...]:
    """Every force-organisation and tournament problem of a list, in a stable order."""
    return tuple(platoon_problems(spec) + tournament_problems(spec, points))
