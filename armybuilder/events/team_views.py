"""Team event pages: the teams and their sign-up, a team's join link, the organiser's team changes and
the captains' line-ups. Rounds, results and standings stay on the event's own pages (``views``).

Every action is a plain POST form answered with a redirect; a refusal is said in words on the page
it comes back to. The logic is in ``teams``.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armybuilder.events import teams as team_services
from armybuilder.events.access import entrant_of, get_event, get_organised_event
from armybuilder.events.forms import LineupForm, OrganiserTeamForm, TeamCodeForm, TeamForm
from armybuilder.events.models import Entrant, Event, Team, TeamMatch
from armybuilder.events.services import EventError
from armybuilder.events.views import ERRORS as EVENT_ERRORS
from armybuilder.events.views import JOINS_PER_DAY

TEAM_ERRORS = {
    "not-team-event": gettext_lazy("This is not a team event."),
    "teams-locked": gettext_lazy("The first round is paired: the teams can no longer change."),
    "team-name": gettext_lazy("Give the team a name."),
    "team-name-taken": gettext_lazy("Another team of this event already has this name."),
    "in-team": gettext_lazy("This player is already in a team: they leave it first."),
    "no-team": gettext_lazy("No team of this event has this code."),
    "team-full": gettext_lazy("This team is full: it has all the players a team of this event has."),
    "no-team-match": gettext_lazy("This team pairing does not exist."),
    "lineup-draft": gettext_lazy("Publish the round before the captains set their line-ups."),
    "lineup-locked": gettext_lazy("Both line-ups are set and the games are made: the line-ups can no longer change."),
    "lineup-once": gettext_lazy("Each player plays once: choose a different player for every game."),
    "lineup-players": gettext_lazy("Choose players of the team who still play: their list approved, not dropped."),
    "other-team": gettext_lazy("You captain the other team: only your own team's line-up is yours to set."),
    "not-captain": gettext_lazy("Only the team's captain or the organiser sets its line-up."),
    "join-event-first": gettext_lazy("Join the event first: then found a team or join one."),
}


def _message(code: str) -> str:
    return str(TEAM_ERRORS.get(code) or EVENT_ERRORS.get(code) or code)


def _teams_url(event: Event, anchor: str = "") -> str:
    url = reverse("events-teams", kwargs={"slug": event.slug})
    return f"{url}#{anchor}" if anchor else url


def _team_event(slug: str) -> Event:
    event = get_event(slug)
    if not event.is_team_event:
        raise Http404
    return event


@require_safe
@cache_control(private=True, no_cache=True)
def teams(request: HttpRequest, slug: str) -> HttpResponse:
    """The teams with their players (and their lists, together, once revealed); the viewer's own
    team with its join link; forms to found or join a team, and the organiser's."""
    return _teams_page(request, _team_event(slug))


def _teams_page(
    request: HttpRequest,
    event: Event,
    *,
    team_form: TeamForm | None = None,
    code_form: TeamCodeForm | None = None,
    organiser_form: OrganiserTeamForm | None = None,
    status: int = 200,
) -> HttpResponse:
    # The sign-up page: reached by the event's link by anyone, as the event's own page is.
    entrant = entrant_of(request, event)
    is_organiser = event.is_organiser(request.user)
    all_teams = team_services.teams_with_members(event)
    for team in all_teams:
        team.players = list(team.members.all())
        for member in team.players:
            # A list is linked where it can be read: the organiser, its player, everyone once revealed.
            member.list_visible = getattr(member, "submission", None) is not None and (
                event.lists_revealed or is_organiser or (entrant is not None and member.pk == entrant.pk)
            )
        team.full = sum(not member.dropped for member in team.players) >= event.team_size
        team.join_url = request.build_absolute_uri(
            reverse("events-team-join", kwargs={"slug": event.slug, "code": team.join_code})
        )
    my_team = next((team for team in all_teams if entrant is not None and team.pk == entrant.team_id), None)
    locked = team_services.teams_locked(event)
    context = {
        "event": event,
        "teams": all_teams,
        "entrant": entrant,
        "my_team": my_team,
        "is_organiser": is_organiser,
        "locked": locked,
        "team_form": team_form or TeamForm(),
        "code_form": code_form or TeamCodeForm(),
    }
    if is_organiser:
        free = Entrant.objects.filter(event=event, team__isnull=True).select_related("user")
        context["organiser_form"] = organiser_form or OrganiserTeamForm(
            teams=[(team.pk, team.name) for team in all_teams if not team.full],
            players=[(player.pk, player.name) for player in free],
            auto_id="org-%s",
        )
    return render(request, "events/teams.html", context, status=status)


