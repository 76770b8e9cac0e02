"""Played games: the forces frozen at the start, and the log of actions whose replay is the state.

A long game is never replayed from its start: every ``SNAPSHOT_EVERY``-th action (rules.game.engine)
stores the state after it, so the state now is that snapshot plus fewer than ``SNAPSHOT_EVERY``
actions; each action also stores its own line of the log, so showing the log replays nothing.
Undo deletes the last action, and with it the snapshot it held, if any.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from armybuilder.lists.models import new_share_token
from armybuilder.stamps import Created, Timestamped
from armydata.names import GLOSSARY_MODULES
from rules.game.engine import SNAPSHOT_EVERY, Action, GameSetup, GameState, log_entry_from_data, resume

# The most actions one game keeps (a six-turn game of 15 dice a side is ~700): beyond it only
# "end the game" and undo are accepted. Bounds the log the page shows and the table's growth.
ACTIONS_MAX = 5000


# The languages a game's unit names are frozen in at its start (each unit's "names"), so the board
# reads in the visitor's language whoever started the game: English and every language with a
# glossary of names (the others read the English ones).
NAME_LANGUAGES = ("en", *GLOSSARY_MODULES)


def playable_setup(setup: dict, language: str | None = None) -> dict:
    """The stored setup as the engine takes it: each unit named in ``language`` (the active one).

    A side keeps its units' names per language in ``names`` (unit key -> language -> name); a
    game started before that has its units' one ``name``.
    """
    language = (language or get_language() or "en")[:2]
    sides = []
    for side in setup["sides"]:
        names = side.get("names") or {}
        units = [
            {**unit, "name": names[unit["key"]].get(language) or unit["name"]} if unit["key"] in names else unit
            for unit in side["units"]
        ]
        sides.append({**side, "units": units})
    return {**setup, "sides": sides}


@dataclass(frozen=True)
class LogFacts:
    """What ``Game.state(log=True)`` learnt of the actions besides their lines."""

    last_seq: int
    last_pk: int
    last_by_opponent: bool
    opponent_acted: bool


@dataclass
class Since:
    """``Game.since``: the game now, the log lines since the phone's board, the last action."""

    now: GameState
    new_lines: list[tuple[int, dict]]
    last: GameAction | None
    # The log line of the last order (or officer's order) among the actions read, {} when the game
    # has none, None when it may lie further back (before the snapshot the replay starts from).
    last_order_log: dict | None = None
    # Whether the opponent made an action, when the actions read tell (None: they do not).
    opponent_acted: bool | None = None


class Result(models.TextChoices):
    # From the point of view of side a, the game's creator.
    WIN = "a", _("Win")
    LOSS = "b", _("Loss")
    DRAW = "draw", _("Draw")


class GameQuerySet(models.QuerySet["Game"]):
    def owned_by(self, user) -> GameQuerySet:
        """Games are private to their creator (the opponent reaches one by its share link only)."""
        if user is None or not user.is_authenticated:
            return self.none()
        return self.filter(owner=user)

    def for_index(self) -> GameQuerySet:
        """My games page: one query, without the frozen forces."""
        return self.defer("setup").order_by("-updated_at", "-pk")


# The most actions a phone may be behind and still be sent only what changed (``Game.since``).
SINCE_MOST = SNAPSHOT_EVERY


