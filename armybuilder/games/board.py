"""What the game page shows, from the engine's state: forces, the drawn die, odds, and the log in words."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from fractions import Fraction
from typing import Any

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from armybuilder.catalogue.models import Quality
from armybuilder.games.models import Game
from armybuilder.lists.national_choice import choice_name
from armybuilder.resolver.national_rules import NAMES as NATIONAL_NAMES
from rules.combat import national, support
from rules.combat.morale import OrderTestResult
from rules.errors import RulesError
from rules.game.editions import KEPT_ORDERS, ORDERS
from rules.game.engine import (
    GameState,
    UnitState,
    assault_rule_name,
    avanti_modifier,
    banzai_applies,
    bombard_dice,
    bombard_offered,
    bombard_rule,
    bombard_targets,
    bombard_to_keep,
    commissar_odds,
    defence_offered,
    defence_reroll,
    defender_odds,
    defensive_rule,
    die_to_send_back,
    emplacements_offered,
    has_nco,
    initiative_die,
    lost_nco_modifier,
    nco_penalty,
    order_odds,
    run_refused,
    side_rules,
    summarise,
    support_dice,
    support_offers,
    support_rule,
    tiger_fear_applies,
    vengeance_odds,
)

ORDER_LABELS = {
    "fire": gettext_lazy("Fire"),
    "advance": gettext_lazy("Advance"),
    "run": gettext_lazy("Run"),
    "ambush": gettext_lazy("Ambush"),
    "rally": gettext_lazy("Rally"),
    "down": gettext_lazy("Down"),
    "fubar": gettext_lazy("FUBAR"),
}
QUALITY_LABELS = dict(Quality.choices)
# The engine's errors in the player's language, by code (its English text is the fallback).
ERRORS = {
    "pending": gettext_lazy("Give the drawn die an order first."),
    "empty-bag": gettext_lazy("The bag is empty: end the turn."),
    "no-die": gettext_lazy("That side has no die left in the bag."),
    "no-pending": gettext_lazy("Draw a die of this unit's side first."),
    "ordered": gettext_lazy("This unit cannot take another order this turn."),
    "officer": gettext_lazy("That officer cannot help this unit."),
    "test": gettext_lazy("This unit is pinned: it takes an order test."),
    "finished": gettext_lazy("The game is over."),
    "dice-left": gettext_lazy("Dice are left in the bag: draw them, or tick “end the turn anyway”."),
    "turn-ended": gettext_lazy("This turn has already ended."),
    "destroyed": gettext_lazy("This unit is destroyed."),
    "models": gettext_lazy("Muster does not know this unit's models: mark it destroyed instead."),
    "not-vehicle": gettext_lazy("Only vehicles take damage results."),
    "nothing": gettext_lazy("Nothing to undo."),
    "not-yours": gettext_lazy("Only the game's creator can undo this action."),
    "opponents-action": gettext_lazy("Only your opponent can undo their own action."),
    "not-your-side": gettext_lazy("You act for your own side only."),
    "not-your-game": gettext_lazy("Only the game's creator can end it."),
    "edition": gettext_lazy("Both lists must be of the same edition."),
    "unit": gettext_lazy("No such unit in this game."),
    "no-snap": gettext_lazy("No officer's order to pass on now."),
    "snap-unit": gettext_lazy("The officer passes his order to other units of his own side."),
    "snap-order": gettext_lazy("The unit takes the officer's own order."),
    "commissar": gettext_lazy("Not One Step Back! does not apply to this unit."),
    "tiger-fear": gettext_lazy("Tiger Fear does not act on this unit."),
    "send-back": gettext_lazy("No die can be sent back now."),
    "support": gettext_lazy("This roll is not offered now."),
    "support-dice": gettext_lazy("Type every die of the roll, or none to let Muster roll."),
    "bombard-once": gettext_lazy("This side has made its preparatory bombardment: one a game."),
    "bombard-late": gettext_lazy("The preparatory bombardment comes before the first order of the game."),
    "bombard-units": gettext_lazy("Choose the enemy units on the table."),
    "bombard-dice": gettext_lazy("Type every die of the bombardment, or none to let Muster roll."),
    "bombard-keep": gettext_lazy("Keep one of its two dice for every unit."),
    "defensive-run": gettext_lazy("Defensive Strategy: on the first turn the defender's enemy gives no Run order."),
    "defender": gettext_lazy("Type the die, and the re-roll when it is due, or none to let Muster roll."),
    "banzai": gettext_lazy("Banzai Charge: Japanese infantry Running at the closest enemy only."),
    "vengeance": gettext_lazy("Vengeance does not act on this unit."),
    "nco": gettext_lazy("This unit has no NCO left to lose."),
    "nco-casualty": gettext_lazy("The NCO falls with a casualty: remove at least one model."),
    "moved-on": gettext_lazy("The game moved on since this page was loaded: check, then try again."),
    "too-long": gettext_lazy(
        "This game has reached %(max)s actions, the most one game keeps: end it, or start a new game."
    ),
}


def error_text(error: RulesError) -> str:
    if error.code == "too-long":
        return str(ERRORS["too-long"]) % {"max": number_format(error.params["max"], force_grouping=True)}
    return str(ERRORS.get(error.code, str(error)))


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f} %"


@dataclass
class UnitRow:
    state: UnitState
    quality: str
    order_label: str
    can_act: bool  # the viewer may act for this unit
    awaits_order: bool  # the drawn die is this unit's side and it can take it
    test: OrderTestResult | None  # the order test it would take now (pinned units)
    odds: dict[str, Any] | None  # weapons for "odds now" (units from a list)
    # The same test with each officer of the side in range: (officer, exact chance, percent).
    officer_tests: list[tuple[UnitState, Fraction, str]]
    awaits_snap: bool = False  # it may take the officer's order just given ("snap to action")
    snap_test: OrderTestResult | None = None  # its order test then, with the officer's bonus
    # Not One Step Back!: the chance its test passes if a failed one is taken again (None: no commissar rule).
    commissar: Fraction | None = None
    # Tiger Fear: the test it would take if the player says an enemy Tiger is near (None: cannot act).
    tiger: OrderTestResult | None = None
    avanti: int = 0  # Avanti Savoia!: the side's morale modifier now
    banzai: str = ""  # the rule (Banzai Charge, Up and 'at 'em) that passes a Run/assault without a test
    # Vengeance: the chance its test passes with the die that may lose a pin first (None: cannot act).
    vengeance: Fraction | None = None
    nco_penalty: int = 0  # a lost NCO's morale modifier on its order tests (0 or -1)
    # Its casualty form's "NCO killed" box: "" (no NCO left, or not a squad), "plain" or "initiative"
    # (2nd-edition Initiative Training: a die says whether another man takes over).
    nco_offer: str = ""
    nco_if_lost: int = 0  # the modifier its order tests take once its NCO is lost (game.js, offline)
    fingerprint: str = ""  # its row's print on the page (``stamp_prints``), which the phone sends back

    @property
    def morale(self) -> int:
        """The morale its order tests start from (game.js works out an offline test from it)."""
        return self.state.setup.base_morale + self.avanti + self.nco_penalty

    @property
    def vengeance_percent(self) -> str:
        return percent(self.vengeance) if self.vengeance is not None else ""

    @property
    def tiger_percent(self) -> str:
        return percent(self.tiger.p_pass) if self.tiger else ""

    @property
    def orders_left(self) -> int:
        """Orders the viewer may still give it this turn (game.js offers them offline)."""
        u = self.state
        return max(u.setup.dice - len(u.orders), 0) if self.can_act and u.can_take_order else 0

    @property
    def snap_percent(self) -> str:
        return percent(self.snap_test.p_pass) if self.snap_test else ""

    @property
    def commissar_percent(self) -> str:
        return percent(self.commissar) if self.commissar is not None else ""

    @property
    def test_percent(self) -> str:
        return percent(self.test.p_pass) if self.test else ""

    @property
    def key(self) -> str:
        return self.state.key


@dataclass
class SideView:
    key: str
    name: str
    list_name: str
    units: list[UnitRow]
    officers: list[UnitState]
    dice_in_bag: int
    dice_total: int
    can_act: bool
    enemies: list[UnitState] | None = None  # targets for "odds now"
    # The national rules of its list that act at the table, and the trait its army chose, by name.
    national: list[str] | None = None
    national_choice: str = ""


def board(
    game: Game,
    state: GameState,
    *,
    opponent: bool,
    log: list[tuple[int, Any]] | None = None,
    last_order: Any = None,
    can_undo: bool = True,
) -> dict[str, Any]:
    """Everything the game page reads. ``opponent``: the viewer came by the share link (acts for side b);
    the creator acts for both sides, or for side a alone in a two-phone game (``Game.acting_sides``).

    ``log``: the log lines to show as (number, entry), newest last; by default the whole of
    ``state.log`` (the page), a fragment passes only the new ones with ``last_order`` (the last
    order or snap entry, which may be older than the state's replayed actions).
    ``can_undo``: the viewer may undo the last action (the opponent only their own).
    """
    odds = game.setup.get("odds", {})
    acting = game.acting_sides(opponent=opponent)
    sides = []
    for side in game.setup["sides"]:
        key = side["key"]
        can_act = key in acting
        units = []
        for unit in state.side_units(key):
            awaits = state.pending == key and unit.can_take_order and not state.finished
            snap = state.snap
            awaits_snap = bool(snap and snap.side == key and unit.key != snap.officer and unit.can_take_order)
            snap_test = order_odds(state, unit.key, snap.officer) if snap and awaits_snap and unit.pins else None
            test = order_odds(state, unit.key) if awaits and unit.pins else None
            officer_tests = []
            if test is not None:
                for officer in state.side_units(key):
                    if officer.setup.officer_bonus and not officer.destroyed:
                        p_pass = order_odds(state, unit.key, officer.key).p_pass
                        officer_tests.append((officer, p_pass, percent(p_pass)))
            units.append(
                UnitRow(
                    state=unit,
                    quality=str(QUALITY_LABELS.get(unit.setup.quality, unit.setup.quality)),
                    order_label=str(ORDER_LABELS.get(unit.order or "", "")),
                    can_act=can_act and not state.finished,
                    awaits_order=awaits and can_act,
                    test=test,
                    odds=odds.get(unit.key),
                    officer_tests=officer_tests,
                    awaits_snap=awaits_snap and can_act and not state.finished,
                    snap_test=snap_test,
                    commissar=_with_rule(commissar_odds, state, unit, test, snap_test, snap.officer if snap else None),
                    tiger=_tiger(state, unit, awaits or awaits_snap, snap.officer if awaits_snap and snap else None),
                    avanti=avanti_modifier(state, key),
                    banzai=assault_rule_name(state, key) if awaits and banzai_applies(state, unit.key) else "",
                    vengeance=_with_rule(vengeance_odds, state, unit, test, snap_test, snap.officer if snap else None),
                    nco_penalty=nco_penalty(state, unit),
                    nco_offer=_nco_offer(state, unit),
                    nco_if_lost=lost_nco_modifier(state, unit),
                )
            )
        officers = [u for u in state.side_units(key) if u.setup.officer_bonus and not u.destroyed]
        sides.append(
            SideView(
                key=key,
                name=side["name"],
                list_name=side.get("list_name", ""),
                units=units,
                officers=officers,
                dice_in_bag=state.dice_in_bag(key),
                dice_total=state.dice_total(key),
                can_act=can_act,
                national=[str(NATIONAL_NAMES[slug]) for slug in side.get("rules", ()) if slug in NATIONAL_NAMES],
                national_choice=choice_name(side["national_choice"]) if side.get("national_choice") else "",
            )
        )
    for view in sides:
        view.enemies = [u for u in state.units.values() if u.side != view.key and not u.destroyed]
    if opponent:
        sides.reverse()  # the viewer's own force comes first
    kept = [u for u in state.units.values() if not u.destroyed and u.order in KEPT_ORDERS]
    if log is None:
        log = list(enumerate(state.log, start=1))
        last_order = next((e for e in reversed(state.log) if e.kind in ("order", "snap")), None)
    snap = state.snap
    snap_officer = state.unit(snap.officer) if snap else None
    context = {
        "game": game,
        "state": state,
        "sides": sides,
        "orders": [(o, ORDER_LABELS[o]) for o in ORDERS],
        "snap": snap,
        "snap_officer": snap_officer,
        "snap_order_label": ORDER_LABELS[snap.order] if snap else "",
        "snap_can_act": snap is not None and snap.side in acting,
        "pending_name": game.side_name(state.pending) if state.pending else "",
        "last_order": log_line(game, state, last_order) if last_order and last_order.turn == state.turn else "",
        "kept_units": [(u, ORDER_LABELS[u.order or "down"]) for u in kept],
        "result_line": result_text(game, state.result) if state.finished and state.result else "",
        "summary": summarise(state),
        "log": [(seq, log_line(game, state, entry)) for seq, entry in reversed(log)],
        "opponent": opponent,
        "can_undo": can_undo,
        "send_back": _send_back(state, acting),
        "support": _support(game, state, acting),
        "bombard": _bombard(game, state, acting),
        "bombard_keep": _bombard_keep(game, state, acting),
        "defence": _defence(game, state, acting),
        "emplacements": [(side, game.side_name(side)) for side in acting if emplacements_offered(state, side)],
        # The side whose Run buttons are hidden (its enemy defends with Defensive Strategy, turn 1), or "".
        "no_run": next((side for side in ("a", "b") if run_refused(state, side) and not state.finished), ""),
        "defender_name": game.side_name(state.defender) if state.defender else "",
        # A bombardment rolled (and its dice kept): the results are the book's, applied by the players.
        "bombard_apply": any(state.bombard.values())
        and not any(bombard_to_keep(state, s) for s in ("a", "b"))
        and state.turn == 1
        and not any(u.orders for u in state.units.values()),
        # Edition rules at the table that rules-notes marks as inferred (1st ed's Down pins).
        "down_unverified": "down_end_turn" in state.rules.unverified,
    }
    stamp_prints(context)
    return context


def row_fingerprints(context: dict[str, Any]) -> dict[str, tuple]:
    """What each unit's row on the page shows, per unit key: two boards differ in a row iff these differ.

    A fragment sends only the rows whose fingerprint moved, so everything the row's
    template reads is here: the unit's state, what the viewer may do with it, its order test, the
    officer's order it may take, and the targets its "odds now" menu lists.
    """
    snap = context["snap"]
    snap_officer = context["snap_officer"]
    prints = {}
    for side in context["sides"]:
        enemies = tuple(u.key for u in side.enemies or ())
        for row in side.units:
            u = row.state
            test = row.test
            prints[row.key] = (
                (u.pins, u.models, tuple(u.orders), u.kept, u.destroyed, u.immobilised, u.on_fire, u.nco_lost),
                u.setup.fanatic,  # frozen, but the row says so and carries it for game.js
                # A unit that may take the die without a test gets its order buttons from the
                # page's template (game.js, from #game-awaits): not a change of its row.
                (row.can_act, row.awaits_order and test is not None, row.awaits_snap),
                (test.p_pass, test.morale) if test else None,
                tuple((o.key, p_pass) for o, p_pass, _ in row.officer_tests),
                (row.snap_test.p_pass, row.snap_test.morale) if row.snap_test else None,
                (snap.order, snap_officer.key) if row.awaits_snap and snap and snap_officer else None,
                enemies if row.can_act and row.odds else (),
                # What the national rules add to the row (games/national.html#order-rules).
                (row.commissar, row.tiger.p_pass if row.tiger else None, row.avanti, row.banzai, row.vengeance),
                (row.nco_penalty, row.nco_offer, row.nco_if_lost),
            )
    return prints


def game_fingerprint(state: GameState) -> tuple:
    """The whole board's own print: what the rows and panels leave out (the end of the game's form,
    the turn in the end of turn's title, the offline words) changes only with the turn or the game's
    end, and then the whole board is sent (``views._changes`` checks it before building any board)."""
    return (state.turn, state.finished)


def panel_fingerprints(context: dict[str, Any]) -> dict[str, tuple]:
    """What the bar, the end of turn, the summary and the officer's order show, each, and the units
    awaiting the die: a fragment sends one again only if its print moved (a pin changes none of
    them), as ``row_fingerprints`` does for the rows.

    The bar's forms also carry the revision, but htmx posts the board's own (game.js), and a refusal
    or the first action always sends the bar (``views._changes``).
    """
    state = context["state"]
    snap = context["snap"]
    return {
        "game": game_fingerprint(state),
        # The units game.js gives the order buttons to, and the officer's order others may take.
        "awaits": tuple(
            row.key for side in context["sides"] for row in side.units if row.awaits_order and not row.test
        ),
        "snap": ((snap.officer, snap.order, snap.left, context["snap_can_act"], state.finished) if snap else None,),
        "bar": (
            state.turn,
            state.finished,
            state.pending,
            state.bag_empty,
            tuple((s.key, s.dice_in_bag, s.dice_total) for s in context["sides"]),
            context["send_back"],
            tuple((o.side, o.kind, o.left) for o in context["support"]),
            context["can_undo"],
        ),
        "end_turn": (tuple((u.key, str(label)) for u, label in context["kept_units"]), state.bag_empty),
        # The preparatory bombardment's slot: its offers, the dice waiting for a die kept, the note.
        "bombard": (
            state.finished,
            tuple(context["bombard"]),
            tuple(context["bombard_keep"]),
            context["bombard_apply"],
            tuple(context["defence"]),
            tuple(context["emplacements"]),
            context["no_run"],
        ),
        # What the summary's table shows (its sides also count the dice in the bag: not shown there).
        "summary": (
            context["summary"].turns_played,
            tuple((s.name, s.units, s.units_lost, s.points_lost) for s in context["summary"].sides),
        ),
    }


# Each piece of the page a tap's answer may send alone, by its name in ``panel_fingerprints`` and
# the id of its element in games/game.html (a unit's row is ``u-<key>``).
PANEL_IDS = {
    "game": "game",
    "awaits": "game-awaits",
    "snap": "snap-slot",
    "bar": "game-bar",
    "end_turn": "end-turn",
    "bombard": "bombard-slot",
    "summary": "summary",
}
# A print's length on the page: 9 bytes of BLAKE2b in URL-safe base64 (72 bits, so two boards
# that differ share a print about once in 10^21 comparisons).
PRINT_CHARS = 12


def _plain(value: Any) -> Any:
    """A fingerprint's part as JSON: a print must be the same in every process of the site, so
    nothing goes by ``repr`` (a lazy translation's names its address); an unknown type fails loudly."""
    if isinstance(value, Fraction):
        return [value.numerator, value.denominator]
    if isinstance(value, Promise):
        return str(value)
    if is_dataclass(value) and not isinstance(value, type):
        return [getattr(value, f.name) for f in fields(value)]
    raise TypeError(f"a fingerprint holds a {type(value).__name__}")


def digest(fingerprint: Any) -> str:
    """A fingerprint (``row_fingerprints``, ``panel_fingerprints``) as the short print the page carries."""
    text = json.dumps(fingerprint, default=_plain, separators=(",", ":"), ensure_ascii=False)
    raw = hashlib.blake2b(text.encode(), digest_size=PRINT_CHARS * 3 // 4).digest()
    return base64.urlsafe_b64encode(raw).decode()


def stamp_prints(context: dict[str, Any]) -> None:
    """Each row's and each panel's print, for the page to carry (``data-print``): a phone sends the
    prints of what it shows with a tap, and the answer holds only the pieces whose print moved
    (``moved_pieces``), so the board a tap answers is built once."""
    rows = row_fingerprints(context)
    for side in context["sides"]:
        for row in side.units:
            row.fingerprint = digest(rows[row.key])
    context["prints"] = {name: digest(value) for name, value in panel_fingerprints(context).items()}


def moved_pieces(context: dict[str, Any], shown: dict[str, str]) -> tuple[set[str], set[str]]:
    """The rows (unit keys) and the panels (names) of ``context``, a stamped board, whose print is not
    the one the phone shows: ``shown``, its prints by element id (a piece it does not name moved)."""
    rows = {row.key for side in context["sides"] for row in side.units if shown.get(f"u-{row.key}") != row.fingerprint}
    panels = {name for name, value in context["prints"].items() if shown.get(PANEL_IDS[name]) != value}
    return rows, panels


def _with_rule(
    odds: Callable[..., Fraction | None],
    state: GameState,
    unit: UnitState,
    test: OrderTestResult | None,
    snap_test: OrderTestResult | None,
    officer: str | None,
) -> Fraction | None:
    """The pass chance a rule's ``odds`` (Not One Step Back!'s re-roll, Vengeance's die) gives the test
    the unit would take now: its own order's, or the officer's passed-on order's (with his bonus)."""
    if test is not None:
        return odds(state, unit.key)
    if snap_test is not None:
        return odds(state, unit.key, officer)
    return None


def _nco_offer(state: GameState, unit: UnitState) -> str:
    if state.finished or not has_nco(state, unit.key):
        return ""
    return "initiative" if initiative_die(state, unit.side) else "plain"


def _tiger(state: GameState, unit: UnitState, awaits: bool, officer: str | None) -> OrderTestResult | None:
    if not awaits or not tiger_fear_applies(state, unit.key):
        return None
    return order_odds(state, unit.key, officer, tiger=True)


AIR_OUTCOMES = {
    "arrives": gettext_lazy("Here it comes!"),
    "empty": gettext_lazy("The skies are empty"),
    "rookie": gettext_lazy("Rookie pilot"),
}


@dataclass
class SupportOffer:
    """A roll a side's national rule changes, offered by the game bar: Air Superiority's air strike
    (the chart's outcomes) or Massed Batteries' barrage radius (each radius), with exact odds."""

    side: str
    side_name: str
    kind: str  # "air" or "radius"
    rule: str  # the rule's name, translated
    dice: int
    odds: list[tuple[str, Fraction, str]]  # (outcome, exact chance, percent)
    left: int = 0  # air strikes the side may still call


def _support(game: Game, state: GameState, acting: tuple[str, ...]) -> list[SupportOffer]:
    offers = []
    for side in acting:
        for kind in support_offers(state, side):
            rule = support_rule(state, side, kind)
            name = str(NATIONAL_NAMES.get(rule.slug, rule.name)) if rule else ""
            if kind == "air":
                chances = support.air_strike_odds()
                odds = [(str(AIR_OUTCOMES[o]), p, percent(p)) for o, p in chances.items()]
                left = support.air_strikes_allowed(air_superiority=True) - state.air_calls[side]
            else:
                radius = support.barrage_radius_odds(massed_batteries=True)
                odds = [(f"{r}″", p, percent(p)) for r, p in radius.items()]
                left = 0
            offers.append(SupportOffer(side, game.side_name(side), kind, name, support_dice(kind), odds, left))
    return offers


@dataclass
class BombardOffer:
    """A preparatory bombardment a side may roll now (before the game's first order): one die per enemy
    unit on the table, two with Bombardment; the odds are direction-neutral (the chart is the book's)."""

    side: str
    side_name: str
    rule: str  # "Bombardment", translated, or "" (one die per unit)
    dice: int
    units: list[tuple[str, str]]  # (key, name) of the enemy units it may fall on
    odds: list[tuple[int, Fraction, str]]  # (face k, chance at least one die shows k or more, percent)


@dataclass
class BombardKeep:
    """Bombardment's two dice per unit, waiting for the die the player keeps for each."""

    side: str
    side_name: str
    rule: str
    units: list[tuple[str, str, list[int]]]  # (key, name, the two dice)


@dataclass(frozen=True)
class DefenceOffer:
    """Defensive Strategy's "who defends?" roll for a side whose list carries it (before the first order)."""

    side: str
    side_name: str
    rule: str
    reroll: bool  # not Italian v Italian: a roll that did not make the side defender is taken again
    p: Fraction  # the exact chance the side defends on the assumed roll (4-6)
    pc: str


def _defence(game: Game, state: GameState, acting: tuple[str, ...]) -> list[DefenceOffer]:
    offers = []
    for side in acting:
        if defence_offered(state, side):
            p = defender_odds(state, side)
            name = _rule_name(defensive_rule(state, side))
            offers.append(DefenceOffer(side, game.side_name(side), name, defence_reroll(state, side), p, percent(p)))
    return offers


def _rule_name(rule: Any) -> str:
    return str(NATIONAL_NAMES.get(rule.slug, rule.name)) if rule else ""


def _bombard(game: Game, state: GameState, acting: tuple[str, ...]) -> list[BombardOffer]:
    offers = []
    for side in acting:
        if not bombard_offered(state, side):
            continue
        n = bombard_dice(state, side)
        odds = [(k, p, percent(p)) for k, p in support.at_least_odds(n).items()]
        units = [(u.key, u.setup.name) for u in bombard_targets(state, side)]
        offers.append(BombardOffer(side, game.side_name(side), _rule_name(bombard_rule(state, side)), n, units, odds))
    return offers


def _bombard_keep(game: Game, state: GameState, acting: tuple[str, ...]) -> list[BombardKeep]:
    waiting = []
    for side in acting:
        dice = bombard_to_keep(state, side)
        if dice:
            units = [(key, _unit_name(state, key), list(values)) for key, values in dice.items()]
            waiting.append(BombardKeep(side, game.side_name(side), _rule_name(bombard_rule(state, side)), units))
    return waiting


def _send_back(state: GameState, acting: tuple[str, ...]) -> str:
    """The side whose first die the viewer may send back (Communication Breakdown!), or ""."""
    side = die_to_send_back(state)
    if side is None or ("b" if side == "a" else "a") not in acting:
        return ""  # only the die's enemy sends it back: a phone acting for one side, the other side's die
    return side


def _unit_name(state: GameState, key: str | None) -> str:
    return state.units[key].setup.name if key in state.units else "?"


def log_line(game: Game, state: GameState, entry: Any) -> str:
    """One log entry as a sentence in the active language."""
    d = entry.detail
    unit = _unit_name(state, entry.unit)
    turn = _("Turn %(turn)s") % {"turn": entry.turn}
    if entry.kind == "draw":
        side = game.side_name(entry.side)
        text = (_("Die recorded: %(side)s") if d.get("recorded") else _("Die drawn: %(side)s")) % {"side": side}
    elif entry.kind in ("order", "snap"):
        text = _("%(unit)s: %(order)s") % {"unit": unit, "order": ORDER_LABELS[d["order"]]}
        if d.get("blitzkrieg"):
            text += " · " + _("Blitzkrieg: one more unit may take the order")
        if entry.kind == "snap":
            text += " · " + _("snap to action, ordered by %(officer)s") % {"officer": _unit_name(state, d["officer"])}
        if d.get("banzai"):
            rule = str(NATIONAL_NAMES.get(d.get("rule") or "banzai-charge", ""))
            text += " · " + _("%(rule)s: passed without a roll") % {"rule": rule}
        if d.get("tiger_fear"):
            text += " · " + _("Tiger Fear: one more pin for the test")
        if d.get("avanti"):
            text += " · " + _("Avanti Savoia!: morale %(modifier)+d") % {"modifier": d["avanti"]}
        if "vengeance" in d:
            if d["vengeance_shed"]:
                params = {"die": d["vengeance"], "before": d["pins_before"], "after": d["pins_before"] - 1}
                text += " · " + _("Vengeance %(die)s: a pin lost (%(before)s → %(after)s)") % params
            else:
                text += " · " + _("Vengeance %(die)s: the pins stay") % {"die": d["vengeance"]}
        if d.get("nco"):
            text += " · " + _("NCO lost: morale %(modifier)+d") % {"modifier": d["nco"]}
        if d.get("commissar"):
            params = {"a": d["first"][0], "b": d["first"][1], "models": d.get("models", "?")}
            text += " · " + _("failed %(a)s+%(b)s: the commissar removes a man (%(models)s left) and re-rolls") % params
        if "dice" in d:
            params = {"a": d["dice"][0], "b": d["dice"][1], "morale": d["morale"]}
            text += " · " + _("order test %(a)s+%(b)s against %(morale)s") % params
            if d.get("fubar") == "friendly_fire":
                text += " · " + _("FUBAR: friendly fire")
            elif d.get("fubar"):
                text += " · " + _("FUBAR: panic")
            elif d.get("failed"):
                text += " · " + _("failed: Down")
            else:
                text += " · " + _("passed")
        if d["given"] == "rally":
            text += " · " + _("pins %(before)s → %(after)s") % {"before": d["pins_before"], "after": d["pins_after"]}
    elif entry.kind == "pins":
        text = _("%(unit)s: pins %(delta)+d (now %(pins)s)") % {"unit": unit, "delta": d["delta"], "pins": d["pins"]}
        if d.get("routed"):
            text += " · " + _("pin limit reached: destroyed")
    elif entry.kind == "casualties":
        params = {"unit": unit, "delta": abs(d["delta"]), "models": d["models"]}
        words = _back_words(-d["delta"]) if d["delta"] < 0 else _casualty_words(d["delta"])
        text = words % params
        if d.get("nco"):
            text += " · " + _nco_line(d)
        if d.get("wiped_out"):
            text += " · " + _("wiped out")
        if d.get("routed"):  # a Fanatic unit at its pin limit down to its last man
            text += " · " + _("pin limit reached: destroyed")
    elif entry.kind == "damage":
        text = _("%(unit)s: %(result)s") % {"unit": unit, "result": DAMAGE_LABELS[d["result"]]}
        if d.get("knocked_out"):
            text += " · " + _("second Immobilised result: knocked out")
        if d.get("routed"):
            text += " · " + _("pin limit reached: destroyed")
    elif entry.kind == "remove":
        text = _("%(unit)s destroyed") % {"unit": unit}
    elif entry.kind == "send_back":
        text = _("Communication Breakdown: %(side)s's die goes back in the bag") % {"side": game.side_name(d["die"])}
    elif entry.kind == "support" and entry.detail.get("roll") in ("defender", "emplacements"):
        text = _defence_line(game, entry)
    elif entry.kind == "support" and entry.detail.get("roll") in ("bombard", "bombard-keep"):
        text = _bombard_line(game, state, entry)
    elif entry.kind == "support":
        text = _support_line(game, entry)
    elif entry.kind == "end_turn":
        text = _("End of turn %(turn)s") % {"turn": d["turn"]}
        shed = [f"{_unit_name(state, k)} −{n}" for k, n in d["down_pins"].items() if n]
        if shed:
            text += " · " + _("pins lost for staying Down: %(units)s") % {"units": ", ".join(shed)}
    elif entry.kind == "end_game":
        text = result_text(game, d["result"])
    elif entry.kind == "merged":
        text = ngettext(
            "Merged: %(count)s action played offline on %(side)s's phone",
            "Merged: %(count)s actions played offline on %(side)s's phone",
            d.get("count", 0),
        ) % {"count": d.get("count", 0), "side": game.side_name(entry.side)}
        if d.get("fitted"):
            text += " · " + ngettext(
                "%(count)s action left to settle before now fits",
                "%(count)s actions left to settle before now fit",
                d["fitted"],
            ) % {"count": d["fitted"]}
        if d.get("conflicts"):
            text += " · " + ngettext("%(count)s to settle", "%(count)s to settle", d["conflicts"]) % {
                "count": d["conflicts"]
            }
    elif entry.kind == "settled":
        what = conflict_words(game, state, d.get("what", ""), entry.unit, d.get("die", ""))
        params = {"what": what, "side": game.side_name(entry.side)}
        text = _("Settled on %(side)s's phone: dropped (%(what)s)") % params
    else:
        text = entry.kind
    if d.get("typed"):
        text += " · " + typed_words()
    if d.get("settled"):
        text += " · " + _("settled after a merge")
    return f"{turn} · {text}"


# What an action that did not fit a merge was, in a few words (the conflict's row, the log's line).
CONFLICT_WORDS = {
    "order": gettext_lazy("%(unit)s: an order"),
    "snap": gettext_lazy("%(unit)s: an order"),
    "pins": gettext_lazy("%(unit)s: pins"),
    "casualties": gettext_lazy("%(unit)s: casualties"),
    "damage": gettext_lazy("%(unit)s: a damage result"),
    "remove": gettext_lazy("%(unit)s destroyed"),
}


def conflict_words(game: Game, state: GameState, kind: str, unit: str | None, die: str) -> str:
    if kind == "draw":
        return _("Die recorded: %(side)s") % {"side": game.side_name(die)}
    if kind == "end_turn":
        return _("End of the turn")
    if kind in CONFLICT_WORDS:
        return str(CONFLICT_WORDS[kind]) % {"unit": _unit_name(state, unit)}
    return kind


def conflict_reason(conflict: Any) -> str:
    """Why an action did not fit the merged game, in words a player settles it by."""
    if conflict.kind == "draw" and conflict.code == "pending":
        return _("A die was already waiting for its order: the same die recorded on both phones?")
    if conflict.kind == "end_turn" and conflict.code in ("dice-left", "pending", "turn-ended"):
        return _("The turn had already ended, or dice were still in the bag: the same end of turn on both phones?")
    if conflict.code == "destroyed":
        return _("This unit had been destroyed meanwhile.")
    return error_text(RulesError(conflict.reason, code=conflict.code))


@dataclass(frozen=True)
class ConflictRow:
    pk: int
    words: str
    reason: str
    phone: str  # the name of the side whose phone recorded it
    may_settle: bool
    kind: str


def conflicts(game: Game, state: GameState, sides: tuple[str, ...]) -> list[ConflictRow]:
    """The actions a merge left to settle (one query), and which this phone may settle."""
    return [
        ConflictRow(
            pk=c.pk,
            words=conflict_words(game, state, c.kind, c.unit, c.die),
            reason=conflict_reason(c),
            phone=game.side_name(c.side),
            may_settle=c.may_settle(sides),
            kind=c.kind,
        )
        for c in game.conflicts.filter(settled="")
    ]


def typed_words() -> str:
    """What a log line adds when the players typed its dice (the phone writes it offline too)."""
    return _("dice typed by a player")


def _nco_line(d: Any) -> str:
    """What became of a squad's NCO killed with its casualties (Initiative Training named when it acts)."""
    if "nco_die" in d:
        params = {"die": d["nco_die"]}
        if d["nco"] == "replaced":
            text = _("NCO killed: Initiative Training %(die)s, another man takes over (no −1)") % params
        else:
            text = _("NCO killed: Initiative Training %(die)s, the NCO is lost (−1 to its order tests)") % params
        return text + (" · " + _("rolled by Muster") if d.get("nco_rolled") else "")
    if d.get("rule") and not d.get("nco_penalty"):
        return _("NCO killed: no −1 to its order tests (Initiative Training)")
    return _("NCO killed: −1 to its order tests")


def offline_words(game: Game, state: GameState) -> dict[str, Any]:
    """What game.js needs to show offline what the engine would work out: the edition's
    numbers (pin rout, the FUBAR chart, Rally, staying Down) and ``log_line``'s own sentences, in
    the active language, with their ``%(name)s`` holes for the page to fill. One source, so the
    line a phone writes offline is the line the server writes when the game syncs."""
    rules = state.rules
    words: dict[str, Any] = {
        "rules": {
            "morale_range": [rules.combat.morale_min, rules.combat.morale_cap],
            "pin_rout": rules.combat.pin_rout,
            "fubar_faces": rules.combat.fubar_friendly_fire_faces,
            "rally": rules.rally,
            "down": rules.down_end_turn,
            "second_immobilised": rules.second_immobilised_knocks_out,
        },
        "sides": {side["key"]: side["name"] for side in game.setup["sides"]},
        # Per side, what its national rules add to an order now: Avanti Savoia!'s morale modifier, and
        # the rule that passes its assaults without a roll (Banzai Charge, Up and 'at 'em), by slug.
        "avanti": {side: avanti_modifier(state, side) for side in ("a", "b")},
        "assault_rule": {side: assault_rule_name(state, side) for side in ("a", "b")},
        "assault_rules": {
            rule.slug: str(NATIONAL_NAMES.get(rule.slug, rule.name))
            for rule in national.RULES
            if rule.effect in ("banzai", "assault_pass")
        },
        "air_outcomes": {key: str(label) for key, label in AIR_OUTCOMES.items()},
        "orders": {key: str(label) for key, label in ORDER_LABELS.items()},
        "damage": {key: str(label) for key, label in DAMAGE_LABELS.items()},
        "destroyed": _("Destroyed"),
        "support": _support_words(state),
        # Blitzkrieg: a German officer's "snap to action" takes one more unit (per side).
        "blitzkrieg": {
            side: bool(national.rule_in(state.setup.edition, side_rules(state, side), "blitzkrieg"))
            for side in ("a", "b")
        },
        # Communication Breakdown!: the sides whose first die of the game its enemy may send back
        # (engine.die_to_send_back), and whether that once is used; the page keeps its own flag after.
        "send_back_sides": [
            side
            for side in ("a", "b")
            if national.rule_in(state.setup.edition, side_rules(state, side), "send_back") is not None
        ],
        "sent_back": state.sent_back,
        "line": {
            "turn": _("Turn %(turn)s"),
            "recorded": _("Die recorded: %(side)s"),
            "drawn": _("Die drawn: %(side)s"),
            "order": _("%(unit)s: %(order)s"),
            "snap": _("snap to action, ordered by %(officer)s"),
            "banzai": _("%(rule)s: passed without a roll"),
            "tiger": _("Tiger Fear: one more pin for the test"),
            "avanti": _("Avanti Savoia!: morale %(modifier)+d"),
            "test": _("order test %(a)s+%(b)s against %(morale)s"),
            "friendly_fire": _("FUBAR: friendly fire"),
            "panic": _("FUBAR: panic"),
            "failed": _("failed: Down"),
            "passed": _("passed"),
            "rally": _("pins %(before)s → %(after)s"),
            "pins": _("%(unit)s: pins %(delta)+d (now %(pins)s)"),
            "routed": _("pin limit reached: destroyed"),
            "snap_button": _("%(order)s too (from %(officer)s)"),
            "blitzkrieg": _("Blitzkrieg: one more unit may take the order"),
            # The sentence for each count of men lost or given back, as the language's own plural
            # rule picks it (Polish has three forms, chosen by the last digits).
            "casualty": _by_count(_casualty_words),
            "back": _by_count(_back_words),
            "wiped_out": _("wiped out"),
            "damage": _("%(unit)s: %(result)s"),
            "knocked_out": _("second Immobilised result: knocked out"),
            "remove": _("%(unit)s destroyed"),
            "send_back": _("Communication Breakdown: %(side)s's die goes back in the bag"),
            "end_turn": _("End of turn %(turn)s"),
            "typed": typed_words(),
            "rolled": _("rolled by Muster"),
            "down_pins": _("pins lost for staying Down: %(units)s"),
            "vengeance_shed": _("Vengeance %(die)s: a pin lost (%(before)s → %(after)s)"),
            "vengeance_stay": _("Vengeance %(die)s: the pins stay"),
            "nco_order": _("NCO lost: morale %(modifier)+d"),
            "nco": {
                "initiative_replaced": _("NCO killed: Initiative Training %(die)s, another man takes over (no −1)"),
                "initiative_lost": _(
                    "NCO killed: Initiative Training %(die)s, the NCO is lost (−1 to its order tests)"
                ),
                "no_penalty": _("NCO killed: no −1 to its order tests (Initiative Training)"),
                "lost": _("NCO killed: −1 to its order tests"),
            },
        },
    }
    if any(national.rule_in(state.setup.edition, side_rules(state, side), "commissar") for side in ("a", "b")):
        # Only an army with commissars hears of them.
        words["line"]["commissar"] = _("failed %(a)s+%(b)s: the commissar removes a man (%(models)s left) and re-rolls")
    return words


def _air_words(left: int) -> str:
    return ngettext(
        "%(side)s: air strike roll %(dice)s: %(outcome)s (%(rule)s: %(left)s call left)",
        "%(side)s: air strike roll %(dice)s: %(outcome)s (%(rule)s: %(left)s calls left)",
        left,
    )


def _radius_words() -> str:
    return _("%(side)s: barrage radius, dice %(dice)s, the higher kept (%(rule)s): %(radius)s″")


def _support_words(state: GameState) -> dict[str, dict[str, Any]]:
    """Per side, the support rolls its national rules give it: the rule's name, the dice and the log's
    sentence (the chart and the radius the dice give are game_rules.js's, tested against the engine)."""
    words: dict[str, dict[str, Any]] = {}
    allowed = support.air_strikes_allowed(air_superiority=True)
    for side in ("a", "b"):
        for kind in ("air", "radius"):
            rule = support_rule(state, side, kind)
            if rule is None:
                continue
            entry: dict[str, Any] = {"rule": str(NATIONAL_NAMES.get(rule.slug, rule.name)), "dice": support_dice(kind)}
            if kind == "air":
                entry["line"] = {left: _air_words(left) for left in range(allowed + 1)}
            else:
                entry["line"] = _radius_words()
            words.setdefault(side, {})[kind] = entry
    return words


# Counts the phone is given a sentence for: more men than any unit has; beyond, the last count's form.
BY_COUNT_MOST = 100


def _by_count(words: Callable[[int], str]) -> dict[str, list]:
    """The sentence ``words`` gives for each count from 1 to ``BY_COUNT_MOST``, as gettext's plural rule
    of the active language picks it: the distinct forms, and for each count the index of its form."""
    forms: list[str] = []
    index = []
    for count in range(1, BY_COUNT_MOST + 1):
        text = words(count)
        if text not in forms:
            forms.append(text)
        index.append(forms.index(text))
    return {"forms": forms, "index": index}


def _casualty_words(count: int) -> str:
    return ngettext(
        "%(unit)s: %(delta)s casualty (%(models)s left)", "%(unit)s: %(delta)s casualties (%(models)s left)", count
    )


def _back_words(count: int) -> str:
    return ngettext(
        "%(unit)s: %(delta)s model back (%(models)s left)", "%(unit)s: %(delta)s models back (%(models)s left)", count
    )


def _bombard_line(game: Game, state: GameState, entry: Any) -> str:
    """A preparatory bombardment's dice per unit, or the die kept per unit with Bombardment."""
    d = entry.detail
    params = {"side": game.side_name(entry.side), "rule": str(NATIONAL_NAMES.get(d.get("rule", ""), d.get("rule", "")))}
    if d["roll"] == "bombard-keep":
        params["units"] = ", ".join(
            _("%(unit)s: %(kept)s (of %(dice)s)")
            % {"unit": _unit_name(state, key), "kept": kept, "dice": " · ".join(str(v) for v in d["dice"][key])}
            for key, kept in d["kept"].items()
        )
        return _("%(side)s: %(rule)s, the die kept for each unit: %(units)s") % params
    if d.get("rule"):
        params["units"] = ", ".join(
            f"{_unit_name(state, key)} ({' · '.join(str(v) for v in dice)})" for key, dice in d["dice"].items()
        )
        text = _("%(side)s: preparatory bombardment, two dice per enemy unit (%(rule)s): %(units)s") % params
    else:
        params["units"] = ", ".join(f"{_unit_name(state, key)} ({dice[0]})" for key, dice in d["dice"].items())
        text = _("%(side)s: preparatory bombardment, one die per enemy unit: %(units)s") % params
    if d.get("rolled"):
        text += " · " + _("rolled by Muster")
    return text


def _defence_line(game: Game, entry: Any) -> str:
    """Defensive Strategy: who defends (rolled, re-rolled or recorded), and the emplacements rolled."""
    d = entry.detail
    params = {"side": game.side_name(entry.side), "other": game.side_name("b" if entry.side == "a" else "a")}
    if d["roll"] == "emplacements":
        params.update(die=d["die"], count=d["count"])
        text = (
            ngettext(
                "%(side)s: Defensive Strategy, D3 emplacements (die %(die)s): %(count)s emplacement",
                "%(side)s: Defensive Strategy, D3 emplacements (die %(die)s): %(count)s emplacements",
                d["count"],
            )
            % params
        )
    else:
        defender = params["side"] if d["defends"] else params["other"]
        if d.get("recorded"):
            text = _("Defensive Strategy: %(defender)s defends (as the scenario decided)") % {"defender": defender}
        else:
            dice = " → ".join(str(v) for v in d["dice"])
            text = _("%(side)s: who defends? Die %(dice)s: %(defender)s defends") % {
                "side": params["side"],
                "dice": dice,
                "defender": defender,
            }
            if d.get("rerolled"):
                text += " · " + _("Defensive Strategy: re-rolled, the second result stands")
    if d.get("rolled"):
        text += " · " + _("rolled by Muster")
    return text


def _support_line(game: Game, entry: Any) -> str:
    d = entry.detail
    params = {
        "side": game.side_name(entry.side),
        "dice": ", ".join(str(v) for v in d["dice"]),
        "rule": str(NATIONAL_NAMES.get(d.get("rule", ""), d.get("rule", ""))),
    }
    if d["roll"] == "air":
        params.update(outcome=AIR_OUTCOMES[d["outcome"]], left=d["left"])
        text = _air_words(d["left"]) % params
    else:
        params["radius"] = d["radius"]
        text = _radius_words() % params
    if d.get("rolled"):
        text += " · " + _("rolled by Muster")
    return text


DAMAGE_LABELS = {
    "immobilised": gettext_lazy("Immobilised"),
    "on_fire": gettext_lazy("On fire"),
    "extinguished": gettext_lazy("Fire out"),
    "knocked_out": gettext_lazy("Knocked out"),
}


def result_text(game: Game, result: str) -> str:
    if result == "draw":
        return _("The game ends in a draw")
    return _("Victory for %(side)s") % {"side": game.side_name(result)}