def _joins_today(request: HttpRequest) -> int:
    since = timezone.now() - timedelta(days=1)
    return Entrant.objects.filter(user=request.user, joined_at__gte=since).count()


def _entrant_or_refuse(request: HttpRequest, event: Event) -> Entrant | None:
    entrant = entrant_of(request, event)
    if entrant is None:
        messages.error(request, _message("join-event-first"))
    return entrant


@require_POST
@login_required
def create_team(request: HttpRequest, slug: str) -> HttpResponse:
    event = _team_event(slug)
    entrant = _entrant_or_refuse(request, event)
    if entrant is None:
        return redirect(_teams_url(event))
    form = TeamForm(request.POST)
    if form.is_valid():
        try:
            team = team_services.create_team(event, entrant, form.cleaned_data["name"])
        except EventError as error:
            form.add_error("name", _message(error.code))
        else:
            message = _("Team %(name)s is founded and you captain it: give your players its join link.")
            messages.success(request, message % {"name": team.name})
            return redirect(_teams_url(event, "my-team"))
    return _teams_page(request, event, team_form=form, status=400)


@require_POST
def join_with_code(request: HttpRequest, slug: str) -> HttpResponse:
    """A code typed on the teams page: on to the team's join link."""
    event = _team_event(slug)
    form = TeamCodeForm(request.POST)
    if form.is_valid():
        # The code alone, or the whole join link pasted: its last part is the code.
        code = form.cleaned_data["code"].strip().rstrip("/").rsplit("/", 1)[-1]
        if team_services.team_of_code(event, code) is not None:
            return redirect("events-team-join", slug=event.slug, code=code)
        form.add_error("code", _message("no-team"))
    return _teams_page(request, event, code_form=form, status=400)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def join_team(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """A team's join link: the team and its players (GET), then joining it (POST), entering the
    event on the way for a player who has not joined it yet."""
    event = _team_event(slug)
    team = team_services.team_of_code(event, code)
    if team is None:
        return render(request, "events/team_join.html", {"event": event, "team": None}, status=404)
    refusal = None
    entered = entrant_of(request, event) is not None
    if request.method == "POST" and not entered and _joins_today(request) >= JOINS_PER_DAY:
        # The event's own join link counts too: a team's link is no way round the daily limit.
        message = _("You have joined %(n)s events in the last 24 hours, the most one account may: try again tomorrow.")
        refusal = message % {"n": JOINS_PER_DAY}
    elif request.method == "POST":
        with contextlib.suppress(IntegrityError):  # joined twice at once: the first one stands
            Entrant.objects.get_or_create(event=event, user=request.user)
        entrant = entrant_of(request, event)
        try:
            team_services.join_team(event, team.pk, entrant.pk)
        except EventError as error:
            refusal = _message(error.code)
        else:
            messages.success(request, _("You play for %(name)s. Now submit your list.") % {"name": team.name})
            return redirect("events-submit", slug=event.slug)
    members = list(team.members.select_related("user"))
    context = {
        "event": event,
        "team": team,
        "members": members,
        "full": len(members) >= event.team_size,
        "refusal": refusal,
    }
    return render(request, "events/team_join.html", context, status=409 if refusal else 200)


@require_POST
@login_required
def leave_team(request: HttpRequest, slug: str) -> HttpResponse:
    event = _team_event(slug)
    entrant = _entrant_or_refuse(request, event)
    if entrant is not None:
        try:
            team = team_services.leave_team(event, entrant.pk)
        except EventError as error:
            messages.error(request, _message(error.code))
        else:
            messages.success(request, _("You left %(name)s.") % {"name": team.name})
    return redirect(_teams_url(event))


@require_POST
@login_required
def organiser_team(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser founds a team for a player (its captain) or adds a player to a team."""
    event = get_organised_event(request, slug)
    if not event.is_team_event:
        raise Http404
    free = Entrant.objects.filter(event=event, team__isnull=True).select_related("user")
    form = OrganiserTeamForm(
        request.POST,
        teams=list(Team.objects.filter(event=event).values_list("pk", "name")),
        players=[(player.pk, player.name) for player in free],
        auto_id="org-%s",
    )
    if form.is_valid():
        data = form.cleaned_data
        entrant = Entrant.objects.select_related("user").get(pk=data["entrant"])
        try:
            if data.get("team"):
                team = team_services.join_team(event, data["team"], entrant.pk, by_organiser=True)
                message = _("%(player)s plays for %(team)s.")
            else:
                team = team_services.create_team(event, entrant, data["name"])
                message = _("Team %(team)s is founded, captained by %(player)s.")
        except EventError as error:
            form.add_error("team" if error.code == "team-full" else None, _message(error.code))
        else:
            messages.success(request, message % {"player": entrant.name, "team": team.name})
            return redirect(_teams_url(event, f"team-{team.pk}"))
    return _teams_page(request, event, organiser_form=form, status=400)


@require_POST
@login_required
def organiser_remove(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    event = get_organised_event(request, slug)
    entrant = get_object_or_404(Entrant.objects.select_related("user"), event=event, pk=entrant_id)
    try:
        team = team_services.leave_team(event, entrant.pk, by_organiser=True)
    except EventError as error:
        messages.error(request, _message(error.code))
    else:
        messages.success(
            request, _("%(player)s is no longer in %(team)s.") % {"player": entrant.name, "team": team.name}
        )
    return redirect(_teams_url(event))


@require_POST
@login_required
def lineup(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A team's line-up for its team pairing, set by its captain (or by the organiser for either team)."""
    event = _team_event(slug)
    match = get_object_or_404(
        TeamMatch.objects.select_related("round", "team_a", "team_b"), round__event=event, pk=match_id
    )
    url = reverse("events-round", kwargs={"slug": event.slug, "number": match.round.number})
    back = redirect(f"{url}#team-match-{match.pk}")
    side = request.POST.get("side")
    if event.is_organiser(request.user):
        allowed = side in ("a", "b")
    else:
        entrant = entrant_of(request, event)
        mine = team_services.captain_side(match, entrant)
        if mine is None:
            messages.error(request, _message("not-captain"))
            return back
        if side != mine:
            messages.error(request, _message("other-team"))
            return back
        allowed = True
    team = match.team_a if side == "a" else match.team_b
    if not allowed or team is None:
        messages.error(request, _message("bye"))
        return back
    players = list(Entrant.objects.filter(team=team).select_related("user").values_list("pk", flat=True))
    form = LineupForm(request.POST, players=[(pk, "") for pk in players], size=event.team_size)
    if not form.is_valid():
        errors = form.non_field_errors() or [_("Choose a player for every game.")]
        messages.error(request, " ".join(errors))
        return back
    try:
        team_services.set_lineup(event, match.pk, side, form.cleaned_data["players"])
    except EventError as error:
        messages.error(request, _message(error.code))
    else:
        messages.success(request, _("The line-up of %(team)s is set.") % {"team": team.name})
    return back