class Game(Timestamped):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games")
    name = models.CharField(max_length=200)
    edition = models.CharField(max_length=8)  # the lists' edition slug (v1, v2, v3), frozen at the start
    points_limit = models.PositiveIntegerField(default=0)
    scenario = models.CharField(max_length=100, blank=True)
    # Both forces as plain data (rules.game.engine.GameSetup) plus what "odds now" needs per unit:
    # later edits to the lists never change a game under way.
    setup = models.JSONField()
    share_token = models.CharField(max_length=32, unique=True, default=new_share_token, editable=False)
    # Moves on every action and every undo: the ETag and the polling of the two phones key on it.
    revision = models.PositiveIntegerField(default=0)
    turn = models.PositiveSmallIntegerField(default=1)  # copied from the state for My games
    result = models.CharField(max_length=4, choices=Result.choices, blank=True)
    # Played on two phones, each acting for its own side only (a game started from an event
    # pairing): the creator's phone acts for side a, the share link for side b.
    two_phones = models.BooleanField(default=False)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    def rules_setup(self) -> GameSetup:
        return GameSetup.from_data(playable_setup(self.setup))

    def latest_actions(self) -> tuple[GameAction | None, list[GameAction]]:
        """The last action holding a snapshot (None: no snapshot yet) and the actions after it.

        Two queries, and fewer than ``SNAPSHOT_EVERY`` actions however long the game.
        """
        base = self.actions.filter(snapshot__isnull=False).order_by("-seq").first()
        return base, list(self.actions.filter(seq__gt=base.seq if base else 0))

    def state(self, *, log: bool = True, latest: tuple[GameAction | None, list[GameAction]] | None = None) -> GameState:
        """The game now: its last snapshot and the actions after it replayed.

        ``log``: the whole log too (each action's stored line, one more query), for the page.
        ``latest``: what ``latest_actions`` gave, when the caller has it already.
        """
        meta = list(self.actions.values_list("pk", "by_opponent", "log")) if log else []
        lines = [line for _pk, _by, line in meta]
        if log:
            # What the page also needs from the log, without more queries: its last action (the
            # phone's "seen" mark, who may undo it) and whether the opponent ever acted.
            self.log_facts = LogFacts(
                last_seq=len(meta),
                last_pk=meta[-1][0] if meta else 0,
                last_by_opponent=bool(meta and meta[-1][1]),
                opponent_acted=any(by for _pk, by, _line in meta),
            )
        if latest is None and log:
            # The log says how many actions there are, so where the last snapshot is: one query
            # for it and the actions after it.
            snapshot_seq = len(lines) - len(lines) % SNAPSHOT_EVERY
            rows = list(self.actions.filter(seq__gte=snapshot_seq))
            if snapshot_seq == 0:
                latest = (None, rows)
            elif rows and rows[0].seq == snapshot_seq and rows[0].snapshot is not None:
                latest = (rows[0], rows[1:])
        base, rows = latest if latest is not None else self.latest_actions()
        state = resume(self.rules_setup(), base.snapshot if base else None, [Action.from_data(r.payload) for r in rows])
        if log:
            state.log = [log_entry_from_data(line) for line in lines]
        return state

    def since(self, seq: int, pk: int) -> Since | None:
        """The game now and what it logged since the board a phone shows, named by that board's last
        action (``seq`` and its ``pk``; 0, 0 before any), read in two queries.

        The last snapshot at or before the phone's action, and every action after it: replayed, they
        give the game now (the phone's own board is not needed: it sends the print of each piece it
        shows). None when the phone's action is gone (undone since: undo deletes from the end, so
        while it is there every action before it is too), or when the phone is more than
        ``SINCE_MOST`` actions behind: its whole board is then cheaper to send than what changed.
        """
        if seq < 0 or (seq == 0) != (pk == 0):
            return None
        base = self.actions.filter(snapshot__isnull=False, seq__lte=seq).order_by("-seq").first()
        # Snapshots after the phone's action are not read: the replay starts from ``base``. A phone
        # far behind (asleep through a long game) read and replayed every action since it: a stale
        # poll of a 5,000-action game cost 1.3 s of CPU (5,000 payloads decoded and replayed, 5,000
        # log lines rendered), where the whole board is a snapshot and fewer than 50 actions.
        after = self.actions.filter(seq__gt=base.seq if base else 0).defer("snapshot", "created_at")
        most = SNAPSHOT_EVERY + SINCE_MOST  # fewer than SNAPSHOT_EVERY before the phone's action
        rows = list(after[: most + 1])
        if len(rows) > most or sum(1 for r in rows if r.seq > seq) > SINCE_MOST:
            return None
        marks = {(r.seq, r.pk) for r in rows} | ({(base.seq, base.pk)} if base else set())
        if seq and (seq, pk) not in marks:
            return None
        setup, snapshot = self.rules_setup(), base.snapshot if base else None
        actions = [(r.seq, Action.from_data(r.payload)) for r in rows]
        last = rows[-1] if rows else base
        return Since(
            now=resume(setup, snapshot, [a for _n, a in actions]),
            new_lines=[(r.seq, r.log) for r in rows if r.seq > seq],
            last=last,
            # Without a snapshot the actions read are the whole game: what they lack, it lacks.
            last_order_log=next(
                (r.log for r in reversed([base, *rows]) if r and r.kind in ("order", "snap")), None if base else {}
            ),
            opponent_acted=True if any(r.by_opponent for r in rows) else (None if base else False),
        )

    def last_action(self) -> GameAction | None:
        return self.actions.order_by("-seq").only("pk", "seq", "by_opponent").first()

    def acting_sides(self, *, opponent: bool) -> tuple[str, ...]:
        """The sides a phone acts for: the share link side b; the creator both on a one-phone game, side
        a alone on a two-phone one."""
        if opponent:
            return ("b",)
        return ("a",) if self.two_phones else ("a", "b")

    def side_name(self, side: str) -> str:
        return next((s["name"] for s in self.setup["sides"] if s["key"] == side), side)


