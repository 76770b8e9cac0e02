from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from armybuilder.events.models import Entrant, Event
from armybuilder.leagues import exports, services
from armybuilder.leagues.forms import SeasonForm
from armybuilder.leagues.models import PlayerProfile, RatingStep, Season


def _visible_season(request: HttpRequest, slug: str) -> Season:
    return get_object_or_404(Season.objects.visible_to(request.user).select_related("edition"), slug=slug)


@require_safe
def season_detail(request: HttpRequest, slug: str) -> HttpResponse:
    season = _visible_season(request, slug)
    rows = services.season_table(season)
    events = list(season.events.filter(edition=season.edition).order_by("date", "pk"))
    return render(request, "leagues/season.html", {"season": season, "rows": rows, "events": events})


# Per account and per day, as for events: a club stays far below; a script does not.
SEASONS_PER_DAY = 10


@require_safe
def season_index(request: HttpRequest) -> HttpResponse:
    organised = []
    if request.user.is_authenticated:
        organised = list(Season.objects.filter(organiser=request.user).select_related("edition"))
    published = list(Season.objects.filter(published=True).select_related("edition")[:50])
    return render(request, "leagues/seasons.html", {"organised": organised, "published": published})


@login_required
def season_new(request: HttpRequest) -> HttpResponse:
    form = SeasonForm(request.POST or None, user=request.user)
    status = 200
    if request.method == "POST":
        since = timezone.now() - timedelta(days=1)
        if Season.objects.filter(organiser=request.user, created_at__gte=since).count() >= SEASONS_PER_DAY:
            message = _(
                "You have created %(n)s seasons in the last 24 hours, the most one account may: try again tomorrow."
            )
            form.add_error(None, message % {"n": SEASONS_PER_DAY})
            status = 429
        elif form.is_valid():
            form.instance.organiser = request.user
            season = form.save()
            messages.success(request, _("The season is created."))
            return redirect("leagues-season", slug=season.slug)
        else:
            status = 400
    return render(request, "leagues/season_form.html", {"form": form, "season": None}, status=status)


@login_required
def season_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """The season's organiser changes its rules and events; anyone else gets a 404."""
    season = get_object_or_404(Season, slug=slug, organiser=request.user)
    form = SeasonForm(request.POST or None, instance=season, user=request.user)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, _("The season is saved."))
            return redirect("leagues-season", slug=season.slug)
        return render(request, "leagues/season_form.html", {"form": form, "season": season}, status=400)
    return render(request, "leagues/season_form.html", {"form": form, "season": season})


@require_safe
def season_api(request: HttpRequest, slug: str) -> HttpResponse:
    season = Season.objects.filter(published=True, slug=slug).select_related("edition").first()
    if season is None:
        return JsonResponse({"error": "No published season has this address."}, status=404)
    rows = services.season_table(season)
    data = {
        "slug": season.slug,
        "name": season.name,
        "edition": season.edition.slug,
        "rules": {"best": season.best, "minimum_events": season.minimum_events, "points_scale": season.points_scale},
        "standings": [
            {
                "place": r.row.place,
                "player": r.name,
                "total": r.row.total,
                "results": [
                    {
                        "event": r.events[x.event].slug,
                        "date": x.date.isoformat(),
                        "placing": x.place,
                        "field": x.field,
                        "points": x.points,
                        "counted": x.counted,
                    }
                    for x in r.row.results
                ],
            }
            for r in rows
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def event_results_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event.objects.visible_to(request.user), slug=slug)
    response = HttpResponse(exports.results_csv(services.event_placings(event)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-results.csv"'
    return response


@require_safe
def event_results_api(request: HttpRequest, slug: str) -> HttpResponse:
    """The CSV's rows as JSON, for published events only (the API has no sign-in)."""
    event = Event.objects.filter(published=True, slug=slug).first()
    if event is None:
        return JsonResponse({"error": "No published event has this address."}, status=404)
    rows = [
        {
            "placing": p.place,
            "player": p.name,
            "army": p.army,
            "wins": p.wins,
            "draws": p.draws,
            "losses": p.losses,
            "points": p.score,
        }
        for p in services.event_placings(event)
    ]
    response = JsonResponse({"slug": event.slug, "results": rows}, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def player_page(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    profile = PlayerProfile.objects.filter(user=player).first()
    own = request.user.is_authenticated and request.user.pk == player.pk
    if profile is not None and profile.hidden and not own:
        return render(request, "leagues/player_hidden.html", {"player": player}, status=403)
    entries = (
        Entrant.objects.filter(user=player, event__published=True)
        .select_related("event", "submission")
        .defer("submission__snapshot")
        .order_by("-event__date", "-event__pk")
    )
    events = []
    for entry in entries:
        placing = next((p for p in services.event_placings(entry.event) if p.user_id == player.pk), None)
        submission = getattr(entry, "submission", None)
        events.append({"event": entry.event, "placing": placing, "army": submission.army_name if submission else ""})
    steps = RatingStep.objects.filter(user=player).order_by("pool", "date")
    context = {
        "player": player,
        "own": own,
        "hidden": bool(profile and profile.hidden),
        "events": events,
        "steps": steps,
    }
    return render(request, "leagues/player.html", context)


@require_POST
def player_visibility(request: HttpRequest, username: str) -> HttpResponse:
    if not request.user.is_authenticated or request.user.get_username() != username:
        raise Http404
    profile, _created = PlayerProfile.objects.get_or_create(user=request.user)
    profile.hidden = request.POST.get("hidden") == "1"
    profile.save(update_fields=["hidden"])
    messages.success(request, _("Your player page is hidden.") if profile.hidden else _("Your player page is public."))
    return redirect("leagues-player", username=username)
