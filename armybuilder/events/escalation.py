"""Escalation events: the organiser's stages, a list sealed per stage, judged per stage.

Sealing reuses the submission's own steps (``services``: the list's export, hash, points and the
facts legality reads), stored as the entrant's list for one stage. A list over its stage's points
is refused at sealing, in words: it is a list meant for another stage.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import DataError, IntegrityError, transaction
from django.utils import timezone

from armybuilder.events.models import Entrant, Event, Round, Stage, StageSubmission, Submission
from armybuilder.events.services import (
    EventError,
    OverStagePoints,
    event_for_rules,
    logger,
    own_list_to_seal,
    values_to_seal,
)
from armybuilder.lists.models import POINTS_LIMIT_MAX, ArmyList
from rules.army.model import Problem
from rules.events import stages as stage_rules


def stages_of(event: Event) -> list[Stage]:
    return list(Stage.objects.filter(event=event))


@transaction.atomic
def set_stages(event: Event, plans: list[stage_rules.StagePlan]) -> list[Stage]:
    """Replace the event's stages by ``plans`` (checked with ``rules.events.stages.check``; none:
    the event has no stages). Stage n keeps its sealed lists while it stays; removing a stage
    that holds lists, or changing stages once a round is paired, is refused."""
    Event.objects.select_for_update().filter(pk=event.pk).first()
    ordered = stage_rules.check(plans, event.rounds, points_max=POINTS_LIMIT_MAX)
    # A team's pairing checks each player's one approved list: stages per player are not read there.
    if ordered and event.is_team_event:
        raise EventError("stages-team-event")
    existing = {stage.number: stage for stage in Stage.objects.filter(event=event)}
    if Round.objects.filter(event=event).exists() and [s.plan() for s in existing.values()] != ordered:
        raise EventError("stages-paired")
    gone = [number for number in existing if number > len(ordered)]
    if StageSubmission.objects.filter(stage__event=event, stage__number__in=gone).exists():
        raise EventError("stage-has-lists")
    Stage.objects.filter(event=event, number__in=gone).delete()
    kept = []
    for number, plan in enumerate(ordered, start=1):
        stage, _created = Stage.objects.update_or_create(
            event=event,
            number=number,
            defaults={"points_limit": plan.points, "first_round": plan.first_round, "last_round": plan.last_round},
        )
        kept.append(stage)
    Event.objects.filter(pk=event.pk).update(updated_at=timezone.now())  # the event's version moves
    return kept


def _stage(event: Event, number: int) -> Stage:
    stage = Stage.objects.filter(event=event, number=number).first()
    if stage is None:
        raise EventError("no-stage")
    return stage


def _store(entrant: Entrant, stage: Stage, values: dict) -> StageSubmission:
    try:
        with transaction.atomic():
            submission, _created = StageSubmission.objects.update_or_create(
                entrant=entrant, stage=stage, defaults=values
            )
    except (IntegrityError, DataError) as exc:
        logger.warning("A stage list could not be stored (entrant %s): %s", entrant.pk, exc)
        raise EventError("unstorable") from exc
    return submission


def seal_stage(entrant: Entrant, stage_number: int, army_list_id: int) -> StageSubmission:
    """Seal the entrant's own list as their list for one stage (again, replacing the last, until the
    deadline); a list over the stage's points is refused (``OverStagePoints``)."""
    event = entrant.event
    if not event.submissions_open:
        raise EventError("deadline")
    if entrant.user_id is None:
        raise EventError("no-list")
    stage = _stage(event, stage_number)
    army_list, summary = own_list_to_seal(entrant, army_list_id)
    if summary.points > stage.points_limit:
        raise OverStagePoints(summary.points, stage)
    values = values_to_seal(army_list, summary)
    submission = _store(entrant, stage, values)
    ArmyList.objects.filter(pk=army_list.pk).update(updated_at=submission.submitted_at)
    return submission


