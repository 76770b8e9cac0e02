"""Cases for the log sentences the phone writes (``logLine`` in static/js/game_rules.js), written by the
server's own ``board.log_line``.

Each case is an action played through ``rules.game.engine``, its log entry as the phone knows it (the
units by name, not key) and the line ``log_line`` writes for it, in English and in French; the words
the phone writes with are ``board.offline_words``' own, in each language. Every kind of entry the
phone writes is here: a die drawn or recorded, orders (tests, FUBAR, Rally, the national rules that
add to the line), an officer's order passed on, pins, casualties and the NCO, damage, a unit destroyed,
Communication Breakdown, support rolls, the end of the turn, and dice typed by a player.
``manage.py gameday_js_cases`` writes them beside the rules' cases (they need Django's translations,
which ``rules/`` does not import).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from django.utils import translation

from armybuilder.games.board import log_line, offline_words
from armybuilder.games.models import Game
from rules.game.engine import (
    Action,
    GameSetup,
    GameState,
    LogEntry,
    apply,
    casualties,
    draw,
    end_turn,
    give_order,
    new_state,
    recorded_draw,
    snap_order,
    support_roll,
)
from rules.game.js_cases import _Threes

# Polish too: its three plural forms are chosen by the last digits of the count (casualties).
LANGUAGES = ("en", "fr", "pl")
# The parts of offline_words the sentences are written from.
WORD_PARTS = ("line", "orders", "damage", "sides", "assault_rules", "air_outcomes", "support")
SIDE_NAMES = {"a": "Alice", "b": "Bob"}
# The side whose words carry the support rolls (its air strike, the enemy's barrage radius) and commissars.
WORDS_RULES = {"a": ("air-superiority",), "b": ("massed-batteries", "not-one-step-back")}


def _unit(key: str, name: str, **more: Any) -> dict[str, Any]:
    return {"key": key, "name": name, "quality": "regular", "models": 5, "unit_type": "infantry"} | more


def _setup(edition: str, units: list[dict[str, Any]], rules: tuple[str, ...] = (), enemy_rules=(), enemy=None):
    return {
        "edition": edition,
        "sides": [
            {"key": "a", "name": SIDE_NAMES["a"], "rules": list(rules), "units": units},
            {"key": "b", "name": SIDE_NAMES["b"], "rules": list(enemy_rules), "units": enemy or [_unit("e", "Enemy")]},
        ],
    }


class Table:
    """One game played through the engine, each action's log entry kept as a case."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.game = Game(setup=data)
        self.state = new_state(GameSetup.from_data(data))
        self.entries: list[tuple[GameState, LogEntry]] = []

    def play(self, build: Callable[[GameState], Action] | Action, typed: bool = False) -> Table:
        action = build if isinstance(build, Action) else build(self.state)
        if typed:
            action = replace(action, data={**action.data, "typed": True})
        apply(self.state, action)
        self.entries.append((self.state, self.state.log[-1]))
        return self

    def cases(self) -> list[dict[str, Any]]:
        found = []
        for state, entry in self.entries:
            lines = {}
            for language in LANGUAGES:
                with translation.override(language):
                    lines[language] = log_line(self.game, state, entry)
            found.append({"entry": phone_entry(state, entry), "line": lines})
        return found


def phone_entry(state: GameState, entry: LogEntry) -> dict[str, Any]:
    """The log entry as the phone knows it: units by their names (a snap's officer, the units that
    shed pins staying Down, in the order the engine lists them)."""

    def name(key: str) -> str:
        return state.units[key].setup.name if key in state.units else "?"

    detail = dict(entry.detail)
    if "officer" in detail and entry.kind == "snap":
        detail["officer"] = name(detail["officer"])
    if entry.kind == "end_turn":
        detail["down_pins"] = [[name(key), n] for key, n in detail["down_pins"].items()]
    unit = name(entry.unit) if entry.unit else None
    return {"kind": entry.kind, "turn": entry.turn, "side": entry.side, "unit": unit, "detail": detail}


def _draws() -> list[Table]:
    table = Table(_setup("v2", [_unit("u", "Squad", dice=2)]))
    table.play(recorded_draw("a")).play(lambda s: give_order(s, "u", "fire", _Threes()))
    table.play(lambda s: draw(s, _Threes(), side="a"))
    return [table]


