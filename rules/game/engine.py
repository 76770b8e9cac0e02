"""A game as a log of actions: the state is what replaying the log gives, so undo drops the last one.

Every random outcome (the die drawn, an order test's 2D6, the D6 of a Rally, the D3 pins lost by
staying Down) is rolled *before* the action is stored, with an injected ``rng``, and written into
the action. Replaying is therefore deterministic and never rolls again; players who roll real dice
type them instead. ``apply`` checks every action against the state, so an action that does not
fit (a die for a side with none left, an order for a unit that already has one) is refused with a
``RulesError`` whatever built it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from rules.combat import national, support
from rules.combat.context import BASE_MORALE
from rules.combat.morale import OrderTestResult, order_test
from rules.errors import RulesError
from rules.game.editions import KEPT_ORDERS, ORDERS, VEHICLE_TYPES, GameRules, game_rules

SIDES = ("a", "b")
RESULTS = ("a", "b", "draw")
DAMAGE = ("immobilised", "on_fire", "extinguished", "knocked_out")
FANATIC_MEN = 2  # a Fanatic unit with this many men or more is not routed by pins [rules-notes]


def other_side(side: str) -> str:
    return "b" if side == "a" else "a"


# --- setup (frozen when the game starts) ---------------------------------------------------------


@dataclass(frozen=True)
class UnitSetup:
    key: str
    name: str
    quality: str  # inexperienced / regular / veteran
    models: int | None  # None: a stand-in unit whose size Muster does not know
    unit_type: str = "infantry"
    dice: int = 1  # order dice it puts in the bag (rules.army.order_dice)
    officer_bonus: int = 0  # morale bonus to units in range, if an officer
    command_range: int = 0  # inches
    extra_orders: int = 0  # "You men, snap to action!": units he may order with his own order
    officer_label: str = ""
    damage_value: int | None = None
    points: int = 0
    # Fanatics (its own rule, Death Before Dishonour, Cedere), frozen at the start: pins do not rout it
    # while two or more men are left. Games stored before it have no key: not Fanatic, as they played.
    fanatic: bool = False

    @property
    def is_vehicle(self) -> bool:
        return self.unit_type in VEHICLE_TYPES

    @property
    def base_morale(self) -> int:
        return BASE_MORALE.get(self.quality, BASE_MORALE["regular"])


@dataclass(frozen=True)
class SideSetup:
    key: str  # "a" (the game's creator) or "b"
    name: str
    units: tuple[UnitSetup, ...]
    # The slugs of the national rules its list's army carries (rules.combat.national), frozen at the start.
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameSetup:
    edition: str
    sides: tuple[SideSetup, SideSetup]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> GameSetup:
        """Build from the plain JSON stored with the game."""
        sides = tuple(
            SideSetup(
                key=side["key"],
                name=side["name"],
                units=tuple(UnitSetup(**unit) for unit in side["units"]),
                rules=tuple(str(slug) for slug in side.get("rules") or ()),
            )
            for side in data["sides"]
        )
        if len(sides) != 2 or tuple(s.key for s in sides) != SIDES:
            raise RulesError("A game has two sides, a and b.", code="sides")
        return cls(edition=data["edition"], sides=sides)  # type: ignore[arg-type]


# --- actions and state ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One step of the game. ``side`` is the side acting (the die's side for a draw)."""

    kind: str
    side: str | None = None
    unit: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "unit": self.unit, "data": dict(self.data)}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Action:
        return cls(kind=data["kind"], side=data.get("side"), unit=data.get("unit"), data=data.get("data") or {})


@dataclass
class UnitState:
    setup: UnitSetup
    side: str
    pins: int = 0
    models: int | None = None
    orders: list[str] = field(default_factory=list)  # orders taken this turn (kept ones included)
    kept: bool = False  # its Down/Ambush order carried over from last turn
    destroyed: bool = False
    destroyed_how: str = ""  # pins / casualties / knocked_out / removed
    immobilised: int = 0
    on_fire: bool = False
    # Its NCO fell with a casualty and nobody took over: its order tests take the edition's penalty [§12].
    nco_lost: bool = False

    @property
    def key(self) -> str:
        return self.setup.key

    @property
    def order(self) -> str | None:
        return self.orders[-1] if self.orders else None

    @property
    def can_take_order(self) -> bool:
        return not self.destroyed and len(self.orders) < self.setup.dice


@dataclass
class SnapOffer:
    """An officer just took an order: ``left`` more units of his side in range may take the same one.

    Each takes a die of its own from the bag [rules-notes §13, ARB]. Muster cannot see the table, so
    the players choose only units within the officer's command range.
    """

    officer: str
    side: str
    order: str
    left: int


@dataclass(frozen=True)
class LogEntry:
    """What one action did, for the game log; ``detail`` holds the numbers the sentence uses."""

    turn: int
    kind: str
    side: str | None
    unit: str | None
    detail: Mapping[str, Any]


@dataclass
class GameState:
    setup: GameSetup
    rules: GameRules
    units: dict[str, UnitState]
    turn: int = 1
    pending: str | None = None  # the side whose drawn die waits for an order
    snap: SnapOffer | None = None  # an officer's order other units may still take
    finished: bool = False
    result: str | None = None  # a, b or draw
    scenario: str = ""
    log: list[LogEntry] = field(default_factory=list)
    sent_back: bool = False  # Communication Breakdown!: the one die sent back to the bag has been used
    # Units each side had lost when the turn began: Avanti Savoia! compares them then [BR2].
    lost_at_start: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    # Air strikes: calls used up per side (a plane came), and the turn each side last rolled on the
    # chart (the skies-empty result is rolled again next turn, not the same turn) [S000].
    air_calls: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    air_rolled: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    # Preparatory bombardment, once a game per side: the dice rolled per enemy unit (unit key -> dice),
    # and whether the side has said which die it keeps for each (Bombardment's two dice) [BR2].
    bombard: dict[str, dict[str, list[int]]] = field(default_factory=lambda: {side: {} for side in SIDES})
    bombard_kept: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(SIDES, False))
    # Defensive Strategy [BR2]: the side recorded as the scenario's defender (None: not recorded), and
    # the emplacements each side rolled for (0: not rolled).
    defender: str | None = None
    emplacements: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))

    def side_units(self, side: str) -> list[UnitState]:
        return [u for u in self.units.values() if u.side == side]

    def unit(self, key: str | None) -> UnitState:
        unit = self.units.get(key or "")
        if unit is None:
            raise RulesError("No such unit in this game.", code="unit")
        return unit

    def dice_in_bag(self, side: str) -> int:
        """Dice of ``side`` still in the bag: one per order a surviving unit can still take.

        A destroyed unit's die leaves the game, in the bag or beside the unit [§16]; kept Down and
        Ambush orders keep theirs out; the die drawn and not yet given is out too.
        """
        left = sum(u.setup.dice - len(u.orders) for u in self.side_units(side) if not u.destroyed)
        return max(left - (1 if self.pending == side else 0), 0)

    def dice_total(self, side: str) -> int:
        return sum(u.setup.dice for u in self.side_units(side) if not u.destroyed)

    @property
    def bag_empty(self) -> bool:
        return all(self.dice_in_bag(side) == 0 for side in SIDES)


def new_state(setup: GameSetup) -> GameState:
    units: dict[str, UnitState] = {}
    for side in setup.sides:
        for unit in side.units:
            if unit.key in units:
                raise RulesError(f"Two units share the key {unit.key!r}.", code="unit-key")
            units[unit.key] = UnitState(setup=unit, side=side.key, models=unit.models)
    return GameState(setup=setup, rules=game_rules(setup.edition), units=units)


def replay(setup: GameSetup, actions: Iterable[Action]) -> GameState:
    """The state after ``actions``, in order, from the start of the game."""
    return resume(setup, None, actions)


