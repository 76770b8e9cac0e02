"""Armoured vehicles: penetration categories, the damage tables and a state carried across shots (§2.6).

The state records what later results depend on: knocked out, immobilised (a second immobilisation
knocks out [S002]), pins (On Fire tests morale after that result's pin [S002, S000]) and, for the 3e
superficial table, steering hits, engine damage and a jammed turret [S000]. Several shots are resolved
by pushing the whole state distribution through each shot in turn rather than multiplying KO chances;
knocked-out and routed vehicles (pins at or above the unmodified morale) are absorbing, so the number of
live states stays small however many dice are rolled (see ``ShotChain``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from rules.combat.config import RulesConfig
from rules.combat.dice import ONE, PMF, ZERO, point

CATEGORIES = ("none", "superficial", "full", "massive")

StatePMF = dict["VehicleState", Fraction]


@dataclass(frozen=True)
class VehicleCtx:
    """The target vehicle: damage value, crew morale and the traits that change its damage results."""

    dv: int
    morale: int = 9
    open_topped: bool = False
    has_turret: bool = True
    slow: bool = False
    carries_flamer: bool = False


class VehicleState(NamedTuple):
    """What a vehicle carries from one damage result to the next. ``pins`` is its total pin count.

    A NamedTuple rather than a dataclass: states are hashed thousands of times per shot.
    """

    ko: bool = False
    immobilised: bool = False
    pins: int = 0
    steering: int = 0
    slow: bool = False
    engine_crippled: bool = False
    turret_jammed: bool = False
    # The firing unit has placed its one pin for hitting [S004, DOL, BS2]: later hits of the same
    # attack add none (only their damage results pin). Reset for every attack by ``start_state``.
    unit_pinned: bool = False


def start_state(vehicle: VehicleCtx, pins: int = 0) -> StatePMF:
    """A certain starting state: undamaged, with ``pins`` pins."""
    return {VehicleState(pins=pins, slow=vehicle.slow): ONE}


def _ko(state: VehicleState) -> VehicleState:
    # Knocked-out states only keep their pins, so equal wrecks merge.
    return VehicleState(ko=True, pins=state.pins)


def _bump(out: dict[VehicleState, int], state: VehicleState, w: int) -> None:
    if w:
        out[state] = out.get(state, 0) + w


def _fractions(weights: Mapping[VehicleState, int], den: int) -> StatePMF:
    return {s: Fraction(w, den) for s, w in weights.items() if w}


def penetration_counts(
    dv: int, pen_total: int, nat1_always_fails: bool = True, reroll_failed: bool = False
) -> tuple[int, int, int, int]:
    """Pen-die faces (out of 6) giving none, superficial, full and massive damage.

    t = d + Pen total against the DV: t < DV none; t = DV superficial; DV < t <= DV+2 full; t >= DV+3
    massive [S002, S000]. A natural 1 always fails [PS2, S000].

    ``reroll_failed``: a failed roll (no damage) is rolled again once (Italy's Improvised AT), so the
    counts are out of 36: a category keeps its faces x 6 from the first roll, plus faces x (failed
    faces) from the re-roll; failing needs both rolls to fail.
    """
    if reroll_failed:
        once = penetration_counts(dv, pen_total, nat1_always_fails)
        miss = once[0]
        return (miss * miss, once[1] * (6 + miss), once[2] * (6 + miss), once[3] * (6 + miss))
    counts = [0, 0, 0, 0]
    for d in range(1, 7):
        t = d + pen_total
        if (d == 1 and nat1_always_fails) or t < dv:
            counts[0] += 1
        elif t == dv:
            counts[1] += 1
        elif t <= dv + 2:
            counts[2] += 1
        else:
            counts[3] += 1
    return counts[0], counts[1], counts[2], counts[3]


def only_superficial(counts: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Pen-die counts with every damaging face turned into a superficial result (the faces keep their sum)."""
    return counts[0], counts[1] + counts[2] + counts[3], 0, 0


def penetration_categories(
    dv: int, pen_total: int, nat1_always_fails: bool = True, reroll_failed: bool = False
) -> dict[str, Fraction]:
    """Probability of each damage category for one hit (§2.6), as (faces)/6 (/36 with a re-roll)."""
    counts = penetration_counts(dv, pen_total, nat1_always_fails, reroll_failed)
    return {k: Fraction(v, sum(counts)) for k, v in zip(CATEGORIES, counts, strict=True)}


def can_damage(dv: int, pen_total: int) -> bool:
    """True when some pen die can reach the DV; only such weapons pin an enclosed vehicle [BS2]."""
    return 6 + pen_total >= dv


# The state machine runs on integer weights: a table result is over 36 (an On Fire 2D6 test may
# follow), one table roll is over 6 x 36 = 216, and a whole hit is over 6 (pen die) x 216^massive_rolls.
# Fractions are only built when a shot's distribution is handed back.
_TEST = 36
_ROLL = 6 * _TEST


# Ways out of 36 for 2D6 to roll at most m, for m = 0..12 (read for every state a test touches).
_WAYS_AT_MOST = tuple(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= m) for m in range(13))


