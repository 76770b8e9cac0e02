"""Game pages: My games, starting a game, the table (owner or share link), odds now, and the service worker.

Each table view serves both doors into a game: ``/games/<pk>/`` for its creator (404 for anyone
else) and ``/g/<token>/`` for the opponent, who acts for side b only. Two phones stay in step by
polling: the page asks ``?since=<revision>`` every few seconds and gets 204 until the game moves.

A tap or a poll made by htmx says which board the phone shows (``seen``: its last action's number
and id; ``prints``: the print each row and panel of its page carries) and is answered with only what
changed: the rows and panels whose print is not the board's now, the new log lines, out of band; the
whole board when the phone's board cannot be brought up to date that way (an action it saw was undone
by the other phone, a turn went by, its prints are missing or cannot be read). Without JavaScript a
post redirects to the whole page.

Each phone of a two-phone game plays on offline for its own side; back online it sends its whole
queue to ``merge/`` (``services.game_merge``), and what did not fit is settled with one tap
(``settle/``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import reswap, retarget

from armybuilder.games import board as presenter
from armybuilder.games.forms import ActionForm, NewGameForm
from armybuilder.games.models import Game, GameConflict, Settled
from armybuilder.games.services import (
    Queued,
    from_millis,
    game_act,
    game_merge,
    game_settle,
    game_start,
    game_undo,
    lists_for_game,
    server_rng,
)
from armybuilder.http import HtmxHttpRequest
from armybuilder.lists.access import lists_for_user
from armybuilder.lists.models import ArmyList
from armybuilder.resolver import national_rules
from armybuilder.resolver.adapters import default_band, weapons_for_edition
from armybuilder.security.middleware import Limit, over_limit, refusal
from rules.errors import RulesError
from rules.game.engine import (
    NOTES,
    Action,
    GameState,
    bombard_keep,
    bombard_roll,
    casualties,
    defence_roll,
    draw,
    emplacements_roll,
    end_turn,
    give_order,
    log_entry_from_data,
    recorded_draw,
    send_back,
    snap_order,
    support_roll,
)
from rules.game.merge import QUEUE_MOST, corrected

POLL_SECONDS = 3
# Refusals of an action that is the other player's to make (a 403, with its sentence).
NOT_YOURS = ("not-your-side", "not-your-game")
# Actions that must not be repeated by a double tap or a second phone that has not seen the first.
GUARDED = ("draw", "record", "end_turn", "end_game", "send_back", "support")


@dataclass
class Door:
    """How the viewer reached the game: its creator, or the opponent by the share link."""

    game: Game
    opponent: bool

    @property
    def base(self) -> str:
        return f"/g/{self.game.share_token}/" if self.opponent else f"/games/{self.game.pk}/"

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides this phone acts for (``Game.acting_sides``)."""
        return self.game.acting_sides(opponent=self.opponent)


def _door(request: HttpRequest, pk: int | None, token: str | None) -> Door:
    if token is not None:
        return Door(get_object_or_404(Game, share_token=token), opponent=True)
    return Door(get_object_or_404(Game.objects.owned_by(request.user), pk=pk), opponent=False)


def _needs_login(request: HttpRequest, token: str | None) -> bool:
    return token is None and not request.user.is_authenticated


# --- My games and a new game ---------------------------------------------------------------------


@require_safe
@login_required
def index(request: HttpRequest) -> HttpResponse:
    games = list(Game.objects.owned_by(request.user).for_index())
    context = {
        "running": [g for g in games if not g.finished_at],
        "past": [g for g in games if g.finished_at],
    }
    return render(request, "games/index.html", context)


