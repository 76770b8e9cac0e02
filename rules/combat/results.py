"""What ``rules.combat.api`` returns: frozen dataclasses of exact ``Fraction``s.

The views read their attributes; the JSON API turns them into its documented JSON shape with
``to_json`` at the edge (field names become keys, Fractions reduced strings, PMF keys strings).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

PMF = dict[int, Fraction]


@dataclass(frozen=True)
class Dist:
    """A count's distribution (zero entries filled from 0 for charts, unless noted) and its mean."""

    pmf: PMF
    mean: Fraction


@dataclass(frozen=True)
class Roll:
    """A roll's required score, its signed labelled modifiers and its chance."""

    need: int
    modifiers: tuple[tuple[str, int], ...]
    p: Fraction


@dataclass(frozen=True)
class PenRoll(Roll):
    """The anti-tank calculator's roll to penetrate, with the total Pen it rolls with."""

    pen_total: int = 0


@dataclass(frozen=True)
class Save:
    need: int
    p: Fraction


@dataclass(frozen=True)
class GroupInfo:
    """One shot group as resolved: the weapon (slug), kind ("kinetic", "he", "flamer"), the dice it
    rolls (sparse PMF), indirect fire, and the models under each HE template (men only, else None)."""

    weapon: str
    kind: str
    dice: Dist
    indirect: bool
    template: int | None


@dataclass(frozen=True)
class MoraleOutcome:
    p_check: Fraction
    p_destroyed_by_check: Fraction
    p_wiped_out: Fraction
    p_pin_rout: Fraction
    p_destroyed: Fraction


@dataclass(frozen=True)
class VehicleOutcome:
    p_knocked_out: Fraction
    p_immobilised: Fraction
    p_pin_rout: Fraction
    categories: dict[str, Fraction]
    categories_per_hit: tuple[dict[str, Fraction], ...]
    pen_total: tuple[int, ...]
    pins: PMF


@dataclass(frozen=True)
class Unverified:
    """An inferred rule the answer depends on, and by how much it could move the headline figure:
    ``swing`` is the largest change it could make to ``figure`` (a probability), None when unknown."""

    switch: str
    figure: str = ""
    swing: Fraction | None = None


@dataclass(frozen=True)
class ShootingResult:
    edition: str
    target_kind: str
    groups: tuple[GroupInfo, ...]
    need_to_hit: tuple[Roll, ...]
    need_to_damage: tuple[Roll, ...]
    save: tuple[Save | None, ...] | None
    p_pin: Fraction
    pins: Dist
    hits: Dist
    casualties: Dist
    p_exceptional: Fraction | None
    morale: MoraleOutcome | None
    vehicle: VehicleOutcome | None
    p_destroyed: Fraction | None
    firer_pins_added: int
    unverified: tuple[str, ...]
    unverified_detail: tuple[Unverified, ...] = ()


@dataclass(frozen=True)
class ShotStep:
    shot: int
    p_knocked_out: Fraction
    p_immobilised: Fraction


@dataclass(frozen=True)
class AntiTankResult:
    edition: str
    need_to_hit: Roll
    need_to_damage: PenRoll
    p_hit: Fraction
    categories: dict[str, Fraction]
    by_shot: tuple[ShotStep, ...]
    p_knocked_out: Fraction
    p_immobilised: Fraction
    p_pin_rout: Fraction
    pins: Dist
    unverified: tuple[str, ...]
    unverified_detail: tuple[Unverified, ...] = ()


@dataclass(frozen=True)
class OrderTestOdds:
    edition: str
    morale: int
    test_needed: bool
    p_pass: Fraction
    p_fail: Fraction
    p_fubar: Fraction
    p_fail_not_fubar: Fraction
    p_fubar_friendly_fire: Fraction
    p_fubar_panic: Fraction
    p_double_one: Fraction | None
    unverified: tuple[str, ...]
    unverified_detail: tuple[Unverified, ...] = ()
    p_man_removed: Fraction | None = None  # a man lost to re-take a failed test (Not One Step Back!)


@dataclass(frozen=True)
class ReactionOdds:
    """The defenders' reaction fire before the assault: its rolls, the attackers' casualties, and the
    chance it wipes them out, forces their morale check, breaks them (a failed check, or pins reaching
    their morale) or lets the assault go in."""

    shots: int
    need_to_hit: Roll
    need_to_damage: Roll
    casualties: Dist
    p_pin: Fraction
    p_wiped_out: Fraction
    p_check: Fraction
    p_broken: Fraction
    p_assault: Fraction