def _passes(cfg: RulesConfig, vehicle: VehicleCtx, pins: int) -> int:
    """Ways out of 36 to pass a vehicle morale test with ``pins``: 2D6 <= clamp(morale - pins) (§2.7)."""
    m = min(max(vehicle.morale - pins, cfg.morale_min), cfg.morale_cap)
    return _WAYS_AT_MOST[min(max(m, 0), 12)]


def _on_fire(cfg: RulesConfig, vehicle: VehicleCtx, state: VehicleState) -> dict[VehicleState, int]:
    # The On Fire pin comes first, then the morale check: fail = knocked out [S002, S000].
    pinned = state._replace(pins=state.pins + 1)
    ways = _passes(cfg, vehicle, pinned.pins)
    out: dict[VehicleState, int] = {}
    _bump(out, pinned, ways)
    _bump(out, _ko(pinned), _TEST - ways)
    return out


def _immobilise(state: VehicleState) -> dict[VehicleState, int]:
    pinned = state._replace(pins=state.pins + 1)
    if state.immobilised:
        return {_ko(pinned): _TEST}  # a second Immobilised result knocks out [S002, S000]
    return {pinned._replace(immobilised=True): _TEST}


def _full(cfg: RulesConfig, vehicle: VehicleCtx, state: VehicleState, r: int) -> dict[VehicleState, int]:
    if r <= 0:
        return {state: _TEST}
    if r == 1:
        return {state._replace(pins=state.pins + 1): _TEST}
    if r == 2:
        return _immobilise(state)
    if r == 3:
        return _on_fire(cfg, vehicle, state)
    return {_ko(state): _TEST}


def _superficial_3e(cfg: RulesConfig, vehicle: VehicleCtx, state: VehicleState, r: int) -> dict[VehicleState, int]:
    if r > 6:
        if cfg.superficial_above_six == "knocked_out":
            return {_ko(state): _TEST}
        r = 6
    pinned = state._replace(pins=state.pins + 1)
    if r == 3 and vehicle.has_turret:
        return {pinned._replace(turret_jammed=True): _TEST}
    if r in (2, 3):
        if state.steering + 1 >= 3:
            return {_ko(pinned): _TEST}
        return {pinned._replace(steering=state.steering + 1): _TEST}
    if r == 4:
        if not state.slow:
            return {pinned._replace(slow=True): _TEST}
        if not state.engine_crippled:
            return {pinned._replace(engine_crippled=True): _TEST}
        return _immobilise(state)
    if r == 5:
        return _immobilise(state)
    if r == 6:
        return _on_fire(cfg, vehicle, state)
    return {pinned: _TEST}


