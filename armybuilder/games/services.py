"""Starting a game (freezing both forces) and writing its actions; each write is one transaction."""

from __future__ import annotations

import logging
import random
import uuid
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from armybuilder.catalogue.models import Option
from armybuilder.games.models import ACTIONS_MAX, NAME_LANGUAGES, Game, GameAction, playable_setup
from armybuilder.lists.models import ArmyList
from armybuilder.resolver import national_rules
from armybuilder.resolver.adapters import firer_from_entry, target_from_entry
from rules.army.order_dice import entry_order_dice
from rules.army.summary import summarise
from rules.combat import national
from rules.errors import RulesError
from rules.game.engine import (
    SNAPSHOT_EVERY,
    Action,
    GameSetup,
    GameState,
    apply,
    log_entry_to_data,
    new_state,
    state_to_data,
)

logger = logging.getLogger(__name__)

# Dice, draws and order tests are rolled here, on the server, never by the page: a player cannot
# predict or choose the next die from the client. SystemRandom has no seed to recover.
server_rng = random.SystemRandom()

MAX_STAND_IN_DICE = 40
FANATICS = "fanatics"  # the special rule's slug in the catalogue (Barracks' "Fanatics")
# A unit may also buy the rule: Barracks' options "Fanatics" (Waffen-SS, NKVD, Spähtrupp) and "Fanatic".
FANATIC_OPTIONS = frozenset({"fanatic", "fanatics"})


def lists_for_game():
    """What freezing a list reads: entries, units with options (and their weapons) and weapons."""
    options = Prefetch(
        "entries__unit__options",
        queryset=Option.objects.select_related("grants_weapon", "replaces_weapon").order_by("position", "name"),
    )
    return (
        ArmyList.objects.active()
        .select_related("edition", "army")
        .prefetch_related(
            "army__national_rules",
            "platoons",
            "entries__platoon",
            "entries__unit__weapons",
            "entries__unit__special_rules",
            options,
        )
    )


def entry_fanatic(entry, army: str, kind: str) -> bool:
    """Whether a list's unit is Fanatic at game day, as the shooting odds have it for the same unit: its
    own Fanatics rule or the option that buys it, its side's national rules for its kind (Death Before
    Dishonour, ``army``: ``list_army``), or the rule its list's Italian bonus gives it (Cedere)."""
    if any(rule.slug == FANATICS for rule in entry.unit.special_rules.all()):
        return True
    if any(count and slug in FANATIC_OPTIONS for slug, count in (entry.options or {}).items()):
        return True
    if national.fanatic_target(entry.army_list.edition.slug, army, kind) is not None:
        return True
    return "fanatics" in national_rules.entry_gains(entry)


