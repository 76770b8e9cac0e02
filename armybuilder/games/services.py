"""Starting a game (freezing both forces) and writing its actions; each write is one transaction."""

from __future__ import annotations

import logging
import random
import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from armybuilder.catalogue.models import Option
from armybuilder.games.models import (
    ACTIONS_MAX,
    NAME_LANGUAGES,
    Game,
    GameAction,
    GameConflict,
    Settled,
    playable_setup,
)
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
    resume,
    state_to_data,
)
from rules.game.merge import Step, interleave, merge

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
            made_at=timezone.now(),
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


# --- two phones that played on offline -----------------------------------------------------------


def millis(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def from_millis(value: int) -> datetime:
    return datetime.fromtimestamp(value / 1000, tz=UTC)


@dataclass(frozen=True)
class Queued:
    """One action of a phone's offline queue: its form's fields as posted (``body``), read (``kind``,
    ``unit``, ``die``: the die's side) and built as the form would build it (``build``)."""

    client_id: uuid.UUID
    made_at: datetime  # on the server's clock (the phone's skew taken off)
    kind: str
    body: str
    build: Callable[[GameState], Action]
    unit: str = ""
    die: str = ""


@dataclass(frozen=True)
class MergeReport:
    applied: int  # actions of the queue now in the game
    conflicts: int  # actions of either phone left to settle
    repeated: int  # actions of the queue the server had already (a queue sent again)


def _stored_step(ref: str, row: GameAction) -> Step:
    made_at = millis(row.made_at or row.created_at)
    return Step(_phone(row.by_opponent), made_at, _given(Action.from_data(row.payload)), ref, stored=True)


def _given(action: Action) -> Callable[[GameState], Action]:
    """A stored action, as a step of the merge: built already."""
    return lambda _state: action


def _ref(row: GameAction) -> str:
    # Actions stored before ids existed are named by their row instead (kept without an id).
    return str(row.client_id) if row.client_id else f"row:{row.pk}"


def _phone(by_opponent: bool) -> str:
    return "b" if by_opponent else "a"


def game_merge(
    *,
    game: Game,
    queued: list[Queued],
    by_opponent: bool,
    seen: tuple[int, int],
    rebuild: Callable[[GameConflict], Callable[[GameState], Action]],
    fatal: Collection[str] = (),
) -> MergeReport:
    """Merge a phone's offline queue into a two-phone game (``rules.game.merge``), in one transaction.

    The actions the server stored after the board the phone saw (``seen``: its last action's number
    and id), the actions still to settle from an earlier merge (``rebuild`` builds one again, as its
    form would: with both phones back at different times, the first merge could not know what the
    second brings) and the queue are replayed in the order they were made; the tail of the game is
    written again (new numbers, log lines and snapshots, each action's id kept, so a queue sent
    again is applied once), with a line of the log saying what was merged. Actions that do not fit
    are kept as ``GameConflict`` for the players to settle. RulesError with a code in ``fatal`` (an
    action for the other side's units) refuses the whole merge: nothing is stored.
    """
    phone = _phone(by_opponent)
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        known = {str(i) for i in locked.actions.exclude(client_id=None).values_list("client_id", flat=True)}
        known |= {str(i) for i in locked.conflicts.exclude(client_id=None).values_list("client_id", flat=True)}
        # An id already stored, or sent twice in one queue, is one action, applied once.
        fresh = []
        for q in queued:
            if str(q.client_id) not in known:
                known.add(str(q.client_id))
                fresh.append(q)
        if not fresh:
            return MergeReport(applied=0, conflicts=0, repeated=len(queued))
        count = locked.actions.count()
        seq, pk = seen
        # The phone's board: its last action, if still there (undo takes actions from the end, so
        # every one before it is too); an action it saw that was undone since: as far as is left.
        base_seq = seq if seq == 0 or locked.actions.filter(seq=seq, pk=pk).exists() else min(seq, count)
        if count + len(fresh) + 1 > ACTIONS_MAX:
            raise RulesError(
                "This game has reached the most actions one game keeps.", code="too-long", params={"max": ACTIONS_MAX}
            )
        snap = locked.actions.filter(snapshot__isnull=False, seq__lte=base_seq).order_by("-seq").first()
        before = list(locked.actions.filter(seq__gt=snap.seq if snap else 0, seq__lte=base_seq))
        tail = list(locked.actions.filter(seq__gt=base_seq))
        state = resume(
            locked.rules_setup(), snap.snapshot if snap else None, [Action.from_data(r.payload) for r in before]
        )
        # What each step is, by its ref: a stored action, an earlier conflict, or the phone's action.
        rows = {_ref(row): row for row in tail}
        # Conflicts made since the phone's board are tried again; older ones it has seen to settle.
        base_row = before[-1] if before else (snap if snap and snap.seq == base_seq else None)
        since = (base_row.made_at or base_row.created_at) if base_row else None
        waiting = locked.conflicts.filter(settled="")
        earlier = {f"conflict:{c.pk}": c for c in (waiting.filter(made_at__gte=since) if since else waiting)}
        mine = {str(q.client_id): q for q in fresh}
        stored = interleave(
            [_stored_step(ref, row) for ref, row in rows.items()],
            [Step(c.side, millis(c.made_at), rebuild(c), ref, True) for ref, c in earlier.items()],
        )
        incoming = [Step(phone, millis(q.made_at), q.build, ref) for ref, q in mine.items()]
        first_made = min(q.made_at for q in fresh)

        def note(applied, conflicts) -> Action:
            count = sum(1 for a in applied if a.step.ref in mine)
            fitted = sum(1 for a in applied if a.step.ref in earlier)
            data = {"count": count, "conflicts": len(conflicts)}
            if fitted:
                data["fitted"] = fitted
            return Action("merged", side=phone, data=data)

        merged = merge(state, stored, incoming, start=base_seq, fatal=fatal, note=note)
        locked.actions.filter(seq__gt=base_seq).delete()
        new_rows = []
        for n, item in enumerate(merged.applied, start=base_seq + 1):
            ref = item.step.ref
            if ref in rows:
                client_id, made_at = rows[ref].client_id, rows[ref].made_at or rows[ref].created_at
            elif ref in earlier:
                client_id, made_at = earlier[ref].client_id, earlier[ref].made_at
            elif ref in mine:
                client_id, made_at = mine[ref].client_id, mine[ref].made_at
            else:  # the merge's own line of the log
                client_id, made_at = None, first_made
            new_rows.append(
                GameAction(
                    game=locked,
                    seq=n,
                    kind=item.action.kind,
                    payload=item.action.to_data(),
                    log=log_entry_to_data(item.log),
                    snapshot=item.snapshot,
                    by_opponent=item.step.phone == "b",
                    client_id=client_id,
                    made_at=made_at,
                )
            )
        # An earlier conflict that fits now is an action of the game: it is settled by the merge.
        locked.conflicts.filter(
            pk__in=[earlier[a.step.ref].pk for a in merged.applied if a.step.ref in earlier]
        ).delete()
        GameAction.objects.bulk_create(new_rows)
        created = []
        for conflict in merged.conflicts:
            ref = conflict.step.ref
            if ref in earlier:  # still does not fit: kept, with the reason it has now
                GameConflict.objects.filter(pk=earlier[ref].pk).update(
                    code=conflict.code[:32], reason=conflict.reason[:300]
                )
                continue
            if ref in rows:
                row = rows[ref]
                action = Action.from_data(row.payload)
                data, kind, unit, die = {"action": row.payload}, action.kind, action.unit or "", action.side or ""
                client_id, made_at = row.client_id, row.made_at or row.created_at
            else:
                q = mine[ref]
                data, kind, unit, die, client_id, made_at = (
                    {"form": q.body},
                    q.kind,
                    q.unit,
                    q.die,
                    q.client_id,
                    q.made_at,
                )
            draw_kind = kind in ("draw", "record")
            created.append(
                GameConflict(
                    game=locked,
                    side=conflict.step.phone,
                    kind="draw" if draw_kind else kind,
                    unit="" if draw_kind else unit,
                    die=die if draw_kind else "",
                    data=data,
                    code=conflict.code[:32],
                    reason=conflict.reason[:300],
                    made_at=made_at,
                    client_id=client_id,
                )
            )
        GameConflict.objects.bulk_create(created)
        _moved(locked, merged.state)
    applied = sum(1 for a in merged.applied if a.step.ref in mine)
    left = len(merged.conflicts)
    logger.info("game %s: merged %s actions from phone %s, %s to settle", game.pk, applied, phone, left)
    for name in ("revision", "turn", "result", "scenario", "finished_at", "updated_at"):
        setattr(game, name, getattr(locked, name))
    return MergeReport(applied=applied, conflicts=left, repeated=len(queued) - len(fresh))


def _moved(locked: Game, state: GameState) -> None:
    """The game row after its actions changed: the revision moves, the turn and result follow the state."""
    locked.result = state.result or ""
    locked.scenario = state.scenario or locked.scenario
    if state.finished and not locked.finished_at:
        locked.finished_at = timezone.now()
    elif not state.finished:
        locked.finished_at = None
    locked.revision += 1
    locked.turn = state.turn
    locked.save(update_fields=["revision", "turn", "result", "scenario", "finished_at", "updated_at"])


def game_settle(
    *,
    game: Game,
    conflict: GameConflict,
    how: str,
    by_opponent: bool,
    build: Callable[[GameState], Action] | None = None,
) -> None:
    """Settle a conflict left by a merge: drop it (a line of the log says so), or apply it to the
    game as it is now (``build``: the action as its form builds it; RulesError if it still does not
    fit, and it stays to settle)."""
    settler = _phone(by_opponent)
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)  # the game first, as every write locks it
        locked = GameConflict.objects.select_for_update().get(pk=conflict.pk)
        if locked.settled:
            raise RulesError("This conflict is settled already.", code="settled")
        if how == Settled.APPLIED:
            if build is None:
                payload = locked.data.get("action") or {}
                stored = Action.from_data(payload)

                def build(_state: GameState) -> Action:
                    return stored

            inner = build

            def marked(state: GameState) -> Action:
                action = inner(state)
                return replace(action, data={**action.data, "settled": True})

            game_act(game=game, build=marked, by_opponent=by_opponent, client_id=locked.client_id)
        else:
            data = {"how": "dropped", "what": locked.kind, "phone": locked.side}
            if locked.die:
                data["die"] = locked.die
            note = Action("settled", side=settler, unit=locked.unit or None, data=data)
            game_act(game=game, build=lambda _s: note, by_opponent=by_opponent)
        locked.settled = how
        locked.settled_by = settler
        locked.settled_at = timezone.now()
        locked.save(update_fields=["settled", "settled_by", "settled_at"])
    logger.info("game %s: conflict %s %s by phone %s", game.pk, conflict.pk, how, settler)