def superficial_3e_result(cfg: RulesConfig, vehicle: VehicleCtx, state: VehicleState, r: int) -> StatePMF:
    """One result on the 3e SUPERFICIAL column; every result adds a pin [S000, BTB].

    1 stunned; 2 steering (the third knocks out); 3 turret jam (no turret: steering); 4 engine (Slow; a
    Slow vehicle is crippled; once crippled, engine damage counts as Immobilised); 5 immobilised;
    6 on fire. Totals above 6 follow ``superficial_above_six`` [R].
    """
    return _fractions(_superficial_3e(cfg, vehicle, state, r), _TEST)


def _roll(
    cfg: RulesConfig, vehicle: VehicleCtx, states: Mapping[VehicleState, int], table: str, result_mod: int
) -> dict[VehicleState, int]:
    """Push integer state weights through one D6 roll on ``table``; the denominator grows by 216."""
    out: dict[VehicleState, int] = {}
    for state, w in states.items():
        if state.ko:
            _bump(out, state, w * _ROLL)
            continue
        for d in range(1, 7):
            if table == "full":
                branch = _full(cfg, vehicle, state, d + result_mod)
            elif cfg.superficial_mode == "3e_table":
                branch = _superficial_3e(cfg, vehicle, state, d + result_mod)
            else:
                # 2e superficial: the same table at D6-3 [S002].
                branch = _full(cfg, vehicle, state, d - 3 + result_mod)
            for nxt, q in branch.items():
                _bump(out, nxt, w * q)
    return out


@lru_cache(maxsize=8192)
def _category(
    cfg: RulesConfig, vehicle: VehicleCtx, state: VehicleState, category: str, result_mod: int
) -> tuple[tuple[VehicleState, int], ...]:
    """Weights over 216^massive_rolls of the states after one damage category."""
    rolls = cfg.massive_rolls
    if category == "none" or state.ko:
        return ((state, _ROLL**rolls),)
    states: dict[VehicleState, int] = {state: 1}
    if category == "superficial":
        states = _roll(cfg, vehicle, states, "superficial", result_mod)
        done = 1
    else:
        done = rolls if category == "massive" else 1
        for _ in range(done):
            states = _roll(cfg, vehicle, states, "full", result_mod)
    scale = _ROLL ** (rolls - done)
    return tuple((s, w * scale) for s, w in states.items())


def resolve_vehicle_hit(
    cfg: RulesConfig, category: str, state: VehicleState, vehicle: VehicleCtx, result_mod: int = 0
) -> StatePMF:
    """Apply one damage category to a state: superficial and full are one result, massive is
    ``massive_rolls`` results on the full table applied one after the other (a KO ends it) [S002, S000].
    """
    return _fractions(dict(_category(cfg, vehicle, state, category, result_mod)), _ROLL**cfg.massive_rolls)


# While pen rolls are made, a state is paired with the hit pins not yet placed: under
# ``pin_on_no_effect`` they are placed up front, otherwise only with the first damage result [R].
Pending = dict[tuple[VehicleState, int], int]


def _pen_roll(
    cfg: RulesConfig,
    vehicle: VehicleCtx,
    states: Pending,
    counts: tuple[int, int, int, int],
    result_mod: int,
) -> Pending:
    """One pen roll and its damage results; the denominator grows by 6 x 216^massive_rolls (36 x with
    a re-roll of a failed roll: ``counts`` then sum to 36)."""
    unit = sum(counts) * _ROLL**cfg.massive_rolls
    out: Pending = {}
    for (state, pending), w in states.items():
        if state.ko:
            out[(state, pending)] = out.get((state, pending), 0) + w * unit
            continue
        for category, faces in zip(CATEGORIES, counts, strict=True):
            if not faces:
                continue
            if category == "none":
                key = (state, pending)
                out[key] = out.get(key, 0) + w * faces * _ROLL**cfg.massive_rolls
                continue
            placed = state._replace(pins=state.pins + pending) if pending else state
            for nxt, q in _category(cfg, vehicle, placed, category, result_mod):
                out[(nxt, 0)] = out.get((nxt, 0), 0) + w * faces * q
    return out


