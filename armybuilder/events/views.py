"""Event pages: create, the event, join, submit a list, the organiser's dashboard and actions,
rounds with results, standings, a sealed list and the entrants' CSV.

Every page works without JavaScript: actions are plain POST forms answered with a redirect.
Lookups go through ``access``: another visitor gets a 404 for the organiser's pages, and a
sealed list stays hidden (404) from everyone but its player and the organiser until revealed.
"""

from __future__ import annotations

import contextlib
import random
import secrets
import uuid
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.db.models import Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from armybuilder import jobs as pipeline
from armybuilder.events import escalation, jobs, services, stage_views
from armybuilder.events import teams as team_services
from armybuilder.events.access import can_follow, can_see_list, entrant_of, get_event, get_organised_event
from armybuilder.events.forms import (
    AdjustmentForm,
    DropForm,
    EventForm,
    JudgeForm,
    LineupForm,
    MissionsForm,
    PastedListForm,
    ResultForm,
    RoundMissionForm,
    SubmitForm,
    SwapForm,
    TimerForm,
    WalkInForm,
)
from armybuilder.events.freshness import by_version, event_page_condition
from armybuilder.events.models import (
    Adjustment,
    Entrant,
    Event,
    ListsPdfJob,
    Pairing,
    Result,
    Round,
    Seal,
    SetAsideResults,
    Submission,
    Tiebreak,
)
from armybuilder.events.problems import display as display_problem
from armybuilder.events.round_games import dressed, own_games, public_rows, round_games
from armybuilder.events.spreadsheet import csv_response
from armybuilder.events.stage_forms import StagesForm
from armybuilder.http import pdf_response
from armybuilder.lists.access import get_list_for_user
from armybuilder.lists.exchange import ListImportError
from armybuilder.lists.models import ArmyList
from armybuilder.lists.summary import list_summary
from armybuilder.playsheets.context import PAPERS
from armybuilder.playsheets.forms import LANGUAGES as PRINT_LANGUAGES
from armybuilder.playsheets.forms import default_language
from rules.events.timer import ADD_MAX, LENGTH_MAX

ERRORS = {
    "deadline": gettext_lazy("The list deadline has passed."),
    "no-list": gettext_lazy("That list is not one of yours."),
    "no-submission": gettext_lazy("This entrant has not submitted a list."),
    "unpublished-round": gettext_lazy("Publish the current round before pairing the next one."),
    "all-rounds": gettext_lazy("Every round of the event has been paired."),
    "results-missing": gettext_lazy("Some results of the last round are not confirmed yet."),
    "too-few": gettext_lazy("At least two approved entrants are needed to pair a round."),
    "impossible": gettext_lazy("No pairing avoids a rematch: pair this round by hand."),
    "published": gettext_lazy("This round is published: its pairings can no longer change."),
    "swap": gettext_lazy("Choose two players of different pairings."),
    "rematch": gettext_lazy("That swap would pair two players who have already met."),
    "not-your-game": gettext_lazy("This is not one of your games."),
    "set-by-organiser": gettext_lazy("The organiser has set this result."),
    "outcome": gettext_lazy("Choose a result."),
    "own-entry": gettext_lazy("Your opponent confirms the result you entered."),
    "bye": gettext_lazy("A bye has no result to enter."),
    "already-confirmed": gettext_lazy("Both players agreed this result: only the organiser can change it now."),
    "no-entrant": gettext_lazy("This player is not an entrant of the event."),
    "already-dropped": gettext_lazy("This player is already dropped."),
    "drop-round": gettext_lazy("A player can only be dropped from a round not paired yet."),
    "no-adjustment": gettext_lazy("These points were already removed."),
    "no-round": gettext_lazy("This round does not exist."),
    "later-round": gettext_lazy(
        "A later round is already paired: only the latest round can be taken back (take the later one back first)."
    ),
    "not-published": gettext_lazy("This round is not published: there is nothing to take back."),
    "no-missions": gettext_lazy("The event has no missions yet: type them under Missions first."),
    "unknown-mission": gettext_lazy("This is not one of the event's missions: type one of those offered."),
    "sealed-list-gone": gettext_lazy("A sealed list names units that are no longer in the data."),
    "points-unstorable": gettext_lazy(
        "This list's points cannot be sealed (below 0 or beyond any limit): check its units' costs and submit again."
    ),
    "unstorable": gettext_lazy(
        "This list could not be sealed as it is: nothing was submitted. Check its units and submit again."
    ),
    "not-walk-in": gettext_lazy("This player entered with an account: they submit their own list."),
    "walk-in-name": gettext_lazy("Type the player's name."),
    "walk-in-name-taken": gettext_lazy(
        "A walk-in of this event already has this name: add something to tell them apart."
    ),
    "walk-in-claimed": gettext_lazy(
        "This place has been claimed: the player has an account now, and the place is theirs."
    ),
    "walk-in-played": gettext_lazy(
        "This walk-in has played in a published round: removing them would take results away from "
        "their opponents. Drop them from the next round instead; their games so far still count."
    ),
    "round-without-stage": gettext_lazy(
        "No escalation stage plays this round: set the stages again to cover every round of the event."
    ),
    "too-few-teams": gettext_lazy("At least two teams are needed to pair a round."),
    "teams-incomplete": gettext_lazy(
        "Every team needs exactly the event's number of players per team, each with an approved list, "
        "before a round is paired."
    ),
    "team-results-missing": gettext_lazy(
        "Some team pairings of the last round have no line-ups or unconfirmed results yet."
    ),
    "team-swap": gettext_lazy("At a team event the captains set who plays whom: there is nothing to swap."),
    "no-account": gettext_lazy("No account has this username: check its spelling with the player."),
    "account-entered": gettext_lazy(
        "This account is already an entrant of this event: one account plays one place. Remove or drop one of them."
    ),
    "already-entrant": gettext_lazy(
        "You are already an entrant of this event: one account plays one place. Ask the organiser."
    ),
}


def _error(request: HttpRequest, error: services.EventError) -> None:
    messages.error(request, str(ERRORS.get(error.code, error.code)))


