"""Test cases for the phone's copy of the table rules (``static/js/game_rules.js``), written by this engine.

Each case is a board situation, an action and its dice, played through ``rules.game.engine`` the way
the server plays it, with the engine's answer: the order a tested unit takes and the morale it tested
against, whether pins rout a unit (Fanatics included), and what the end of the turn leaves of a unit.
``manage.py gameday_js_cases`` writes them to ``tests/js/gameday_cases.json``; Node's test runner
(``node --test tests/js/``) feeds them to the JavaScript, and ``tests/rules/game/test_js_cases.py``
checks that the file is what the engine answers now, so a change to either copy alone fails.
"""

from __future__ import annotations

import itertools
from typing import Any

from rules.combat import national, support
from rules.errors import RulesError
from rules.game.editions import game_rules
from rules.game.engine import (
    BANZAI_ORDERS,
    Action,
    GameSetup,
    GameState,
    _test_needed,
    _test_odds,
    apply,
    die_to_send_back,
    draw,
    end_turn,
    give_order,
    initiative_die,
    new_state,
    recorded_draw,
    support_roll,
)

EDITIONS = ("v1", "v2", "v3")
QUALITIES = ("inexperienced", "regular", "veteran")


class _Threes:
    """The dice the engine rolls besides the cases' own (FUBAR's chart, a Rally's D6): always a 3, so
    the cases are the same every time they are written."""

    def randint(self, a: int, b: int) -> int:
        return min(max(3, a), b)

    def randrange(self, stop: int) -> int:
        return 0


# Dice that reach every outcome: double one, double six (FUBAR), and sums either side of each morale.
DICE = ((1, 1), (1, 2), (2, 3), (3, 4), (4, 4), (4, 5), (5, 5), (5, 6), (6, 6))


def _setup(edition: str, quality: str = "regular", *, models: int | None = 5, fanatic: bool = False, dice: int = 1):
    unit = {"key": "u", "name": "U", "quality": quality, "models": models, "fanatic": fanatic, "dice": dice}
    officer = {"key": "o", "name": "O", "quality": "regular", "models": 1, "officer_bonus": 2}
    return GameSetup.from_data(
        {
            "edition": edition,
            "sides": [
                {"key": "a", "name": "A", "units": [unit, officer]},
                {"key": "b", "name": "B", "units": [{"key": "e", "name": "E", "quality": "regular", "models": 5}]},
            ],
        }
    )


def _game(edition: str, units: list[dict[str, Any]], rules: tuple[str, ...] = ()) -> GameState:
    """A game of side A's ``units`` (carrying the national ``rules``) against one Regular squad."""
    enemy = {"key": "e", "name": "E", "quality": "regular", "models": 5}
    sides = [
        {"key": "a", "name": "A", "rules": list(rules), "units": units},
        {"key": "b", "name": "B", "units": [enemy]},
    ]
    return new_state(GameSetup.from_data({"edition": edition, "sides": sides}))


SQUAD = {"key": "u", "name": "U", "quality": "regular", "models": 5}


def _range(state: GameState) -> list[int]:
    return [state.rules.combat.morale_min, state.rules.combat.morale_cap]


def order_cases() -> list[dict[str, Any]]:
    """An order given to a unit with 0 to 4 pins, with or without the officer's +2, on each set of dice:
    the order the engine gives it (``given``) and the morale it tested against (None: no test)."""
    cases = []
    for edition, quality, pins, order, officer, dice in itertools.product(
        EDITIONS, QUALITIES, range(5), ("advance", "rally", "down"), (False, True), DICE
    ):
        state = new_state(_setup(edition, quality))
        state.units["u"].pins = pins
        apply(state, recorded_draw("a"))
        row_morale = state.units["u"].setup.base_morale  # the row's data-morale (no Avanti, no NCO lost)
        action = give_order(state, "u", order, _Threes(), officer="o" if officer else None, dice=dice)
        apply(state, action)
        detail = state.log[-1].detail
        cases.append(
            {
                "edition": edition,
                "unit": {"morale": row_morale, "pins": pins},
                "order": order,
                "bonus": 2 if officer else 0,
                "dice": list(dice),
                "range": _range(state),
                "morale": detail.get("morale"),
                "given": detail["given"],
                # The pins it keeps: a pass loses one, a Rally its D6 (a 3 here) or all of them.
                "rally": detail.get("rally"),
                "rally_all": state.rules.rally == "all",
                "pins_after": state.units["u"].pins,
            }
        )
    return cases