def _orders() -> list[Table]:
    tables = []
    dice_sets = ((1, 2), (5, 5), (6, 6))
    for edition, order, pins, dice, chart, typed in itertools.product(
        ("v1", "v2", "v3"), ("fire", "advance", "run", "ambush", "rally", "down"), (0, 1, 3), dice_sets, (1, 6), (0, 1)
    ):
        if (chart == 6 and dice != (6, 6)) or (typed and (pins != 1 or order not in ("fire", "rally"))):
            continue
        units = [_unit("u", "Squad"), _unit("o", "Lieutenant", models=1, officer_bonus=2)]
        table = Table(_setup(edition, units))
        table.state.units["u"].pins = pins
        table.play(recorded_draw("a"))
        officer = "o" if order == "advance" else None
        table.play(
            lambda s, o=order, d=dice, c=chart, f=officer: give_order(s, "u", o, _Threes(), officer=f, dice=d, fubar=c),
            typed=bool(typed),
        )
        tables.append(table)
    return tables


def _national_orders() -> list[Table]:
    tables = []
    # Snap to action, with and without Blitzkrieg: the officer's order passed on to a pinned squad.
    for rules in ((), ("blitzkrieg",)):
        units = [
            _unit("o", "Major", models=2, officer_bonus=2, extra_orders=1),
            _unit("u", "Squad"),
            _unit("w", "Team"),
        ]
        table = Table(_setup("v2", units, rules))
        table.state.units["u"].pins = 2
        table.play(recorded_draw("a")).play(lambda s: give_order(s, "o", "advance", _Threes()))
        table.play(lambda s: snap_order(s, "u", _Threes(), dice=(2, 3)))
        tables.append(table)
    # Banzai Charge and Up and 'at 'em: a Run passed without a roll.
    for rules in (("banzai-charge",), ("up-and-at-em",)):
        for pins in (0, 2):
            table = Table(_setup("v2", [_unit("u", "Squad")], rules))
            table.state.units["u"].pins = pins
            table.play(recorded_draw("a")).play(lambda s: give_order(s, "u", "run", _Threes(), banzai=True))
            tables.append(table)
    # Tiger Fear (the enemy's Tiger), Avanti Savoia! (either way), Vengeance (a pin shed or not).
    tiger = [_unit("e", "Tiger", models=None, unit_type="vehicle_armoured")]
    table = Table(_setup("v2", [_unit("u", "Squad")], enemy_rules=("tiger-fear",), enemy=tiger))
    table.play(recorded_draw("a")).play(lambda s: give_order(s, "u", "advance", _Threes(), tiger=True, dice=(3, 4)))
    tables.append(table)
    for lost in ((3, 0), (0, 3)):
        table = Table(_setup("v2", [_unit("u", "Squad")], ("avanti-savoia",)))
        table.state.lost_at_start = dict(zip(("a", "b"), lost, strict=True))
        table.state.units["u"].pins = 1
        table.play(recorded_draw("a")).play(lambda s: give_order(s, "u", "fire", _Threes(), dice=(4, 4)))
        tables.append(table)
    for die in (2, 5):
        table = Table(_setup("v2", [_unit("u", "Squad")], ("vengeance",)))
        table.state.units["u"].pins = 2
        table.play(recorded_draw("a"))
        table.play(
            lambda s, v=die: give_order(s, "u", "rally", _Threes(), vengeance=True, vengeance_die=v, dice=(2, 2))
        )
        tables.append(table)
    # Not One Step Back!: a failed test taken again (a man removed for it); the NCO lost before.
    for reroll in ((1, 1), (6, 5)):
        table = Table(_setup("v2", [_unit("u", "Squad")], ("not-one-step-back",)))
        table.state.units["u"].pins = 1
        table.play(recorded_draw("a"))
        table.play(lambda s, r=reroll: give_order(s, "u", "fire", _Threes(), dice=(6, 5), commissar=True, reroll=r))
        tables.append(table)
    table = Table(_setup("v2", [_unit("u", "Squad")]))
    table.play(lambda s: casualties(s, "u", 1, _Threes(), nco=True)).play(recorded_draw("a"))
    table.state.units["u"].pins = 1
    table.play(lambda s: give_order(s, "u", "advance", _Threes(), dice=(3, 3)))
    tables.append(table)
    return tables