def _after_rolls(
    cfg: RulesConfig,
    vehicle: VehicleCtx,
    begin: Pending,
    n_rolls: int,
    counts: tuple[int, int, int, int],
    result_mod: int,
) -> Pending:
    """``n_rolls`` pen rolls from ``begin``, over (6 x 216^massive_rolls)^n_rolls.

    A flamethrower hit makes up to seven rolls (D6+1 under ``flamer_vs_vehicle == "per_hit"``), and
    the rows of many states pass through the same intermediate states: each (state, rolls left) is
    worked out once (``_rolls_from``) rather than once per row that reaches it.
    """
    out: Pending = {}
    for (state, pending), w in begin.items():
        for key, q in _rolls_from(cfg, vehicle, state, pending, n_rolls, counts, result_mod):
            out[key] = out.get(key, 0) + w * q
    return out


@lru_cache(maxsize=1 << 16)
def _rolls_from(
    cfg: RulesConfig,
    vehicle: VehicleCtx,
    state: VehicleState,
    pending: int,
    n_rolls: int,
    counts: tuple[int, int, int, int],
    result_mod: int,
) -> tuple[tuple[tuple[VehicleState, int], int], ...]:
    if n_rolls == 0:
        return (((state, pending), 1),)
    out: Pending = {}
    for (nxt, left), w in _pen_roll(cfg, vehicle, {(state, pending): 1}, counts, result_mod).items():
        for key, q in _rolls_from(cfg, vehicle, nxt, left, n_rolls - 1, counts, result_mod):
            out[key] = out.get(key, 0) + w * q
    return tuple(out.items())