def _source_list(request: HttpRequest) -> ArmyList:
    """The list to play: one of mine (``?list=``) or one shared with me (``?shared=``); else 404."""
    if request.GET.get("shared"):
        return get_object_or_404(lists_for_game(), share_token=request.GET["shared"])
    try:
        pk = int(request.GET.get("list", ""))
    except ValueError:
        raise Http404("No list") from None
    return get_object_or_404(lists_for_game().filter(pk__in=lists_for_user(request).values("pk")), pk=pk)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def new(request: HttpRequest) -> HttpResponse:
    army_list = _source_list(request)
    mine = lists_for_user(request).active().filter(edition_id=army_list.edition_id).order_by("name")
    my_lists = [(pk, name) for pk, name in mine.values_list("pk", "name")]
    initial = {"my_name": request.user.get_username(), "opponent": "list" if my_lists else "dice", "opponent_dice": 6}
    form = NewGameForm(request.POST or None, initial=initial, my_lists=my_lists)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        opponent_list = None
        if data["opponent"] == "list":
            opponent_list = get_object_or_404(
                lists_for_game().filter(pk__in=mine.values("pk")), pk=data["opponent_list"]
            )
        elif data["opponent"] == "link":
            opponent_list = lists_for_game().filter(share_token=data["opponent_token"]).first()
            if opponent_list is None:
                form.add_error("opponent_link", _("No shared list has this link."))
        if not form.errors:
            try:
                game = game_start(
                    owner=request.user,
                    army_list=army_list,
                    my_name=data["my_name"],
                    opponent_list=opponent_list,
                    opponent_name=data.get("opponent_name") or "",
                    opponent_dice=data.get("opponent_dice") or 0,
                    scenario=data.get("scenario") or "",
                )
            except RulesError as error:
                form.add_error(None, presenter.error_text(error))
            else:
                return redirect(f"/games/{game.pk}/")
    return render(request, "games/new.html", {"form": form, "army_list": army_list, "has_lists": bool(my_lists)})


@require_POST
@login_required
def delete(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.owned_by(request.user), pk=pk)
    game.delete()
    messages.success(request, _("Game deleted."))
    return redirect("/games/")


# --- the table -----------------------------------------------------------------------------------

# Game actions and undos per client (the creator's account, the opponent's address), counted
# with the site's other rate limits (django-ratelimit, in Redis): a table makes a few a minute
# (a six-turn game is ~700 actions in three hours), and a club's opponents behind one address
# stay well below; a script adding actions through a share link meets them within the minute.
ACTION_RATES = ("120/m", "1200/h")