def side_from_list(side: str, name: str, army_list: ArmyList) -> tuple[dict[str, Any], dict[str, Any]]:
    """A side of the game from a list (loaded with ``lists_for_game``), and what "odds now" needs per unit."""
    spec = army_list.to_rules()
    summary = summarise(spec)
    officers = {o.entry_key: o for o in summary.officers}
    units, odds = [], {}
    # Each unit's name in every language of the site, numbered as the list numbers it.
    by_language = {}
    for language in NAME_LANGUAGES:
        with translation.override(language):
            by_language[language] = army_list.entry_names()
    army = national_rules.list_army(army_list)  # national rules that change a shot, for "odds now"
    for entry, entry_spec in zip(army_list.entries.all(), spec.entries, strict=True):
        key = f"{side}{entry.pk}"
        officer = officers.get(entry_spec.key)
        target = target_from_entry(entry)
        units.append(
            {
                "key": key,
                "name": entry_spec.name,  # numbered when another unit of the list shares it
                "quality": entry.quality,
                "models": entry.total_models,  # a team's men are models too: casualties count them down
                "unit_type": entry.unit.unit_type,
                "dice": entry_order_dice(entry_spec),
                "officer_bonus": officer.morale_bonus if officer else 0,
                "command_range": officer.command_range if officer else 0,
                "extra_orders": officer.extra_orders if officer else 0,
                "officer_label": officer.rank_label if officer else "",
                # As the builder and the cards say it: a soft-skin's or a transport's 6+ when the data gives none.
                "damage_value": entry.unit.vehicle_damage_value,
                "points": summary.entry_points.get(entry_spec.key, 0),
                "fanatic": entry_fanatic(entry, army, target.kind),
            }
        )
        odds[key] = {
            "groups": [[g.weapon, g.models] for g in firer_from_entry(entry).groups],
            "kind": target.kind,
            "damage_value": target.damage_value,
            **national_rules.odds_setup(entry, army),
        }
    names = {
        f"{side}{pk}": {language: by_language[language][pk] for language in NAME_LANGUAGES}
        for pk in by_language[NAME_LANGUAGES[0]]
    }
    # The army's national rules by slug, for the ones that act at the table (rules.combat.national).
    rules = sorted(r.slug for r in army_list.army.national_rules.all()) if army_list.army else []
    if army_list.national_choice:
        rules.append(army_list.national_choice)  # a chosen trait acts as a rule of the side (Up and 'at 'em)
    side_data = {
        "key": side,
        "name": name,
        "list_name": army_list.name,
        "units": units,
        "names": names,
        "rules": rules,
    }
    if army_list.national_choice:
        side_data["national_choice"] = army_list.national_choice  # the British characteristic, the Italian bonus
    return side_data, odds


def stand_in_side(name: str, dice: int) -> dict[str, Any]:
    """An opponent whose army is not in Muster: one stand-in unit per order die, so pins and losses still count."""
    units = [
        {"key": f"b{i}", "name": _("Unit %(number)s") % {"number": i}, "quality": "regular", "models": None}
        for i in range(1, dice + 1)
    ]
    return {"key": "b", "name": name, "list_name": "", "units": units}


def game_start(
    *,
    owner,
    army_list: ArmyList,
    my_name: str,
    opponent_list: ArmyList | None = None,
    opponent_name: str = "",
    opponent_dice: int = 0,
    scenario: str = "",
    two_phones: bool = False,
) -> Game:
    """Freeze both forces into a new game; RulesError if the two lists are not of the same edition.
    ``two_phones``: each player's phone acts for its own side only (a game from an event pairing)."""
    if opponent_list is not None and opponent_list.edition_id != army_list.edition_id:
        raise RulesError("Both lists must be of the same edition.", code="edition")
    side_a, odds = side_from_list("a", my_name, army_list)
    if opponent_list is not None:
        side_b, odds_b = side_from_list("b", opponent_name or opponent_list.name, opponent_list)
        odds.update(odds_b)
    else:
        side_b = stand_in_side(opponent_name, opponent_dice)
    setup = {"edition": army_list.edition.slug, "sides": [side_a, side_b], "odds": odds}
    new_state(GameSetup.from_data(playable_setup(setup)))  # RulesError for a setup the engine cannot play
    return Game.objects.create(
        owner=owner,
        name=f"{side_a['name']} – {side_b['name']}",
        edition=army_list.edition.slug,
        points_limit=army_list.points_limit,
        scenario=scenario,
        setup=setup,
        two_phones=two_phones,
    )


def _locked(
    game: Game, revision: int | None, known: Callable[[Game], bool] | None = None
) -> tuple[Game, GameAction | None, list[GameAction]]:
    # The row lock serialises the two phones: each action is checked against the state it extends.
    # ``revision``: the one the player saw; a double tap or the other phone's move makes it stale.
    # ``known``: whether the action is stored already (a send retried), asked before the revision,
    # which the first send moved on.
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if known is not None and known(locked):
        raise AlreadyApplied
    if revision is not None and revision != locked.revision:
        raise RulesError("The game moved on since this page was loaded.", code="moved-on")
    base, rows = locked.latest_actions()
    return locked, base, rows