def _units() -> list[Table]:
    tables = []
    for edition in ("v1", "v2", "v3"):
        squad = Table(_setup(edition, [_unit("u", "Squad", fanatic=True), _unit("s", "Section")]))
        squad.play(Action("pins", side="a", unit="u", data={"delta": 1}))
        squad.play(Action("pins", side="a", unit="u", data={"delta": -1}))
        for delta in (1, 2, -1):
            squad.play(Action("casualties", side="a", unit="u", data={"delta": delta}))
        squad.play(Action("pins", side="a", unit="u", data={"delta": 9}))  # Fanatic: held by its men
        squad.play(Action("casualties", side="a", unit="u", data={"delta": 3}))  # one man left: routed
        squad.play(Action("casualties", side="a", unit="s", data={"delta": 5}))  # wiped out
        tables.append(squad)
        # A large unit: counts whose sentence differs by language (Polish: 2-4, 5-21, 22-24 men).
        large = Table(_setup(edition, [_unit("u", "Platoon", models=30)]))
        for delta in (2, 5, 12, -2, -5, 22):
            large.play(Action("casualties", side="a", unit="u", data={"delta": delta}))
        tables.append(large)
        pinned = Table(_setup(edition, [_unit("u", "Squad")]))
        pinned.play(Action("pins", side="a", unit="u", data={"delta": 12}))
        tables.append(pinned)
        for rules, die in (((), None), (("initiative-training",), 1), (("initiative-training",), 4)):
            nco = Table(_setup(edition, [_unit("u", "Squad")], rules))
            nco.play(lambda s, d=die: casualties(s, "u", 2, _Threes(), nco=True, nco_die=d))
            tables.append(nco)
        vehicle = {"models": None, "unit_type": "vehicle_armoured", "quality": "inexperienced"}
        tank = Table(_setup(edition, [_unit("t", "Tank", **vehicle), _unit("v", "Truck", **vehicle)]))
        for result in ("on_fire", "extinguished", "immobilised", "immobilised"):
            tank.play(Action("damage", side="a", unit="t", data={"result": result}))
        for _ in range(2):
            tank.play(Action("pins", side="a", unit="v", data={"delta": 2}))
        tank.play(Action("damage", side="a", unit="v", data={"result": "on_fire"}))
        tables.append(tank)
        gone = Table(_setup(edition, [_unit("u", "Squad"), _unit("t", "Tank", **vehicle)]))
        gone.play(Action("remove", side="a", unit="u")).play(
            Action("damage", side="a", unit="t", data={"result": "knocked_out"})
        )
        tables.append(gone)
    return tables


def _bag() -> list[Table]:
    tables = []
    # Communication Breakdown!: the French side's first die sent back by its enemy.
    table = Table(_setup("v2", [_unit("u", "Squad")], ("communication-breakdown",)))
    table.play(recorded_draw("a")).play(Action("send_back", side="b"))
    tables.append(table)
    # The end of the turn: units kept Down shed pins (a D3 each, or all), the others none.
    for edition in ("v1", "v2", "v3"):
        units = [_unit("u", "Squad"), _unit("s", "Section"), _unit("t", "Team")]
        table = Table(_setup(edition, units))
        for key, pins in (("u", 2), ("s", 3)):
            table.state.units[key].pins = pins
            table.play(recorded_draw("a")).play(lambda s, k=key: give_order(s, k, "down", _Threes()))
        table.play(lambda s: end_turn(s, _Threes(), force=True, down_dice={"u": 1, "s": 2}))
        table.play(lambda s: end_turn(s, _Threes(), force=True, release=["u", "s"]), typed=edition == "v2")
        tables.append(table)
    return tables


def _support() -> list[Table]:
    tables = []
    for first, second in itertools.product(range(1, 7), (1, 4)):
        table = Table(_setup("v2", [_unit("u", "Squad")], WORDS_RULES["a"], WORDS_RULES["b"]))
        table.play(lambda s, d=first: support_roll(s, "a", "air", _Threes(), dice=[d]))
        table.play(lambda s, d=first, e=second: support_roll(s, "b", "radius", _Threes(), dice=[d, e]))
        table.play(lambda s: end_turn(s, _Threes(), force=True))
        table.play(lambda s, e=second: support_roll(s, "a", "air", _Threes(), dice=[e]))
        table.play(lambda s: support_roll(s, "b", "radius", _Threes()))  # rolled by Muster
        tables.append(table)
    return tables


def log_words() -> dict[str, dict[str, Any]]:
    """``offline_words``' sentences in each language, as the phone gets them with the board."""
    table = Table(_setup("v2", [_unit("u", "Squad")], WORDS_RULES["a"], WORDS_RULES["b"]))
    words = {}
    for language in LANGUAGES:
        with translation.override(language):
            found = offline_words(table.game, table.state)
        words[language] = {part: found[part] for part in WORD_PARTS}
    return words


def log_cases() -> dict[str, Any]:
    tables = [*_draws(), *_orders(), *_national_orders(), *_units(), *_bag(), *_support()]
    cases, seen = [], set()
    for case in (case for table in tables for case in table.cases()):
        key = json.dumps(case["entry"], sort_keys=True)
        if key not in seen:  # the draw before each order, once
            seen.add(key)
            cases.append(case)
    return {"log_words": log_words(), "log": cases}