def _action_rate_limited(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @functools.wraps(view)
    def wrapped(request: HtmxHttpRequest, *args, **kwargs) -> HttpResponse:
        if getattr(settings, "RATELIMIT_ENABLE", True):
            limits = [Limit(rate, "user_or_ip") for rate in ACTION_RATES]
            refused = over_limit(request, "games-act", limits)
            if refused is not None:
                return refused
        return view(request, *args, **kwargs)

    return wrapped


def _gzip_htmx(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A tap's or a poll's answer gzipped (its fragments shrink to a quarter: on weak Wi-Fi that is
    the bulk of its time on the wire), as the builder's are; Django's gzip pads each answer with
    random bytes against BREACH. The whole page is left alone: its ETag is compared as sent."""
    zipped = gzip_page(view)

    @functools.wraps(view)
    def wrapped(request: HtmxHttpRequest, *args, **kwargs) -> HttpResponse:
        return (zipped if request.htmx else view)(request, *args, **kwargs)

    return wrapped


def _etag(request: HttpRequest, door: Door) -> str:
    # The page holds the forms' CSRF token: a new CSRF cookie (a new login) must not reuse an old page.
    csrf = hashlib.sha256(request.META.get("CSRF_COOKIE", "").encode()).hexdigest()[:12]
    return f'"game-{door.game.pk}-{door.game.revision}-{get_language()}-{int(door.opponent)}-{csrf}"'


# The most characters a phone's prints may take (a 60-unit game sends about 1,300); beyond, the whole board.
PRINTS_MOST = 8000
PRINT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
PRINT_VALUE = re.compile(rf"[A-Za-z0-9_-]{{{presenter.PRINT_CHARS}}}")


def _shown(request: HttpRequest) -> dict[str, str] | None:
    """The prints of the rows and panels the phone shows (``prints``: ``id:print`` pairs joined by
    commas, game.js), by element id; None when absent, too long or not made of such pairs."""
    raw = request.POST.get("prints") if request.method == "POST" else request.GET.get("prints")
    if not raw or len(raw) > PRINTS_MOST:
        return None
    shown = {}
    for pair in raw.split(","):
        key, _sep, value = pair.partition(":")
        if not (PRINT_ID.fullmatch(key) and PRINT_VALUE.fullmatch(value)):
            return None
        shown[key] = value
    return shown


def _seen(request: HttpRequest) -> tuple[int, int] | None:
    """The board the phone shows, as ``<seq>-<pk>`` of its last action (``0-0``: none); None if absent or garbled."""
    raw = request.POST.get("seen") if request.method == "POST" else request.GET.get("seen")
    seq, _sep, pk = (raw or "").partition("-")
    if not (seq.isdigit() and pk.isdigit()) or len(raw or "") > 24:
        return None
    return int(seq), int(pk)


@require_safe
@vary_on_headers("HX-Request")
@_gzip_htmx
def game(request: HtmxHttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    if _needs_login(request, token):
        return redirect_to_login(request.get_full_path())
    door = _door(request, pk, token)
    if request.htmx and request.GET.get("since") == str(door.game.revision):
        return HttpResponse(status=204)  # the poll: nothing moved, htmx leaves the page alone
    if request.htmx:
        return _changes(request, door, _seen(request))
    etag = _etag(request, door)
    # A message waiting (an action refused) must be shown, so no 304 then.
    has_messages = len(messages.get_messages(request)) > 0
    if request.headers.get("If-None-Match") == etag and not has_messages:
        return HttpResponseNotModified(headers={"ETag": etag})
    return _render_game(request, door)


def _can_undo(door: Door, last_by_opponent: bool | None) -> bool:
    """``last_by_opponent``: who made the last action (None: there is none).

    The opponent sees no Undo they could not use: only their own last action is theirs to undo, and so
    it is for the creator of a two-phone game.
    """
    if last_by_opponent is None:
        return False
    return len(door.sides) == 2 or last_by_opponent == door.opponent


def _page_context(request: HttpRequest, door: Door, context: dict, last: tuple[int, int], opponent_acted: bool) -> dict:
    context.update(
        base=door.base,
        poll_seconds=POLL_SECONDS,
        share_url=request.build_absolute_uri(f"/g/{door.game.share_token}/"),
        seen=f"{last[0]}-{last[1]}",
        log_count=last[0],
        # Played on the creator's phone alone so far: it may go on offline, its actions queued.
        one_phone=not door.opponent and not opponent_acted and not door.game.two_phones,
        # Each phone of a two-phone game goes on offline for its own side; back online its queue is merged.
        two_phones=door.game.two_phones,
    )
    return context


def _headers(response: HttpResponse, door: Door) -> HttpResponse:
    # no-store: the back button (after "Odds now") must fetch the board as it is now, not show the
    # copy the browser loaded one action ago. Offline, the service worker keeps its own.
    response["Cache-Control"] = "private, no-store"
    if door.opponent:
        response["X-Robots-Tag"] = "noindex"
    return response


def _render_game(request: HtmxHttpRequest, door: Door, error: str = "") -> HttpResponse:
    state = door.game.state()
    facts = door.game.log_facts
    last_by = facts.last_by_opponent if facts.last_seq else None
    context = presenter.board(door.game, state, opponent=door.opponent, can_undo=_can_undo(door, last_by))
    last = (facts.last_seq, facts.last_pk)
    _page_context(request, door, context, last, facts.opponent_acted).update(error=error)
    if door.game.two_phones:
        # What a merge of the two phones' offline actions left to settle (one query, two-phone games only).
        context["to_settle"] = presenter.conflicts(door.game, state, door.sides)
    if not state.finished:
        # What a phone needs to work out what the server would: every phone that acts shows a tap's
        # result at once with it, and a phone that plays on offline (one_phone, two_phones) goes on.
        context["offline_words"] = presenter.offline_words(door.game, state)
    template = "games/game.html#game" if request.htmx else "games/game.html"
    response = render(request, template, context)
    if request.htmx:
        # A fragment's request targets the sync element; the whole board replaces the board.
        retarget(response, "#game")
        reswap(response, "outerHTML")
    else:
        response["ETag"] = _etag(request, door)
    return _headers(response, door)


def _changes(
    request: HtmxHttpRequest, door: Door, seen: tuple[int, int] | None, error: str = "", undone: int | None = None
) -> HttpResponse:
    """What changed since the board the phone shows: changed rows and panels, and the new log lines.

    The board now is built once, and only the rows and panels whose print is not the one the phone
    says it shows (``prints``) are rendered. The whole board when the phone does not say what it
    shows or its board is gone (undone by the other phone), when the game ended or a turn went by
    (every row changes then anyway), or when a merge's or a settling's line came (what is left to
    settle). ``undone``: the number of the action an undo just dropped (None: not an undo).
    """
    game = door.game
    shown = _shown(request)
    if seen is None or shown is None:
        return _render_game(request, door, error)
    if undone is not None and undone == seen[0]:
        # The undo dropped the phone's own last action: its board is the game now but for that
        # action's log line (the stale check of ``game_undo`` made sure the phone showed it).
        last = game.last_action()
        state = game.state(log=False)
        new_lines: list[tuple[int, dict]] = []
        order_line, opponent_acted = None, None
    else:
        since = game.since(*seen)
        if since is None:
            return _render_game(request, door, error)
        state, new_lines, last = since.now, since.new_lines, since.last
        order_line, opponent_acted = since.last_order_log, since.opponent_acted
    if shown.get(presenter.PANEL_IDS["game"]) != presenter.digest(presenter.game_fingerprint(state)):
        return _render_game(request, door, error)
    if any(line.get("kind") in NOTES or (line.get("detail") or {}).get("settled") for _n, line in new_lines):
        # A merge's or a settling's line: the actions left to settle changed too (the whole board).
        return _render_game(request, door, error)
    seq = seen[0]
    if order_line is None:  # not among the actions read: further back, if any
        order_line = (
            game.actions.filter(kind__in=("order", "snap")).order_by("-seq").values_list("log", flat=True).first()
        )
    log = [(n, log_entry_from_data(line)) for n, line in new_lines]
    last_order = log_entry_from_data(order_line) if order_line else None
    can_undo = _can_undo(door, last.by_opponent if last else None)
    context = presenter.board(game, state, opponent=door.opponent, log=log, last_order=last_order, can_undo=can_undo)
    changed, moved = presenter.moved_pieces(context, shown)
    # The bar also says the last order and a refusal, and its Undo is the opponent's only for their
    # own last action: sent whenever one of those may have changed.
    if error or undone is not None or seq == 0 or door.opponent or any(e.kind in ("order", "snap") for _n, e in log):
        moved.add("bar")
    seen_now = (last.seq, last.pk) if last else (0, 0)
    if opponent_acted is None and not door.opponent:
        opponent_acted = game.actions.filter(by_opponent=True).exists()
    opponent_acted = bool(opponent_acted) and not door.opponent
    _page_context(request, door, context, seen_now, opponent_acted).update(
        error=error,
        changed=changed,
        moved=moved,
        log_was_empty=seq == 0,
        removed_lines=range(last.seq + 1 if last else 1, seq + 1),
    )
    return _headers(render(request, "games/game.html#changes", context), door)


def _build(form: ActionForm, door: Door):
    """The engine call for a posted action, checked against the state when it is built; an action
    whose dice the player typed says so (``typed``), for the log."""
    inner = _build_action(form, door)
    if not form.cleaned_data["typed_dice"]:
        return inner

    def build(state: GameState) -> Action:
        action = inner(state)
        return replace(action, data={**action.data, "typed": True})

    return build


def _build_action(form: ActionForm, door: Door):
    data = form.cleaned_data
    kind = data["action"]

    def own_side(side: str | None) -> None:
        if side not in door.sides:
            raise RulesError("You act for your own side only.", code="not-your-side")

    def unit_action(state: GameState, name: str, payload: dict) -> Action:
        unit = state.unit(data["unit"])
        own_side(unit.side)
        return Action(name, side=unit.side, unit=unit.key, data=payload)

    def order_test() -> dict[str, Any]:
        """The order test's dice and rules as posted, alike for an order given and a snap to action."""
        return {
            "dice": data["dice"],
            "commissar": data["commissar"],
            "reroll": data["reroll"],
            "tiger": data["tiger_fear"],
            "vengeance": data["vengeance"],
            "vengeance_die": data["vengeance_die"],
            "fubar": data["fubar"],
            "rally": data["rally"],
        }

    def build(state: GameState) -> Action:
        if kind == "draw":
            # With JavaScript the phone drew the die itself, to show it at the tap (game.js).
            return draw(state, server_rng, side=data["side"] or None)
        if kind == "record":
            return recorded_draw(data["side"] or "")
        if kind == "order":
            unit_action(state, "order", {})
            return give_order(
                state,
                data["unit"],
                data["order"],
                server_rng,
                officer=data["officer"] or None,
                banzai=data["banzai"],
                **order_test(),
            )
        if kind == "snap":
            unit_action(state, "snap", {})
            return snap_order(state, data["unit"], server_rng, **order_test())
        if kind == "casualties":
            unit_action(state, "casualties", {})
            delta = data["delta"] if data["delta"] is not None else 1
            return casualties(state, data["unit"], delta, server_rng, nco=data["nco"], nco_die=data["nco_die"])
        if kind == "send_back":
            action = send_back(state)
            own_side(action.side)
            return action
        if kind == "support":
            side = data["side"] or ""
            own_side(side)
            if data["roll"] == "bombard":
                if not data["bombard_units"]:
                    raise RulesError("Choose the enemy units on the table.", code="bombard-units")
                return bombard_roll(state, side, server_rng, units=data["bombard_units"], dice=data["bombard_dice"])
            if data["roll"] == "bombard-keep":
                return bombard_keep(state, side, data["bombard_kept"])
            if data["roll"] == "defender":
                defends = {"yes": True, "no": False}.get(data["defends"])
                return defence_roll(state, side, server_rng, dice=data["support_dice"], defends=defends)
            if data["roll"] == "emplacements":
                die = data["support_dice"][0] if data["support_dice"] else None
                return emplacements_roll(state, side, server_rng, die=die)
            return support_roll(state, side, data["roll"], server_rng, dice=data["support_dice"])
        if kind == "pins":
            return unit_action(state, kind, {"delta": data["delta"] if data["delta"] is not None else 1})
        if kind == "damage":
            return unit_action(state, "damage", {"result": data["result"]})
        if kind == "remove":
            return unit_action(state, "remove", {})
        if kind == "end_turn":
            if data["turn"] is not None and data["turn"] != state.turn:
                raise RulesError("This turn has already ended.", code="turn-ended")
            return end_turn(
                state, server_rng, release=data["release"], force=data["force"], down_dice=data["down_pins"]
            )
        if door.opponent:
            raise RulesError("Only the game's creator can end the game.", code="not-your-game")
        return Action("end_game", data={"result": data["result"], "scenario": data["scenario"]})

    return build


def _after_post(
    request: HtmxHttpRequest,
    door: Door,
    error: str,
    anchor: str = "",
    seen: tuple[int, int] | None = None,
    undone: int | None = None,
    fresh: bool = False,
) -> HttpResponse:
    """``fresh``: ``door.game`` is the game as the action left it (``game_act`` brought it up to date);
    else it is read again, as a refusal may come from a game another phone moved on."""
    if request.htmx:
        # What changed since the board the phone showed (and the error, if any).
        game = door.game if fresh else Game.objects.get(pk=door.game.pk)
        return _changes(request, Door(game, door.opponent), seen, error, undone)
    if error:
        messages.error(request, error)
    return redirect(door.base + (f"#{anchor}" if anchor else ""))


def _revision_missing(request: HttpRequest) -> HttpResponse:
    # Without the revision the player saw, a double tap or the other phone's move would be played
    # on top of a state nobody saw: the stale-revision check must not be skippable.
    message = _("This action must say which state of the game it was made on (the “rev” field); reload the page.")
    return refusal(request, 400, message, field="rev")


@require_POST
@_action_rate_limited
@_gzip_htmx
def act(request: HtmxHttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    if _needs_login(request, token):
        raise Http404("No such game")
    door = _door(request, pk, token)
    unit_keys = [u["key"] for side in door.game.setup["sides"] for u in side["units"]]
    form = ActionForm(request.POST, unit_keys=unit_keys)
    seen = _seen(request)
    if not form.is_valid():
        return _after_post(request, door, " ".join(str(e) for errs in form.errors.values() for e in errs), seen=seen)
    data = form.cleaned_data
    if data["action"] in GUARDED and data["rev"] is None:
        return _revision_missing(request)
    revision = data["rev"] if data["action"] in GUARDED else None
    error = ""
    try:
        game_act(
            game=door.game,
            build=_build(form, door),
            by_opponent=door.opponent,
            revision=revision,
            client_id=data["action_id"],
        )
    except RulesError as exc:
        if exc.code in NOT_YOURS:
            # Acting for the other player's side is refused outright, not shown as a rules error.
            return refusal(request, 403, presenter.error_text(exc))
        error = presenter.error_text(exc)
    anchor = f"u-{data['unit']}" if data.get("unit") and data["action"] not in ("order", "snap") else ""
    return _after_post(request, door, error, anchor, seen, fresh=not error)


@require_POST
@_action_rate_limited
@_gzip_htmx
def undo(request: HtmxHttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    if _needs_login(request, token):
        raise Http404("No such game")
    door = _door(request, pk, token)
    rev = request.POST.get("rev", "")
    if not rev.isdigit():
        return _revision_missing(request)
    seen = _seen(request) if request.htmx else None
    error, undone = "", None
    try:
        undone = game_undo(game=door.game, by_opponent=door.opponent, revision=int(rev)).seq
    except RulesError as exc:
        error = presenter.error_text(exc)
    return _after_post(request, door, error, seen=seen, undone=undone)


@require_safe
def odds(request: HttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    """Open the shooting calculator with the live state: firer's weapons and pins, target's models and cover."""
    if _needs_login(request, token):
        return redirect_to_login(request.get_full_path())
    door = _door(request, pk, token)
    state = door.game.state(log=False)
    firer = state.units.get(request.GET.get("firer", ""))
    if firer is None or firer.destroyed or firer.side not in door.sides:
        raise Http404("No such unit")
    frozen = door.game.setup.get("odds", {})
    query: dict[str, str] = {
        "edition": door.game.edition,
        "order": "advance" if firer.order == "advance" else "fire",
        "firer_quality": firer.setup.quality,
        "firer_pins": str(firer.pins),
    }
    # Casualties come off the first weapon group (the rifles), as a player removes riflemen first.
    lost = (firer.setup.models or 0) - (firer.models or 0)
    # Each weapon starts in a band it can fire in (a 12" SMG has no normal range).
    chart = {row.slug: row for row in weapons_for_edition(door.game.edition)}
    for i, (weapon, models) in enumerate(frozen.get(firer.key, {}).get("groups", [])[:8]):
        if i == 0:
            models = max(models - lost, 0)
        if models:
            band = default_band(chart[weapon]) if weapon in chart else "normal"
            query.update({f"g{i}-weapon": weapon, f"g{i}-models": str(models), f"g{i}-range": band})
    query.update(national_rules.odds_query(frozen.get(firer.key, {})))  # the army's national rules
    cover = request.GET.get("cover", "none")
    query["cover"] = cover if cover in ("none", "soft", "hard") else "none"
    target = state.units.get(request.GET.get("target", ""))
    if target is not None and target.side != firer.side and not target.destroyed:
        info = frozen.get(target.key, {})
        query.update(
            target_kind=info.get("kind", "infantry"),
            target_quality=target.setup.quality,
            target_models=str(max(target.models or 10, 1)),
            damage_value=str(info.get("damage_value") or ""),
        )
        if target.order == "down":
            query["down"] = "on"
        query.update(national_rules.target_odds_query(info))  # the target's national morale rules
    return redirect(f"/calc/shooting/?{urlencode(query)}")


# --- two phones back online: a queue merged, its conflicts settled -------------------------------


# The most characters one queued action's form may hold (a bombardment of many units is ~600).
BODY_MOST = 4000


class BadQueue(Exception):
    """A queue that cannot be read: the sentence says why (nothing is stored)."""


def _queued(request: HttpRequest, door: Door) -> list[Queued]:
    """The phone's queue (``queue``: a JSON list of {"body": the form's fields, "made_at": ms on the
    phone's clock}, ``now``: the phone's clock when it sent it), each action read by the form every
    tap posts and built as it builds it; BadQueue when any of it cannot be read."""
    try:
        items = json.loads(request.POST.get("queue") or "")
        phone_now = int(request.POST.get("now", ""))
    except ValueError:
        raise BadQueue(_("The actions sent cannot be read: send them again from the game's page.")) from None
    if not isinstance(items, list) or not items or len(items) > QUEUE_MOST:
        raise BadQueue(_("Send from 1 to %(most)s actions at a time.") % {"most": QUEUE_MOST})
    server_now = int(time.time() * 1000)
    unit_keys = [u["key"] for side in door.game.setup["sides"] for u in side["units"]]
    queued = []
    for number, item in enumerate(items, start=1):
        body, made_at = (item.get("body"), item.get("made_at")) if isinstance(item, dict) else (None, None)
        bad = not isinstance(body, str) or len(body) > BODY_MOST
        if bad or not isinstance(made_at, int) or isinstance(made_at, bool):
            raise BadQueue(_("Action %(number)s sent cannot be read.") % {"number": number})
        form = ActionForm(QueryDict(body), unit_keys=unit_keys)
        if not form.is_valid() or not form.cleaned_data["action_id"]:
            errors = " ".join(str(e) for errs in form.errors.values() for e in errs) or _("it has no id.")
            raise BadQueue(_("Action %(number)s sent is refused: %(error)s") % {"number": number, "error": errors})
        data = form.cleaned_data
        try:
            moment = from_millis(corrected(made_at, phone_now, server_now))
        except (OverflowError, OSError, ValueError):
            raise BadQueue(_("Action %(number)s sent cannot be read.") % {"number": number}) from None
        kind = "draw" if data["action"] == "record" else data["action"]
        queued.append(
            Queued(
                client_id=data["action_id"],
                made_at=moment,
                kind=kind,
                body=body,
                build=_build(form, door),
                unit=data.get("unit") or "",
                die=data.get("side") or "" if kind == "draw" else "",
            )
        )
    return queued


def _conflict_build(game: Game, conflict: GameConflict):
    """A conflict's action as its form builds it, for the phone that recorded it; None when it was
    an action the server had stored (built already), or its form no longer reads (RulesError)."""
    if "form" not in conflict.data:
        return None
    unit_keys = [u["key"] for side in game.setup["sides"] for u in side["units"]]
    form = ActionForm(QueryDict(conflict.data["form"]), unit_keys=unit_keys)
    if not form.is_valid():
        raise RulesError("This action cannot be read any more.", code="unreadable")
    return _build(form, Door(game, opponent=conflict.side == "b"))


def _rebuild(game: Game, conflict: GameConflict):
    """An earlier conflict as a step of a new merge: built again against the state it meets."""
    stored = Action.from_data(conflict.data.get("action") or {"kind": "?"})

    def build(state: GameState) -> Action:
        inner = _conflict_build(game, conflict)
        return stored if inner is None else inner(state)

    return build


@require_POST
@_action_rate_limited
def merge(request: HtmxHttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    """A two-phone game's phone back online: its offline queue merged with what the server has."""
    if _needs_login(request, token):
        raise Http404("No such game")
    door = _door(request, pk, token)
    if not door.game.two_phones:
        return refusal(request, 400, _("Only a game played on two phones merges its actions; send each action."))
    seen = _seen(request)
    if seen is None:
        return refusal(request, 400, _("Say which board the actions were played on (the “seen” field)."), field="seen")
    try:
        queued = _queued(request, door)
        report = game_merge(
            game=door.game,
            queued=queued,
            by_opponent=door.opponent,
            seen=seen,
            rebuild=functools.partial(_rebuild, door.game),
            fatal=NOT_YOURS,
        )
    except BadQueue as exc:
        return refusal(request, 400, str(exc), field="queue")
    except RulesError as exc:
        if exc.code in NOT_YOURS:
            return refusal(request, 403, presenter.error_text(exc))
        return refusal(request, 400, presenter.error_text(exc))
    if report.conflicts and not request.htmx:
        messages.warning(request, _("Some actions did not fit the game: settle them under “To settle”."))
    if request.htmx:
        return _render_game(request, door)
    return redirect(door.base)


@require_POST
@_action_rate_limited
def settle(request: HtmxHttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    """One tap on a conflict a merge left: drop it, or apply it to the game as it is now."""
    if _needs_login(request, token):
        raise Http404("No such game")
    door = _door(request, pk, token)
    number = request.POST.get("conflict", "")
    conflict = door.game.conflicts.filter(pk=int(number)).first() if number.isdigit() else None
    how = request.POST.get("how", "")
    if conflict is None:
        raise Http404("No such conflict")
    if how not in (Settled.DROPPED, Settled.APPLIED):
        return refusal(request, 400, _("Choose: drop it, or apply it now."), field="how")
    if not conflict.may_settle(door.sides):
        if conflict.settled:
            return _after_post(request, door, _("This conflict is settled already."))
        return refusal(request, 403, presenter.error_text(RulesError("", code="not-your-side")))
    error = ""
    try:
        build = _conflict_build(door.game, conflict) if how == Settled.APPLIED else None
        game_settle(game=door.game, conflict=conflict, how=how, by_opponent=door.opponent, build=build)
    except RulesError as exc:
        if exc.code in NOT_YOURS:
            return refusal(request, 403, presenter.error_text(exc))
        error = presenter.error_text(exc)
    return _after_post(request, door, error, "to-settle")