def judge_stage(event: Event, entrant_id: int, stage_number: int, *, approve: bool, note: str = "") -> StageSubmission:
    submission = StageSubmission.objects.filter(
        entrant__event=event, entrant_id=entrant_id, stage__event=event, stage__number=stage_number
    ).first()
    if submission is None:
        raise EventError("no-submission")
    submission.status = Submission.Status.APPROVED if approve else Submission.Status.RETURNED
    submission.note = "" if approve else note
    submission.save(update_fields=["status", "note", "updated_at"])
    return submission


@dataclass
class StageList:
    """One entrant's list for one stage (None: not submitted), with its problems at this stage."""

    entrant: Entrant
    submission: StageSubmission | None
    problems: tuple[Problem, ...] = ()

    @property
    def legal(self) -> bool:
        return self.submission is not None and not self.problems


@dataclass
class StageView:
    stage: Stage
    lists: list[StageList] = field(default_factory=list)

    @property
    def approved(self) -> int:
        return sum(1 for item in self.lists if item.submission and item.submission.status == "approved")


def stage_views(event: Event, entrants: list[Entrant] | None = None) -> list[StageView]:
    """Every stage with each entrant's list for it (all entrants, or those given), judged at the stage.

    Three queries whatever the number of entrants and stages (the rules, the stages, the lists)."""
    event = event_for_rules().get(pk=event.pk)
    rules = event.rules()
    if entrants is None:
        entrants = list(Entrant.objects.filter(event=event).select_related("user"))
    stages = stages_of(event)
    sealed = {
        (s.stage_id, s.entrant_id): s
        for s in StageSubmission.objects.filter(stage__event=event, entrant__in=[e.pk for e in entrants]).defer(
            "snapshot"
        )
    }
    views = []
    for stage in stages:
        view = StageView(stage=stage)
        stage_rules_ = stage.rules(rules)
        for entrant in entrants:
            submission = sealed.get((stage.pk, entrant.pk))
            problems = submission.problems(stage_rules_) if submission is not None else ()
            view.lists.append(StageList(entrant=entrant, submission=submission, problems=problems))
        views.append(view)
    return views


def stage_list(event: Event, entrant_id: int, stage_number: int) -> StageSubmission | None:
    return (
        StageSubmission.objects.filter(entrant__event=event, entrant_id=entrant_id, stage__number=stage_number)
        .select_related("stage", "entrant__user")
        .first()
    )


def default_stage(entrant: Entrant, stages: list[Stage]) -> int | None:
    """The stage a player most likely submits for: the first without a list of theirs, else the first
    sent back, else the first."""
    if not stages:
        return None
    sealed = dict(StageSubmission.objects.filter(entrant=entrant).values_list("stage_id", "status"))
    for stage in stages:
        if stage.pk not in sealed:
            return stage.number
    for stage in stages:
        if sealed[stage.pk] == Submission.Status.RETURNED:
            return stage.number
    return stages[0].number


def add_to_api(data: dict, event: Event) -> None:
    """An escalation event's stages and each entrant's stage lists, added to the event's API answer
    (``data``, as ``api.event_detail`` builds it); contents and problems only once lists are revealed."""
    views = stage_views(event)
    data["rules"]["stages"] = [
        {
            "stage": view.stage.number,
            "points_limit": view.stage.points_limit,
            "rounds": [view.stage.first_round, view.stage.last_round],
        }
        for view in views
    ]
    by_entrant: dict[int, list[dict]] = {}
    for view in views:
        for item in view.lists:
            sub = item.submission
            if sub is None:
                continue
            shown = {"stage": view.stage.number, "army": sub.army_slug, "points": sub.points}
            shown |= {"status": sub.status, "legal": item.legal}
            if event.lists_revealed:
                shown["problems"] = [problem.message for problem in item.problems]
                shown["list"] = {"name": sub.list_name, "hash": sub.hash}
            by_entrant.setdefault(item.entrant.pk, []).append(shown)
    for entrant in data["entrants"]:
        entrant["stage_lists"] = by_entrant.get(entrant["id"], [])
