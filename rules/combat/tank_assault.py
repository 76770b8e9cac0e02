"""Infantry assaulting a vehicle: exact odds, through the same damage chain as anti-tank fire (notes §11).

What the sources give [S000 (3rd-edition sheet), BR2/BS2 (2nd edition)]:

* A vehicle with a Run order cannot be assaulted; each attack hits on a 6 if the vehicle has an Advance
  order, on 4+ otherwise [S000].
* A hit rolls to damage (D6 + Pen against the damage value, a natural 1 fails). A soft-skin or an
  open-topped vehicle is destroyed if damaged [S000; BR2 Open-topped]. An enclosed armoured vehicle
  rolls on the damage results table, superficial damage only unless the attackers carry anti-tank
  weapons (AT grenades: Tank Hunters) [S000; BR2, BS2 Tank Hunters].
* Infantry without anti-tank weapons must pass an order test at -3 to assault a fully enclosed armoured
  vehicle (Tank Fear) [S000; BS2 "no Tank Fear test" for Tank Hunters].

What Muster reads itself [R] (``READINGS``, shown on the page): the Pen of the attacks was not recovered
from the sources, so the player gives it; one attack per man (BS2's Tough Tank Hunters "double their
attacks ... each soldier makes two" implies one per man in 2nd edition); a hit places no pin of its own
(only damage results pin, close quarters not being fire); no facing bonus; the vehicle does not strike
back, so the odds are of one round of attacks; the -3 of Tank Fear and the 6 / 4+ to hit, from the
3rd-edition sheet, are taken for 1st and 2nd edition as well.

Italy's Improvised AT (2nd edition) re-rolls a failed penetration roll of AT grenades: the same
re-roll distribution as for a weapon with a Pen below +3 (``penetration_counts(reroll_failed=True)``).
Japan's Banzai Charge (2nd edition) passes the Tank Fear order test of an assault on the closest visible
enemy without a roll (``tank_fear_passed``, decided by ``rules.combat.national.banzai``).

The other way round, a vehicle assaulting infantry: the infantry's morale check ``vehicle_assault_check``,
a plain morale check on 2D6 (its morale, less its pins, with an officer's bonus) [R: the reference has no
vehicle-assault rules; what failing does is the rulebook's]. Japan's Death Before Dishonour passes it for
infantry and artillery [BR2].
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from rules.combat.config import config_for
from rules.combat.context import BASE_MORALE, MAX_MODELS, MAX_PINS, QUALITIES, check_choice, check_int
from rules.combat.dice import ONE, ZERO, dense, point
from rules.combat.morale import OrderTestResult, clamp_morale, morale_check, order_test
from rules.combat.results import Dist
from rules.combat.vehicles import (
    CATEGORIES,
    ShotChain,
    VehicleCtx,
    only_superficial,
    penetration_counts,
    shot_spec,
    start_state,
    summarise,
)
from rules.errors import RulesError

VehicleKind = Literal["soft_skin", "open_topped", "enclosed"]
VehicleOrder = Literal["other", "advance", "run"]
VEHICLE_KINDS: tuple[str, ...] = ("soft_skin", "open_topped", "enclosed")
# "other": Fire, Ambush, Down, Rally or no order yet this turn.
VEHICLE_ORDERS: tuple[str, ...] = ("other", "advance", "run")
HIT_NEED = {"advance": 6, "other": 4}  # [S000]
TANK_FEAR = -3  # order test modifier [S000]
MAX_PEN = 10

Resolution = Literal["destroyed_if_damaged", "superficial_only", "damage_table"]

# Muster's readings where the sources are silent, by code; every answer carries the ones it used.
READINGS = (
    "pen_given",  # the Pen of the attacks is the player's: not recovered from the sources
    "one_attack_per_man",  # one attack per man [BS2 Tough Tank Hunters, by inference; 3rd R]
    "no_hit_pin",  # a hit places no pin; only damage results pin
    "no_facing",  # no side/rear/top Pen bonus: the Pen given is the whole bonus
    "one_round",  # the vehicle does not strike back: one round of attacks
    "vehicle_assault_check",  # a vehicle assaulting infantry: a plain morale check; failing is the book's
)
EARLY_EDITION_READINGS = ("to_hit_from_3e", "tank_fear_from_3e")  # 1st and 2nd edition only


@dataclass(frozen=True)
class TankAssaultResult:
    """The odds of one infantry assault on one vehicle.

    ``p_knocked_out``, ``p_immobilised``, ``p_pin_rout`` and ``pins`` are given that the assault goes in;
    ``p_assault`` is the chance it does (the Tank Fear test, else 1) and ``p_knocked_out_overall`` their
    product. ``categories`` is one hit's penetration result before ``resolution`` applies (a soft-skin
    or open-topped vehicle is destroyed by any damage; ``superficial_only`` turns full and massive into
    superficial).
    """

    edition: str
    attacks: int
    need_to_hit: int
    p_hit: Fraction
    pen: int
    damage_value: int
    need_to_damage: int
    p_damage: Fraction
    categories: dict[str, Fraction]
    resolution: Resolution
    reroll_failed_pen: bool
    p_knocked_out: Fraction
    p_immobilised: Fraction
    p_pin_rout: Fraction
    pins: Dist
    tank_fear: OrderTestResult | None
    p_assault: Fraction
    p_knocked_out_overall: Fraction
    readings: tuple[str, ...]
    tank_fear_passed: bool = False  # the Tank Fear test is passed without a roll (Banzai Charge)


def resolution(vehicle: str, at_weapons: bool) -> Resolution:
    """How a damaging hit is resolved [S000; BR2 Open-topped, Tank Hunters]."""
    if vehicle in ("soft_skin", "open_topped"):
        return "destroyed_if_damaged"
    return "damage_table" if at_weapons else "superficial_only"


def tank_fear_applies(vehicle: str, at_weapons: bool) -> bool:
    """Infantry without anti-tank weapons test to assault a fully enclosed armoured vehicle [S000, BS2]."""
    return vehicle == "enclosed" and not at_weapons


def tank_assault(
    edition: str,
    *,
    men: int,
    pen: int,
    damage_value: int,
    vehicle: str = "enclosed",
    vehicle_order: str = "other",
    at_weapons: bool = False,
    quality: str = "regular",
    pins: int = 0,
    officer_bonus: int = 0,
    vehicle_quality: str = "regular",
    vehicle_pins: int = 0,
    has_turret: bool = True,
    slow: bool = False,
    carries_flamer: bool = False,
    reroll_failed_pen: bool = False,
    tank_fear_passed: bool = False,
) -> TankAssaultResult:
    """``men`` infantry assault one vehicle (see the module docstring for the rules and readings).

    ``quality``, ``pins`` and ``officer_bonus`` only enter the Tank Fear order test. ``reroll_failed_pen``:
    a failed penetration roll is rolled again (Italy's Improvised AT with AT grenades, decided by
    ``rules.combat.national.improvised_at_grenades``). ``tank_fear_passed``: the Tank Fear test, if any,
    is passed without a roll (Japan's Banzai Charge at the closest visible enemy: ``national.banzai``).
    """
    cfg = config_for(edition)
    check_int("men", men, 1, MAX_MODELS)
    check_int("pen", pen, 0, MAX_PEN)
    check_int("damage_value", damage_value, 6, 12)
    check_choice("vehicle", vehicle, VEHICLE_KINDS)
    check_choice("vehicle_order", vehicle_order, VEHICLE_ORDERS)
    check_choice("quality", quality, QUALITIES)
    check_choice("vehicle_quality", vehicle_quality, QUALITIES)
    check_int("pins", pins, 0, MAX_PINS)
    check_int("vehicle_pins", vehicle_pins, 0, MAX_PINS)
    check_int("officer_bonus", officer_bonus, 0, 4)
    for name, flag in (
        ("at_weapons", at_weapons),
        ("has_turret", has_turret),
        ("slow", slow),
        ("carries_flamer", carries_flamer),
        ("reroll_failed_pen", reroll_failed_pen),
        ("tank_fear_passed", tank_fear_passed),
    ):
        if not isinstance(flag, bool):
            raise RulesError(f"{name}: expected true or false", code="not-bool", params={"field": name, "value": flag})
    if vehicle_order == "run":
        raise RulesError(
            "vehicle_order: a vehicle with a Run order cannot be assaulted",
            code="run-cannot-assault",
            params={"field": "vehicle_order"},
        )

    need = HIT_NEED[vehicle_order]
    p_hit = Fraction(7 - need, 6)
    how = resolution(vehicle, at_weapons)
    counts = penetration_counts(damage_value, pen, cfg.nat1_always_fails, reroll_failed_pen)
    total = sum(counts)
    categories = {c: Fraction(n, total) for c, n in zip(CATEGORIES, counts, strict=True)}
    p_damage = ONE - categories["none"]

    morale = BASE_MORALE[vehicle_quality]
    if how == "destroyed_if_damaged":
        # Any damaging hit destroys it: the chance that no attack of the round both hits and damages.
        p_ko = ONE - (ONE - p_hit * p_damage) ** men
        p_imm, p_rout = ZERO, ZERO
        pins_pmf = point(0)
    else:
        ctx = VehicleCtx(
            dv=damage_value, morale=morale, has_turret=has_turret, slow=slow, carries_flamer=carries_flamer
        )
        # A hit places no pin of its own (only its damage results do) and makes one pen roll.
        spec = shot_spec(
            ctx,
            p_hit,
            pen,
            result_mod=1 if carries_flamer else 0,  # the vehicle carries flamethrowers [BS2, JK3, BTB]
            hit_pins=point(0),
            reroll_failed_pen=reroll_failed_pen,
        )
        if how == "superficial_only":
            spec = replace(spec, superficial_only=True)
            categories = {
                c: Fraction(n, total)
                for c, n in zip(CATEGORIES, only_superficial(counts), strict=True)
                if c in ("none", "superficial")
            } | {"full": ZERO, "massive": ZERO}
        chain = ShotChain(cfg, ctx, spec, start_state(ctx, vehicle_pins))
        for _ in range(men):
            chain.step()
        summary = summarise(cfg, ctx, chain.pmf(), vehicle_pins)
        p_ko, p_imm, p_rout, pins_pmf = (
            summary.p_knocked_out,
            summary.p_immobilised,
            summary.p_pin_rout,
            summary.pins_added,
        )

    fear = None
    p_assault = ONE
    if tank_fear_applies(vehicle, at_weapons):
        # Taken whatever the unit's pins: the assault is an order given to infantry facing a tank.
        fear = order_test(cfg, BASE_MORALE[quality], officer_bonus, pins, TANK_FEAR)
        p_assault = ONE if tank_fear_passed else fear.p_pass
    readings = READINGS + (EARLY_EDITION_READINGS if cfg.edition in ("1e", "2e") else ())
    if fear is None:
        readings = tuple(r for r in readings if r != "tank_fear_from_3e")
    mean = sum((k * p for k, p in pins_pmf.items()), ZERO)
    return TankAssaultResult(
        edition=cfg.edition,
        attacks=men,
        need_to_hit=need,
        p_hit=p_hit,
        pen=pen,
        damage_value=damage_value,
        need_to_damage=damage_value - pen,
        p_damage=p_damage,
        categories=categories,
        resolution=how,
        reroll_failed_pen=reroll_failed_pen,
        p_knocked_out=p_ko,
        p_immobilised=p_imm,
        p_pin_rout=p_rout,
        pins=Dist(dense(pins_pmf), mean),
        tank_fear=fear,
        p_assault=p_assault,
        p_knocked_out_overall=p_assault * p_ko,
        readings=readings,
        tank_fear_passed=fear is not None and tank_fear_passed,
    )


def vehicle_assault_check(
    edition: str, *, quality: str = "regular", pins: int = 0, officer_bonus: int = 0, auto_pass: bool = False
) -> tuple[int, Fraction]:
    """A vehicle assaults the infantry unit: (the morale it checks against, the chance it passes) [R].

    Muster reads it as a plain morale check, 2D6 at most its morale less its pins plus an officer's bonus
    (``morale.morale_check``, no FUBAR); what a failed check does is in the rulebook. ``auto_pass``:
    Japan's Death Before Dishonour passes it for infantry and artillery [BR2]."""
    cfg = config_for(edition)
    check_choice("quality", quality, QUALITIES)
    check_int("pins", pins, 0, MAX_PINS)
    check_int("officer_bonus", officer_bonus, 0, 4)
    morale = clamp_morale(cfg, BASE_MORALE[quality] + officer_bonus - pins)
    p = morale_check(cfg, BASE_MORALE[quality], officer_bonus, pins)
    return morale, ONE if auto_pass else p