def _attempt(request: HttpRequest, action, *args, success: str = "", **kwargs) -> bool:
    """Call the service ``action``: a refusal (EventError) becomes the page's error message,
    a success the ``success`` message if any. Whether it succeeded."""
    try:
        action(*args, **kwargs)
    except services.EventError as error:
        _error(request, error)
        return False
    if success:
        messages.success(request, success)
    return True


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    organised = joined = []
    if request.user.is_authenticated:
        organised = list(Event.objects.filter(organiser=request.user))
        joined = list(Event.objects.filter(entrants__user=request.user))
    published = list(Event.objects.filter(published=True)[:50])
    return render(request, "events/index.html", {"organised": organised, "joined": joined, "published": published})


# Per account and per day: a club or a tournament organiser stays far below; a script does not.
EVENTS_PER_DAY = 10
JOINS_PER_DAY = 30
SEALS_PER_DAY = 60  # a player re-sealing after each change stays far below


def _since_yesterday():
    return timezone.now() - timedelta(days=1)


@login_required
def create(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None, organiser=request.user)
    if request.method == "POST" and form.is_valid():
        if Event.objects.filter(organiser=request.user, created_at__gte=_since_yesterday()).count() >= EVENTS_PER_DAY:
            message = _(
                "You have created %(n)s events in the last 24 hours, the most one account may: try again tomorrow."
            )
            form.add_error(None, message % {"n": EVENTS_PER_DAY})
            return render(request, "events/form.html", {"form": form, "event": None}, status=429)
        event = form.save(commit=False)
        event.organiser = request.user
        event.save()
        form.save_m2m()
        event.banned_units.set(form.cleaned_data["banned_units"])
        messages.success(request, _("Event created. Share its link with the players."))
        return redirect("events-manage", slug=event.slug)
    return render(request, "events/form.html", {"form": form, "event": None})