def snap_cases() -> list[dict[str, Any]]:
    """An officer with 0 to 2 extra orders, his side carrying Blitzkrieg or not, takes his order (or
    fails its test), another unit of his side able to take one or not: the units he passes it on to."""
    cases = []
    for edition, extra, blitz, took, takers in itertools.product(
        EDITIONS, (0, 1, 2), (False, True), (False, True), (False, True)
    ):
        officer = {"key": "o", "name": "O", "quality": "regular", "models": 1, "officer_bonus": 1}
        officer["extra_orders"] = extra
        state = _game(edition, [officer, dict(SQUAD)], ("blitzkrieg",) if blitz else ())
        state.units["o"].pins = 1  # a test: passed (his order) or failed (Down)
        if not takers:
            state.units["u"].destroyed = True
        apply(state, recorded_draw("a"))
        apply(state, give_order(state, "o", "advance", _Threes(), dice=(1, 2) if took else (5, 6)))
        carried = national.rule_in(edition, ("blitzkrieg",), "blitzkrieg") is not None
        cases.append(
            {
                "edition": edition,
                "extra": extra,
                "blitzkrieg": blitz and carried,
                "took": state.log[-1].detail["given"] == "advance",
                "takers": takers,
                "passed_on": state.snap.left if state.snap else 0,
            }
        )
    return cases


def fubar_cases() -> list[dict[str, Any]]:
    """A FUBAR (double six on a pinned unit's test) on each face of its chart's die: friendly fire or panic."""
    cases = []
    for edition, chart in itertools.product(EDITIONS, range(1, 7)):
        state = new_state(_setup(edition))
        state.units["u"].pins = 1
        apply(state, recorded_draw("a"))
        apply(state, give_order(state, "u", "advance", _Threes(), dice=(6, 6), fubar=chart))
        faces = state.rules.combat.fubar_friendly_fire_faces
        cases.append({"edition": edition, "chart": chart, "faces": faces, "outcome": state.log[-1].detail["fubar"]})
    return cases


def national_pins_cases() -> list[dict[str, Any]]:
    """The pins kept after an order under 2nd edition's Banzai Charge (a Run passed without a roll) and
    Vengeance (its die may shed a pin first, then the test): the engine's ``pins_after``."""
    cases = []

    for rule, pins, order, vengeance_die, dice in itertools.product(
        ("banzai-charge", "vengeance"), range(4), ("run", "advance", "rally", "down"), range(1, 7), ((2, 3), (5, 6))
    ):
        banzai = rule == "banzai-charge"
        if banzai and (vengeance_die > 1 or dice != (2, 3) or order not in BANZAI_ORDERS):
            continue  # Banzai rolls nothing: one case per pin count
        if not banzai and not pins:
            continue  # Vengeance acts on a pinned unit
        state = _game("v2", [dict(SQUAD)], (rule,))
        state.units["u"].pins = pins
        apply(state, recorded_draw("a"))
        extra = {"banzai": True} if banzai else {"vengeance": True, "vengeance_die": vengeance_die, "dice": dice}
        apply(state, give_order(state, "u", order, _Threes(), **extra))
        detail = state.log[-1].detail
        cases.append(
            {
                "rule": rule,
                "pins": pins,
                "order": order,
                "given": detail["given"],
                "tested": "morale" in detail,
                "shed": 1 if detail.get("vengeance_shed") else 0,
                "rally": detail.get("rally"),
                "rally_all": state.rules.rally == "all",
                "pins_after": state.units["u"].pins,
            }
        )
    return cases


def morale_cases() -> list[dict[str, Any]]:
    """The morale of a test under Tiger Fear (one more pin) and after Vengeance's die shed a pin, as
    the engine's test odds have it (None: no test)."""
    cases = []
    for edition, quality, pins, tiger, shed, bonus in itertools.product(
        EDITIONS, QUALITIES, range(4), (False, True), (0, 1), (0, 1, 2)
    ):
        if shed > pins:
            continue  # Vengeance acts on a pinned unit only
        state = new_state(_setup(edition, quality))
        unit = state.units["u"]
        unit.pins = pins
        needed = _test_needed(unit, "advance", tiger)
        morale = _test_odds(state, unit, bonus, tiger=tiger, shed=shed).morale if needed else None
        cases.append(
            {
                "edition": edition,
                "unit": {"morale": unit.setup.base_morale, "pins": pins},
                "bonus": bonus,
                "tiger": tiger,
                "shed": shed,
                "range": _range(state),
                "morale": morale,
            }
        )
    return cases


def pin_cases() -> list[dict[str, Any]]:
    """A pin added to a unit (men known or not, Fanatic or not) up to and past its morale: routed or not."""
    cases = []
    for edition, quality, fanatic, models in itertools.product(EDITIONS, QUALITIES, (False, True), (None, 1, 2, 5)):
        for pins in range(7, 12):
            state = new_state(_setup(edition, quality, models=models, fanatic=fanatic))
            unit = state.units["u"]
            unit.pins = pins
            apply(state, Action("pins", side="a", unit="u", data={"delta": 1}))
            cases.append(
                {
                    "edition": edition,
                    "pins": unit.pins,
                    "limit": unit.setup.base_morale,
                    "pin_rout": state.rules.combat.pin_rout,
                    "fanatic": fanatic,
                    "men": models,
                    "routs": unit.destroyed,
                }
            )
    return cases