class AlreadyApplied(Exception):  # noqa: N818 - a signal, not an error: the send was applied before
    """The action's id is stored already: a retried or replayed send, applied once."""


def game_act(
    *,
    game: Game,
    build: Callable[[GameState], Action],
    by_opponent: bool = False,
    revision: int | None = None,
    client_id: uuid.UUID | None = None,
) -> Action | None:
    """Build an action from the current state (rolling any dice), check it, store it and move the revision.

    ``game`` is brought up to date with it (revision, turn, result), so that its answer needs not
    read it again.

    The state is the last snapshot and the few actions after it (``Game.latest_actions``); the
    new action stores its log line, and the state after it when its number is a multiple of
    ``SNAPSHOT_EVERY``. A game of ``ACTIONS_MAX`` actions accepts only the end of the game.

    ``client_id``: the id the phone made for the action; an action already stored under it (the same
    send retried, or replayed from an offline queue) is not applied again, and None is returned.
    """
    caller = game

    def known(locked: Game) -> bool:
        return client_id is not None and locked.actions.filter(client_id=client_id).exists()

    with transaction.atomic():
        try:
            game, base, rows = _locked(game, revision, known)
        except AlreadyApplied:
            logger.info("game %s: action %s already applied", game.pk, client_id)
            caller.refresh_from_db(fields=["revision", "turn", "result", "scenario", "finished_at", "updated_at"])
            return None
        count = rows[-1].seq if rows else (base.seq if base else 0)
        state = game.state(log=False, latest=(base, rows))
        action = build(state)
        if count >= ACTIONS_MAX and action.kind != "end_game":
            raise RulesError(
                "This game has reached the most actions one game keeps.", code="too-long", params={"max": ACTIONS_MAX}
            )
        apply(state, action)
        seq = count + 1
        GameAction.objects.create(
            game=game,
            seq=seq,
            kind=action.kind,
            payload=action.to_data(),
            log=log_entry_to_data(state.log[-1]),
            snapshot=state_to_data(state) if seq % SNAPSHOT_EVERY == 0 else None,
            by_opponent=by_opponent,
            client_id=client_id,
        )
        if action.kind == "end_game":
            game.result = state.result or ""
            game.scenario = state.scenario or game.scenario
            game.finished_at = timezone.now()
        game.revision += 1
        game.turn = state.turn
        game.save(update_fields=["revision", "turn", "result", "scenario", "finished_at", "updated_at"])
    for name in ("revision", "turn", "result", "scenario", "finished_at", "updated_at"):
        setattr(caller, name, getattr(game, name))
    logger.info("game %s: %s %s", game.pk, action.kind, action.to_data())
    return action


def game_undo(
    *, game: Game, by_opponent: bool = False, revision: int | None = None, own_only: bool | None = None
) -> GameAction:
    """Drop the last action (the opponent may only drop their own, and so may the creator of a
    two-phone game: ``own_only``, by default the game's); RulesError when there is none.

    Its snapshot, if it held one, goes with it: the state is then the previous snapshot and
    the actions after it, still fewer than ``SNAPSHOT_EVERY``.
    """
    with transaction.atomic():
        game, base, rows = _locked(game, revision)
        last = rows[-1] if rows else base
        if last is None:
            raise RulesError("Nothing to undo.", code="nothing")
        if by_opponent and not last.by_opponent:
            raise RulesError("Only the game's creator can undo this action.", code="not-yours")
        if (game.two_phones if own_only is None else own_only) and last.by_opponent != by_opponent:
            raise RulesError("Only your opponent can undo their own action.", code="opponents-action")
        last.delete()
        state = game.state(log=False)
        game.result = state.result or ""
        game.finished_at = game.finished_at if state.finished else None
        game.revision += 1
        game.turn = state.turn
        game.save(update_fields=["revision", "turn", "result", "finished_at", "updated_at"])
    logger.info("game %s: undo %s", game.pk, last.kind)
    return last
