"""Escalation events' pages: the organiser sets the stages and judges each stage's lists; a player
submits a list for a stage; a stage's sealed list is shown like any sealed list.

The event page, the submit page and the dashboard call in here only for an event with stages, so
an event without any behaves and reads exactly as before.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST, require_safe

from armybuilder.events import escalation, marker
from armybuilder.events.access import can_see_list, get_event, get_organised_event
from armybuilder.events.forms import JudgeForm
from armybuilder.events.freshness import event_page_condition
from armybuilder.events.models import Entrant, Event, Seal
from armybuilder.events.problems import display as display_problem
from armybuilder.events.services import EventError, event_has_stages
from armybuilder.events.stage_forms import StagesForm, StageSubmitForm
from armybuilder.lists.exchange import ListImportError

STAGE_ERRORS = {
    "stages-paired": gettext_lazy(
        "A round is already paired: the stages can no longer change (take the rounds back first)."
    ),
    "stage-has-lists": gettext_lazy(
        "A stage you removed holds sealed lists: keep it, or ask its players to withdraw first."
    ),
    "no-stage": gettext_lazy("This event has no such stage."),
}


def _refusal(error: EventError) -> str:
    from armybuilder.events.views import ERRORS

    if isinstance(error, escalation.OverStagePoints):
        return _(
            "This list has %(points)s points: stage %(n)s allows %(limit)s. Choose a list of %(limit)s points "
            "or fewer, or the stage this list is for."
        ) % {"points": error.points, "n": error.stage.number, "limit": error.stage.points_limit}
    return str(STAGE_ERRORS.get(error.code) or ERRORS.get(error.code, error.code))


# -- The organiser ---------------------------------------------------------------------------------


def dashboard_context(event: Event, stages_form: StagesForm | None = None) -> dict:
    """What the dashboard's stages section shows: the form and, per stage, every entrant's list."""
    views = escalation.stage_views(event) if event_has_stages(event) else []
    for view in views:
        for item in view.lists:
            item.messages = [display_problem(problem) for problem in item.problems]
            item.judge_form = JudgeForm(auto_id=f"stage-{view.stage.number}-{item.entrant.pk}-%s")
    return {
        "stage_views": views,
        "stages_form": stages_form or StagesForm.for_stages([view.stage for view in views], event.rounds),
    }


@require_POST
@login_required
def set_stages(request: HttpRequest, slug: str) -> HttpResponse:
    """The stages as typed; refused next to the number at fault, everything typed kept (400)."""
    from armybuilder.events.views import _dashboard

    event = get_organised_event(request, slug)
    form = StagesForm(request.POST, rounds=event.rounds)
    if form.is_valid():
        try:
            stages = escalation.set_stages(event, form.cleaned_data["stages"])
        except EventError as error:
            form.add_error(None, _refusal(error))
        else:
            if stages:
                messages.success(request, _("The stages are set: players now seal one list per stage."))
            else:
                messages.success(request, _("The event has no stages: players seal one list."))
            return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#stages")
    return _dashboard(request, event, stages_form=form, status=400)


@require_POST
@login_required
def judge_stage(request: HttpRequest, slug: str, entrant_id: int, number: int) -> HttpResponse:
    event = get_organised_event(request, slug)
    form = JudgeForm(request.POST)
    if form.is_valid():
        approve = form.cleaned_data["decision"] == "approve"
        try:
            escalation.judge_stage(event, entrant_id, number, approve=approve, note=form.cleaned_data["note"])
        except EventError as error:
            messages.error(request, _refusal(error))
    else:
        messages.error(request, _("Choose to approve the list or send it back."))
    return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#stage-{number}")


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


def submit(request: HttpRequest, event: Event, entrant: Entrant, lists: list, *, seals_left: bool) -> HttpResponse:
    """Submitting to an escalation event: the player picks the stage (the first still without a list
    of theirs, or ``?stage=n``) and the list; a list over the stage's points is refused in words."""
    stages = escalation.stages_of(event)
    chosen = request.GET.get("stage", "")
    initial = {"stage": int(chosen) if chosen.isdigit() else escalation.default_stage(entrant, stages)}
    form = StageSubmitForm(request.POST or None, lists=lists, stages=stages, initial=initial)
    context = {"event": event, "form": form, "lists": lists, "stages": stages}
    if request.method == "POST" and form.is_valid():
        if not seals_left:
            from armybuilder.events.views import SEALS_PER_DAY

            message = _(
                "You have submitted %(n)s lists in the last 24 hours, the most one account may: try again tomorrow."
            )
            form.add_error("army_list", message % {"n": SEALS_PER_DAY})
            return render(request, "events/submit.html", context, status=429)
        number, army_list = form.cleaned_data["stage"], form.cleaned_data["army_list"]
        try:
            escalation.seal_stage(entrant, number, army_list)
        except EventError as error:
            form.add_error("army_list", _refusal(error))
        else:
            Seal.objects.create(user=request.user)
            message = _("Your list for stage %(n)s is sealed. Editing it now changes nothing until you submit again.")
            messages.success(request, message % {"n": number})
            marker.remember(request, army_list)
            return redirect("events-event", slug=event.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, "events/submit.html", context, status=status)


@require_safe
@event_page_condition
@cache_control(private=True, no_cache=True)
def sealed_stage_list(request: HttpRequest, slug: str, entrant_id: int, number: int) -> HttpResponse:
    """A stage's sealed list: seen as any sealed list is (``can_see_list``), 404 otherwise."""
    from armybuilder.events.views import _entries

    event = get_event(slug)
    entrant = get_object_or_404(Entrant.objects.select_related("user"), event=event, pk=entrant_id)
    submission = escalation.stage_list(event, entrant.pk, number)
    if submission is None or not can_see_list(request, event, entrant):
        raise Http404
    try:
        lines = submission.sealed_list().lines()
    except ListImportError:
        lines = None
    context = {
        "event": event,
        "entrant": entrant,
        "submission": submission,
        "stage": submission.stage,
        "lines": lines,
        "entries": _entries(submission) if lines is None else [],
    }
    return render(request, "events/sealed_list.html", context)
