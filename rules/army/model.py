"""Plain data the army-list rules work on.

The Django side builds these from its models (``ArmyList.to_rules()``); the rules never see a
model instance. Qualities, unit types, slots and officer ranks are plain strings so fixtures,
importers and the JSON format can use them directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

QUALITIES = ("inexperienced", "regular", "veteran")

# 2nd edition: "reinforced_platoon". 3rd edition: "rifle_platoon" plus the support platoons.
PLATOON_KINDS = (
    "reinforced_platoon",
    "rifle_platoon",
    "heavy_weapons_platoon",
    "artillery_platoon",
    "armoured_platoon",
    "recce_platoon",
    "engineer_platoon",
)


@dataclass(frozen=True)
class OptionSpec:
    key: str
    name: str
    per_model: bool
    cost: Mapping[str, int]  # quality -> points (each, for per-model options)
    max_count: int | None = None  # None: one per model for per-model options, 1 otherwise
    group: str = ""  # options sharing a group are mutually exclusive (e.g. an LMG or an SMG)
    all_models: bool = False  # whole unit or none: taken once, priced per model
    excludes: tuple[str, ...] = ()  # keys of the unit's options this one cannot be taken with (both ways)
    adds_models: int = 0  # a team inside the unit: each one taken adds this many models
    within_size: bool = False  # ... who take places within the unit's max_models, not on top
    free_unit: bool = False  # taking it makes the whole unit cost 0 ...
    free_per_list: int | None = None  # ... for at most this many units of a list (None: no limit)


@dataclass(frozen=True)
class OptionGroupSpec:
    """Options sharing one limit: between ``minimum`` and ``maximum`` choices in all (counts add up).

    ``per_model``: ``maximum`` is per model of the unit. A group key that no ``OptionGroupSpec``
    describes keeps the older meaning: its options exclude each other.
    """

    key: str
    label: str
    minimum: int = 0
    maximum: int | None = None
    per_model: bool = False


@dataclass(frozen=True)
class UnitSpec:
    key: str
    name: str
    unit_type: str
    slot: str
    base_cost: Mapping[str, int]  # offered qualities -> cost of the unit at base_models
    per_model_cost: Mapping[str, int]  # quality -> cost of each model beyond base_models
    base_models: int
    max_models: int
    officer_rank: str | None = None
    options: tuple[OptionSpec, ...] = ()
    transport_capacity: int | None = None
    damage_value: int | None = None
    categories: tuple[str, ...] = ()  # imported units: the source data's category ids
    option_groups: tuple[OptionGroupSpec, ...] = ()
    order_dice: int = 1  # dice the unit puts in the bag (an attachment some data lists gives none)


@dataclass(frozen=True)
class EntrySpec:
    key: str
    name: str
    unit: UnitSpec
    quality: str
    models: int
    options: Mapping[str, int] = field(default_factory=dict)  # option key -> count taken
    platoon: str | None = None  # PlatoonSpec.key

    @property
    def total_models(self) -> int:
        """The unit's own models plus those its teams add (see ``total_models``)."""
        return total_models(self.models, {option.key: option.adds_models for option in self.unit.options}, self.options)


def total_models(models: int, adds_models: Mapping[str, int], chosen: Mapping[str, object]) -> int:
    """Every model of an entry: its own ``models`` plus, for each team option taken, the models it adds.

    ``adds_models`` maps option keys to ``OptionSpec.adds_models``; ``chosen`` is the entry's
    options (key -> count). A squad of 8 with one LMG team of 2 has 10 models: half strength,
    casualties, cards and game day all count them. The one place this sum is made: the Django
    ``Entry.total_models`` and ``EntrySpec.total_models`` both call it.
    """
    added = 0
    for key, count in chosen.items():
        per_one = adds_models.get(key, 0)
        if per_one and isinstance(count, int) and count > 0:
            added += int(count) * per_one
    return models + added


@dataclass(frozen=True)
class PlatoonSpec:
    key: str
    kind: str
    name: str


@dataclass(frozen=True)
class LimitAdjustment:
    """A platoon limit that moves with what else the platoon holds (imported force organisation).

    When the platoon holds ``comparison`` ``threshold`` units of ``category`` (a category id of
    the data, or a slot), the limit's ``bound`` ("min" or "max") is ``set`` to, ``increment``-ed or
    ``decrement``-ed by ``value``. With ``comparison`` "per" the change applies once for every
    ``threshold`` units held.
    """

    bound: str
    type: str
    value: int
    category: str
    comparison: str
    threshold: int


@dataclass(frozen=True)
class ForceLimitSpec:
    """Between ``minimum`` and ``maximum`` units of one of ``categories`` (or, for units without
    categories, of one of ``slots``)."""

    key: str
    label: str
    categories: tuple[str, ...]
    slots: tuple[str, ...]
    minimum: int = 0
    maximum: int | None = None
    adjustments: tuple[LimitAdjustment, ...] = ()


@dataclass(frozen=True)
class ForceEntrySpec:
    """A platoon kind as imported data defines it; it replaces the built-in table of ``kind``."""

    kind: str
    label: str
    limits: tuple[ForceLimitSpec, ...]
    source: str = ""


@dataclass(frozen=True)
class ListSpec:
    edition: str  # "v1", "v2", "v3"
    force_org: str  # "platoons" or "none"
    points_limit: int
    entries: tuple[EntrySpec, ...]
    platoons: tuple[PlatoonSpec, ...] = ()
    max_order_dice: int | None = None
    max_platoons: int | None = None
    forces: tuple[ForceEntrySpec, ...] = ()  # the army's imported platoon tables, if any


@dataclass(frozen=True)
class Problem:
    message: str  # a full sentence naming the unit and the rule
    rule: str  # machine-readable rule id, e.g. "reinforced-platoon-infantry"
    entry_key: str | None = None
    platoon_key: str | None = None
    # The values ``message`` interpolates (names, counts, limits, rule keys), so a front end can
    # rebuild the sentence in another language. Left out of equality and hashing.
    params: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class OfficerEffect:
    entry_key: str
    name: str
    rank: str
    rank_label: str
    morale_bonus: int
    extra_orders: int
    command_range: int  # inches
    platoon_key: str | None = None
    platoon_name: str | None = None
    unverified: bool = False  # 3rd edition's bonus is flagged in rules-notes (+2 vs +1)


@dataclass(frozen=True)
class ListSummary:
    points: int
    points_limit: int
    entry_points: Mapping[str, int]
    order_dice: int
    officers: tuple[OfficerEffect, ...]
    problems: tuple[Problem, ...]