# --- snapshots: a long game is not replayed from its first action --------------------------------
#
# The state after every ``SNAPSHOT_EVERY``-th action is stored as plain data with that action, so
# the state now is the last snapshot plus fewer than ``SNAPSHOT_EVERY`` actions replayed. The log
# is not part of a snapshot: each action stores its own log entry when it is applied.

SNAPSHOT_EVERY = 50


def state_to_data(state: GameState) -> dict[str, Any]:
    """The state as plain JSON data (without its log); ``state_from_data`` reads it back."""
    snap = state.snap
    return {
        "units": {
            key: {
                "pins": u.pins,
                "models": u.models,
                "orders": list(u.orders),
                "kept": u.kept,
                "destroyed": u.destroyed,
                "destroyed_how": u.destroyed_how,
                "immobilised": u.immobilised,
                "on_fire": u.on_fire,
                "nco_lost": u.nco_lost,
            }
            for key, u in state.units.items()
        },
        "turn": state.turn,
        "pending": state.pending,
        "snap": None
        if snap is None
        else {"officer": snap.officer, "side": snap.side, "order": snap.order, "left": snap.left},
        "finished": state.finished,
        "result": state.result,
        "scenario": state.scenario,
        "sent_back": state.sent_back,
        "lost_at_start": dict(state.lost_at_start),
        "air_calls": dict(state.air_calls),
        "air_rolled": dict(state.air_rolled),
        "bombard": {side: {key: list(dice) for key, dice in rolled.items()} for side, rolled in state.bombard.items()},
        "bombard_kept": dict(state.bombard_kept),
        "defender": state.defender,
        "emplacements": dict(state.emplacements),
    }


def state_from_data(setup: GameSetup, data: Mapping[str, Any]) -> GameState:
    """The state ``state_to_data`` stored, on the game's frozen setup (its log empty)."""
    state = new_state(setup)
    if set(data["units"]) != set(state.units):
        raise RulesError("The snapshot does not match the game's units.", code="snapshot")
    for key, stored in data["units"].items():
        unit = state.units[key]
        unit.pins, unit.models, unit.orders = stored["pins"], stored["models"], list(stored["orders"])
        unit.kept, unit.destroyed, unit.destroyed_how = stored["kept"], stored["destroyed"], stored["destroyed_how"]
        unit.immobilised, unit.on_fire = stored["immobilised"], stored["on_fire"]
        unit.nco_lost = bool(stored.get("nco_lost"))  # snapshots from before NCOs were tracked carry none
    state.turn, state.pending = data["turn"], data["pending"]
    state.snap = SnapOffer(**data["snap"]) if data["snap"] else None
    state.finished, state.result, state.scenario = data["finished"], data["result"], data["scenario"]
    state.sent_back = bool(data.get("sent_back"))  # snapshots from before the rule carry none
    if "lost_at_start" in data:
        state.lost_at_start = {side: int(data["lost_at_start"].get(side, 0)) for side in SIDES}
    else:  # a snapshot from before the rule: the losses so far stand in
        state.lost_at_start = {side: units_lost(state, side) for side in SIDES}
    for name in ("air_calls", "air_rolled"):  # snapshots from before air strikes carry none
        stored_side = data.get(name) or {}
        setattr(state, name, {side: int(stored_side.get(side, 0)) for side in SIDES})
    stored_bombard = data.get("bombard") or {}  # snapshots from before the bombardment carry none
    state.bombard = {side: {k: list(v) for k, v in (stored_bombard.get(side) or {}).items()} for side in SIDES}
    kept = data.get("bombard_kept") or {}
    state.bombard_kept = {side: bool(kept.get(side)) for side in SIDES}
    state.defender = data.get("defender")  # snapshots from before Defensive Strategy carry none
    stored_emplacements = data.get("emplacements") or {}
    state.emplacements = {side: int(stored_emplacements.get(side, 0)) for side in SIDES}
    return state


def resume(setup: GameSetup, snapshot: Mapping[str, Any] | None, actions: Iterable[Action]) -> GameState:
    """The state after ``actions``, applied to ``snapshot`` (``state_to_data``) or to the start."""
    state = new_state(setup) if snapshot is None else state_from_data(setup, snapshot)
    for action in actions:
        apply(state, action)
    return state


def log_entry_to_data(entry: LogEntry) -> dict[str, Any]:
    return {
        "turn": entry.turn,
        "kind": entry.kind,
        "side": entry.side,
        "unit": entry.unit,
        "detail": dict(entry.detail),
    }


def log_entry_from_data(data: Mapping[str, Any]) -> LogEntry:
    return LogEntry(data["turn"], data["kind"], data.get("side"), data.get("unit"), data.get("detail") or {})


# --- dice ----------------------------------------------------------------------------------------


class Rng(Protocol):
    """What the engine asks of the injected dice: ``random.Random`` (or ``SystemRandom``) fits."""

    def randint(self, a: int, b: int) -> int: ...

    def randrange(self, stop: int) -> int: ...


def roll(rng: Rng, faces: int = 6) -> int:
    return rng.randint(1, faces)


def d3(value: int) -> int:
    """A D3 read off a D6: half, rounded up [TR1/TR2]."""
    return (value + 1) // 2