def casualty_cases() -> list[dict[str, Any]]:
    """Men lost or given back (a squad of 1, 2 or 5, Fanatic or not, pins below, at and over its limit):
    the men left, wiped out or routed; and the NCO among them, with and without 2nd-edition Initiative
    Training's die: lost or replaced."""
    cases = []
    for edition, quality, fanatic, start, delta in itertools.product(
        EDITIONS, QUALITIES, (False, True), (1, 2, 5), (-1, 1, 2, 5)
    ):
        limit = new_state(_setup(edition, quality)).units["u"].setup.base_morale
        for men in sorted({1, 2, start} & set(range(1, start + 1))):
            for pins in (0, limit - 1, limit, limit + 1):
                state = new_state(_setup(edition, quality, models=start, fanatic=fanatic))
                unit = state.units["u"]
                unit.models, unit.pins = men, pins
                apply(state, Action("casualties", side="a", unit="u", data={"delta": delta}))
                detail = state.log[-1].detail
                cases.append(
                    {
                        "edition": edition,
                        "unit": {"men": men, "start": start, "pins": pins, "fanatic": fanatic},
                        "limit": unit.setup.base_morale,
                        "pin_rout": state.rules.combat.pin_rout,
                        "delta": delta,
                        "men": unit.models,
                        "wiped_out": bool(detail.get("wiped_out")),
                        "routed": bool(detail.get("routed")),
                    }
                )
    return cases


def nco_cases() -> list[dict[str, Any]]:
    """A squad's NCO among its casualties, its side with or without Initiative Training, on each die."""
    cases = []
    for edition, trained, die in itertools.product(EDITIONS, (False, True), range(1, 7)):
        state = _game(edition, [dict(SQUAD)], ("initiative-training",) if trained else ())
        rolls = initiative_die(state, "a") is not None
        data = {"delta": 1, "nco": True} | ({"nco_die": die} if rolls else {})
        apply(state, Action("casualties", side="a", unit="u", data=data))
        cases.append({"edition": edition, "initiative": rolls, "die": die, "lost": state.units["u"].nco_lost})
    return cases


class _Fixed:
    """A random source that gives ``number``: reduced to the dice left as the phone reduces the number
    crypto.getRandomValues gives it (any whole number, modulo the dice left)."""

    def __init__(self, number: int) -> None:
        self.number = number

    def randrange(self, stop: int) -> int:
        return self.number % stop


def draw_cases() -> list[dict[str, Any]]:
    """A die drawn blind (``engine.draw``): every bag of up to three dice a side, every number the
    draw can take and some past it (a 32-bit one too): the side drawn, or none from an empty bag."""
    cases = []
    for edition, left_a, left_b in itertools.product(EDITIONS, range(4), range(4)):
        sides = [{"key": key, "name": key.upper(), "units": [SQUAD | {"key": key, "dice": 3}]} for key in ("a", "b")]
        state = new_state(GameSetup.from_data({"edition": edition, "sides": sides}))
        state.units["a"].orders = ["advance"] * (3 - left_a)
        state.units["b"].orders = ["advance"] * (3 - left_b)
        assert (state.dice_in_bag("a"), state.dice_in_bag("b")) == (left_a, left_b)
        for number in (*range(2 * (left_a + left_b) + 1), 2**32 - 1):
            try:
                side = draw(state, _Fixed(number)).side
            except RulesError:
                side = ""
            cases.append({"edition": edition, "left": {"a": left_a, "b": left_b}, "number": number, "side": side})
    return cases


def send_back_cases() -> list[dict[str, Any]]:
    """Communication Breakdown!: a die drawn on turn 1 or 2, by a side carrying the rule or not, once a
    unit has an order or not, a die sent back before or not, the game over or not: offered or not."""
    cases = []
    for edition, turn, carries, ordered, sent_back, finished in itertools.product(
        EDITIONS, (1, 2), (False, True), (False, True), (False, True), (False, True)
    ):
        state = _game(edition, [SQUAD | {"dice": 2}], ("communication-breakdown",) if carries else ())
        apply(state, recorded_draw("a"))
        state.turn, state.sent_back, state.finished = turn, sent_back, finished
        if ordered:
            state.units["u"].orders = ["advance"]
        rule = national.rule_in(edition, ("communication-breakdown",), "send_back")
        cases.append(
            {
                "edition": edition,
                "turn": turn,
                "carries": carries and rule is not None,
                "ordered": ordered,
                "sent_back": sent_back,
                "finished": finished,
                "offered": die_to_send_back(state) == "a",
            }
        )
    return cases


