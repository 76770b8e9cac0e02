"""Two phones that played on offline: their actions merged in the order they happened, and replayed.

Each phone of a two-phone game records its own side's actions while the network is gone, and any
die drawn from the table's bag. Back online, the actions the server stored since the board the
phone last saw (the other phone's, sent meanwhile) and the phone's own queue are put in one order
by the time each was made, each list keeping its own order, and replayed from that board through
the engine. An action the engine refuses in that order (a second die recorded while one waits for
its order: the same die recorded on both phones; an order for a unit the other side had destroyed)
is not lost: it comes back as a ``Conflict`` with the engine's reason, for its players to settle.

Times are milliseconds on the server's clock: a phone's clock is corrected by the difference
between the server's clock and the phone's when the queue is sent (``corrected``). Plain Python:
the caller stores the result.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from rules.errors import RulesError
from rules.game.engine import SNAPSHOT_EVERY, Action, GameState, LogEntry, apply, note_detail, state_to_data

# The most actions one merge takes from a phone (a turn of 15 dice a side is ~80 actions).
QUEUE_MOST = 500


def corrected(made_at: int, phone_now: int, server_now: int) -> int:
    """A time read on a phone's clock, on the server's: the phone's skew is what the two clocks
    disagreed by when the phone sent it (the network's delay is within it, well under a tap)."""
    return made_at + (server_now - phone_now)


@dataclass(frozen=True)
class Step:
    """One action to merge. ``build`` makes it against the state it meets (an action a phone queued,
    built as its form would be, with the phone's dice) or gives the stored one as it is.

    ``phone``: the side whose phone made it; ``ref``: its id (the phone's, so a queue sent twice is
    applied once), or "" for an action stored without one.
    """

    phone: str
    made_at: int
    build: Callable[[GameState], Action]
    ref: str = ""
    stored: bool = False


@dataclass(frozen=True)
class Applied:
    step: Step
    action: Action
    log: LogEntry
    snapshot: dict | None  # the state after it, when its number is a multiple of SNAPSHOT_EVERY


@dataclass(frozen=True)
class Conflict:
    step: Step
    code: str  # the engine's refusal (RulesError.code)
    reason: str  # and its words (English; the page says them in the player's language)


@dataclass
class Merged:
    applied: list[Applied]
    conflicts: list[Conflict]
    state: GameState


def interleave(first: Sequence[Step], second: Sequence[Step]) -> list[Step]:
    """Both lists in one, by the time each step was made; each keeps its own order (a phone's clock
    set back in the middle of a queue does not reorder the queue), and ``first`` wins a tie."""
    out: list[Step] = []
    i = j = 0
    while i < len(first) and j < len(second):
        if second[j].made_at < first[i].made_at:
            out.append(second[j])
            j += 1
        else:
            out.append(first[i])
            i += 1
    return [*out, *first[i:], *second[j:]]


def merge(
    state: GameState,
    stored: Sequence[Step],
    incoming: Sequence[Step],
    *,
    start: int,
    fatal: Collection[str] = (),
    note: Callable[[list[Applied], list[Conflict]], Action] | None = None,
) -> Merged:
    """Replay ``stored`` (the server's actions after the phone's board, in their order) and
    ``incoming`` (the phone's queue, in its order) interleaved by time, from ``state`` (the phone's
    board: changed in place). ``start``: the number of the action ``state`` is after, for the
    snapshots.

    ``note``: the merge's own line of the log, made from what was merged, put where the phone's
    first action falls (a note changes nothing on the table, so the snapshots around it hold).

    A step the engine refuses is a ``Conflict``, never dropped; a refusal whose code is in
    ``fatal`` (an action for the other side's units) is raised instead: the whole merge is refused.
    """
    applied: list[Applied] = []
    conflicts: list[Conflict] = []
    seq = start
    mark: Step | None = None
    if note is not None and incoming:
        # The merge's line goes where the phone's first action falls; what it says is known at the end.
        merge_line = Action("merged", side=incoming[0].phone)
        mark = Step(phone=incoming[0].phone, made_at=incoming[0].made_at, build=lambda _s: merge_line)
        incoming = [mark, *incoming]
    for step in interleave(stored, incoming):
        try:
            action = step.build(state)
            apply(state, action)
        except RulesError as error:
            if error.code in fatal:
                raise
            conflicts.append(Conflict(step=step, code=error.code, reason=str(error)))
            continue
        seq += 1
        snapshot = state_to_data(state) if seq % SNAPSHOT_EVERY == 0 else None
        applied.append(Applied(step=step, action=action, log=state.log[-1], snapshot=snapshot))
    if note is not None and mark is not None:
        at = next(i for i, item in enumerate(applied) if item.step is mark)
        action = note([a for a in applied if a.step is not mark], conflicts)
        old = applied[at]
        entry = LogEntry(old.log.turn, action.kind, action.side, action.unit, note_detail(action))
        applied[at] = Applied(step=mark, action=action, log=entry, snapshot=old.snapshot)
    return Merged(applied=applied, conflicts=conflicts, state=state)
