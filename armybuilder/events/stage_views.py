"""Escalation events on the pages: what the dashboard and the event page show of the stages, the
submit page of an event with stages, and the refusals' words. The views themselves are in ``views``
(which calls in here only for an event with stages, so an event without any reads as before).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from armybuilder.events import escalation
from armybuilder.events.forms import PastedListForm
from armybuilder.events.models import Entrant, Event, Seal
from armybuilder.events.problems import display as display_problem
from armybuilder.events.services import EventError, event_has_stages
from armybuilder.events.stage_forms import StagesForm, StageSubmitForm

STAGE_ERRORS = {
    "stages-paired": gettext_lazy("A round is already paired: the stages can no longer change."),
    "stages-team-event": gettext_lazy(
        "A team event plays one list per player: escalation stages are for individual events."
    ),
    "stage-has-lists": gettext_lazy(
        "A stage you removed holds sealed lists: keep it, so that its players' lists are not lost."
    ),
    "no-stage": gettext_lazy("This event has no such stage."),
}


def refusal(error: EventError, errors: dict) -> str:
    """The words of a refused stage action; ``errors``: the events pages' own words for the rest."""
    if isinstance(error, escalation.OverStagePoints):
        return _(
            "This list has %(points)s points: stage %(n)s allows %(limit)s. Choose a list of %(limit)s points "
            "or fewer, or the stage this list is for."
        ) % {"points": error.points, "n": error.stage.number, "limit": error.stage.points_limit}
    return str(STAGE_ERRORS.get(error.code) or errors.get(error.code, error.code))


# -- The organiser ---------------------------------------------------------------------------------


def dashboard_context(
    event: Event, stages_form: StagesForm | None = None, stage_list_form: PastedListForm | None = None
) -> dict:
    """What the dashboard's stages section shows: the form and, per stage, every entrant's list, with
    a paste field for each walk-in's (``stage_list_form``: a refused paste, shown as typed)."""
    views = escalation.stage_views(event) if event_has_stages(event) else []
    for view in views:
        for item in view.lists:
            item.messages = [display_problem(problem) for problem in item.problems]
            if item.entrant.is_walk_in:
                refused = stage_list_form is not None and (stage_list_form.entrant_id, stage_list_form.stage_number)
                mine = refused == (item.entrant.pk, view.stage.number)
                auto_id = f"walk-in-{item.entrant.pk}-stage-{view.stage.number}-%s"
                item.paste_form = stage_list_form if mine else PastedListForm(auto_id=auto_id)
    return {
        "stage_views": views,
        "stages_form": stages_form or StagesForm.for_stages([view.stage for view in views], event.rounds),
    }


# -- The player ------------------------------------------------------------------------------------


def player_context(event: Event, entrant: Entrant | None) -> dict:
    """The event page's stages: each with the player's list for it (when they are an entrant)."""
    stages = escalation.stages_of(event) if event_has_stages(event) else []
    if not stages:
        return {"stages": []}
    views = escalation.stage_views(event, [entrant]) if entrant is not None else []
    for view in views:
        for item in view.lists:
            item.messages = [display_problem(problem) for problem in item.problems]
    return {"stages": stages, "my_stage_lists": [(view.stage, view.lists[0]) for view in views]}


def submit(
    request: HttpRequest,
    event: Event,
    entrant: Entrant,
    lists: list,
    *,
    seals_per_day: int,
    seals_left: bool,
    errors: dict,
) -> HttpResponse:
    """Submitting to an escalation event: the player picks the stage (the first still without a list
    of theirs, or ``?stage=n``) and the list; a list over the stage's points is refused in words."""
    stages = escalation.stages_of(event)
    chosen = request.GET.get("stage", "")
    initial = {"stage": int(chosen) if chosen.isdigit() else escalation.default_stage(entrant, stages)}
    form = StageSubmitForm(request.POST or None, lists=lists, stages=stages, initial=initial)
    context = {"event": event, "form": form, "lists": lists, "stages": stages}
    if request.method == "POST" and form.is_valid():
        if not seals_left:
            message = _(
                "You have submitted %(n)s lists in the last 24 hours, the most one account may: try again tomorrow."
            )
            form.add_error("army_list", message % {"n": seals_per_day})
            return render(request, "events/submit.html", context, status=429)
        number, army_list = form.cleaned_data["stage"], form.cleaned_data["army_list"]
        try:
            escalation.seal_stage(entrant, number, army_list)
        except EventError as error:
            form.add_error("army_list", refusal(error, errors))
        else:
            Seal.objects.create(user=request.user)
            message = _("Your list for stage %(n)s is sealed. Editing it now changes nothing until you submit again.")
            messages.success(request, message % {"n": number})
            return redirect("events-event", slug=event.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, "events/submit.html", context, status=status)


def entrants_csv_rows(event: Event) -> tuple[list[str], list[list]]:
    """The entrants CSV of an escalation event: one row per entrant and stage (the stage's number
    after the player), with the same columns as an event's with one list."""
    header = ["player", "stage", "list", "army", "points", "hash", "status", "legal", "problems"]
    rows = []
    views = escalation.stage_views(event)
    for index in range(len(views[0].lists) if views else 0):
        for view in views:
            item = view.lists[index]
            sub = item.submission
            rows.append(
                [
                    item.entrant.name,
                    view.stage.number,
                    sub.list_name if sub else "",
                    sub.army_name if sub else "",
                    sub.points if sub else "",
                    sub.hash if sub else "",
                    sub.status if sub else "",
                    item.legal,
                    " | ".join(problem.message for problem in item.problems),
                ]
            )
    return header, rows