def damage_cases() -> list[dict[str, Any]]:
    """A damage result on a vehicle (no pin, or one or two short of its limit; immobilised before or not;
    on fire or not): its pins, times immobilised and fire after, knocked out or routed."""
    cases = []
    for edition, quality, result, pins, immobilised, on_fire in itertools.product(
        EDITIONS, QUALITIES, ("immobilised", "on_fire", "extinguished", "knocked_out"), (0, 1, 2), (0, 1), (False, True)
    ):
        vehicle = {"key": "v", "name": "V", "quality": quality, "models": None, "unit_type": "vehicle_armoured"}
        state = _game(edition, [vehicle])
        unit = state.units["v"]
        if not unit.setup.is_vehicle:
            raise AssertionError("the damage cases need a vehicle")
        # No pin, or one or two short of its limit: a pin from a result routs it at one short.
        pins = (0, unit.setup.base_morale - 2, unit.setup.base_morale - 1)[pins]
        unit.pins, unit.immobilised, unit.on_fire = pins, immobilised, on_fire
        apply(state, Action("damage", side="a", unit="v", data={"result": result}))
        detail = state.log[-1].detail
        cases.append(
            {
                "edition": edition,
                "unit": {"pins": pins, "immobilised": immobilised, "on_fire": on_fire},
                "limit": unit.setup.base_morale,
                "pin_rout": state.rules.combat.pin_rout,
                "second_knocks_out": state.rules.second_immobilised_knocks_out,
                "result": result,
                "pins": unit.pins,
                "immobilised": unit.immobilised,
                "on_fire": unit.on_fire,
                "knocked_out": unit.destroyed and unit.destroyed_how == "knocked_out",
                "routed": bool(detail.get("routed")),
            }
        )
    return cases


def end_turn_cases() -> list[dict[str, Any]]:
    """A unit at the end of the turn (its order, released or not, its pins, destroyed or not, one or two
    dice, the D3 it rolled to stay Down): its dice back in the bag, its order kept, its pins."""
    cases = []
    for edition, order, released, pins, destroyed, dice, d3 in itertools.product(
        EDITIONS, ("down", "ambush", "fire", ""), (False, True), range(4), (False, True), (1, 2), (1, 2, 3)
    ):
        state = new_state(_setup(edition, dice=dice))
        unit = state.units["u"]
        unit.pins = pins
        unit.orders = [order] if order else []
        unit.destroyed = destroyed
        action = end_turn(state, _Threes(), release=["u"] if released else [], force=True, down_dice={"u": d3})
        apply(state, action)
        cases.append(
            {
                "edition": edition,
                "unit": {"destroyed": destroyed, "dice": dice, "order": order, "pins": pins},
                "released": released,
                "down": game_rules(edition).down_end_turn,
                "d3": d3,
                "orders_left": 0 if unit.destroyed else unit.setup.dice - len(unit.orders),
                "kept": unit.kept,
                "order_after": unit.order or "",
                "pins_after": unit.pins,
            }
        )
    return cases


def support_cases() -> dict[str, Any]:
    """Air Superiority's air strike on each face of its die, with no call used yet or one; Massed
    Batteries' barrage radius on every pair of dice: the outcome and calls left, the radius."""
    air, radius = [], []
    for edition, used, die in itertools.product(("v2", "v3"), (0, 1), range(1, 7)):
        state = _game(edition, [dict(SQUAD)], ("air-superiority",))
        state.air_calls["a"] = used
        allowed = support.air_strikes_allowed(air_superiority=True)
        apply(state, support_roll(state, "a", "air", _Threes(), dice=[die]))
        detail = state.log[-1].detail
        air.append({"edition": edition, "die": die, "left_before": allowed - used, **_pick(detail, "outcome", "left")})
    for first, second in itertools.product(range(1, 7), range(1, 7)):
        state = _game("v2", [dict(SQUAD)], ("massed-batteries",))
        apply(state, support_roll(state, "a", "radius", _Threes(), dice=[first, second]))
        radius.append({"dice": [first, second], "radius": state.log[-1].detail["radius"]})
    return {"air_strike": air, "barrage_radius": radius}


def _pick(detail: Any, *names: str) -> dict[str, Any]:
    return {name: detail[name] for name in names}


def all_cases() -> dict[str, Any]:
    return {
        "written_by": "manage.py gameday_js_cases (rules.game.js_cases)",
        "orders": order_cases(),
        "morale": morale_cases(),
        "national_pins": national_pins_cases(),
        "fubar": fubar_cases(),
        "snap": snap_cases(),
        "pins": pin_cases(),
        "casualties": casualty_cases(),
        "nco": nco_cases(),
        "draw": draw_cases(),
        "send_back": send_back_cases(),
        "damage": damage_cases(),
        "end_turn": end_turn_cases(),
        **support_cases(),
    }
