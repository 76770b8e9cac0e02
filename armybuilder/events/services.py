"""What changes an event: sealing a list, judging it, pairing a round, recording results.

Views call these after checking who is asking (``access``); each one reads what it needs in a
number of queries that does not grow with the number of entrants.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import DataError, IntegrityError, transaction
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from armybuilder.events.errors import EventError, OverStagePoints
from armybuilder.events.models import (
    Adjustment,
    Entrant,
    Event,
    Outcome,
    Pairing,
    Result,
    Round,
    SetAsideResults,
    Stage,
    StageSubmission,
    Submission,
)
from armybuilder.events.teams import pair_next_team_round
from armybuilder.lists.exchange import ListImportError, export_data, export_parsed, parse_list
from armybuilder.lists.models import ArmyList
from armybuilder.lists.snapshot import read_sealed
from armybuilder.lists.summary import list_summary
from rules.army.model import ListSummary, Problem
from rules.events import missions as missions_rules
from rules.events import pairing as swiss_pairing
from rules.events import timer as round_timer
from rules.events.sides import side_of
from rules.events.standings import Game, Row, standings
from rules.events.tables import assign_tables

logger = logging.getLogger(__name__)

# The largest points a sealed list can store (``Submission.points``, a positive integer column).
POINTS_STORABLE_MAX = 2_147_483_647


# -- Sealing a list ---------------------------------------------------------------------------


def _problem_data(problem: Problem) -> dict:
    # Params are JSON-safe values the rules put in (names, counts, keys); anything else as text.
    plain = (int, str, float, bool, list, tuple, type(None))
    params = {key: value if isinstance(value, plain) else str(value) for key, value in problem.params.items()}
    return {"rule": problem.rule, "message": problem.message, "params": params}


def list_facts(army_list: ArmyList, summary: ListSummary) -> dict:
    """What legality reads of a list (``Submission.facts``); expects the ``for_builder()`` prefetches."""
    return {
        "edition": army_list.edition.slug,
        "army": list(army_list.army.natural_key()),
        "order_dice": summary.order_dice,
        "platoons": len(army_list.platoons.all()),
        "units": [[entry.unit.slug, entry.display_name] for entry in army_list.entries.all()],
        # Units the player typed from their book: the organiser sees them marked, unchecked.
        "own_units": [entry.display_name for entry in army_list.entries.all() if entry.unit.is_own],
        "army_data_date": army_list.army.updated_at.date().isoformat(),
        "problems": [_problem_data(problem) for problem in summary.problems],
    }


def live_problems(
    event: Event, army_list: ArmyList, summary: ListSummary, stage: Stage | None = None
) -> tuple[Problem, ...]:
    """The list as it is now, judged against the event, or against one of its escalation stages
    (the event's rules with the stage's points limit): the builder's "legal for <event>"."""
    submission = Submission(army_name=army_list.army.name, points=summary.points, facts=list_facts(army_list, summary))
    rules = event.rules()
    return submission.problems(stage.rules(rules) if stage is not None else rules)


def events_sealing(user, army_list: ArmyList) -> list[tuple[Event, Stage | None]]:
    """The events ``user`` submitted ``army_list`` to, latest first: (event, None) for an event's
    list, (event, stage) for each escalation stage it is sealed for. Four queries."""
    as_list = Q(entrants__user=user, entrants__submission__army_list=army_list)
    as_stage = Q(entrants__user=user, entrants__stage_submissions__army_list=army_list)
    events = list(event_for_rules().filter(as_list | as_stage).distinct().order_by("-date", "pk"))
    stages: dict[int, list[Stage]] = {}
    for stage in Stage.objects.filter(
        event__in=events, submissions__army_list=army_list, submissions__entrant__user=user
    ).order_by("number"):
        stages.setdefault(stage.event_id, []).append(stage)
    return [(event, stage) for event in events for stage in stages.get(event.pk, [None])]


