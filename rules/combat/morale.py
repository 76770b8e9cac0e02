"""Order tests, morale checks and the morale check that follows heavy casualties (spec §2.7).

Both tests roll 2D6 and pass on a total at or under the modified morale, clamped to
[morale_min, morale_cap] after all modifiers [S004; WLF for the 3e cap of 11].
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.combat.config import RulesConfig
from rules.combat.context import TargetCtx
from rules.combat.dice import ONE, ZERO, two_d6_at_most
from rules.combat.volley import VolleyResult

FUBAR = Fraction(1, 36)  # a double six on an order test [S002, S004]
DOUBLE_ONE = Fraction(1, 36)


def clamp_morale(cfg: RulesConfig, value: int) -> int:
    """Clamp a modified morale value to the edition's [min, cap]."""
    return min(max(value, cfg.morale_min), cfg.morale_cap)


def pin_penalty(pins: int, *, shirkers: bool = False) -> int:
    """Morale lost to pins: one per pin, two for Shirkers [BS2, JK3]."""
    return pins * (2 if shirkers else 1)


@dataclass(frozen=True)
class OrderTestResult:
    """An order test at the clamped morale ``morale``. ``p_fail`` includes FUBAR, so p_pass + p_fail = 1."""

    morale: int
    test_needed: bool
    p_pass: Fraction
    p_fail: Fraction
    p_fubar: Fraction
    p_fail_not_fubar: Fraction
    p_fubar_friendly_fire: Fraction
    p_fubar_panic: Fraction
    p_double_one: Fraction | None


def order_test(
    cfg: RulesConfig, base_morale: int, officer_bonus: int, pins: int, other: int = 0, *, shirkers: bool = False
) -> OrderTestResult:
    """Odds of an order test (§2.7).

    A double six is a FUBAR, always a failure because the cap is at most 11; the FUBAR chart gives
    friendly fire on 1-2 and panic on 3-6 [REF1, S002, S000]. 2e also names the double one
    ("Incredible Courage" [PS2]). A test is only needed with at least one pin (or Shirkers) [S004].
    """
    m = clamp_morale(cfg, base_morale + officer_bonus + other - pin_penalty(pins, shirkers=shirkers))
    p_pass = two_d6_at_most(m)
    ff = Fraction(cfg.fubar_friendly_fire_faces, 6)
    return OrderTestResult(
        morale=m,
        test_needed=pins > 0 or shirkers,
        p_pass=p_pass,
        p_fail=ONE - p_pass,
        p_fubar=FUBAR,
        p_fail_not_fubar=ONE - p_pass - FUBAR,
        p_fubar_friendly_fire=FUBAR * ff,
        p_fubar_panic=FUBAR * (ONE - ff),
        p_double_one=DOUBLE_ONE if cfg.double_one_courage else None,
    )


def morale_check(
    cfg: RulesConfig,
    base_morale: int,
    officer_bonus: int,
    pins: int,
    stubborn: bool = False,
    fanatic_men: int = 0,
    other: int = 0,
) -> Fraction:
    """P(pass) of a morale check (no FUBAR). Stubborn units, and Fanatics with two or more men, ignore
    pins on morale checks [BS2, JK3]."""
    ignore_pins = stubborn or fanatic_men >= 2
    m = clamp_morale(cfg, base_morale + officer_bonus + other - (0 if ignore_pins else pins))
    return two_d6_at_most(m)


def check_triggered(cfg: RulesConfig, casualties: int, models: int, starting: int) -> bool:
    """Does a shooting attack force a morale check? (§12 trigger [R])

    ``half_of_starting``: at least one casualty leaves the unit (not wiped out) at or under half its
    starting strength. ``half_of_current``: the attack kills half or more of the models it had.
    """
    if casualties < 1 or casualties >= models:
        return False
    if cfg.morale_check_trigger == "half_of_current":
        return 2 * casualties >= models
    return 2 * (models - casualties) <= starting


def pins_that_matter(cfg: RulesConfig, target: TargetCtx) -> int:
    """Pins an attack may add beyond which ``shooting_with_morale`` gives the same answer.

    With ``pin_rout`` a unit whose pins reach its morale is destroyed whatever else happens; without
    it, a check taken with more pins than morale above the floor is still taken at the floor (a
    Stubborn unit ignores pins altogether). The joint outcome can then fold larger counts onto this
    one (``combine_results``' ``pin_cap``) and stay small.
    """
    if cfg.pin_rout:
        saturated = target.base_morale
    elif target.stubborn:
        saturated = 0
    else:
        saturated = target.base_morale + target.officer_bonus + target.morale_modifier - cfg.morale_min
    return max(saturated - target.pins, 0)


@dataclass(frozen=True)
class MoraleAfterShooting:
    """What happens to the target after one attack."""

    p_check: Fraction  # a morale check is taken
    p_destroyed_by_check: Fraction
    p_wiped_out: Fraction
    p_pin_rout: Fraction  # pins reach the unmodified morale [S004, DOL]
    p_destroyed: Fraction


def shooting_with_morale(cfg: RulesConfig, volley: VolleyResult, target: TargetCtx) -> MoraleAfterShooting:
    """P(the target is destroyed) by the attack and its aftermath (§2.7).

    Uses the joint (casualties, pins, forced) outcome: the check is taken with the pins the attack left
    (HE and flamethrower pins vary, so T is mixed over them); a flamethrower hit forces the check
    whatever the casualties. A unit whose pins reach its unmodified morale is destroyed first.
    """
    m = target.models
    p_check = p_fail = p_wiped = p_rout = ZERO
    for (c, pins, forced), p in volley.outcome.items():
        if c >= m:
            p_wiped += p
            continue
        pins_now = target.pins + pins
        fanatic_men = m - c if target.fanatic else 0
        if cfg.pin_rout and pins_now >= target.base_morale and fanatic_men < 2:
            p_rout += p
            continue
        if forced or check_triggered(cfg, c, m, target.start):
            p_check += p
            passed = morale_check(
                cfg,
                target.base_morale,
                target.officer_bonus,
                pins_now,
                target.stubborn,
                fanatic_men,
                target.morale_modifier,
            )
            fail = ONE - passed
            if target.reroll_failed_morale:  # the re-roll fails too: the same test, taken twice
                fail *= fail
            p_fail += p * fail
    return MoraleAfterShooting(
        p_check=p_check,
        p_destroyed_by_check=p_fail,
        p_wiped_out=p_wiped,
        p_pin_rout=p_rout,
        p_destroyed=p_wiped + p_rout + p_fail,
    )