class GameAction(Created):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)
    payload = models.JSONField()  # rules.game.engine.Action.to_data(), dice rolled included
    log = models.JSONField(default=dict)  # its line of the log (rules.game.engine.log_entry_to_data)
    # The state after this action (rules.game.engine.state_to_data), on every SNAPSHOT_EVERY-th one.
    snapshot = models.JSONField(null=True, blank=True)
    by_opponent = models.BooleanField(default=False)  # made through the share link
    # The id the phone gave the action (game.js, a UUID): a send retried or replayed from the offline
    # queue carries the same id, and is applied once. None for actions stored before ids existed.
    client_id = models.UUIDField(null=True, blank=True)
    # When it was made at the table: the server's clock for an action sent at once, the phone's
    # (corrected by its skew) for one played offline and merged. Two phones' queues are merged in
    # this order. None for actions stored before it was kept (their created_at stands in).
    made_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_game_action_seq"),
            models.UniqueConstraint(
                fields=["game", "client_id"],
                condition=models.Q(client_id__isnull=False),
                name="unique_game_action_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.kind}"


class Settled(models.TextChoices):
    DROPPED = "dropped", _("Dropped, not applied")
    APPLIED = "applied", _("Applied later")


class GameConflict(Created):
    """An action played offline on a two-phone game that did not fit the game once both phones'
    actions were merged (the same die recorded on both phones, an order for a unit the other side
    had destroyed): kept, never dropped, until a player settles it with one tap."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="conflicts")
    side = models.CharField(max_length=1)  # the phone that recorded it: a (the creator's) or b
    kind = models.CharField(max_length=16)  # the action's kind ("draw" for a die drawn or recorded)
    unit = models.CharField(max_length=40, blank=True)  # the unit it was for, if any
    die = models.CharField(max_length=1, blank=True)  # the side of the die, for a draw
    # The action as the phone posted it ({"form": "<the form's fields>"}), or as the server had
    # stored it before the merge ({"action": rules.game.engine.Action.to_data()}).
    data = models.JSONField()
    code = models.CharField(max_length=32)  # the engine's refusal in the merged order
    reason = models.CharField(max_length=300)
    made_at = models.DateTimeField()
    client_id = models.UUIDField(null=True, blank=True)
    settled = models.CharField(max_length=8, choices=Settled.choices, blank=True)
    settled_by = models.CharField(max_length=1, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["made_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "client_id"],
                condition=models.Q(client_id__isnull=False),
                name="unique_game_conflict_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} {self.kind} ({self.code})"

    @property
    def table_die(self) -> bool:
        """A die drawn or the end of the turn: the bag is the table's, so either phone settles it."""
        return self.kind in ("draw", "end_turn")

    def may_settle(self, sides: tuple[str, ...]) -> bool:
        return not self.settled and (self.table_die or self.side in sides)