def _check_die(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
        raise RulesError(f"{name}: a die shows 1 to 6.", code="die", params={"field": name})
    return value


# --- building actions (the only place that rolls) ------------------------------------------------


def draw(state: GameState, rng: Rng, *, side: str | None = None) -> Action:
    """Draw a die blind from the bag: each die left is equally likely [S003, S004, BD].

    ``side``: the die the phone drew (game.js picks it the same way, weighted by the dice it shows
    left, so that it can show it at the tap); the bag is checked all the same when it is applied."""
    _check_playing(state)
    if state.pending:
        raise RulesError("Give the drawn die an order first.", code="pending")
    counts = [state.dice_in_bag(key) for key in SIDES]
    if sum(counts) == 0:
        raise RulesError("The bag is empty: end the turn.", code="empty-bag")
    if side is not None:
        return Action("draw", side=side)
    index = rng.randrange(sum(counts))
    return Action("draw", side="a" if index < counts[0] else "b")


def recorded_draw(side: str) -> Action:
    """The die the players really drew from their own bag."""
    return Action("draw", side=side, data={"recorded": True})


def order_odds(
    state: GameState, unit_key: str, officer_key: str | None = None, *, tiger: bool = False
) -> OrderTestResult:
    """The order test the unit would take now: morale, whether a test is needed and its exact odds
    (``tiger``: under Tiger Fear; the side's Avanti Savoia! modifier always counts)."""
    unit = state.unit(unit_key)
    return _test_odds(state, unit, _officer_bonus(state, unit, officer_key), tiger=tiger)


def _test_odds(state: GameState, unit: UnitState, bonus: int, *, tiger: bool = False, shed: int = 0) -> OrderTestResult:
    # Tiger Fear: as if one more pin; Vengeance: ``shed`` pins lost just before the order.
    pins = max(unit.pins - shed, 0) + (1 if tiger else 0)
    other = avanti_modifier(state, unit.side) + nco_penalty(state, unit)
    return order_test(state.rules.combat, unit.setup.base_morale, bonus, pins, other)


def nco_penalty(state: GameState, unit: UnitState) -> int:
    """The morale modifier a lost NCO gives the unit's order tests: -1 in every edition (rules-notes §12:
    1st and 2nd edition [R], 3rd [S000]), none with 3rd-edition Initiative Training for a Regular or
    Veteran squad [WGG3]. (2nd-edition Initiative Training acts when the NCO falls: see ``_casualties``.)"""
    return lost_nco_modifier(state, unit) if unit.nco_lost else 0


def lost_nco_modifier(state: GameState, unit: UnitState) -> int:
    """The morale modifier the unit's order tests would take with its NCO lost (see ``nco_penalty``)."""
    rule = national.rule_in(state.setup.edition, side_rules(state, unit.side), "nco")
    if rule is not None and rule.edition == "3e" and unit.setup.quality in national.CQ_BONUS_QUALITIES:
        return 0
    return national.NCO_LOST


def has_nco(state: GameState, unit_key: str) -> bool:
    """The unit is an infantry squad (Muster knows its men) whose NCO is still there to fall: a team, an
    officer, a vehicle or a stand-in unit has none Muster tracks."""
    unit = state.unit(unit_key)
    return (
        unit.setup.unit_type == "infantry"
        and not unit.setup.officer_bonus
        and unit.models is not None
        and not unit.nco_lost
        and not unit.destroyed
    )


def initiative_die(state: GameState, side: str) -> national.NationalRule | None:
    """2nd-edition Initiative Training: the side rolls a die when a squad's NCO falls (2+: another man
    takes over). The 3rd-edition rule rolls nothing (the penalty is ignored instead)."""
    rule = national.rule_in(state.setup.edition, side_rules(state, side), "nco")
    return rule if rule is not None and rule.edition == "2e" else None


INITIATIVE_TAKES_OVER = 2  # Initiative Training: another man takes over on a 2+ [BR2]
VENGEANCE_SHEDS_ON = 4  # Vengeance: 4-6 on a die loses a pin [BR2]


def vengeance_rule(state: GameState, unit_key: str) -> national.NationalRule | None:
    """Vengeance for this unit: its British list chose it (the side carries the slug), the unit is Regular
    or Veteran and has a pin (the enemy within 12" is the player's to say)."""
    unit = state.unit(unit_key)
    rule = national.rule_in(state.setup.edition, side_rules(state, unit.side), "shed_pin")
    if rule is None or unit.pins < 1 or unit.setup.quality not in national.CQ_BONUS_QUALITIES:
        return None
    return rule


def vengeance_odds(state: GameState, unit_key: str, officer_key: str | None = None) -> Fraction | None:
    """The chance its order test passes with Vengeance's die rolled first: half the time (4-6) with one pin
    fewer, exact; None when Vengeance cannot act on it."""
    if vengeance_rule(state, unit_key) is None:
        return None
    unit = state.unit(unit_key)
    bonus = _officer_bonus(state, unit, officer_key)
    keep, shed = _test_odds(state, unit, bonus).p_pass, _test_odds(state, unit, bonus, shed=1).p_pass
    return (1 - national.VENGEANCE_SHEDS) * keep + national.VENGEANCE_SHEDS * shed


def units_lost(state: GameState, side: str) -> int:
    return sum(1 for u in state.side_units(side) if u.destroyed)


def avanti_modifier(state: GameState, side: str) -> int:
    """Avanti Savoia!: -2 or +2 to the side's morale for the turn when, as it began, the side had lost
    3 units more, or fewer, than the enemy."""
    if national.rule_in(state.setup.edition, side_rules(state, side), "avanti") is None:
        return 0
    lost, enemy = state.lost_at_start[side], state.lost_at_start[other_side(side)]
    if abs(lost - enemy) < national.AVANTI_GAP:
        return 0
    return -national.AVANTI_MORALE if lost > enemy else national.AVANTI_MORALE


def tiger_fear_applies(state: GameState, unit_key: str) -> bool:
    """Tiger Fear can act on this unit: the enemy carries the rule and still has an armoured vehicle
    (Muster does not know which is a Tiger, nor the ranges: the player says so on the order form)."""
    unit = state.unit(unit_key)
    enemy = other_side(unit.side)
    if national.rule_in(state.setup.edition, side_rules(state, enemy), "tiger_fear") is None:
        return False
    return any(u.setup.unit_type == "vehicle_armoured" and not u.destroyed for u in state.side_units(enemy))


def side_rules(state: GameState, side: str) -> tuple[str, ...]:
    """The national rule slugs the side's list carries (none for a stand-in opponent)."""
    return next((s.rules for s in state.setup.sides if s.key == side), ())


def commissar_rule(state: GameState, unit_key: str) -> national.NationalRule | None:
    """Not One Step Back! for this unit, if its side carries it in this edition and the unit is infantry
    of three or more men (a unit whose size Muster does not know is left to the players)."""
    unit = state.unit(unit_key)
    rule = national.rule_in(state.setup.edition, side_rules(state, unit.side), "commissar")
    if rule is None or unit.setup.is_vehicle or (unit.models is not None and unit.models < national.COMMISSAR_MIN_MEN):
        return None
    return rule


def commissar_odds(state: GameState, unit_key: str, officer_key: str | None = None) -> Fraction | None:
    """The chance the order test passes when a failed one is taken again near a commissar, or None."""
    if commissar_rule(state, unit_key) is None:
        return None
    p = order_odds(state, unit_key, officer_key).p_pass
    return p + (1 - p) * p


BANZAI_ORDERS = ("run",)  # an assault is a Run order at the table


def banzai_applies(state: GameState, unit_key: str) -> bool:
    """Banzai Charge can act on this unit: its side carries the rule and it is infantry (the player says
    it runs at, or assaults, the closest visible enemy); or Up and 'at 'em, the characteristic a British
    list chose: an assault by a unit that is not Inexperienced."""
    unit = state.unit(unit_key)
    rules = side_rules(state, unit.side)
    if national.rule_in(state.setup.edition, rules, "banzai") is not None:
        return unit.setup.unit_type == "infantry"
    up = national.rule_in(state.setup.edition, rules, "assault_pass")
    return up is not None and not unit.setup.is_vehicle and unit.setup.quality != "inexperienced"


def give_order(
    state: GameState,
    unit_key: str,
    order: str,
    rng: Rng,
    *,
    officer: str | None = None,
    dice: tuple[int, int] | None = None,
    commissar: bool = False,
    reroll: tuple[int, int] | None = None,
    tiger: bool = False,
    banzai: bool = False,
    vengeance: bool = False,
    vengeance_die: int | None = None,
    fubar: int | None = None,
    rally: int | None = None,
) -> Action:
    """An order for the drawn die, with the order test's dice (typed, or rolled here) when needed.
    ``fubar``, ``rally``: the FUBAR chart's and a Rally's D6 when the players rolled them (a phone
    that played offline did, and showed their result): else rolled here if the order needs them.
    ``banzai``: a Japanese infantry unit Running at, or assaulting, the closest visible enemy passes
    without a roll (Banzai Charge).

    ``commissar``: the unit is within 6" of a commissar (Not One Step Back!): a failed test is taken
    again with ``reroll`` (typed, or rolled here) and a man is removed for it. ``tiger``: the unit is
    within 18" of an enemy Tiger it sees and is not ordered to fire at it (Tiger Fear). ``vengeance``:
    an enemy is within 12" of the pinned British unit (Vengeance): its die (``vengeance_die`` typed, or
    rolled here before the test's dice) may lose a pin first."""
    unit = state.unit(unit_key)
    data: dict[str, Any] = {"order": order}
    if officer:
        data["officer"] = officer
    if order not in ORDERS:
        raise RulesError("Choose an order.", code="order")
    bonus = _officer_bonus(state, unit, officer)
    if vengeance:
        _roll_vengeance(state, unit, rng, vengeance_die, data)
    if banzai:
        _check_banzai(state, unit, order)
        data["banzai"] = True
        return Action("order", side=unit.side, unit=unit_key, data=data)
    typed = {"fubar": fubar, "rally": rally}
    _roll_test(state, unit, order, bonus, rng, dice, data, commissar=commissar, reroll=reroll, tiger=tiger, typed=typed)
    return Action("order", side=unit.side, unit=unit_key, data=data)


def _check_banzai(state: GameState, unit: UnitState, order: str) -> None:
    if order not in BANZAI_ORDERS or not banzai_applies(state, unit.key):
        raise RulesError("Banzai Charge: Japanese infantry Running at the closest enemy only.", code="banzai")


def assault_rule_name(state: GameState, side: str) -> str:
    """The rule that passes the side's assault orders without a test ("" for none)."""
    rules = side_rules(state, side)
    found = national.rule_in(state.setup.edition, rules, "banzai") or national.rule_in(
        state.setup.edition, rules, "assault_pass"
    )
    return found.slug if found else ""


def snap_order(
    state: GameState,
    unit_key: str,
    rng: Rng,
    *,
    dice: tuple[int, int] | None = None,
    commissar: bool = False,
    reroll: tuple[int, int] | None = None,
    tiger: bool = False,
    vengeance: bool = False,
    vengeance_die: int | None = None,
    fubar: int | None = None,
    rally: int | None = None,
) -> Action:
    """ "You men, snap to action!": the officer's order for another unit, with its own die from the bag
    (``fubar``, ``rally``: as for ``give_order``)."""
    offer = _snap_offer(state)
    unit = state.unit(unit_key)
    data: dict[str, Any] = {"officer": offer.officer, "order": offer.order}
    bonus = state.unit(offer.officer).setup.officer_bonus
    if vengeance:
        _roll_vengeance(state, unit, rng, vengeance_die, data)
    typed = {"fubar": fubar, "rally": rally}
    _roll_test(
        state, unit, offer.order, bonus, rng, dice, data, commissar=commissar, reroll=reroll, tiger=tiger, typed=typed
    )
    return Action("snap", side=unit.side, unit=unit_key, data=data)


def _roll_test(
    state: GameState,
    unit: UnitState,
    order: str,
    bonus: int,
    rng: Rng,
    dice: tuple[int, int] | None,
    data: dict[str, Any],
    *,
    commissar: bool = False,
    reroll: tuple[int, int] | None = None,
    tiger: bool = False,
    typed: Mapping[str, int | None] | None = None,
) -> None:
    """Into ``data``: the order test's dice (typed, or rolled here) when needed, the commissar's re-roll
    of a failed test (Not One Step Back!), FUBAR's and Rally's D6 (``typed``, or rolled here). Vengeance's
    die, if any, is in ``data`` already: a pin it lost counts in the test, which is taken all the same."""
    typed = typed or {}
    if tiger:
        if not tiger_fear_applies(state, unit.key):
            raise RulesError("Tiger Fear does not act on this unit.", code="tiger-fear")
        data["tiger_fear"] = True
    shed = _shed(data)
    needs_test = _test_needed(unit, order, tiger)
    final: list[int] = []
    if needs_test:
        if dice is None:
            dice = (roll(rng), roll(rng))
            data["rolled"] = True
        final = data["dice"] = [_check_die(dice[0], "die1"), _check_die(dice[1], "die2")]
        if commissar:
            if commissar_rule(state, unit.key) is None:
                raise RulesError("Not One Step Back! does not apply to this unit.", code="commissar")
            data["commissar"] = True
            if not _passes(state, unit, bonus, final, tiger, shed):
                if reroll is None:
                    reroll = (roll(rng), roll(rng))
                    data["reroll_rolled"] = True
                final = data["reroll"] = [_check_die(reroll[0], "die1"), _check_die(reroll[1], "die2")]
        if final == [6, 6]:
            data["fubar"] = _typed_or_rolled(typed.get("fubar"), "fubar", rng)
    passed = not needs_test or _passes(state, unit, bonus, final, tiger, shed)
    if order == "rally" and passed and state.rules.rally == "d6":
        data["rally"] = _typed_or_rolled(typed.get("rally"), "rally", rng)


def _typed_or_rolled(value: int | None, name: str, rng: Rng) -> int:
    return roll(rng) if value is None else _check_die(value, name)


def _roll_vengeance(state: GameState, unit: UnitState, rng: Rng, die: int | None, data: dict[str, Any]) -> None:
    """Vengeance's die into ``data`` (typed, or rolled here: before the order test's own dice)."""
    if vengeance_rule(state, unit.key) is None:
        raise RulesError("Vengeance does not act on this unit.", code="vengeance")
    if die is None:
        die = roll(rng)
        data["vengeance_rolled"] = True
    data["vengeance"] = _check_die(die, "vengeance")


def _shed(data: Mapping[str, Any]) -> int:
    """Pins Vengeance's die (already checked) makes the unit lose before its order: one on 4-6."""
    die = data.get("vengeance")
    return 1 if isinstance(die, int) and die >= VENGEANCE_SHEDS_ON else 0


def casualties(
    state: GameState, unit_key: str, delta: int, rng: Rng, *, nco: bool = False, nco_die: int | None = None
) -> Action:
    """Casualties removed (``delta`` models; negative puts them back). ``nco``: the squad's NCO was among
    them; with 2nd-edition Initiative Training its die (``nco_die`` typed, or rolled here) says whether
    another man takes over."""
    unit = state.unit(unit_key)
    data: dict[str, Any] = {"delta": delta}
    if nco:
        _check_nco(state, unit, delta)
        data["nco"] = True
        if initiative_die(state, unit.side) is not None:
            if nco_die is None:
                nco_die = roll(rng)
                data["nco_rolled"] = True
            data["nco_die"] = _check_die(nco_die, "nco_die")
    return Action("casualties", side=unit.side, unit=unit.key, data=data)


def _check_nco(state: GameState, unit: UnitState, delta: object) -> None:
    if not has_nco(state, unit.key):
        raise RulesError("This unit has no NCO left to lose.", code="nco")
    if not isinstance(delta, int) or isinstance(delta, bool) or delta < 1:
        raise RulesError("The NCO falls with a casualty: remove at least one model.", code="nco-casualty")


def die_to_send_back(state: GameState) -> str | None:
    """Communication Breakdown!: the side whose die, the first drawn in the game, its enemy may put back
    in the bag (once), or None."""
    side = state.pending
    if side is None or state.turn != 1 or state.sent_back or state.finished:
        return None
    if national.rule_in(state.setup.edition, side_rules(state, side), "send_back") is None:
        return None
    if any(u.orders for u in state.units.values()):
        return None  # a die was given already: the one drawn now is not the first
    return side


SUPPORT_ROLLS = ("air", "radius")


def support_rule(state: GameState, side: str, roll: str) -> national.NationalRule | None:
    """The national rule that makes game day offer this roll to ``side``: Air Superiority (the air
    strike chart) or Massed Batteries (a barrage's radius), if its list carries it in this edition."""
    effect = {"air": "air_strikes", "radius": "barrage_radius"}.get(roll)
    if effect is None:
        return None
    return national.rule_in(state.setup.edition, side_rules(state, side), effect)  # type: ignore[arg-type]


def support_offers(state: GameState, side: str) -> tuple[str, ...]:
    """The support rolls ``side`` may make now (game day offers only those a national rule changes)."""
    if state.finished:
        return ()
    offers = []
    if support_rule(state, side, "air") and _air_left(state, side) and state.air_rolled[side] != state.turn:
        offers.append("air")
    if support_rule(state, side, "radius"):
        offers.append("radius")
    return tuple(offers)


def support_dice(roll: str) -> int:
    """Dice one roll takes: the air strike chart's D6; Massed Batteries' two dice for the radius."""
    return 1 if roll == "air" else support.barrage_dice(massed_batteries=True)


def _air_left(state: GameState, side: str) -> int:
    return support.air_strikes_allowed(air_superiority=True) - state.air_calls[side]


def support_roll(state: GameState, side: str, kind: str, rng: Rng, *, dice: Iterable[int] | None = None) -> Action:
    """An air strike (``kind`` "air") or barrage-radius ("radius") roll for ``side``: typed ``dice``,
    or rolled here."""
    _check_playing(state)
    if side not in SIDES or kind not in support_offers(state, side):
        raise RulesError("This roll is not offered now.", code="support", params={"side": side})
    if dice is None:
        values = [roll(rng) for _ in range(support_dice(kind))]
        return Action("support", side=side, data={"roll": kind, "dice": values, "rolled": True})
    values = [_check_die(d, f"die{i + 1}") for i, d in enumerate(dice)]
    return Action("support", side=side, data={"roll": kind, "dice": values})


BOMBARD_ROLLS = ("bombard", "bombard-keep")


def bombard_rule(state: GameState, side: str) -> national.NationalRule | None:
    """Britain's Bombardment (2nd edition), if ``side``'s list carries it: two dice per enemy unit."""
    return national.rule_in(state.setup.edition, side_rules(state, side), "bombard")


def bombard_dice(state: GameState, side: str) -> int:
    return support.bombard_dice(bombardment=bombard_rule(state, side) is not None)


def bombard_targets(state: GameState, side: str) -> list[UnitState]:
    """The enemy units a bombardment by ``side`` may fall on: those not destroyed (the player leaves out
    the ones not on the table, in reserve: Muster cannot see them)."""
    return [u for u in state.side_units(other_side(side)) if not u.destroyed]


def bombard_offered(state: GameState, side: str) -> bool:
    """A preparatory bombardment by ``side`` may be rolled now: once a game, before the first order."""
    return not state.finished and not _bombard_refusal(state, side)


def _bombard_refusal(state: GameState, side: str) -> str:
    """Why a bombardment by ``side`` is refused now ("" when it is not)."""
    if side not in SIDES:
        return "support"
    if state.bombard[side]:
        return "bombard-once"
    if state.turn != 1 or any(u.orders for u in state.units.values()):
        return "bombard-late"
    if not bombard_targets(state, side):
        return "bombard-units"
    return ""


def bombard_to_keep(state: GameState, side: str) -> dict[str, list[int]]:
    """The units whose two Bombardment dice wait for the player's choice (unit key -> dice), or {}."""
    if state.finished or side not in SIDES or state.bombard_kept[side]:
        return {}
    rolled = state.bombard[side]
    return rolled if any(len(dice) > 1 for dice in rolled.values()) else {}


_BOMBARD_ERRORS = {
    "support": "This roll is not offered now.",
    "bombard-once": "This side has made its preparatory bombardment: one a game.",
    "bombard-late": "The preparatory bombardment comes before the first order of the game.",
    "bombard-units": "Choose the enemy units on the table.",
}


def bombard_roll(
    state: GameState,
    side: str,
    rng: Rng,
    *,
    units: Iterable[str] | None = None,
    dice: Mapping[str, Iterable[int]] | None = None,
) -> Action:
    """A preparatory bombardment by ``side``: for each enemy unit on the table (``units``; all the enemy's
    surviving units by default) one die, or two with Bombardment; ``dice`` typed per unit, or rolled here."""
    _check_playing(state)
    refusal = _bombard_refusal(state, side)
    if refusal:
        raise RulesError(_BOMBARD_ERRORS[refusal], code=refusal, params={"side": side})
    keys = [u.key for u in bombard_targets(state, side)] if units is None else list(dict.fromkeys(units))
    n = bombard_dice(state, side)
    if dice is None:
        # Rolled unit by unit, in the order the units stand in the list.
        rolled = {key: [roll(rng) for _ in range(n)] for key in keys}
        return Action("support", side=side, data={"roll": "bombard", "dice": rolled, "rolled": True})
    typed = {key: [_check_die(d, "die") for d in dice.get(key, ())] for key in keys}
    return Action("support", side=side, data={"roll": "bombard", "dice": typed})


def bombard_keep(state: GameState, side: str, kept: Mapping[str, int]) -> Action:
    """The die ``side`` keeps for each unit of its Bombardment (one of the unit's two dice)."""
    _check_playing(state)
    if not bombard_to_keep(state, side):
        raise RulesError("No bombardment dice wait for a choice.", code="support", params={"side": side})
    return Action("support", side=side, data={"roll": "bombard-keep", "kept": dict(kept)})


# --- Defensive Strategy (Italy, 2nd edition) ------------------------------------------------------
#
# The book leaves the "who defends?" roll to the scenario; Muster assumes the usual one: one die, 4-6
# and the side that rolls defends (a fair 1/2). An Italian side that did not get the role re-rolls once
# and the second result stands (not when both sides are Italian), so it defends with 1/2 + 1/2 * 1/2.
# A scenario that settles it otherwise is recorded as it fell ("defends" / "does not").

DEFENDS_ON = 4  # the assumed first roll: the Italian side defends on 4-6


def defensive_rule(state: GameState, side: str) -> national.NationalRule | None:
    """Italy's Defensive Strategy, if ``side``'s list carries it in this edition."""
    return national.rule_in(state.setup.edition, side_rules(state, side), "defensive")


def defence_reroll(state: GameState, side: str) -> bool:
    """``side`` re-rolls a "who defends?" roll that did not make it the defender (not Italian v Italian)."""
    return defensive_rule(state, side) is not None and defensive_rule(state, other_side(side)) is None


def defender_odds(state: GameState, side: str) -> Fraction:
    """The exact chance ``side`` defends on the assumed roll, with its re-roll if it has one."""
    p = Fraction(support.FACES - DEFENDS_ON + 1, support.FACES)
    return p + (1 - p) * p if defence_reroll(state, side) else p


def _before_first_order(state: GameState) -> bool:
    return not state.finished and state.turn == 1 and not any(u.orders for u in state.units.values())


def defence_offered(state: GameState, side: str) -> bool:
    """The "who defends?" roll (or record) is offered to ``side``: its list carries Defensive Strategy,
    no defender is recorded yet, and no order has been given."""
    return (
        side in SIDES
        and defensive_rule(state, side) is not None
        and state.defender is None
        and _before_first_order(state)
    )


def emplacements_offered(state: GameState, side: str) -> bool:
    """The D3 emplacements roll is offered: ``side`` carries the rule, defends, and has not rolled them."""
    return (
        side in SIDES
        and defensive_rule(state, side) is not None
        and state.defender == side
        and not state.emplacements[side]
        and _before_first_order(state)
    )


def run_refused(state: GameState, side: str) -> bool:
    """On the first turn the enemy of a defending Defensive Strategy side may not give Run orders."""
    defender = state.defender
    return state.turn == 1 and defender is not None and side != defender and defensive_rule(state, defender) is not None


def defence_roll(
    state: GameState,
    side: str,
    rng: Rng,
    *,
    dice: Iterable[int] | None = None,
    defends: bool | None = None,
) -> Action:
    """``side``'s "who defends?": ``defends`` recorded as the scenario decided it, or the roll's dice
    (the first, and the re-roll when the first did not make ``side`` the defender), typed or rolled here."""
    _check_playing(state)
    if not defence_offered(state, side):
        raise RulesError("This roll is not offered now.", code="support", params={"side": side})
    if defends is not None:
        return Action("support", side=side, data={"roll": "defender", "defends": bool(defends)})
    typed = [_check_die(d, f"die{i + 1}") for i, d in enumerate(dice or ())]
    rolled = not typed
    values = typed[:1] or [roll(rng)]
    if values[0] < DEFENDS_ON and defence_reroll(state, side):
        values.append(typed[1] if len(typed) > 1 else roll(rng))
        rolled = rolled or len(typed) < 2
    data: dict[str, Any] = {"roll": "defender", "dice": values}
    if rolled:
        data["rolled"] = True
    return Action("support", side=side, data=data)


def emplacements_roll(state: GameState, side: str, rng: Rng, *, die: int | None = None) -> Action:
    """The D3 emplacements a defending Defensive Strategy side places: its die typed, or rolled here."""
    _check_playing(state)
    if not emplacements_offered(state, side):
        raise RulesError("This roll is not offered now.", code="support", params={"side": side})
    if die is None:
        return Action("support", side=side, data={"roll": "emplacements", "die": roll(rng), "rolled": True})
    return Action("support", side=side, data={"roll": "emplacements", "die": _check_die(die, "die")})


def send_back(state: GameState) -> Action:
    """The enemy puts the French side's first die back in the bag (Communication Breakdown!)."""
    side = die_to_send_back(state)
    if side is None:
        raise RulesError("No die can be sent back now.", code="send-back")
    return Action("send_back", side=other_side(side))


def end_turn(
    state: GameState,
    rng: Rng,
    *,
    release: Iterable[str] = (),
    force: bool = False,
    down_dice: Mapping[str, int] | None = None,
) -> Action:
    """End the turn: units on Down or Ambush keep their order unless released; staying Down sheds pins.

    ``down_dice``: the D3 each unit staying Down rolled, by unit key, when the players rolled them (a
    phone that played offline did); a unit without one rolls here. Editions that shed every pin roll none.
    """
    down_dice = down_dice or {}
    _check_playing(state)
    released = sorted(set(release))
    data: dict[str, Any] = {"release": released}
    if force:
        data["force"] = True
    down_pins: dict[str, int] = {}
    for unit in state.units.values():
        if unit.destroyed or unit.order != "down" or unit.key in released or not unit.pins:
            continue
        if state.rules.down_end_turn == "d3":
            typed = down_dice.get(unit.key)
            down_pins[unit.key] = d3(roll(rng)) if typed is None else _int(typed, "down_pins", 1, 3)
        else:
            down_pins[unit.key] = unit.pins
    data["down_pins"] = down_pins
    return Action("end_turn", data=data)


# --- applying actions ----------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> None:
    """Apply one action to ``state`` in place, or raise RulesError (checked before anything changes)."""
    handler = _HANDLERS.get(action.kind)
    if handler is None:
        raise RulesError(f"Unknown action {action.kind!r}.", code="action")
    if action.kind not in NOTES and action.kind != "end_game":
        _check_playing(state)
    detail = handler(state, action)
    if action.data.get("typed"):
        # The players typed the action's dice (or some of them): its log line says so.
        detail = {**detail, "typed": True}
    if action.data.get("settled"):
        # An action of an offline queue that did not fit the merged game, applied later by its player.
        detail = {**detail, "settled": True}
    state.log.append(LogEntry(state.turn, action.kind, action.side, action.unit, detail))


def _check_playing(state: GameState) -> None:
    if state.finished:
        raise RulesError("The game is over.", code="finished")


def _officer_bonus(state: GameState, unit: UnitState, officer_key: str | None) -> int:
    if not officer_key:
        return 0
    officer = state.unit(officer_key)
    if officer.side != unit.side or officer.destroyed or not officer.setup.officer_bonus:
        raise RulesError("That officer cannot help this unit.", code="officer")
    return officer.setup.officer_bonus


def _test_needed(unit: UnitState, order: str, tiger: bool = False) -> bool:
    # A pinned unit given Down needs no test (and loses no pin) [§12, S004]. Under Tiger Fear the
    # unit tests as if it had one more pin, so it tests even with none.
    return (unit.pins > 0 or tiger) and order != "down"


def _passes(state: GameState, unit: UnitState, bonus: int, dice: list[int], tiger: bool = False, shed: int = 0) -> bool:
    if dice == [6, 6]:
        return False  # FUBAR: always a failure (the clamp is at most 11) [§12]
    return dice[0] + dice[1] <= _test_odds(state, unit, bonus, tiger=tiger, shed=shed).morale


def _draw(state: GameState, action: Action) -> dict[str, Any]:
    side = action.side or ""
    if side not in SIDES:
        raise RulesError("A die belongs to side a or b.", code="side")
    if state.pending:
        raise RulesError("Give the drawn die an order first.", code="pending")
    if state.dice_in_bag(side) == 0:
        raise RulesError("That side has no die left in the bag.", code="no-die")
    state.pending = side
    state.snap = None  # the next die is drawn: the officer's moment has passed
    return {"recorded": bool(action.data.get("recorded")), "left": state.dice_in_bag(side)}


def _order(state: GameState, action: Action) -> dict[str, Any]:
    unit = state.unit(action.unit)
    order = action.data.get("order")
    if order not in ORDERS:
        raise RulesError("Choose an order.", code="order")
    if state.pending != unit.side:
        raise RulesError("Draw a die of this unit's side first.", code="no-pending")
    if not unit.can_take_order:
        raise RulesError("This unit cannot take another order this turn.", code="ordered")
    bonus = _officer_bonus(state, unit, action.data.get("officer"))
    detail = _take_order(state, unit, order, bonus, action.data)
    state.pending = None
    extra = unit.setup.extra_orders
    blitz = bool(extra) and national.rule_in(state.setup.edition, side_rules(state, unit.side), "blitzkrieg")
    if blitz:
        extra += 1  # Blitzkrieg: a German officer's "snap to action" takes one more die from the bag
    # An officer who took the order he was given (no failed test, no FUBAR) may pass it on, if a
    # unit of his side is still there to take it: once every other one has its order, their dice
    # are out of the bag and the offer could never be taken up.
    takers = any(other.key != unit.key and other.can_take_order for other in state.side_units(unit.side))
    passes_on = extra and takers and detail["given"] == order
    state.snap = SnapOffer(unit.key, unit.side, order, extra) if passes_on else None
    if state.snap:
        detail["snap"] = extra
        if blitz:
            detail["blitzkrieg"] = True
    return detail


def _snap_offer(state: GameState) -> SnapOffer:
    offer = state.snap
    if offer is None:
        raise RulesError("No officer's order to pass on now.", code="no-snap")
    return offer


def _snap(state: GameState, action: Action) -> dict[str, Any]:
    offer = _snap_offer(state)
    unit = state.unit(action.unit)
    if unit.side != offer.side or unit.key == offer.officer:
        raise RulesError("The officer passes his order to other units of his own side.", code="snap-unit")
    if not unit.can_take_order:
        raise RulesError("This unit cannot take another order this turn.", code="ordered")
    if action.data.get("order") != offer.order:
        raise RulesError("The unit takes the officer's own order.", code="snap-order")
    detail = _take_order(state, unit, offer.order, state.unit(offer.officer).setup.officer_bonus, action.data)
    offer.left -= 1
    if offer.left == 0:
        state.snap = None
    detail.update(officer=offer.officer, left=offer.left)
    return detail


def _take_order(state: GameState, unit: UnitState, order: str, bonus: int, data: Mapping[str, Any]) -> dict[str, Any]:
    """The unit takes ``order``: its test if pinned (typed dice in ``data``), pins, Rally. Checks first."""
    if order == "run" and run_refused(state, unit.side):
        raise RulesError(
            "Defensive Strategy: the enemy of the defender gives no Run order on turn 1.", code="defensive-run"
        )
    detail: dict[str, Any] = {"order": order, "pins_before": unit.pins}
    shed = 0
    if data.get("vengeance") is not None:
        # Vengeance: its die, rolled before the order, loses a pin on 4-6; the test (if any) follows
        # all the same, on the pins left [BR2].
        if vengeance_rule(state, unit.key) is None:
            raise RulesError("Vengeance does not act on this unit.", code="vengeance")
        shed = 1 if _check_die(data["vengeance"], "vengeance") >= VENGEANCE_SHEDS_ON else 0
        detail.update(vengeance=data["vengeance"], vengeance_shed=bool(shed))
        if data.get("vengeance_rolled"):
            detail["vengeance_rolled"] = True
    given, pins = order, unit.pins - shed
    lost_man = False
    if data.get("banzai"):
        # Banzai Charge: the test is passed without a roll; a pinned unit loses a pin as for any pass.
        _check_banzai(state, unit, order)
        unit.pins = max(pins - 1, 0) if _test_needed(unit, order) else pins
        unit.orders.append(order)
        unit.kept = False
        detail.update(banzai=True, rule=assault_rule_name(state, unit.side), given=order, pins_after=unit.pins)
        return detail
    tiger = bool(data.get("tiger_fear"))
    if tiger:
        if not tiger_fear_applies(state, unit.key):
            raise RulesError("Tiger Fear does not act on this unit.", code="tiger-fear")
        detail["tiger_fear"] = True
    avanti = avanti_modifier(state, unit.side)
    if avanti:
        detail["avanti"] = avanti
    nco = nco_penalty(state, unit)
    if nco:
        detail["nco"] = nco
    if _test_needed(unit, order, tiger):
        dice = data.get("dice")
        if not isinstance(dice, list) or len(dice) != 2:
            raise RulesError("This unit is pinned: it takes an order test.", code="test")
        _check_die(dice[0], "die1")
        _check_die(dice[1], "die2")
        odds = _test_odds(state, unit, bonus, tiger=tiger, shed=shed)
        detail.update(dice=list(dice), morale=odds.morale, bonus=bonus, p_pass=str(odds.p_pass))
        if data.get("commissar"):
            # Not One Step Back!: a failed test is taken again, and the commissar removes a man for it.
            if commissar_rule(state, unit.key) is None:
                raise RulesError("Not One Step Back! does not apply to this unit.", code="commissar")
            if not _passes(state, unit, bonus, list(dice), tiger, shed):
                reroll = data.get("reroll")
                if not isinstance(reroll, list) or len(reroll) != 2:
                    raise RulesError("The failed test is taken again: give the second roll.", code="test")
                _check_die(reroll[0], "die1")
                _check_die(reroll[1], "die2")
                lost_man = True
                detail.update(commissar=True, first=list(dice), dice=list(reroll))
                dice = reroll
        if dice == [6, 6]:
            chart = _check_die(data.get("fubar"), "fubar")
            detail["fubar"] = "friendly_fire" if chart <= state.rules.combat.fubar_friendly_fire_faces else "panic"
            given = "fubar"
        elif dice[0] + dice[1] > odds.morale:
            given = "down"  # a failed test: the unit goes Down [§12, S004]
            detail["failed"] = True
        else:
            pins = max(pins - 1, 0)  # a passed test removes a pin [§7] (Tiger Fear's is not a real one)
            detail["passed"] = True
    if given == "rally":
        if state.rules.rally == "all":
            pins = 0
        else:
            pins = max(pins - _check_die(data.get("rally"), "rally"), 0)
            detail["rally"] = data["rally"]
    unit.pins = pins
    if lost_man and unit.models is not None:
        unit.models -= 1  # the commissar's man: the unit has three or more, so it is never wiped out
        detail["models"] = unit.models
    unit.orders.append(given)
    unit.kept = False
    detail.update(given=given, pins_after=unit.pins)
    return detail


def _pins(state: GameState, action: Action) -> dict[str, Any]:
    unit = _live_unit(state, action)
    delta = _int(action.data.get("delta"), "delta", -50, 50)
    unit.pins = max(unit.pins + delta, 0)
    detail: dict[str, Any] = {"delta": delta, "pins": unit.pins}
    if _pin_limit_reached(state, unit):
        _destroy(state, unit, "pins")
        detail["routed"] = True
    return detail


def _pin_limit_reached(state: GameState, unit: UnitState) -> bool:
    # Pins at or over the unit's unmodified morale destroy it [§7, S004, DOL; JK3 for 3rd ed] ...
    if not state.rules.combat.pin_rout or unit.pins < unit.setup.base_morale:
        return False
    # ... unless it is Fanatic with two or more men left [rules-notes: pin limit; morale.py's
    # fanatic_men >= 2]. A unit whose men Muster does not know (a stand-in) is routed as before: the
    # exemption needs the men counted, and a stand-in is never Fanatic anyway (it has no list).
    return not (unit.setup.fanatic and unit.models is not None and unit.models >= FANATIC_MEN)


def _casualties(state: GameState, action: Action) -> dict[str, Any]:
    unit = _live_unit(state, action)
    if unit.models is None:
        raise RulesError("Muster does not know this unit's models: mark it destroyed instead.", code="models")
    delta = _int(action.data.get("delta"), "delta", -50, 50)
    nco, die = "", None
    rule = national.rule_in(state.setup.edition, side_rules(state, unit.side), "nco")
    if action.data.get("nco"):
        # The squad's NCO was among the casualties: lost, unless Initiative Training's die (2nd edition)
        # shows 2+ and another man takes over (the penalty is then never taken) [BR2].
        _check_nco(state, unit, delta)
        nco = "lost"
        if initiative_die(state, unit.side) is not None:
            die = _check_die(action.data.get("nco_die"), "nco_die")
            nco = "replaced" if die >= INITIATIVE_TAKES_OVER else "lost"
    start = unit.setup.models or 0
    unit.models = min(max(unit.models - delta, 0), start)
    detail: dict[str, Any] = {"delta": delta, "models": unit.models}
    if nco:
        unit.nco_lost = nco == "lost"
        detail.update(nco=nco, nco_penalty=nco_penalty(state, unit))
        if rule is not None:  # Initiative Training: its die (2nd edition), or the penalty ignored (3rd)
            detail["rule"] = rule.slug
        if die is not None:
            detail["nco_die"] = die
            if action.data.get("nco_rolled"):
                detail["nco_rolled"] = True
    if unit.models == 0:
        _destroy(state, unit, "casualties")
        detail["wiped_out"] = True
    elif unit.setup.fanatic and _pin_limit_reached(state, unit):
        # A Fanatic unit held at its pin limit by its men routs once fewer than two are left.
        _destroy(state, unit, "pins")
        detail["routed"] = True
    return detail


def _damage(state: GameState, action: Action) -> dict[str, Any]:
    unit = _live_unit(state, action)
    result = action.data.get("result")
    if result not in DAMAGE:
        raise RulesError("Choose a damage result.", code="damage")
    if not unit.setup.is_vehicle:
        raise RulesError("Only vehicles take damage results.", code="not-vehicle")
    detail: dict[str, Any] = {"result": result}
    if result == "extinguished":
        unit.on_fire = False
        return detail
    if result == "knocked_out":
        _destroy(state, unit, "knocked_out")
        return detail
    unit.pins += 1  # every damage result adds a pin [§7, S002, S000]
    if result == "on_fire":
        unit.on_fire = True
    else:
        unit.immobilised += 1
        if unit.immobilised >= 2 and state.rules.second_immobilised_knocks_out:
            _destroy(state, unit, "knocked_out")
            detail["knocked_out"] = True
            return detail
    if _pin_limit_reached(state, unit):
        _destroy(state, unit, "pins")
        detail["routed"] = True
    return detail


def _remove(state: GameState, action: Action) -> dict[str, Any]:
    unit = _live_unit(state, action)
    _destroy(state, unit, "removed")
    return {}


def _destroy(state: GameState, unit: UnitState, how: str) -> None:
    unit.destroyed = True
    unit.destroyed_how = how
    unit.on_fire = False
    if state.snap and state.snap.officer == unit.key:
        state.snap = None  # a fallen officer orders no one
    if state.pending == unit.side and not any(u.can_take_order for u in state.side_units(unit.side)):
        # The drawn die has no unit left to take it: it leaves the game with the last one.
        state.pending = None


def _send_back(state: GameState, action: Action) -> dict[str, Any]:
    side = die_to_send_back(state)
    if side is None or action.side != other_side(side):
        raise RulesError("No die can be sent back now.", code="send-back")
    state.pending = None
    state.sent_back = True
    return {"die": side, "rule": "communication-breakdown"}


def _support(state: GameState, action: Action) -> dict[str, Any]:
    side, roll_kind = action.side or "", action.data.get("roll")
    if roll_kind == "bombard":
        return _bombard(state, side, action)
    if roll_kind == "bombard-keep":
        return _bombard_keep(state, side, action)
    if roll_kind == "defender":
        return _defender(state, side, action)
    if roll_kind == "emplacements":
        return _emplacements(state, side, action)
    if side not in SIDES or roll_kind not in support_offers(state, side):
        raise RulesError("This roll is not offered now.", code="support", params={"side": side})
    dice = [_check_die(d, "die") for d in action.data.get("dice") or ()]
    if len(dice) != support_dice(roll_kind):
        raise RulesError(
            "Type every die of the roll, or none to let Muster roll.", code="support-dice", params={"dice": len(dice)}
        )
    rule = support_rule(state, side, roll_kind)
    detail: dict[str, Any] = {"roll": roll_kind, "dice": dice, "rule": rule.slug if rule else ""}
    if action.data.get("rolled"):
        detail["rolled"] = True
    if roll_kind == "air":
        outcome = support.air_strike_result(dice[0])
        state.air_rolled[side] = state.turn
        if outcome in support.CALL_USED:
            state.air_calls[side] += 1
        detail.update(outcome=outcome, left=_air_left(state, side))
    else:
        detail["radius"] = support.barrage_radius(dice)
    return detail


def _bombard(state: GameState, side: str, action: Action) -> dict[str, Any]:
    refusal = _bombard_refusal(state, side)
    if refusal:
        raise RulesError(_BOMBARD_ERRORS[refusal], code=refusal, params={"side": side})
    rolled = action.data.get("dice")
    targets = {u.key for u in bombard_targets(state, side)}
    if not isinstance(rolled, Mapping) or not rolled or not set(rolled) <= targets:
        raise RulesError(_BOMBARD_ERRORS["bombard-units"], code="bombard-units", params={"side": side})
    n = bombard_dice(state, side)
    dice: dict[str, list[int]] = {}
    for key, values in rolled.items():
        if not isinstance(values, list) or len(values) != n:
            raise RulesError(
                "Type every die of the bombardment, or none to let Muster roll.",
                code="bombard-dice",
                params={"dice": n},
            )
        dice[key] = [_check_die(d, "die") for d in values]
    state.bombard[side] = dice
    rule = bombard_rule(state, side)
    detail: dict[str, Any] = {"roll": "bombard", "dice": dice, "rule": rule.slug if rule else ""}
    if action.data.get("rolled"):
        detail["rolled"] = True
    return detail


def _bombard_keep(state: GameState, side: str, action: Action) -> dict[str, Any]:
    waiting = bombard_to_keep(state, side)
    if not waiting:
        raise RulesError("No bombardment dice wait for a choice.", code="support", params={"side": side})
    kept = action.data.get("kept")
    if not isinstance(kept, Mapping) or set(kept) != set(waiting):
        raise RulesError("Keep one die for every unit.", code="bombard-keep", params={"side": side})
    chosen = {key: support.check_kept(waiting[key], kept[key]) for key in waiting}
    state.bombard_kept[side] = True
    rule = bombard_rule(state, side)
    return {
        "roll": "bombard-keep",
        "dice": {k: list(v) for k, v in waiting.items()},
        "kept": chosen,
        "rule": rule.slug if rule else "bombardment",
    }


def _defender(state: GameState, side: str, action: Action) -> dict[str, Any]:
    if not defence_offered(state, side):
        raise RulesError("This roll is not offered now.", code="support", params={"side": side})
    rule = defensive_rule(state, side)
    detail: dict[str, Any] = {"roll": "defender", "rule": rule.slug if rule else ""}
    if "defends" in action.data:
        defends = action.data["defends"]
        if not isinstance(defends, bool):
            raise RulesError("Say whether the side defends.", code="defender", params={"side": side})
        detail.update(defends=defends, recorded=True)
    else:
        dice = action.data.get("dice")
        if not isinstance(dice, list) or not dice:
            raise RulesError("Type the die, or none to let Muster roll.", code="defender", params={"side": side})
        values = [_check_die(d, "die") for d in dice]
        needs = 2 if values[0] < DEFENDS_ON and defence_reroll(state, side) else 1
        if len(values) != needs:
            raise RulesError("Type the die, and the re-roll when it is due.", code="defender", params={"side": side})
        defends = values[-1] >= DEFENDS_ON  # the second result stands
        detail.update(dice=values, defends=defends, rerolled=needs == 2)
        if action.data.get("rolled"):
            detail["rolled"] = True
    state.defender = side if defends else other_side(side)
    return detail


def _emplacements(state: GameState, side: str, action: Action) -> dict[str, Any]:
    if not emplacements_offered(state, side):
        raise RulesError("This roll is not offered now.", code="support", params={"side": side})
    die = _check_die(action.data.get("die"), "die")
    state.emplacements[side] = d3(die)
    detail: dict[str, Any] = {"roll": "emplacements", "die": die, "count": state.emplacements[side]}
    if action.data.get("rolled"):
        detail["rolled"] = True
    return detail


def _end_turn(state: GameState, action: Action) -> dict[str, Any]:
    if state.pending:
        raise RulesError("Give the drawn die an order first.", code="pending")
    if not state.bag_empty and not action.data.get("force"):
        raise RulesError("Dice are left in the bag.", code="dice-left")
    released = set(action.data.get("release") or ())
    down_pins = {key: _int(n, "down_pins", 0, 50) for key, n in dict(action.data.get("down_pins") or {}).items()}
    kept, shed = [], {}
    for unit in state.units.values():
        order = unit.order
        if unit.destroyed or order not in KEPT_ORDERS or unit.key in released:
            unit.orders = []
            unit.kept = False
            continue
        unit.orders = [order]
        unit.kept = True
        kept.append(unit.key)
        if order == "down" and unit.key in down_pins:
            lost = min(down_pins[unit.key], unit.pins)
            unit.pins -= lost
            shed[unit.key] = lost
    detail = {"turn": state.turn, "kept": kept, "down_pins": shed}
    state.turn += 1
    state.lost_at_start = {side: units_lost(state, side) for side in SIDES}
    state.snap = None
    return detail


def _end_game(state: GameState, action: Action) -> dict[str, Any]:
    result = action.data.get("result")
    if result not in RESULTS:
        raise RulesError("Choose the result.", code="result")
    _check_playing(state)
    state.finished = True
    state.snap = None
    state.result = result
    state.scenario = str(action.data.get("scenario") or "")[:100]
    state.pending = None
    return {"result": result, "scenario": state.scenario}


def _live_unit(state: GameState, action: Action) -> UnitState:
    unit = state.unit(action.unit)
    if unit.destroyed:
        raise RulesError("This unit is destroyed.", code="destroyed")
    return unit


def _int(value: object, name: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise RulesError(f"{name}: a whole number from {lo} to {hi}.", code="number", params={"field": name})
    return value


def note_detail(action: Action) -> dict[str, Any]:
    """A note's line of the log: its numbers and words."""
    return {key: value for key, value in action.data.items() if isinstance(value, int | str)}


def _note(state: GameState, action: Action) -> dict[str, Any]:
    """A line of the log that changes nothing on the table (what a merge of two phones' queues did, a
    conflict settled): kept with the actions so that the log stays one list, replayed like the rest."""
    return note_detail(action)


# Actions that only write the log: accepted after the game is over too (a queue merged late).
NOTES = ("merged", "settled")

_HANDLERS = {
    "merged": _note,
    "settled": _note,
    "draw": _draw,
    "order": _order,
    "snap": _snap,
    "pins": _pins,
    "casualties": _casualties,
    "damage": _damage,
    "remove": _remove,
    "send_back": _send_back,
    "support": _support,
    "end_turn": _end_turn,
    "end_game": _end_game,
}


# --- summary -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideSummary:
    side: str
    name: str
    units: int
    units_lost: int
    points_lost: int
    dice_in_bag: int
    dice_total: int


@dataclass(frozen=True)
class GameSummary:
    turn: int
    turns_played: int  # turns completed (the current one counts once the game is over)
    sides: tuple[SideSummary, SideSummary]


def summarise(state: GameState) -> GameSummary:
    """Units and points lost per side (a common tournament tiebreaker) and turns played."""
    sides = []
    for side in state.setup.sides:
        units = state.side_units(side.key)
        lost = [u for u in units if u.destroyed]
        sides.append(
            SideSummary(
                side=side.key,
                name=side.name,
                units=len(units),
                units_lost=len(lost),
                points_lost=sum(u.setup.points for u in lost),
                dice_in_bag=state.dice_in_bag(side.key),
                dice_total=state.dice_total(side.key),
            )
        )
    played = state.turn if state.finished else state.turn - 1
    return GameSummary(turn=state.turn, turns_played=played, sides=(sides[0], sides[1]))