@login_required
def edit(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_organised_event(request, slug)
    form = EventForm(request.POST or None, instance=event, organiser=event.organiser)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Event saved."))
        return redirect("events-manage", slug=event.slug)
    return render(request, "events/form.html", {"form": form, "event": event})


@require_safe
@event_page_condition
@cache_control(private=True, no_cache=True)
def event_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_event(slug)
    entrant = entrant_of(request, event)
    submission = Submission.objects.filter(entrant=entrant).first() if entrant else None
    problems = [display_problem(p) for p in submission.problems(event.rules())] if submission else []
    my_pairings = []
    if entrant is not None:
        my_pairings = list(
            Pairing.objects.filter(round__event=event, round__published=True)
            .filter(Q(player_a=entrant) | Q(player_b=entrant))
            .select_related("round", "player_a__user", "player_b__user")
            .order_by("round__number")
        )
        for pairing in my_pairings:
            pairing.opponent = pairing.player_b if pairing.player_a_id == entrant.pk else pairing.player_a
    context = {
        "event": event,
        "entrant": entrant,
        "submission": submission,
        "problems": problems,
        "is_organiser": event.is_organiser(request.user),
        "entrant_count": Entrant.objects.filter(event=event).count(),
        "rounds": Round.objects.filter(event=event, published=True),
        "can_follow": can_follow(request, event, entrant),
        "my_rounds": {p.round_id for p in my_pairings},
        "my_pairings": my_pairings,
        **stage_views.player_context(event, entrant),
    }
    return render(request, "events/event.html", context)


@require_POST
@login_required
def join(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_event(slug)
    joined = Entrant.objects.filter(user=request.user, joined_at__gte=_since_yesterday())
    if not Entrant.objects.filter(event=event, user=request.user).exists() and joined.count() >= JOINS_PER_DAY:
        message = _("You have joined %(n)s events in the last 24 hours, the most one account may: try again tomorrow.")
        messages.error(request, message % {"n": JOINS_PER_DAY})
        return redirect("events-event", slug=event.slug)
    with contextlib.suppress(IntegrityError):  # joined twice at once: the first one stands
        Entrant.objects.get_or_create(event=event, user=request.user)
    messages.success(request, _("You are entered. Now submit your list."))
    return redirect("events-submit", slug=event.slug)


@login_required
def submit(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_event(slug)
    entrant = entrant_of(request, event)
    if entrant is None:
        return redirect("events-event", slug=event.slug)
    # Only lists of the event's edition: a list of another edition can never be legal here.
    lists = list(
        ArmyList.objects.active().filter(owner=request.user, edition_id=event.edition_id).values_list("pk", "name")
    )
    sealed = Seal.objects.filter(user=request.user, sealed_at__gte=_since_yesterday())
    if services.event_has_stages(event):
        seals_left = request.method != "POST" or sealed.count() < SEALS_PER_DAY
        return stage_views.submit(
            request, event, entrant, lists, seals_per_day=SEALS_PER_DAY, seals_left=seals_left, errors=ERRORS
        )
    form = SubmitForm(request.POST or None, lists=lists)
    if request.method == "POST" and form.is_valid() and sealed.count() >= SEALS_PER_DAY:
        message = _(
            "You have submitted %(n)s lists in the last 24 hours, the most one account may: try again tomorrow."
        )
        form.add_error("army_list", message % {"n": SEALS_PER_DAY})
        return render(request, "events/submit.html", {"event": event, "form": form, "lists": lists}, status=429)
    if request.method == "POST" and form.is_valid():
        try:
            services.seal(entrant, form.cleaned_data["army_list"])
        except services.EventError as error:
            # Refused with words next to the choice, the form kept, never a 500.
            form.add_error("army_list", str(ERRORS.get(error.code, error.code)))
        else:
            Seal.objects.create(user=request.user)
            messages.success(request, _("Your list is sealed. Editing it now changes nothing until you submit again."))
            return redirect("events-event", slug=event.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, "events/submit.html", {"event": event, "form": form, "lists": lists}, status=status)


@require_safe
@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    return _dashboard(request, get_organised_event(request, slug))


def _adjustment_form(event: Event, rows: list, data=None) -> AdjustmentForm:
    players = [(row.entrant.pk, row.entrant.name) for row in rows]
    return AdjustmentForm(data, players=players, rounds=event.rounds)


def _dashboard(
    request: HttpRequest,
    event: Event,
    *,
    drop_form: DropForm | None = None,
    adjustment_form: AdjustmentForm | None = None,
    missions_form: MissionsForm | None = None,
    mission_form: RoundMissionForm | None = None,
    walk_in_form: WalkInForm | None = None,
    list_form: PastedListForm | None = None,
    stages_form=None,
    stage_list_form: PastedListForm | None = None,
    status: int = 200,
):
    """The organiser's page; ``drop_form``: a refused drop, shown with its error in its player's row;
    ``adjustment_form``: refused bonus or penalty points, shown as typed with their errors;
    ``walk_in_form``: a refused walk-in, ``list_form``: a walk-in's refused list, both as typed."""
    rows = services.entrant_rows(event)
    first, last = services.first_droppable_round(event), event.rounds
    for row in rows:
        bound = drop_form if drop_form is not None and drop_form.entrant_id == row.entrant.pk else None
        row.drop_form = bound or DropForm(first=first, last=last, auto_id=f"drop-{row.entrant.pk}-%s")
        if row.entrant.is_walk_in:
            bound = list_form if list_form is not None and list_form.entrant_id == row.entrant.pk else None
            row.list_form = bound or PastedListForm(auto_id=f"walk-in-{row.entrant.pk}-%s")
            row.claim_url = request.build_absolute_uri(
                reverse("events-claim", kwargs={"slug": event.slug, "token": row.entrant.claim_token})
            )
    for row in rows:
        row.messages = [display_problem(problem) for problem in row.problems]
    rounds = services.rounds_with_pairings(event)
    missions = event.mission_list()
    for round_ in rounds:
        bound = mission_form if mission_form is not None and mission_form.number == round_.number else None
        round_.mission_form = bound or RoundMissionForm(
            initial={"mission": round_.mission}, missions=missions, number=round_.number
        )
    current = rounds[-1] if rounds else None
    swap_form = None
    if current is not None and not current.published:
        players = [
            (entrant.pk, entrant.name)
            for pairing in current.pairings.all()
            for entrant in (pairing.player_a, pairing.player_b)
            if entrant is not None
        ]
        swap_form = SwapForm(players=players)
    draft_matches = []
    if event.is_team_event and current is not None and not current.published:
        draft_matches = list(current.team_matches.select_related("team_a", "team_b"))
    context = {
        "event": event,
        "rows": rows,
        "rounds": rounds,
        "current": current,
        "draft_matches": draft_matches,
        "swap_form": swap_form,
        "approved": sum(1 for row in rows if row.submission and row.submission.status == Submission.Status.APPROVED),
        "checked_in": sum(1 for row in rows if row.entrant.checked_in),
        "can_drop": first <= last,
        "adjustment_form": adjustment_form or _adjustment_form(event, rows),
        "adjustments": Adjustment.objects.filter(entrant__event=event).select_related("entrant__user"),
        # The latest round, when published, can be taken back.
        "revertible": rounds[-1] if rounds and rounds[-1].published else None,
        "set_aside": SetAsideResults.objects.filter(event=event),
        "walk_in_form": walk_in_form or WalkInForm(event=event),
        "missions": missions,
        "missions_form": missions_form
        or MissionsForm(initial={"missions": "\n".join(m.label for m in missions)}, edition=event.edition.slug),
        **stage_views.dashboard_context(event, stages_form, stage_list_form),
    }
    return render(request, "events/dashboard.html", context, status=status)


@require_POST
@login_required
def drop(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    """Drop a player from a round on; a refused number is shown next to the field, as typed."""
    event = get_organised_event(request, slug)
    entrant = get_object_or_404(Entrant.objects.select_related("user"), event=event, pk=entrant_id)
    first = services.first_droppable_round(event)
    form = DropForm(request.POST, first=first, last=event.rounds, auto_id=f"drop-{entrant.pk}-%s")
    form.entrant_id = entrant.pk
    if not form.is_valid():
        return _dashboard(request, event, drop_form=form, status=400)
    number = form.cleaned_data["from_round"]
    message = _("%(name)s is dropped from round %(number)s on; their games so far still count.")
    _attempt(
        request,
        services.drop,
        event,
        entrant.pk,
        number,
        success=message % {"name": entrant.name, "number": number},
    )
    return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#entrant-{entrant.pk}")


@require_POST
@login_required
def reinstate(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    event = get_organised_event(request, slug)
    entrant = get_object_or_404(Entrant.objects.select_related("user"), event=event, pk=entrant_id)
    message = _("%(name)s is back: they are paired again from the next round.") % {"name": entrant.name}
    _attempt(request, services.reinstate, event, entrant.pk, success=message)
    return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#entrant-{entrant.pk}")


@require_POST
@login_required
def check_in(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    """Check a player in at the venue (``on=1``) or take it back (``on=0``)."""
    event = get_organised_event(request, slug)
    entrant = get_object_or_404(Entrant.objects.select_related("user"), event=event, pk=entrant_id)
    present = request.POST.get("on") == "1"
    message = _("%(name)s is checked in.") if present else _("%(name)s is no longer checked in.")
    _attempt(request, services.check_in, event, entrant.pk, present, success=message % {"name": entrant.name})
    return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#entrant-{entrant.pk}")


# Walk-ins an organiser enters in a day: a big tournament's walk-ins stay far below; a script does not.
WALK_INS_PER_DAY = 100


@require_POST
@login_required
def add_walk_in(request: HttpRequest, slug: str) -> HttpResponse:
    """Enter a player without an account with their pasted list; refused values are shown next to
    their fields, as typed."""
    event = get_organised_event(request, slug)
    form = WalkInForm(request.POST, event=event)
    if not form.is_valid():
        return _dashboard(request, event, walk_in_form=form, status=400)
    added = Entrant.objects.filter(event__organiser=request.user, joined_at__gte=_since_yesterday())
    if added.exclude(walk_in_name="").count() >= WALK_INS_PER_DAY:
        message = _(
            "You have entered %(n)s walk-ins in the last 24 hours, the most one account may: try again tomorrow."
        )
        form.add_error("name", message % {"n": WALK_INS_PER_DAY})
        return _dashboard(request, event, walk_in_form=form, status=429)
    try:
        entrant = services.add_walk_in(event, form.cleaned_data["name"], form.cleaned_data["list"])
    except services.EventError as error:
        field = "name" if error.code.startswith("walk-in-name") else "list"
        form.add_error(field, stage_views.refusal(error, ERRORS))
        return _dashboard(request, event, walk_in_form=form, status=400)
    message = _("%(name)s is entered with their list, waiting for your approval. Give them their claim link.")
    messages.success(request, message % {"name": entrant.name})
    return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#entrant-{entrant.pk}")


@require_POST
@login_required
def walk_in_list(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    """Paste a walk-in's list again (after sending it back); a refused list is shown in their row, as typed."""
    event = get_organised_event(request, slug)
    entrant = get_object_or_404(Entrant, event=event, pk=entrant_id, user__isnull=True)
    form = PastedListForm(request.POST, auto_id=f"walk-in-{entrant.pk}-%s")
    form.entrant_id = entrant.pk
    if form.is_valid():
        try:
            services.seal_walk_in(event, entrant.pk, form.cleaned_data["list"])
        except services.EventError as error:
            form.add_error("list", stage_views.refusal(error, ERRORS))
        else:
            message = _("%(name)s's new list is sealed, waiting for your approval.") % {"name": entrant.name}
            messages.success(request, message)
            return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#entrant-{entrant.pk}")
    return _dashboard(request, event, list_form=form, status=400)


def _dashboard_at(event: Event, anchor: str) -> HttpResponse:
    return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#{anchor}")


def _say_removed(request: HttpRequest, removed: services.RemovedWalkIn) -> None:
    """The removal said: and, when they were paired in the next round's draft, what became of it."""
    message = _("%(name)s is removed, with their list.") % {"name": removed.name}
    if removed.draft is None:
        messages.success(request, message)
    elif removed.unpaired is None:
        again = _("Round %(number)s is paired again without them: check it, then publish it.")
        messages.success(request, f"{message} {again % {'number': removed.draft}}")
    else:
        messages.success(request, message)
        thrown = _(
            "Round %(number)s was paired with them: its draft is thrown away, and it cannot be paired again now."
        )
        reason = ERRORS.get(removed.unpaired, removed.unpaired)
        messages.warning(request, f"{thrown % {'number': removed.draft}} {reason}")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def remove_walk_in(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    """Remove a walk-in entered by mistake or gone before playing: a confirmation page (GET) that
    says what goes with them, then the action (POST). Refused once they have played."""
    event = get_organised_event(request, slug)
    walk_in = get_object_or_404(
        Entrant.objects.select_related("submission"), event=event, pk=entrant_id, user__isnull=True
    )
    if request.method == "POST":
        try:
            removed = services.remove_walk_in(event, walk_in.pk)
        except services.EventError as error:
            _error(request, error)
            return _dashboard_at(event, f"entrant-{walk_in.pk}")
        _say_removed(request, removed)
        if removed.draft is not None and removed.unpaired is None:
            return _dashboard_at(event, "round-draft")
        return redirect("events-manage", slug=event.slug)
    context = {
        "event": event,
        "walk_in": walk_in,
        "submission": getattr(walk_in, "submission", None),
        "refusal": ERRORS["walk-in-played"] if services.games_of(walk_in).exists() else None,
        "draft": services.draft_round_of(walk_in),
        "adjustments": Adjustment.objects.filter(entrant=walk_in).count(),
    }
    return render(request, "events/remove_walk_in.html", context, status=409 if context["refusal"] else 200)


@require_POST
@login_required
def renew_claim_link(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    """A new claim link for a walk-in whose link went to the wrong person: the old one stops working."""
    event = get_organised_event(request, slug)
    walk_in = get_object_or_404(Entrant, event=event, pk=entrant_id, user__isnull=True)
    message = _("%(name)s has a new claim link: the old one no longer works.") % {"name": walk_in.name}
    _attempt(request, services.renew_claim_link, event, walk_in.pk, success=message)
    return _dashboard_at(event, f"claim-row-{walk_in.pk}")


@require_POST
@login_required
def link_walk_in(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    """The organiser links a walk-in's place to the player's account, by its username."""
    event = get_organised_event(request, slug)
    walk_in = get_object_or_404(Entrant, event=event, pk=entrant_id, user__isnull=True)
    try:
        entrant = services.link_walk_in(event, walk_in.pk, request.POST.get("username", "")[:150])
    except services.EventError as error:
        _error(request, error)
        return _dashboard_at(event, f"claim-row-{walk_in.pk}")
    message = _("%(name)s's place is now under the account %(account)s, with its list, results and placings.")
    messages.success(request, message % {"name": walk_in.name, "account": entrant.user.get_username()})
    return _dashboard_at(event, f"entrant-{walk_in.pk}")


def _claim_gone(request: HttpRequest, event: Event) -> HttpResponse:
    """An unknown, used or replaced claim link: said in words, as a 404."""
    return render(request, "events/claim.html", {"event": event, "gone": True}, status=404)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def claim(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """A walk-in's claim link: the signed-in player sees whose place it is (GET) and takes it (POST);
    an unknown or used link is a 404."""
    event = get_event(slug)
    walk_in = (
        Entrant.objects.select_related("submission").filter(event=event, claim_token=token, user__isnull=True).first()
    )
    if walk_in is None:
        return _claim_gone(request, event)
    refusal = ERRORS["already-entrant"] if entrant_of(request, event) is not None else None
    if request.method == "POST" and refusal is None:
        try:
            services.claim_walk_in(token, request.user)
        except services.EventError as error:
            if error.code == "no-claim":  # used or replaced since the page was shown
                return _claim_gone(request, event)
            refusal = ERRORS.get(error.code, error.code)
        else:
            message = _("This place is yours now: its list, results and placings are under your account.")
            messages.success(request, message)
            return redirect("events-event", slug=event.slug)
    context = {
        "event": event,
        "walk_in": walk_in,
        "submission": getattr(walk_in, "submission", None),
        "games": Pairing.objects.filter(round__event=event, round__published=True)
        .filter(Q(player_a=walk_in) | Q(player_b=walk_in))
        .count(),
        "refusal": refusal,
    }
    return render(request, "events/claim.html", context, status=409 if refusal else 200)


@require_POST
@login_required
def add_adjustment(request: HttpRequest, slug: str) -> HttpResponse:
    """Bonus or penalty points for an entrant; refused values are shown next to their fields, as typed."""
    event = get_organised_event(request, slug)
    form = _adjustment_form(event, services.entrant_rows(event), request.POST)
    if not form.is_valid():
        return _dashboard(request, event, adjustment_form=form, status=400)
    data = form.cleaned_data
    entrant_id = data.pop("entrant")
    names = dict(form.fields["entrant"].choices)
    message = _("%(points)+d points for %(name)s (%(category)s).") % {
        "points": data["amount"],
        "name": names.get(entrant_id, ""),
        "category": Adjustment.Category(data["category"]).label,
    }
    _attempt(request, services.add_adjustment, event, entrant_id, **data, success=message)
    return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#adjustments")


@require_POST
@login_required
def remove_adjustment(request: HttpRequest, slug: str, adjustment_id: int) -> HttpResponse:
    event = get_organised_event(request, slug)
    _attempt(request, services.remove_adjustment, event, adjustment_id, success=_("The points were removed."))
    return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#adjustments")


@require_POST
@login_required
def set_missions(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's missions, typed one a line; a line that is not one is said next to the field, as typed."""
    event = get_organised_event(request, slug)
    form = MissionsForm(request.POST, edition=event.edition.slug)
    if not form.is_valid():
        return _dashboard(request, event, missions_form=form, status=400)
    services.set_missions(event, form.cleaned_data["missions"])
    count = len(form.cleaned_data["missions"])
    message = ngettext("%(count)s mission saved.", "%(count)s missions saved.", count) % {"count": count}
    messages.success(request, message)
    return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#missions")


def _mission_rng() -> random.Random:
    """The roll's random source: seeded afresh each time (tests put a fixed seed in its place)."""
    return random.Random(secrets.randbits(64))


@require_POST
@login_required
def round_mission(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Set the round's mission to one of the event's, or roll one; refused next to the field, as typed."""
    event = get_organised_event(request, slug)
    round_ = _round(event, number)
    form = RoundMissionForm(request.POST, missions=event.mission_list(), number=number)
    if form.is_valid():
        try:
            if form.cleaned_data["action"] == "roll":
                services.roll_round_mission(round_, _mission_rng())
            else:
                services.set_round_mission(round_, form.cleaned_data["mission"])
        except services.EventError as error:
            form.add_error("mission", str(ERRORS.get(error.code, error.code)))
        else:
            message = _("Round %(number)s plays %(mission)s.") % {"number": number, "mission": round_.mission}
            messages.success(request, message)
            return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#round-{number}")
    return _dashboard(request, event, mission_form=form, status=400)


@require_POST
@login_required
def judge(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    event = get_organised_event(request, slug)
    form = JudgeForm(request.POST)
    if form.is_valid():
        approve = form.cleaned_data["decision"] == "approve"
        _attempt(request, services.judge, event, entrant_id, approve=approve, note=form.cleaned_data["note"])
    return redirect("events-manage", slug=event.slug)


@require_POST
@login_required
def toggle(request: HttpRequest, slug: str, flag: str) -> HttpResponse:
    """Reveal or hide the lists; publish or unpublish the event; hide or show the standings."""
    event = get_organised_event(request, slug)
    field = {"reveal": "lists_revealed", "publish": "published", "hide-standings": "standings_hidden"}[flag]
    setattr(event, field, request.POST.get("on") == "1")
    event.save(update_fields=[field, "updated_at"])
    return redirect("events-manage", slug=event.slug)


@require_POST
@login_required
def pair(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_organised_event(request, slug)
    try:
        round_ = services.pair_next_round(event)
    except services.EventError as error:
        _error(request, error)
    else:
        message = _("Round %(number)s is paired. Check it, then publish it.")
        messages.success(request, message % {"number": round_.number})
    return redirect("events-manage", slug=event.slug)


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(Round, event=event, number=number)


@require_POST
@login_required
def swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = get_organised_event(request, slug)
    round_ = _round(event, number)
    players = [(p, "") for pair in round_.pairings.values_list("player_a_id", "player_b_id") for p in pair if p]
    form = SwapForm(request.POST, players=players)
    if not form.is_valid():
        messages.error(request, str(ERRORS["swap"]))
        return redirect("events-manage", slug=event.slug)
    _attempt(request, services.swap_players, round_, form.cleaned_data["first"], form.cleaned_data["second"])
    return redirect("events-manage", slug=event.slug)


@require_POST
@login_required
def publish_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = get_organised_event(request, slug)
    services.publish_round(_round(event, number))
    return redirect("events-round", slug=event.slug, number=number)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def revert_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Take back a published round: a confirmation page (GET), then the action (POST)."""
    event = get_organised_event(request, slug)
    round_ = _round(event, number)
    if request.method == "POST":
        try:
            aside = services.revert_round(event, number)
        except services.EventError as error:
            _error(request, error)
            return redirect("events-manage", slug=event.slug)
        count = len(aside.results)
        message = ngettext(
            "Round %(number)s is a draft again: %(count)s result was set aside.",
            "Round %(number)s is a draft again: %(count)s results were set aside.",
            count,
        )
        messages.success(request, message % {"number": number, "count": count})
        return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#round-draft")
    refusal = None
    if Round.objects.filter(event=event, number__gt=number).exists():
        refusal = ERRORS["later-round"]
    elif not round_.published:
        refusal = ERRORS["not-published"]
    context = {
        "event": event,
        "round": round_,
        "refusal": refusal,
        "results": Result.objects.filter(pairing__round=round_).count(),
    }
    return render(request, "events/revert_round.html", context, status=409 if refusal else 200)


@require_POST
@login_required
def pair_again(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = get_organised_event(request, slug)
    message = _("Round %(number)s is paired again. Check it, then publish it.") % {"number": number}
    _attempt(request, services.pair_again, event, number, success=message)
    return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#round-draft")


@require_safe
@event_page_condition
@cache_control(private=True, no_cache=True)
def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _round_page(request, get_event(slug), number)


def _round_page(
    request: HttpRequest, event: Event, number: int, *, timer_form: TimerForm | None = None, status: int = 200
) -> HttpResponse:
    """A round's page; ``timer_form``: a refused timer action, shown with its error next to its field."""
    entrant = entrant_of(request, event)
    is_organiser = event.is_organiser(request.user)
    round_ = get_object_or_404(Round, event=event, number=number)
    if not (is_organiser or (round_.published and can_follow(request, event, entrant))):
        raise Http404
    stage = services.round_stage(event, round_.number)
    if is_organiser:  # a form in every game: nothing shared
        pairings = [dressed(pairing, event, entrant, is_organiser) for pairing in round_games(round_)]
    else:
        # Every game but the viewer's own as every player and visitor sees it, built once per
        # version; the viewer's own games (their forms) built for them, in their places.
        rows = by_version(request, event.slug, f"round-{round_.number}", lambda: public_rows(event, round_, stage))
        own = {pairing.pk: dressed(pairing, event, entrant, False) for pairing in own_games(round_, entrant)}
        pairings = [own.get(row.pk, row) for row in rows]
    timer = round_.timer()
    context = {
        "event": event,
        "round": round_,
        "pairings": pairings,
        "team_matches": _team_matches(round_, entrant, is_organiser) if event.is_team_event else [],
        "entrant": entrant,
        "is_organiser": is_organiser,
        "timer": timer,
        "timer_end": timer.end(),
        "last_turn_by": timer.last_turn_by(event.last_turn_minutes),
        "timer_left_minutes": -(-int(timer.remaining(timezone.now()).total_seconds()) // 60),  # rounded up
        "timer_form": timer_form,
        "stage": stage,
    }
    if is_organiser and timer_form is None:
        context["timer_form"] = TimerForm(initial={"minutes": 5 if timer.started else DEFAULT_ROUND_MINUTES})
    return render(request, "events/round.html", context, status=status)


def _team_matches(round_: Round, entrant: Entrant | None, is_organiser: bool) -> list:
    """The round's team pairings, each with what the viewer may see and set of its line-ups: a
    team's line-up is shown to the other team only once both are set (the games are made then)."""
    members = Entrant.objects.select_related("user").order_by("joined_at", "pk")
    matches = list(
        round_.team_matches.select_related("team_a", "team_b").prefetch_related(
            Prefetch("team_a__members", queryset=members), Prefetch("team_b__members", queryset=members)
        )
    )
    size = round_.event.team_size
    for match in matches:
        mine = team_services.captain_side(match, entrant)
        match.my_side = mine
        match.sides = []
        for side, team in (("a", match.team_a), ("b", match.team_b)):
            if team is None:
                continue
            players = list(team.members.all())
            names = {player.pk: player.name for player in players}
            lineup = getattr(match, f"lineup_{side}")
            shown = match.lineups_set or is_organiser or mine == side
            form = None
            if round_.published and not match.lineups_set and (is_organiser or mine == side):
                initial = {f"seat_{index}": pk for index, pk in enumerate(lineup, start=1)}
                form = LineupForm(
                    initial=initial,
                    # A dropped player plays no more: a substitute takes their place.
                    players=[(player.pk, player.name) for player in players if not player.dropped],
                    size=size,
                    auto_id=f"m{match.pk}{side}-%s",
                )
            match.sides.append(
                {
                    "side": side,
                    "team": team,
                    "set": bool(lineup),
                    "lineup": [names.get(pk, "?") for pk in lineup] if shown else [],
                    "form": form,
                }
            )
    return matches


DEFAULT_ROUND_MINUTES = 120

TIMER_ERRORS = {
    "timer-draft": gettext_lazy("Publish the round before starting its timer: the players cannot see it yet."),
    "timer-finished": gettext_lazy(
        "This round is finished (every result is in or a later round is paired): its timer can no longer change."
    ),
    "timer-started": gettext_lazy("The timer is already running: pause it or add minutes."),
    "timer-not-started": gettext_lazy("Start the timer first."),
    "timer-paused": gettext_lazy("The timer is already paused."),
    "timer-not-paused": gettext_lazy("The timer is running: there is nothing to resume."),
    "timer-length": gettext_lazy("A round lasts from 1 to %(max)s minutes."),
    "timer-add": gettext_lazy("Add from 1 to %(max)s minutes at a time."),
    "timer-action": gettext_lazy("Choose start, pause, resume or add minutes."),
}


@require_POST
@login_required
def round_timer(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The organiser starts, pauses, resumes or lengthens the round's timer; a refusal is said next
    to the timer's field on the round page, with the minutes as typed."""
    event = get_organised_event(request, slug)
    round_ = _round(event, number)
    form = TimerForm(request.POST)
    if form.is_valid():
        try:
            services.timer_action(round_, form.cleaned_data["action"], form.cleaned_data["minutes"])
        except services.EventError as error:
            limits = {"max": LENGTH_MAX if error.code == "timer-length" else ADD_MAX}
            message = str(TIMER_ERRORS.get(error.code, error.code))
            form.add_error(
                "minutes" if error.code in ("timer-length", "timer-add") else None,
                message % limits if "%(max)s" in message else message,
            )
        else:
            return redirect(f"{reverse('events-round', kwargs={'slug': event.slug, 'number': number})}#timer")
    return _round_page(request, event, number, timer_form=form, status=400)


def _pairing(event: Event, pairing_id: int) -> Pairing:
    return get_object_or_404(
        Pairing.objects.select_related("round", "player_a", "player_b"), round__event=event, pk=pairing_id
    )


def _seated(request: HttpRequest, event: Event, pairing_id: int) -> tuple[Pairing, Entrant]:
    """The pairing and the visitor's entrant, who must play in it (404 otherwise)."""
    pairing = _pairing(event, pairing_id)
    entrant = entrant_of(request, event)
    if entrant is None or pairing.seat_of(entrant.pk) is None:
        raise Http404
    return pairing, entrant


def _result_form(request: HttpRequest, event: Event) -> ResultForm | None:
    """The posted result, or None with the error message said when it does not parse."""
    form = ResultForm(request.POST, with_points=event.ranks_by_points)
    if form.is_valid():
        return form
    if event.ranks_by_points:
        message = _("The result was not recorded: choose a result and whole numbers of dice and points.")
    else:
        message = _("The result was not recorded: choose a result and whole numbers of dice.")
    messages.error(request, message)
    return None


def _result_redirect(event: Event, pairing: Pairing) -> HttpResponse:
    url = reverse("events-round", kwargs={"slug": event.slug, "number": pairing.round.number})
    return redirect(f"{url}#pairing-{pairing.pk}")


@require_POST
@login_required
def enter_result(request: HttpRequest, slug: str, pairing_id: int) -> HttpResponse:
    event = get_event(slug)
    pairing, entrant = _seated(request, event, pairing_id)
    form = _result_form(request, event)
    if form is not None:
        opponent = pairing.player_b if pairing.player_a_id == entrant.pk else pairing.player_a
        if opponent is not None and opponent.is_walk_in:
            entered = _("Result entered. Your opponent has no account: the organiser confirms it.")
        else:
            entered = _("Result entered. Your opponent confirms it.")
        _attempt(request, services.enter_result, pairing, entrant, **form.cleaned_data, success=entered)
    return _result_redirect(event, pairing)


@require_POST
@login_required
def confirm_result(request: HttpRequest, slug: str, pairing_id: int) -> HttpResponse:
    event = get_event(slug)
    pairing, entrant = _seated(request, event, pairing_id)
    _attempt(request, services.confirm_result, pairing, entrant, success=_("Result confirmed."))
    return _result_redirect(event, pairing)


@require_POST
@login_required
def override_result(request: HttpRequest, slug: str, pairing_id: int) -> HttpResponse:
    event = get_organised_event(request, slug)
    pairing = _pairing(event, pairing_id)
    form = _result_form(request, event)
    if form is not None:
        _attempt(request, services.override_result, pairing, **form.cleaned_data)
    return _result_redirect(event, pairing)


STANDINGS_POLL_SECONDS = 20
TEAM_TIEBREAK_LABELS = [
    ("game_points", gettext_lazy("Game points")),
    ("games_won", gettext_lazy("Games won")),
    ("sos", gettext_lazy("Strength of schedule")),
]


@require_safe
@vary_on_headers("HX-Request")
@event_page_condition
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_event(slug)
    if not can_follow(request, event, entrant_of(request, event)):
        raise Http404
    is_organiser = event.is_organiser(request.user)
    hidden = event.standings_hidden and not is_organiser
    # The table is the same for every viewer but the organiser of hidden standings: built once per
    # version of the event (the standings are worked out from every result).
    shown_hidden = event.standings_hidden and is_organiser
    table = by_version(
        request,
        event.slug,
        f"standings-{hidden:d}{shown_hidden:d}",
        lambda: _standings_table(event, hidden, is_organiser),
    )
    # Live: htmx asks for the table again every few seconds (the page itself without JavaScript).
    if getattr(request, "htmx", False):
        response = HttpResponse(table)
    else:
        response = render(request, "events/standings.html", {"event": event, "table": table})
    response["Cache-Control"] = "no-cache"
    return response


def _standings_table(event: Event, hidden: bool, is_organiser: bool) -> str:
    rows = [] if hidden else services.event_standings(event)
    # The columns in the event's tiebreak order, so the table reads the way it is sorted.
    labels = dict(Tiebreak.choices)
    columns = [(key, labels[key]) for key in event.tiebreak_order]
    for item in rows:
        item.values = [item.row.value(key) for key, _label in columns]
    team_rows, team_columns = [], []
    if event.is_team_event and not hidden:
        team_labels = dict(TEAM_TIEBREAK_LABELS)
        team_columns = [(key, team_labels[key]) for key in event.team_tiebreak_order]
        team_rows = team_services.team_standings(event)
        for item in team_rows:
            item.values = [item.row.value(key) for key, _label in team_columns]
    context = {
        "team_rows": team_rows,
        "team_columns": team_columns,
        # The bonus and penalty column only when the organiser has given some.
        "adjusted": any(item.adjustments for item in rows),
        "event": event,
        "rows": rows,
        "columns": columns,
        "poll_seconds": STANDINGS_POLL_SECONDS,
        "hidden": hidden,
        "is_organiser": is_organiser,
    }
    # Without the request: the table holds no form, and so no CSRF token.
    return render_to_string("events/standings.html#table", context)


def _entries(submission: Submission) -> list[dict]:
    """The sealed export's entries, each with the unit's name as it was when sealed."""
    names = [name for _slug, name in submission.facts.get("units", [])]
    entries = []
    for index, entry in enumerate(submission.snapshot.get("entries", [])):
        entries.append({**entry, "display": names[index] if index < len(names) else entry.get("unit", "")})
    return entries


@require_safe
@event_page_condition
@cache_control(private=True, no_cache=True)
def sealed_list(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    event = get_event(slug)
    entrant = get_object_or_404(Entrant.objects.select_related("user", "submission"), event=event, pk=entrant_id)
    submission = getattr(entrant, "submission", None)
    if submission is None or not can_see_list(request, event, entrant):
        raise Http404
    try:
        lines = submission.sealed_list().lines()
    except ListImportError:
        lines = None  # a unit gone from the data: the list as it was written, without figures
    context = {
        "event": event,
        "entrant": entrant,
        "submission": submission,
        "lines": lines,
        "entries": _entries(submission) if lines is None else [],
    }
    response = render(request, "events/sealed_list.html", context)
    return response


@require_safe
@login_required
def entrants_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_organised_event(request, slug)
    if services.event_has_stages(event):
        header, rows = stage_views.entrants_csv_rows(event)
        return csv_response(f"{event.slug}-entrants.csv", header, rows)
    rows = []
    for row in services.entrant_rows(event):
        sub = row.submission
        rows.append(
            [
                row.entrant.name,
                sub.list_name if sub else "",
                sub.army_name if sub else "",
                sub.points if sub else "",
                sub.hash if sub else "",
                sub.status if sub else "",
                row.legal,
                " | ".join(problem.message for problem in row.problems),
            ]
        )
    header = ["player", "list", "army", "points", "hash", "status", "legal", "problems"]
    return csv_response(f"{event.slug}-entrants.csv", header, rows)


@require_safe
@login_required
def results_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """Every pairing of every published round with its result, one line each."""
    event = get_organised_event(request, slug)
    rows = []
    for round_ in services.rounds_with_pairings(event, published_only=True):
        for pairing in round_.pairings.all():
            result = getattr(pairing, "result", None)
            if pairing.is_bye:
                rows.append([round_.number, "", pairing.player_a.name, "", "bye", "", "", "", "", "", "", True, ""])
                continue
            outcome = result.outcomes() if result else ("", "")
            rows.append(
                [
                    round_.number,
                    pairing.table,
                    pairing.player_a.name,
                    pairing.player_b.name,
                    outcome[0],
                    outcome[1],
                    result.dice_a if result else "",
                    result.dice_b if result else "",
                    result.turns if result and result.turns is not None else "",
                    result.points_a if result and result.points_a is not None else "",
                    result.points_b if result and result.points_b is not None else "",
                    bool(result and result.counts),
                    result.mission if result else round_.mission,
                ]
            )
    header = [
        "round",
        "table",
        "player_a",
        "player_b",
        "result_a",
        "result_b",
        "dice_a",
        "dice_b",
        "turns",
        "points_a",
        "points_b",
        "counts",
        "mission",
    ]
    return csv_response(f"{event.slug}-results.csv", header, rows)


@require_safe
@login_required
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_organised_event(request, slug)
    order = [key for key in event.tiebreak_order if key != "score"]
    rows = [
        [
            item.row.place,
            item.entrant.name,
            item.row.score,
            *(item.row.value(key) for key in order),
            item.row.played,
            item.row.adjustment,
        ]
        for item in services.event_standings(event)
    ]
    header = ["place", "player", "score", *order, "games", "bonus_penalty"]
    return csv_response(f"{event.slug}-standings.csv", header, rows)


# -- One PDF of every approved list, made by the worker -----------------------------------------


@require_POST
@login_required
def lists_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_organised_event(request, slug)
    lang = request.POST.get("lang") if request.POST.get("lang") in dict(PRINT_LANGUAGES) else default_language()
    paper = request.POST.get("paper") if request.POST.get("paper") in PAPERS else "a4"
    try:
        job = jobs.enqueue(event, lang=lang, paper=paper, request=request)
    except pipeline.Refused as refused:
        return refused.response
    return redirect("events-pdf-job", slug=event.slug, job=job.pk)


def _pdf_job(request: HttpRequest, slug: str, job: uuid.UUID) -> tuple[Event, ListsPdfJob]:
    event = get_organised_event(request, slug)
    return event, get_object_or_404(ListsPdfJob.objects.defer("pdf"), pk=job, event=event)


@require_safe
@login_required
@vary_on_headers("HX-Request")
def lists_pdf_job(request: HttpRequest, slug: str, job: uuid.UUID) -> HttpResponse:
    event, pdf_job = _pdf_job(request, slug, job)
    context = {
        "event": event,
        "job": pdf_job,
        "status_url": reverse("events-pdf-job", kwargs={"slug": event.slug, "job": pdf_job.pk}),
        "file_url": reverse("events-pdf-job-file", kwargs={"slug": event.slug, "job": pdf_job.pk}),
    }
    return pipeline.status_page(request, "events/pdf_job.html", context)


@require_safe
@login_required
def lists_pdf_file(request: HttpRequest, slug: str, job: uuid.UUID) -> HttpResponse:
    event, pdf_job = _pdf_job(request, slug, job)
    if not pdf_job.is_done:
        return redirect("events-pdf-job", slug=event.slug, job=pdf_job.pk)
    data = ListsPdfJob.objects.values_list("pdf", flat=True).get(pk=pdf_job.pk)
    response = pdf_response(bytes(data), f"{event.slug}-lists.pdf", download=request.GET.get("download") == "1")
    response["Cache-Control"] = "private, no-store"
    return response


# -- The builder's "legal for <event>" ---------------------------------------------------------


@require_safe
def list_legality(request: HttpRequest, pk: int) -> HttpResponse:
    """The list as it is now against each event it is submitted to (the builder loads this fragment).

    A list is marked for an event by submitting it there; only its owner reaches it (404 otherwise).
    """
    army_list = get_list_for_user(request, pk, for_builder=True)
    events = []
    if request.user.is_authenticated:
        summary = list_summary(army_list)
        for event, stage in services.events_sealing(request.user, army_list)[:3]:
            problems = services.live_problems(event, army_list, summary, stage)
            name = event.name
            if stage is not None:
                values = {"event": event.name, "stage": stage.number, "points": stage.points_limit}
                name = _("%(event)s, stage %(stage)s (%(points)s pts)") % values
            events.append((event, name, [display_problem(problem) for problem in problems]))
    response = render(request, "events/list_legality.html", {"events": events, "army_list": army_list})
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
@login_required
def play(request: HttpRequest, slug: str, pairing_id: int) -> HttpResponse:
    """Start (or open) the pairing's game-day game with both sealed lists."""
    event = get_event(slug)
    pairing, entrant = _seated(request, event, pairing_id)
    try:
        game = services.start_game(pairing, entrant)
    except services.EventError as error:
        _error(request, error)
        return _result_redirect(event, pairing)
    if game.owner_id == request.user.pk:
        return redirect("games-game", pk=game.pk)
    return redirect("games-shared", token=game.share_token)


# -- Escalation events: stages and each stage's lists (``stage_views`` builds what they show) ----------


@require_POST
@login_required
def set_stages(request: HttpRequest, slug: str) -> HttpResponse:
    """The stages as typed; refused next to the number at fault, everything typed kept (400)."""
    event = get_organised_event(request, slug)
    form = StagesForm(request.POST, rounds=event.rounds)
    if form.is_valid():
        try:
            stages = escalation.set_stages(event, form.cleaned_data["stages"])
        except services.EventError as error:
            form.add_error(None, stage_views.refusal(error, ERRORS))
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
        except services.EventError as error:
            messages.error(request, stage_views.refusal(error, ERRORS))
    else:
        messages.error(request, _("Choose to approve the list or send it back."))
    return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#stage-{number}")


@require_safe
@event_page_condition
@cache_control(private=True, no_cache=True)
def sealed_stage_list(request: HttpRequest, slug: str, entrant_id: int, number: int) -> HttpResponse:
    """A stage's sealed list: seen as any sealed list is (``can_see_list``), 404 otherwise."""
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


@require_POST
@login_required
def walk_in_stage_list(request: HttpRequest, slug: str, entrant_id: int, number: int) -> HttpResponse:
    """A walk-in's list for one stage, pasted by the organiser; refused next to the field, as typed."""
    event = get_organised_event(request, slug)
    entrant = get_object_or_404(Entrant, event=event, pk=entrant_id, user__isnull=True)
    form = PastedListForm(request.POST, auto_id=f"walk-in-{entrant.pk}-stage-{number}-%s")
    form.entrant_id, form.stage_number = entrant.pk, number
    if form.is_valid():
        try:
            services.seal_walk_in(event, entrant.pk, form.cleaned_data["list"], stage_number=number)
        except services.EventError as error:
            form.add_error("list", stage_views.refusal(error, ERRORS))
        else:
            message = _("%(name)s's list for stage %(n)s is sealed, waiting for your approval.")
            messages.success(request, message % {"name": entrant.name, "n": number})
            return redirect(f"{reverse('events-manage', kwargs={'slug': event.slug})}#stage-{number}")
    return _dashboard(request, event, stage_list_form=form, status=400)