def _sealed_values(snapshot: dict, summary: ListSummary, facts: dict, *, army_list, name: str, army) -> dict:
    """A submission's fields for the export ``snapshot``: its hash, points and facts, waiting for approval."""
    canonical = json.dumps(snapshot, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if not 0 <= summary.points <= POINTS_STORABLE_MAX:
        raise EventError("points-unstorable")
    return {
        "army_list": army_list,
        "list_name": name,
        "army_name": army.name,
        "army_slug": army.slug,
        "snapshot": snapshot,
        "hash": hashlib.sha256(canonical.encode()).hexdigest(),
        "points": summary.points,
        "facts": facts,
        "submitted_at": timezone.now(),
        "status": Submission.Status.PENDING,
        "note": "",
    }


def _store_submission(entrant: Entrant, values: dict) -> Submission:
    try:
        # Its own savepoint: a row the database refuses leaves the caller's transaction usable.
        with transaction.atomic():
            submission, _created = Submission.objects.update_or_create(entrant=entrant, defaults=values)
    except (IntegrityError, DataError) as exc:
        logger.warning("A sealed list could not be stored (entrant %s): %s", entrant.pk, exc)
        raise EventError("unstorable") from exc
    return submission


def own_list_to_seal(entrant: Entrant, army_list_id: int) -> tuple[ArmyList, ListSummary]:
    """The entrant's own list and its summary, for sealing (as their list, or a stage's); a list
    that is not theirs, or a walk-in (who has none), is refused."""
    if entrant.user_id is None:
        raise EventError("no-list")  # a walk-in has no lists: the organiser pastes theirs (``seal_walk_in``)
    army_list = ArmyList.objects.active().for_builder().filter(owner_id=entrant.user_id, pk=army_list_id).first()
    if army_list is None:
        raise EventError("no-list")
    return army_list, list_summary(army_list)


def values_to_seal(army_list: ArmyList, summary: ListSummary) -> dict:
    """What a sealed list stores of a player's own list: its export, figures and facts."""
    return _sealed_values(
        export_data(army_list),
        summary,
        list_facts(army_list, summary),
        army_list=army_list,
        name=army_list.name,
        army=army_list.army,
    )


def seal(entrant: Entrant, army_list_id: int) -> Submission:
    """Seal the entrant's own list as their submission (again, replacing the last, until the deadline)."""
    event = entrant.event
    if not event.submissions_open:
        raise EventError("deadline")
    army_list, summary = own_list_to_seal(entrant, army_list_id)
    submission = _store_submission(entrant, values_to_seal(army_list, summary))
    # The builder shows "legal for <event>" only for a submitted list: move the list's stamp so a
    # builder page the browser kept (its ETag, armybuilder.lists.conditional) is fetched anew.
    ArmyList.objects.filter(pk=army_list.pk).update(updated_at=submission.submitted_at)
    return submission


# -- Walk-ins: entrants the organiser enters without an account ---------------------------------


def pasted_list_values(text: str) -> dict:
    """A list pasted by the organiser (``muster-list`` JSON), checked against the catalogue and read
    in memory only (``lists.snapshot``): a submission's fields, nothing written. ``ListImportError``
    names every problem of the text; ``EventError`` when its points cannot be stored."""
    snapshot = export_parsed(parse_list(text, saving=False))
    sealed = read_sealed(snapshot)
    summary = list_summary(sealed)
    return _sealed_values(
        snapshot, summary, list_facts(sealed, summary), army_list=None, name=sealed.name, army=sealed.army
    )


def walk_in_name_taken(event: Event, name: str) -> bool:
    return Entrant.objects.filter(event=event, user__isnull=True, walk_in_name__iexact=name.strip()).exists()


def new_claim_token() -> str:
    """The secret of a walk-in's claim link: unguessable, and short enough to fit a URL on a phone."""
    return secrets.token_urlsafe(24)


@transaction.atomic
def add_walk_in(event: Event, name: str, values: dict) -> Entrant:
    """Enter a player without an account, their list (``pasted_list_values``) sealed as their
    submission, waiting for approval like any other.

    When the organiser is checking players in, the walk-in, who is there, is checked in too; before
    anyone is, checking them in would leave every other player out of the next pairing.
    """
    name = name.strip()
    if not name:
        raise EventError("walk-in-name")
    if walk_in_name_taken(event, name):
        raise EventError("walk-in-name-taken")
    present = Entrant.objects.filter(event=event, checked_in=True).exists()
    entrant = Entrant.objects.create(event=event, walk_in_name=name, claim_token=new_claim_token(), checked_in=present)
    _store_walk_in_list(event, entrant, values)
    return entrant


def seal_walk_in(event: Event, entrant_id: int, values: dict, *, stage_number: int | None = None):
    """A walk-in's list pasted again (after the organiser sent it back): sealed in place of the last,
    waiting for approval again. Walk-ins are entered on the day: the list deadline does not apply.
    In an escalation event, their list for stage ``stage_number`` (the first when not said)."""
    entrant = Entrant.objects.filter(event=event, pk=entrant_id).first()
    if entrant is None:
        raise EventError("no-entrant")
    if not entrant.is_walk_in:
        raise EventError("not-walk-in")
    return _store_walk_in_list(event, entrant, values, stage_number=stage_number)


def _store_walk_in_list(event: Event, entrant: Entrant, values: dict, *, stage_number: int | None = None):
    """A walk-in's pasted list as their submission; in an escalation event as their list for a stage
    (the first unless said), refused over the stage's points as a player's is."""
    if not event_has_stages(event):
        return _store_submission(entrant, values)
    stage = Stage.objects.filter(event=event, number=stage_number or 1).first()
    if stage is None:
        raise EventError("no-stage")
    if values["points"] > stage.points_limit:
        raise OverStagePoints(values["points"], stage)
    try:
        with transaction.atomic():
            sealed, _created = StageSubmission.objects.update_or_create(entrant=entrant, stage=stage, defaults=values)
    except (IntegrityError, DataError) as exc:
        logger.warning("A walk-in's stage list could not be stored (entrant %s): %s", entrant.pk, exc)
        raise EventError("unstorable") from exc
    return sealed


@transaction.atomic
def claim_walk_in(token: str, user) -> Entrant:
    """The player signed in as ``user`` takes the walk-in's place: its list, results and placings
    become theirs, and the claim link stops working."""
    entrant = Entrant.objects.select_for_update(of=("self",)).filter(claim_token=token, user__isnull=True).first()
    if entrant is None:
        raise EventError("no-claim")
    return _give_place(entrant, user, refused="already-entrant")


def _give_place(entrant: Entrant, user, *, refused: str) -> Entrant:
    """The walk-in's place becomes ``user``'s (claimed, or linked by the organiser) and its claim
    link stops working; ``refused``: the error code when the account already has a place."""
    if Entrant.objects.filter(event_id=entrant.event_id, user=user).exists():
        raise EventError(refused)
    entrant.user, entrant.claim_token = user, None
    try:
        with transaction.atomic():
            entrant.save(update_fields=["user", "claim_token", "updated_at"])
    except IntegrityError as exc:  # the account joined by the event's link at the same moment
        raise EventError(refused) from exc
    return entrant


@transaction.atomic
def link_walk_in(event: Event, entrant_id: int, username: str) -> Entrant:
    """The organiser links a walk-in's place to the player's account (they made one, or had one and
    came without their phone): as a claim, its list, results and placings become the account's, on
    its player page and in its rating, and the claim link stops working."""
    entrant = _locked_walk_in(event, entrant_id)
    accounts = get_user_model().objects.filter(is_active=True)
    name = username.strip()
    # The exact username first: two accounts may differ by case alone.
    user = None
    if name:
        user = accounts.filter(username=name).first() or accounts.filter(username__iexact=name).first()
    if user is None:
        raise EventError("no-account")
    return _give_place(entrant, user, refused="account-entered")


def _locked_walk_in(event: Event, entrant_id: int) -> Entrant:
    """The event's unclaimed walk-in, its row locked until the transaction ends (a claim waits)."""
    # ``of=("self",)``: the account is a nullable join, and PostgreSQL locks no outer join's null side.
    entrant = Entrant.objects.select_for_update(of=("self",)).filter(event=event, pk=entrant_id).first()
    if entrant is None:
        raise EventError("no-entrant")
    if not entrant.is_walk_in:
        raise EventError("walk-in-claimed")
    return entrant


@transaction.atomic
def renew_claim_link(event: Event, entrant_id: int) -> Entrant:
    """A new claim link for an unclaimed walk-in (the last one went to the wrong person): the old
    link stops working at once."""
    entrant = _locked_walk_in(event, entrant_id)
    entrant.claim_token = new_claim_token()
    entrant.save(update_fields=["claim_token", "updated_at"])
    return entrant


def games_of(entrant: Entrant) -> QuerySet[Pairing]:
    """The entrant's pairings in published rounds (a bye included): their games, which count."""
    return Pairing.objects.filter(round__event_id=entrant.event_id, round__published=True).filter(
        Q(player_a=entrant) | Q(player_b=entrant)
    )


def draft_round_of(entrant: Entrant) -> Round | None:
    """The unpublished round the entrant is paired in, if any (there is at most one: the last)."""
    pairings = Pairing.objects.filter(round__event_id=entrant.event_id, round__published=False)
    pairings = pairings.filter(Q(player_a=entrant) | Q(player_b=entrant))
    return Round.objects.filter(pk__in=pairings.values("round")).first()


@dataclass(frozen=True)
class RemovedWalkIn:
    name: str
    # The draft round they were paired in: thrown away and paired again without them.
    draft: int | None = None
    # Why pairing that round again failed (an ``EventError`` code): the draft is gone, nothing paired.
    unpaired: str | None = None


@transaction.atomic
def remove_walk_in(event: Event, entrant_id: int) -> RemovedWalkIn:
    """Delete a walk-in entered by mistake or gone before playing, with their list and any bonus or
    penalty points. One who has played (a pairing in a published round, a bye too) is refused: their
    opponents' results must stand, so the organiser drops them instead.

    In the draft of the next round, the draft is thrown away and the round paired again without
    them, as "pair again" does; if it cannot be (too few players left), the round waits unpaired.
    """
    Event.objects.select_for_update().filter(pk=event.pk).first()  # no pairing meanwhile
    entrant = _locked_walk_in(event, entrant_id)
    draft = draft_round_of(entrant)
    if draft is not None:
        # Locked, then read again: a publish that got there first makes their pairing a game.
        draft = Round.objects.select_for_update().filter(pk=draft.pk, published=False).first()
    if games_of(entrant).exists():
        raise EventError("walk-in-played")
    removed = RemovedWalkIn(name=entrant.name)
    entrant.delete()  # their submission, points and draft pairings go with them
    if draft is None:
        return removed
    number = draft.number
    draft.delete()
    try:
        with transaction.atomic():
            pair_next_round(event)
    except EventError as error:
        return RemovedWalkIn(name=removed.name, draft=number, unpaired=error.code)
    return RemovedWalkIn(name=removed.name, draft=number)


def judge(event: Event, entrant_id: int, *, approve: bool, note: str = "") -> Submission:
    submission = Submission.objects.filter(entrant__event=event, entrant_id=entrant_id).first()
    if submission is None:
        raise EventError("no-submission")
    submission.status = Submission.Status.APPROVED if approve else Submission.Status.RETURNED
    submission.note = "" if approve else note
    submission.save(update_fields=["status", "note", "updated_at"])
    return submission


# -- Reading an event -------------------------------------------------------------------------


def event_for_rules(queryset=None):
    """Events with what ``Event.rules()`` reads, prefetched (three queries in all), and whether each
    has escalation stages (``has_stages``, read in the same query)."""
    queryset = queryset if queryset is not None else Event.objects.all()
    queryset = queryset.annotate(has_stages=Exists(Stage.objects.filter(event=OuterRef("pk"))))
    return queryset.select_related("edition", "organiser").prefetch_related(
        Prefetch("allowed_armies", queryset=_armies()), "banned_units"
    )


def _armies():
    from armybuilder.catalogue.models import Army

    return Army.objects.select_related("edition")


@dataclass
class EntrantRow:
    entrant: Entrant
    submission: Submission | None
    problems: tuple[Problem, ...]

    @property
    def legal(self) -> bool:
        return self.submission is not None and not self.problems


def entrant_rows(event: Event) -> list[EntrantRow]:
    """Every entrant with their sealed list and its problems at this event: two queries."""
    rules = event.rules()
    entrants = (
        Entrant.objects.filter(event=event)
        .select_related("user", "submission", "team")
        .defer("submission__snapshot")
        .order_by(Coalesce("user__username", "walk_in_name"), "pk")  # walk-ins among the others, by name
    )
    rows = []
    for entrant in entrants:
        submission = getattr(entrant, "submission", None)
        problems = submission.problems(rules) if submission is not None else ()
        rows.append(EntrantRow(entrant=entrant, submission=submission, problems=problems))
    return rows


def rounds_with_pairings(event: Event, *, published_only: bool = False) -> list[Round]:
    """The event's rounds, each with its pairings, players and results: two queries."""
    pairings = Pairing.objects.select_related("player_a__user", "player_b__user", "result").order_by("position", "pk")
    rounds = Round.objects.filter(event=event)
    if published_only:
        rounds = rounds.filter(published=True)
    return list(rounds.prefetch_related(Prefetch("pairings", queryset=pairings)))


def _games(rounds: list[Round]) -> list[Game]:
    games = []
    for round_ in rounds:
        if not round_.published:
            continue
        for pairing in round_.pairings.all():
            if pairing.is_bye:
                games.append(Game(players=(pairing.player_a_id,), outcomes=("win",)))
                continue
            result = getattr(pairing, "result", None)
            if result is not None and result.counts:
                games.append(
                    Game(
                        players=(pairing.player_a_id, pairing.player_b_id),
                        outcomes=result.outcomes(),
                        dice=(result.dice_a, result.dice_b),
                        points=(result.points_a or 0, result.points_b or 0),
                    )
                )
    return games


@dataclass
class StandingRow:
    row: Row
    entrant: Entrant
    adjustments: list[Adjustment] = field(default_factory=list)  # the breakdown of ``row.adjustment``


def event_standings(event: Event, rounds: list[Round] | None = None) -> list[StandingRow]:
    """The standings from every counted result of the published rounds and the organiser's bonus and
    penalty points: five queries."""
    rounds = rounds if rounds is not None else rounds_with_pairings(event, published_only=True)
    games = _games(rounds)
    played = {key for game in games for key in game.players}
    # Players: the approved entrants (at an escalation event, those with an approved stage list),
    # and anyone who has played (a list sent back later keeps its games).
    approved_lists = Submission.objects.filter(entrant__event=event, status=Submission.Status.APPROVED)
    approved_stage_lists = StageSubmission.objects.filter(entrant__event=event, status=Submission.Status.APPROVED)
    approved = set(
        approved_lists.order_by()
        .values_list("entrant_id", flat=True)
        .union(approved_stage_lists.order_by().values_list("entrant_id", flat=True))
    )
    # A dropped player stays in the standings with the games they played (marked on the page).
    entrants = {
        e.pk: e
        for e in Entrant.objects.filter(event=event).select_related("user")
        if e.pk in played or (e.pk in approved and not e.dropped)
    }
    names = {pk: entrant.name for pk, entrant in entrants.items()}
    given: dict[int, list[Adjustment]] = {}
    for adjustment in Adjustment.objects.filter(entrant__event=event):
        given.setdefault(adjustment.entrant_id, []).append(adjustment)
    totals = {pk: sum(a.amount for a in items) for pk, items in given.items()}
    rows = standings(
        list(entrants), games, scoring=event.scoring, order=event.tiebreak_order, names=names, adjustments=totals
    )
    return [StandingRow(row=row, entrant=entrants[row.key], adjustments=given.get(row.key, [])) for row in rows]


# -- Bonus and penalty points ------------------------------------------------------------------


def add_adjustment(
    event: Event, entrant_id: int, *, category: str, amount: int, round_number: int | None, reason: str
) -> Adjustment:
    """Give an entrant bonus (positive) or penalty (negative) points; the form has checked the values."""
    entrant = Entrant.objects.filter(event=event, pk=entrant_id).first()
    if entrant is None:
        raise EventError("no-entrant")
    return Adjustment.objects.create(
        entrant=entrant, category=category, amount=amount, round_number=round_number, reason=reason
    )


def remove_adjustment(event: Event, adjustment_id: int) -> None:
    deleted, _kinds = Adjustment.objects.filter(entrant__event=event, pk=adjustment_id).delete()
    if not deleted:
        raise EventError("no-adjustment")


# -- Dropping a player -----------------------------------------------------------------------


def first_droppable_round(event: Event) -> int:
    """A player can be dropped from the next round to be paired on (paired rounds keep their games)."""
    return Round.objects.filter(event=event).count() + 1


@transaction.atomic
def drop(event: Event, entrant_id: int, from_round: int) -> Entrant:
    """Stop pairing the entrant from round ``from_round`` on; their games so far still count."""
    entrant = Entrant.objects.select_for_update(of=("self",)).filter(event=event, pk=entrant_id).first()
    if entrant is None:
        raise EventError("no-entrant")
    if entrant.dropped:
        raise EventError("already-dropped")
    if not first_droppable_round(event) <= from_round <= event.rounds:
        raise EventError("drop-round")
    entrant.dropped, entrant.dropped_from = True, from_round
    entrant.save(update_fields=["dropped", "dropped_from", "updated_at"])
    return entrant


def reinstate(event: Event, entrant_id: int) -> Entrant:
    """Take a drop back: the player is paired again from the next round."""
    entrant = Entrant.objects.filter(event=event, pk=entrant_id).first()
    if entrant is None:
        raise EventError("no-entrant")
    entrant.dropped, entrant.dropped_from = False, None
    entrant.save(update_fields=["dropped", "dropped_from", "updated_at"])
    return entrant


def check_in(event: Event, entrant_id: int, present: bool) -> Entrant:
    """Mark the entrant as at the venue (or take it back); pairing reads it from the next round."""
    entrant = Entrant.objects.filter(event=event, pk=entrant_id).first()
    if entrant is None:
        raise EventError("no-entrant")
    entrant.checked_in = present
    entrant.save(update_fields=["checked_in", "updated_at"])
    return entrant


def pairable(event: Event, number: int) -> QuerySet[Entrant]:
    """Who is paired in round ``number``: approved and not dropped by then; once the organiser has
    checked anyone in, also present: checked in, or paired in an earlier round (a player who has
    played is there; checking in a late arrival mid-event leaves everyone else paired)."""
    stage = round_stage(event, number)
    if stage is not None:
        # An escalation event: approved for the round's stage (the stage's list, not the event's one).
        approved = Q(stage_submissions__stage=stage, stage_submissions__status=Submission.Status.APPROVED)
    elif event_has_stages(event):
        return Entrant.objects.none()  # a round no stage plays (the event's rounds changed since)
    else:
        approved = Q(submission__status=Submission.Status.APPROVED)
    players = Entrant.objects.filter(event=event).filter(approved).filter(Q(dropped=False) | Q(dropped_from__gt=number))
    if Entrant.objects.filter(event=event, checked_in=True).exists():
        earlier = Pairing.objects.filter(round__event=event)
        players = players.filter(
            Q(checked_in=True)
            | Q(pk__in=earlier.values("player_a"))
            | Q(pk__in=earlier.exclude(player_b=None).values("player_b"))
        )
    return players


# -- Escalation: the stage a round plays, and its lists ------------------------------------------


def event_has_stages(event: Event) -> bool:
    """Whether the event runs stages; free when it was read by ``event_for_rules``."""
    known = getattr(event, "has_stages", None)
    return known if known is not None else Stage.objects.filter(event=event).exists()


def round_stage(event: Event, number: int) -> Stage | None:
    """The stage that plays round ``number`` of an escalation event; None without stages."""
    if getattr(event, "has_stages", None) is False:
        return None  # known from the event's own query: no stage to look for
    return Stage.objects.filter(event=event, first_round__lte=number, last_round__gte=number).first()


def _players_and_armies(event: Event, number: int) -> list[tuple[int, str]]:
    """Who is paired in round ``number``, each with the army of the list they play it with."""
    stage = round_stage(event, number)
    if stage is None and event_has_stages(event):
        raise EventError("round-without-stage")  # the event's rounds changed since its stages were set
    if stage is None:
        return list(pairable(event, number).values_list("pk", "submission__army_slug"))
    armies = dict(StageSubmission.objects.filter(stage=stage).values_list("entrant_id", "army_slug"))
    return [(pk, armies[pk]) for pk in pairable(event, number).values_list("pk", flat=True)]


def _round_lists(round_: Round, entrant_ids: list[int]) -> list:
    """The sealed lists the entrants play the round with: their stage's in an escalation event."""
    stage = round_stage(round_.event, round_.number)
    if stage is None:
        lists = Submission.objects.filter(entrant_id__in=entrant_ids)
    else:
        lists = StageSubmission.objects.filter(stage=stage, entrant_id__in=entrant_ids)
    return list(lists.select_related("entrant__user"))


# -- Rounds -----------------------------------------------------------------------------------


@transaction.atomic
def pair_next_round(event: Event) -> Round:
    """Pair the next round (unpublished, for the organiser to check, swap and publish).

    Only approved entrants play. The previous round must be published and all its results counted.
    A team event pairs its teams instead (``teams.pair_next_team_round``).
    """
    if event.is_team_event:
        return pair_next_team_round(event)
    Event.objects.select_for_update().filter(pk=event.pk).first()  # one pairing at a time per event
    rounds = rounds_with_pairings(event)
    if rounds and not rounds[-1].published:
        raise EventError("unpublished-round")
    if len(rounds) >= event.rounds:
        raise EventError("all-rounds")
    for round_ in rounds:
        for pairing in round_.pairings.all():
            if not pairing.is_bye and not (getattr(pairing, "result", None) and pairing.result.counts):
                raise EventError("results-missing")
    number = len(rounds) + 1
    players = _players_and_armies(event, number)
    if len(players) < 2:
        raise EventError("too-few")
    keys = [pk for pk, _slug in players]
    if not rounds:
        planned = swiss_pairing.first_round(keys, event.seed)
    else:
        sides = {pk: side_of(slug) for pk, slug in players}
        met = swiss_pairing.opponents_of(
            [(p.player_a_id,) + ((p.player_b_id,) if p.player_b_id else ()) for r in rounds for p in r.pairings.all()]
        )
        byes = {p.player_a_id for r in rounds for p in r.pairings.all() if p.is_bye}
        table = [row.row for row in event_standings(event, rounds) if row.row.key in sides]
        swiss_players = [
            swiss_pairing.SwissPlayer(
                key=row.key,
                score=row.score,
                side=sides[row.key],
                opponents=met.get(row.key, frozenset()),
                had_bye=row.key in byes,
            )
            for row in table
        ]
        try:
            planned = swiss_pairing.swiss(swiss_players, prefer_sides=event.prefer_sides)
        except swiss_pairing.PairingImpossible as exc:
            raise EventError("impossible") from exc
    # Tables: nobody at a table they have played at before, when that can be avoided.
    history: dict[int, set[int]] = {}
    for earlier in rounds:
        for pairing in earlier.pairings.all():
            if pairing.table is not None:
                for key in (pairing.player_a_id, pairing.player_b_id):
                    history.setdefault(key, set()).add(pairing.table)
    games = [plan for plan in planned if not plan.is_bye]
    seats = dict(zip(map(id, games), assign_tables([plan.players for plan in games], history), strict=True))
    round_ = Round.objects.create(event=event, number=number)
    Pairing.objects.bulk_create(
        Pairing(
            round=round_,
            table=seats.get(id(plan)),
            player_a_id=plan.players[0],
            player_b_id=plan.players[1] if len(plan.players) > 1 else None,
            position=index,
        )
        for index, plan in enumerate(planned)
    )
    return round_


@transaction.atomic
def swap_players(round_: Round, first: int, second: int) -> None:
    """Swap two entrants between their pairings in an unpublished round."""
    if round_.published:
        raise EventError("published")
    if round_.team_matches.exists():
        raise EventError("team-swap")  # captains set who plays whom in a team pairing
    pairings = list(round_.pairings.select_for_update().order_by("position", "pk"))
    seats = {}
    for index, pairing in enumerate(pairings):
        for seat, key in enumerate((pairing.player_a_id, pairing.player_b_id)):
            if key is not None:
                seats[key] = (index, seat)
    if first not in seats or second not in seats or seats[first][0] == seats[second][0]:
        raise EventError("swap")
    plans = [
        swiss_pairing.Pairing(table=p.table, players=(p.player_a_id,) + ((p.player_b_id,) if p.player_b_id else ()))
        for p in pairings
    ]
    swapped = swiss_pairing.swap(plans, seats[first], seats[second])
    met = swiss_pairing.opponents_of(
        [
            (p.player_a_id,) + ((p.player_b_id,) if p.player_b_id else ())
            for p in Pairing.objects.filter(round__event_id=round_.event_id, round__published=True)
        ]
    )
    for pairing, plan in zip(pairings, swapped, strict=True):
        if len(plan.players) == 2 and plan.players[1] in met.get(plan.players[0], ()):
            raise EventError("rematch")
        pairing.player_a_id = plan.players[0]
        pairing.player_b_id = plan.players[1] if len(plan.players) > 1 else None
        pairing.updated_at = timezone.now()  # bulk_update does not move auto_now fields
    Pairing.objects.bulk_update(pairings, ["player_a", "player_b", "updated_at"])


def publish_round(round_: Round) -> None:
    round_.published = True
    round_.save(update_fields=["published", "updated_at"])


@transaction.atomic
def revert_round(event: Event, number: int) -> SetAsideResults:
    """Take back the latest published round: it goes back to a draft (its pairings kept, to swap or
    pair again), and its results are set aside on the event, never counted, never lost.

    Refused for a round not published, and for a round with a later one (published or paired as a
    draft): the rounds after it were paired on its results.
    """
    Event.objects.select_for_update().filter(pk=event.pk).first()  # one change of rounds at a time
    round_ = Round.objects.filter(event=event, number=number).first()
    if round_ is None:
        raise EventError("no-round")
    if Round.objects.filter(event=event, number__gt=number).exists():
        raise EventError("later-round")
    if not round_.published:
        raise EventError("not-published")
    results = Result.objects.filter(pairing__round=round_).select_related(
        "pairing", "pairing__player_a__user", "pairing__player_b__user"
    )
    kept = [
        {
            "table": result.pairing.table,
            "player_a": {"id": result.pairing.player_a_id, "name": result.pairing.player_a.name},
            "player_b": {"id": result.pairing.player_b_id, "name": result.pairing.player_b.name},
            "outcome": result.outcome,
            "dice_a": result.dice_a,
            "dice_b": result.dice_b,
            "turns": result.turns,
            "points_a": result.points_a,
            "points_b": result.points_b,
            "confirmed": result.confirmed,
            "by_organiser": result.by_organiser,
        }
        for result in results.order_by("pairing__position", "pairing__pk")
        if result.pairing.player_b_id is not None
    ]
    aside = SetAsideResults.objects.create(event=event, round_number=number, results=kept)
    Result.objects.filter(pairing__round=round_).delete()
    round_.published = False
    round_.save(update_fields=["published", "updated_at"])
    return aside


@transaction.atomic
def pair_again(event: Event, number: int) -> Round:
    """Throw away the draft of the last round and pair it again from the standings as they are now.

    The round's mission stays: it belongs to the round, and the room may already have been told it."""
    Event.objects.select_for_update().filter(pk=event.pk).first()
    round_ = Round.objects.filter(event=event, number=number).first()
    if round_ is None:
        raise EventError("no-round")
    if round_.published:
        raise EventError("published")
    if Round.objects.filter(event=event, number__gt=number).exists():
        raise EventError("later-round")
    mission = round_.mission
    round_.delete()
    paired = pair_next_round(event)
    if mission:
        paired.mission = mission
        paired.save(update_fields=["mission", "updated_at"])
    return paired


# -- Missions ------------------------------------------------------------------------------------


def set_missions(event: Event, missions: list[missions_rules.Mission]) -> None:
    event.missions = [list(mission.parts) for mission in missions]
    event.save(update_fields=["missions", "updated_at"])


def set_round_mission(round_: Round, label: str) -> Round:
    """Set the round's mission to one of the event's (its label, case and spaces aside)."""
    mission = missions_rules.find(round_.event.mission_list(), label)
    if mission is None:
        raise EventError("unknown-mission")
    round_.mission = mission.label
    round_.save(update_fields=["mission", "updated_at"])
    return round_


def roll_round_mission(round_: Round, rng: random.Random) -> Round:
    """One of the event's missions at random for the round (``rng`` injected, seeded by the caller)."""
    try:
        mission = missions_rules.roll(round_.event.mission_list(), rng)
    except missions_rules.MissionError as error:
        raise EventError("no-missions") from error
    round_.mission = mission.label
    round_.save(update_fields=["mission", "updated_at"])
    return round_


# -- The round timer ----------------------------------------------------------------------------


def round_finished(round_: Round) -> bool:
    """A round is over once a later round is paired, or every game of it has a counted result."""
    if Round.objects.filter(event_id=round_.event_id, number__gt=round_.number).exists():
        return True
    games = Pairing.objects.filter(round=round_, player_b__isnull=False)
    counted = games.filter(Q(result__confirmed=True) | Q(result__by_organiser=True))
    return games.exists() and games.count() == counted.count()


@transaction.atomic
def timer_action(round_: Round, action: str, minutes: int | None = None) -> Round:
    """Start (``minutes``: the round's length), pause, resume or add ``minutes`` to a round's timer.

    Refused on a draft (the players cannot see it yet) and on a finished round."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if not round_.published:
        raise EventError("timer-draft")
    if round_finished(round_):
        raise EventError("timer-finished")
    now = timezone.now()
    current = round_.timer()
    try:
        if action == "start":
            changed = round_timer.start(current, minutes or 0, now)
        elif action == "pause":
            changed = round_timer.pause(current, now)
        elif action == "resume":
            changed = round_timer.resume(current, now)
        elif action == "add":
            changed = round_timer.add(current, minutes or 0)
        else:
            raise EventError("timer-action")
    except round_timer.TimerError as error:
        raise EventError(f"timer-{error.code}") from error
    round_.set_timer(changed)
    return round_


# -- Results ----------------------------------------------------------------------------------


def _figures(pairing: Pairing, outcome: str, dice_a: int, dice_b: int, turns, points_a, points_b) -> dict:
    """What a result records, whoever enters it; the mission is the round's when it is entered."""
    return {
        "outcome": outcome,
        "dice_a": dice_a,
        "dice_b": dice_b,
        "turns": turns,
        "points_a": points_a,
        "points_b": points_b,
        "mission": pairing.round.mission,
    }


def enter_result(
    pairing: Pairing,
    entrant: Entrant,
    outcome: str,
    dice_a: int,
    dice_b: int,
    turns: int | None = None,
    points_a: int | None = None,
    points_b: int | None = None,
) -> Result:
    """A player of the pairing says how it went; it waits for the other's confirmation."""
    if pairing.is_bye or pairing.seat_of(entrant.pk) is None or not pairing.round.published:
        raise EventError("not-your-game")
    result = Result.objects.filter(pairing=pairing).first()
    if result is not None and result.by_organiser:
        raise EventError("set-by-organiser")
    if result is not None and result.confirmed:
        raise EventError("already-confirmed")  # agreed by both: only the organiser changes it now
    if outcome not in Outcome.values:
        raise EventError("outcome")
    figures = _figures(pairing, outcome, dice_a, dice_b, turns, points_a, points_b)
    result, _created = Result.objects.update_or_create(
        pairing=pairing, defaults={**figures, "entered_by": entrant, "confirmed": False}
    )
    return result


def confirm_result(pairing: Pairing, entrant: Entrant) -> Result:
    """The other player agrees: the result counts from now."""
    result = Result.objects.filter(pairing=pairing).first()
    if result is None or pairing.seat_of(entrant.pk) is None:
        raise EventError("not-your-game")
    if result.entered_by_id == entrant.pk:
        raise EventError("own-entry")
    result.confirmed = True
    result.save(update_fields=["confirmed", "updated_at"])
    return result


def override_result(
    pairing: Pairing,
    outcome: str,
    dice_a: int,
    dice_b: int,
    turns: int | None = None,
    points_a: int | None = None,
    points_b: int | None = None,
) -> Result:
    if pairing.is_bye:
        raise EventError("bye")
    figures = _figures(pairing, outcome, dice_a, dice_b, turns, points_a, points_b)
    result, _created = Result.objects.update_or_create(
        pairing=pairing, defaults={**figures, "by_organiser": True, "confirmed": True}
    )
    return result


# -- A game-day game from a pairing -----------------------------------------------------------


@transaction.atomic
def start_game(pairing: Pairing, entrant: Entrant):
    """The pairing's game-day game, with both sealed lists frozen in it (started once, by either player).

    Each sealed export is read into memory (``lists.snapshot``), own units included, and frozen
    into the game: nothing but the game is written. The game is the starter's, and the other
    player opens it by its share link, shown to the two of them on the round page. Against a walk-in
    (no account) the starter's phone plays both sides.
    """
    from armybuilder.games.services import game_start

    pairing = Pairing.objects.select_for_update().select_related("round__event").get(pk=pairing.pk)
    if pairing.is_bye or pairing.seat_of(entrant.pk) is None or not pairing.round.published:
        raise EventError("not-your-game")
    if pairing.game_id is not None:
        return pairing.game
    opponent_id = pairing.player_b_id if pairing.player_a_id == entrant.pk else pairing.player_a_id
    submissions = {s.entrant_id: s for s in _round_lists(pairing.round, [entrant.pk, opponent_id])}
    if len(submissions) != 2:
        raise EventError("no-submission")
    sealed = {}
    for entrant_id, submission in submissions.items():
        try:
            sealed[entrant_id] = submission.sealed_list()
        except ListImportError as exc:
            raise EventError("sealed-list-gone") from exc
    round_ = pairing.round
    opponent = submissions[opponent_id].entrant
    game = game_start(
        owner=entrant.user,
        army_list=sealed[entrant.pk],
        my_name=entrant.name,
        opponent_list=sealed[opponent_id],
        opponent_name=opponent.name,
        scenario=f"{round_.event.name} · {round_.number}/{pairing.table}"[:100],
        # Each player's phone acts for its own side only; a walk-in has no account to open the game
        # with, so against one the starter's phone plays both sides, as a game without an event does.
        two_phones=not opponent.is_walk_in,
    )
    pairing.game = game
    pairing.save(update_fields=["game", "updated_at"])
    return game