@dataclass(frozen=True)
class CloseQuartersOdds:
    edition: str
    p_attacker_wins: Fraction
    p_defender_wins: Fraction
    p_both_destroyed: Fraction
    expected_rounds: Fraction
    first_round: str
    attacker_dice: dict[int, int]
    defender_dice: dict[int, int]
    unverified: tuple[str, ...]
    unverified_detail: tuple[Unverified, ...] = ()
    # The reaction fire, when the defenders reacted (None: no reaction step).
    reaction: ReactionOdds | None = None
    # The slug of the national rule that forbade the reaction asked for (Blood Curdling Charge), else "".
    no_reaction: str = ""


@dataclass(frozen=True)
class OrderDiceOdds:
    p_next: Fraction
    p_at_least_one: Fraction
    own_dice: PMF


@dataclass(frozen=True)
class RangingOdds:
    edition: str
    need_by_turn: tuple[int, ...]
    p_by_turn: tuple[Fraction, ...]
    p_first_hit_by_turn: tuple[Fraction, ...]


# Fields the engine keeps for the pages but the JSON API does not document (its shape stays as it was).
_INTERNAL = {"unverified_detail"}


def to_json(obj: Any) -> Any:
    """A result as JSON-ready data: dataclasses become objects (their fields, in order), Fractions
    reduced strings ("7/12", "0", "1"), mapping keys strings, tuples lists."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_json(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.name not in _INTERNAL}
    if isinstance(obj, Fraction):
        return str(obj)
    if isinstance(obj, Mapping):
        return {str(k): to_json(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [to_json(v) for v in obj]
    return obj


# --- how far an answer moves --------------------------------------------------------------------


def _tv(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Fraction:
    """Total variation distance: the most any event about the count can change in probability."""
    return sum((abs(a.get(k, Fraction(0)) - b.get(k, Fraction(0))) for k in set(a) | set(b)), Fraction(0)) / 2


def headline(result: Any) -> dict[str, Fraction | Mapping[int, Fraction]]:
    """The figures a page leads with, as probabilities or distributions, by name."""
    if isinstance(result, ShootingResult):
        out: dict[str, Fraction | Mapping[int, Fraction]] = {
            "casualties": result.casualties.pmf,
            "pins": result.pins.pmf,
            "hits": result.hits.pmf,
        }
        if result.morale is not None:
            out["p_destroyed"] = result.morale.p_destroyed
            out["p_check"] = result.morale.p_check
        if result.vehicle is not None:
            out["p_knocked_out"] = result.vehicle.p_knocked_out
            out["p_immobilised"] = result.vehicle.p_immobilised
            out["p_pin_rout"] = result.vehicle.p_pin_rout
        if result.target_kind == "artillery":
            # Exceptional damage from a heavy weapon takes the gun, and with it the unit (notes §5).
            out["p_exceptional"] = result.p_exceptional or Fraction(0)
        return out
    if isinstance(result, AntiTankResult):
        return {
            "p_knocked_out": result.p_knocked_out,
            "p_immobilised": result.p_immobilised,
            "p_pin_rout": result.p_pin_rout,
            "pins": result.pins.pmf,
        }
    if isinstance(result, OrderTestOdds):
        return {"p_pass": result.p_pass}
    if isinstance(result, CloseQuartersOdds):
        out = {"outcome": {0: result.p_attacker_wins, 1: result.p_defender_wins, 2: result.p_both_destroyed}}
        if result.reaction is not None:
            out["p_assault"] = result.reaction.p_assault
        return out
    return {}


def largest_change(before: Any, after: Any) -> tuple[Fraction, str]:
    """The largest move of any headline figure between two answers, and that figure's name."""
    a, b = headline(before), headline(after)
    best = (Fraction(0), "")
    for name, x in a.items():
        y = b.get(name, Fraction(0) if isinstance(x, Fraction) else {})
        if isinstance(x, Fraction) and isinstance(y, Fraction):
            move = abs(x - y)
        else:
            move = _tv(x if isinstance(x, Mapping) else {}, y if isinstance(y, Mapping) else {})
        if move > best[0]:
            best = (move, name)
    return best