def _int_weights(pmf: Mapping[object, Fraction]) -> tuple[dict, int]:
    den = 1
    for v in pmf.values():
        den = math.lcm(den, v.denominator)
    return {k: v.numerator * (den // v.denominator) for k, v in pmf.items() if v}, den


def _forced(cfg: RulesConfig, vehicle: VehicleCtx, states: Mapping[VehicleState, int]) -> dict[VehicleState, int]:
    # The hottest loop of a volley at a vehicle (every state of every hit row passes here): the
    # pass chances are read once per pin count, and the dict is updated in place.
    out: dict[VehicleState, int] = {}
    get = out.get
    ways_at: dict[int, int] = {}
    for state, w in states.items():
        if not w:
            continue
        if state.ko:
            out[state] = get(state, 0) + w * _TEST
            continue
        pins = state.pins
        ways = ways_at.get(pins)
        if ways is None:
            ways = ways_at[pins] = _passes(cfg, vehicle, pins)
        if ways:
            out[state] = get(state, 0) + w * ways
        if ways != _TEST:
            wreck = VehicleState(True, False, pins)  # _ko(state): wrecks keep only their pins
            out[wreck] = get(wreck, 0) + w * (_TEST - ways)
    return out


# --- whole shots -----------------------------------------------------------------------------------
#
# A volley pushes the state distribution through one die after another. Two things keep that cheap
# without giving up exactness:
#
# * Settled states are absorbing. A knocked-out vehicle stays knocked out, and a vehicle whose pins
#   reach its unmodified morale is destroyed by the pin rule [S004, DOL] before the next die, so later
#   dice cannot change it. A routed state keeps only what the summary reads (immobilised, pins), so
#   routed states that differ in steering or engine damage merge. Live states then never hold more
#   pins than morale - 1, which bounds the state space whatever the number of dice.
# * The states are numbered and the distribution is a list of integer weights over one common
#   denominator (the product of the per-die denominators). Each state's one-die transition row,
#   integer weights over that die's denominator, is worked out once and cached.


@dataclass(frozen=True)
class ShotSpec:
    """One die at a vehicle, as integer weights: P(hit) = hit_num / hit_den; the hit pins and the
    number of pen rolls are distributions given as (value, weight) pairs over ``pins_den`` and
    ``rolls_den``; ``forced_check`` adds a morale check after a hit (flamethrowers). ``unit_pin``: a hit
    places the firing unit's single pin unless an earlier hit of the same attack already did."""

    hit_num: int
    hit_den: int
    pen_total: int
    result_mod: int = 0
    pins: tuple[tuple[int, int], ...] = ((1, 1),)
    pins_den: int = 1
    rolls: tuple[tuple[int, int], ...] = ((1, 1),)
    rolls_den: int = 1
    forced_check: bool = False
    unit_pin: bool = False
    reroll_failed_pen: bool = False  # a failed pen roll is rolled again (Italy's Improvised AT)
    # Every damaging roll counts as superficial (infantry without anti-tank weapons assaulting an
    # enclosed vehicle [S000, BR2 Tank Hunters]; see ``rules.combat.tank_assault``).
    superficial_only: bool = False


def shot_spec(
    vehicle: VehicleCtx,
    p_hit: Fraction,
    pen_total: int,
    *,
    result_mod: int = 0,
    hit_pins: Mapping[int, Fraction] | None = None,
    pen_rolls: Mapping[int, Fraction] | None = None,
    forced_check: bool = False,
    unit_pin: bool = False,
    reroll_failed_pen: bool = False,
) -> ShotSpec:
    """The integer form of one die. By default a hit pins once if the weapon can damage the vehicle
    [BS2] and makes one pen roll (a shot that is its own firing, as in the anti-tank calculator).
    ``unit_pin`` instead pins once per attack, on its first such hit (see ``ShotSpec``)."""
    if hit_pins is None:
        hit_pins = point(1) if can_damage(vehicle.dv, pen_total) else point(0)
    pins_w, pins_den = _int_weights(hit_pins)
    rolls_w, rolls_den = _int_weights(pen_rolls if pen_rolls is not None else point(1))
    return ShotSpec(
        hit_num=p_hit.numerator,
        hit_den=p_hit.denominator,
        pen_total=pen_total,
        result_mod=result_mod,
        pins=tuple(sorted(pins_w.items())),
        pins_den=pins_den,
        rolls=tuple(sorted(rolls_w.items())),
        rolls_den=rolls_den,
        forced_check=forced_check,
        unit_pin=unit_pin,
        reroll_failed_pen=reroll_failed_pen,
    )


def _unit(cfg: RulesConfig, spec: ShotSpec) -> int:
    """Weight of one pen roll and its results: 6 pen faces (36 with a re-roll) x 216 per table roll."""
    return (36 if spec.reroll_failed_pen else 6) * _ROLL**cfg.massive_rolls


def shot_denominator(cfg: RulesConfig, spec: ShotSpec) -> int:
    """The denominator of every weight in a one-die transition row."""
    most = max(n for n, _ in spec.rolls)
    test = _TEST if spec.forced_check else 1
    return spec.hit_den * spec.pins_den * spec.rolls_den * _unit(cfg, spec) ** most * test


def routed(cfg: RulesConfig, vehicle: VehicleCtx, state: VehicleState) -> bool:
    """A running vehicle whose pins reach its unmodified morale is destroyed [S004, DOL]."""
    return cfg.pin_rout and not state.ko and state.pins >= vehicle.morale


def settle(cfg: RulesConfig, vehicle: VehicleCtx, state: VehicleState) -> VehicleState:
    """The canonical form of a state: a routed vehicle keeps only immobilised and pins."""
    # ``routed`` inlined: this runs for every state of every row.
    if cfg.pin_rout and not state.ko and state.pins >= vehicle.morale:
        return VehicleState(False, state.immobilised, state.pins)
    return state


def _settled(cfg: RulesConfig, vehicle: VehicleCtx, state: VehicleState) -> bool:
    return state.ko or routed(cfg, vehicle, state)


@lru_cache(maxsize=1 << 16)
def _shot_row(
    cfg: RulesConfig, vehicle: VehicleCtx, spec: ShotSpec, state: VehicleState
) -> tuple[tuple[VehicleState, int], ...]:
    """The states after one die from ``state``, as weights over ``shot_denominator``.

    A miss changes nothing. A hit first places the hit pins (under ``pin_on_no_effect`` [R] up front,
    otherwise only with the first damage result), then makes the pen rolls, then the optional forced
    morale check. Settled states do not move.
    """
    den = shot_denominator(cfg, spec)
    if _settled(cfg, vehicle, state) or not spec.hit_num:
        return ((state, den),)
    unit = _unit(cfg, spec)
    most = max(n for n, _ in spec.rolls)
    test = _TEST if spec.forced_check else 1
    counts = penetration_counts(vehicle.dv, spec.pen_total, cfg.nat1_always_fails, spec.reroll_failed_pen)
    if spec.superficial_only:
        counts = only_superficial(counts)
    out: dict[VehicleState, int] = {}
    _bump(out, state, (spec.hit_den - spec.hit_num) * spec.pins_den * spec.rolls_den * unit**most * test)
    # The firing unit's pin, if this hit is the attack's first to place it [S004, DOL, BS2, JK3].
    own_pin = 1 if spec.unit_pin and not state.unit_pinned else 0
    hit_state = state._replace(unit_pinned=True) if own_pin else state
    # A weapon that cannot damage the vehicle (small arms at an open-topped one) pins at once: the
    # ``pin_on_no_effect`` switch is about weapons that could have done damage.
    place_now = cfg.pin_on_no_effect or counts[0] == sum(counts)
    # Every hit's states, weighted, before the forced check and settling, which are linear: each is
    # then applied once to the sum rather than once per (pins, rolls) branch.
    hit_states: dict[VehicleState, int] = {}
    for pins, wp in spec.pins:
        if place_now:
            begin: Pending = {(hit_state._replace(pins=state.pins + pins + own_pin), 0): 1}
        else:
            begin = {(state, pins + own_pin): 1}
        for n_rolls, wn in spec.rolls:
            scale = spec.hit_num * wp * wn * unit ** (most - n_rolls)
            for (nxt, unplaced), q in _after_rolls(cfg, vehicle, begin, n_rolls, counts, spec.result_mod).items():
                if own_pin and not place_now and not unplaced and not nxt.ko:
                    nxt = nxt._replace(unit_pinned=True)  # placed with this hit's first damage result
                _bump(hit_states, nxt, scale * q)
    if spec.forced_check:
        hit_states = _forced(cfg, vehicle, hit_states)
    for nxt, q in hit_states.items():
        _bump(out, settle(cfg, vehicle, nxt), q)
    return tuple(out.items())


class ShotChain:
    """A vehicle state distribution pushed through identical dice, one :meth:`step` per die.

    The distribution is ``weights[i] / den`` for state ``states[i]``: exact integers throughout.
    """

    def __init__(
        self, cfg: RulesConfig, vehicle: VehicleCtx, spec: ShotSpec, state_pmf: Mapping[VehicleState, Fraction]
    ) -> None:
        self.cfg = cfg
        self.vehicle = vehicle
        self.spec = spec
        self.step_den = shot_denominator(cfg, spec)
        self.states: list[VehicleState] = []
        self._index: dict[VehicleState, int] = {}
        self._rows: list[tuple[tuple[int, int], ...] | None] = []
        start, self.den = _int_weights(state_pmf)
        self.weights: list[int] = []
        for state, w in start.items():
            i = self._id(settle(cfg, vehicle, state))
            self.weights.extend([0] * (len(self.states) - len(self.weights)))
            self.weights[i] += w

    def _id(self, state: VehicleState) -> int:
        i = self._index.get(state)
        if i is None:
            i = self._index[state] = len(self.states)
            self.states.append(state)
            self._rows.append(None)
        return i

    def step(self) -> None:
        """Push the distribution through one more die."""
        weights, rows = self.weights, self._rows
        for i, w in enumerate(weights):
            if w and rows[i] is None:
                row = _shot_row(self.cfg, self.vehicle, self.spec, self.states[i])
                rows[i] = tuple((self._id(s), q) for s, q in row)
        out = [0] * len(self.states)
        for i, w in enumerate(weights):
            if w:
                for j, q in rows[i]:  # type: ignore[union-attr]
                    out[j] += w * q
        self.weights = out
        self.den *= self.step_den

    def mass(self, test: Callable[[VehicleState], bool]) -> Fraction:
        """P(the state passes ``test``), without building the whole distribution."""
        return Fraction(sum(w for s, w in zip(self.states, self.weights, strict=False) if w and test(s)), self.den)

    def pmf(self) -> StatePMF:
        """The distribution as exact Fractions (zero entries dropped)."""
        return {s: Fraction(w, self.den) for s, w in zip(self.states, self.weights, strict=False) if w}


def resolve_shots(
    cfg: RulesConfig, vehicle: VehicleCtx, spec: ShotSpec, state_pmf: Mapping[VehicleState, Fraction], dice: PMF
) -> StatePMF:
    """Push a state distribution through a random number of identical dice (``dice``: count -> P)."""
    chain = ShotChain(cfg, vehicle, spec, state_pmf)
    out: StatePMF = {}
    done = 0
    for n in sorted(dice):
        while done < n:
            chain.step()
            done += 1
        for s, q in chain.pmf().items():
            out[s] = out.get(s, ZERO) + dice[n] * q
    return {s: q for s, q in out.items() if q}


def resolve_at_shot(
    cfg: RulesConfig,
    p_hit: Fraction,
    pen_total: int,
    vehicle: VehicleCtx,
    state_pmf: Mapping[VehicleState, Fraction],
    *,
    result_mod: int = 0,
    hit_pins: Mapping[int, Fraction] | None = None,
    pen_rolls: Mapping[int, Fraction] | None = None,
    forced_check: bool = False,
) -> StatePMF:
    """Push a state distribution through one shot (§2.6).

    A miss changes nothing. A hit first adds ``hit_pins`` (default: 1 pin if the weapon can damage the
    vehicle [BS2]), then makes ``pen_rolls`` pen rolls (default one; flamethrowers under
    ``flamer_vs_vehicle == "per_hit"`` roll one per hit), then an optional forced morale check.
    Under ``pin_on_no_effect`` [R] the hit pin stays even if the pen roll does nothing; otherwise it is
    only kept with a damage result. Knocked-out and routed vehicles are not changed (see ``settle``).
    """
    spec = shot_spec(
        vehicle,
        p_hit,
        pen_total,
        result_mod=result_mod,
        hit_pins=hit_pins,
        pen_rolls=pen_rolls,
        forced_check=forced_check,
    )
    chain = ShotChain(cfg, vehicle, spec, state_pmf)
    chain.step()
    return chain.pmf()


@dataclass(frozen=True)
class VehicleSummary:
    """Headline figures of a vehicle state distribution."""

    p_knocked_out: Fraction
    p_immobilised: Fraction
    pins_added: PMF
    p_pin_rout: Fraction


def summarise(
    cfg: RulesConfig, vehicle: VehicleCtx, states: Mapping[VehicleState, Fraction], pins0: int
) -> VehicleSummary:
    """KO chance, immobilised-and-running chance, pins-added PMF and the chance the surviving vehicle
    holds pins at or above its morale (a unit with that many pins is destroyed [S004, DOL]; later dice
    no longer change it, so routed and knocked out never overlap)."""
    p_ko = sum((p for s, p in states.items() if s.ko), ZERO)
    p_imm = sum((p for s, p in states.items() if s.immobilised and not s.ko), ZERO)
    pins: PMF = {}
    for s, p in states.items():
        pins[s.pins - pins0] = pins.get(s.pins - pins0, ZERO) + p
    rout = ZERO
    if cfg.pin_rout:
        rout = sum((p for s, p in states.items() if not s.ko and s.pins >= vehicle.morale), ZERO)
    return VehicleSummary(p_ko, p_imm, dict(sorted(pins.items())), rout)


def clear_caches() -> None:
    """Drop this module's memo tables (used by the benchmark for honest timings)."""
    _category.cache_clear()
    _shot_row.cache_clear()
