"""The firer and target descriptions shared by the to-hit, damage and volley modules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.errors import RulesError

Quality = Literal["inexperienced", "regular", "veteran"]
TargetKind = Literal["infantry", "artillery", "soft_skin", "armoured"]
Cover = Literal["none", "soft", "hard"]
Facing = Literal["front", "side", "rear", "top"]
Band = Literal["point_blank", "normal", "long"]
Order = Literal["fire", "advance"]

# Damage value of infantry/artillery and base morale by quality are the same in all three editions
# [S000, S001, S002, S004].
DAMAGE_VALUE = {"inexperienced": 3, "regular": 4, "veteran": 5}
BASE_MORALE = {"inexperienced": 8, "regular": 9, "veteran": 10}
SOFT_SKIN_DV = 6  # [S004, S002, WLV]

QUALITIES = tuple(DAMAGE_VALUE)
KINDS = ("infantry", "artillery", "soft_skin", "armoured")
COVERS = ("none", "soft", "hard")
FACINGS = ("front", "side", "rear", "top")
BANDS = ("point_blank", "normal", "long")
POINT_BLANK_RANGE = 6  # inches; point blank is within this in every edition [S004, S002, S000]
ORDERS = ("fire", "advance")
AMMO = ("auto", "ap", "he")  # the shell a gun with both loads; "auto": HE at men, AP at vehicles
MAX_MODELS = 50  # models a side: far above any Bolt Action unit, and keeps every answer fast
MAX_PINS = 30


def check_choice(field: str, value: object, choices: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise RulesError naming ``field``."""
    if value not in choices:
        raise RulesError(
            f"{field}: unknown value {value!r} (expected one of {', '.join(choices)})",
            code="unknown-value",
            params={"field": field, "value": value, "choices": ", ".join(choices)},
        )
    return str(value)


def check_int(field: str, value: object, lo: int, hi: int) -> int:
    """Return ``value`` if it is an int in [lo, hi], else raise RulesError naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(
            f"{field}: expected a whole number, got {value!r}",
            code="not-int",
            params={"field": field, "value": value},
        )
    if value < lo:
        raise RulesError(
            f"{field}: must be at least {lo}, got {value}",
            code="too-small",
            params={"field": field, "minimum": lo, "value": value},
        )
    if value > hi:
        raise RulesError(
            f"{field}: must be at most {hi}, got {value}",
            code="too-large",
            params={"field": field, "maximum": hi, "value": value},
        )
    return value


@dataclass(frozen=True)
class ShooterCtx:
    """The firing unit: its quality, pins and order, plus the few unit rules that touch the to-hit roll."""

    quality: Quality = "regular"
    pins: int = 0
    order: Order = "fire"
    short_crew: bool = False  # team weapon down to one crew or loader away [S004, S002, JK3]
    anti_tank_gun: bool = False  # the 3e Anti-tank Gun rule [JK3]
    # The firing unit is a vehicle. The weapon charts give "Team, Fixed" to the crewed gun a towed
    # unit fields [S000, S001, S002], and a tank's gun of that class shares the row; mounted on a
    # vehicle it is neither a team weapon nor held by Fixed, so it fires on an Advance order at the -1
    # every edition gives for moving (notes §1), or without it where a national rule says so [R].
    vehicle: bool = False
    # A national rule lets this weapon fire on the move without the -1 (``rules.combat.national``).
    steady_on_move: bool = False
    # A national rule makes the unit's small-arms fire pin D2 rather than one (Large Squads).
    d2_pins: bool = False

    def __post_init__(self) -> None:
        check_choice("firer_quality", self.quality, QUALITIES)
        check_int("firer_pins", self.pins, 0, MAX_PINS)
        check_choice("order", self.order, ORDERS)


@dataclass(frozen=True)
class TargetCtx:
    """The target unit.

    ``quality`` gives infantry/artillery their damage value and every unit (vehicle crews included) its
    base morale. ``damage_value`` is required for armoured vehicles and defaults to 6 for soft-skins.
    """

    kind: TargetKind = "infantry"
    quality: Quality = "regular"
    models: int = 10
    cover: Cover = "none"
    down: bool = False
    damage_value: int | None = None
    facing: Facing = "front"
    gun_shield: bool = False
    in_building: bool = False
    pins: int = 0
    starting_models: int | None = None
    officer_bonus: int = 0
    morale_modifier: int = 0
    stubborn: bool = False
    open_topped: bool = False
    has_turret: bool = True
    slow: bool = False
    carries_flamer: bool = False
    # A national rule re-takes a failed morale check that would destroy the unit (``rules.combat.national``).
    reroll_failed_morale: bool = False
    # Fanatics: with two or more men left, pins neither rout the unit nor count on its morale checks [BS2, JK3].
    fanatic: bool = False

    def __post_init__(self) -> None:
        check_choice("target.kind", self.kind, KINDS)
        check_choice("target.quality", self.quality, QUALITIES)
        check_int("target.models", self.models, 1, MAX_MODELS)
        check_choice("target.cover", self.cover, COVERS)
        check_choice("target.facing", self.facing, FACINGS)
        check_int("target.pins", self.pins, 0, MAX_PINS)
        check_int("target.officer_bonus", self.officer_bonus, 0, 4)
        check_int("target.morale_modifier", self.morale_modifier, -10, 10)
        if self.starting_models is not None:
            check_int("target.starting_models", self.starting_models, self.models, MAX_MODELS)
        if self.kind == "armoured":
            if self.damage_value is None:
                raise RulesError(
                    "target.damage_value: required for an armoured target (7 to 11)",
                    code="armour-required",
                    params={"field": "target.damage_value"},
                )
            check_int("target.damage_value", self.damage_value, 6, 12)
        elif self.damage_value is not None:
            check_int("target.damage_value", self.damage_value, 2, 12)

    @property
    def is_vehicle(self) -> bool:
        return self.kind in ("soft_skin", "armoured")

    @property
    def dv(self) -> int:
        """The damage value rolled against (before gun shields, buildings and Pen)."""
        if self.damage_value is not None:
            return self.damage_value
        if self.kind == "soft_skin":
            return SOFT_SKIN_DV
        return DAMAGE_VALUE[self.quality]

    @property
    def base_morale(self) -> int:
        return BASE_MORALE[self.quality]

    @property
    def start(self) -> int:
        """Starting strength for the 50% morale-check trigger (defaults to the current models)."""
        return self.starting_models if self.starting_models is not None else self.models
