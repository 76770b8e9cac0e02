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
from django.views.decorators.vary import vary_on_headers

from armybuilder.events.models import Entrant, Event
from armybuilder.leagues import exports, services
from armybuilder.leagues.forms import LeagueGameForm, SeasonForm
from armybuilder.leagues.models import LeagueGame, PlayerProfile, RatingStep, Season


def _visible_season(request: HttpRequest, slug: str) -> Season:
    return get_object_or_404(Season.objects.visible_to(request.user).select_related("edition"), slug=slug)


# The season page asks for its standings again this often (htmx; without JavaScript, a reload):
# a season's table moves as its events' results come in, slower than an event's own.
SEASON_POLL_SECONDS = 60


def _season_page(request: HttpRequest, season: Season, form: LeagueGameForm | None = None, status: int = 200):
    games = services.season_games(season)
    rows = services.season_table(season, games)
    events = list(season.events.filter(edition=season.edition).order_by("date", "pk"))
    league = season.reports_open or bool(games)
    if getattr(request, "htmx", False) and form is None:
        context = {
            "season": season,
            "rows": rows,
            "events": events,
            "league": league,
            "poll_seconds": SEASON_POLL_SECONDS,
        }
        response = render(request, "leagues/season.html#table", context)
        response["Cache-Control"] = "no-cache"
        return response
    user = request.user
    if form is None and services.may_report(season, user):
        form = LeagueGameForm(season=season, user=user)
    context = {
        "season": season,
        "rows": rows,
        "events": events,
        "games": services.game_lines(season, games, user),
        "league": league,
        "form": form,
        "poll_seconds": SEASON_POLL_SECONDS,
    }
    response = render(request, "leagues/season.html", context, status=status)
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
@vary_on_headers("HX-Request")
def season_detail(request: HttpRequest, slug: str) -> HttpResponse:
    return _season_page(request, _visible_season(request, slug))


# Per account and per day: a club's evening of games stays far below; a script does not.
GAMES_PER_DAY = 50


@login_required
@require_POST
def league_game_new(request: HttpRequest, slug: str) -> HttpResponse:
    """A player reports a game against another account; the organiser enters one between two players."""
    season = _visible_season(request, slug)
    form = LeagueGameForm(request.POST, season=season, user=request.user)
    since = timezone.now() - timedelta(days=1)
    if LeagueGame.objects.filter(reported_by=request.user, created_at__gte=since).count() >= GAMES_PER_DAY:
        message = _("You have reported %(n)s games in the last 24 hours, the most one account may: try again tomorrow.")
        form.is_valid()
        form.add_error(None, message % {"n": GAMES_PER_DAY})
        return _season_page(request, season, form, status=429)
    if not form.is_valid():
        return _season_page(request, season, form, status=400)
    game = services.report_game(season, request.user, form.cleaned_data)
    if game.counts:
        messages.success(request, _("The game is entered: it counts in the standings."))
    else:
        name = services.display_name(game.player_b)
        messages.success(request, _("The game is reported: it counts once %(name)s confirms it.") % {"name": name})
    return redirect(f"{season.get_absolute_url()}#league-games")


def _game(request: HttpRequest, slug: str, pk: int) -> LeagueGame:
    return get_object_or_404(
        LeagueGame.objects.select_related("season", "player_a", "player_b"), pk=pk, season__slug=slug
    )


@login_required
@require_POST
def league_game_confirm(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The opponent confirms a game reported against them; anyone else gets a 404."""
    game = _game(request, slug, pk)
    if not services.can_confirm(game, request.user):
        raise Http404
    game.confirmed = True
    game.save(update_fields=["confirmed"])
    messages.success(request, _("The game is confirmed: it counts in the standings."))
    return redirect(f"{game.season.get_absolute_url()}#league-games")


@login_required
@require_POST
def league_game_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Either player withdraws a game still waiting (the opponent so disputes it); the organiser deletes any."""
    game = _game(request, slug, pk)
    if not services.can_withdraw(game, request.user, game.season):
        raise Http404
    game.delete()
    messages.success(request, _("The game is withdrawn: it does not count."))
    return redirect(f"{game.season.get_absolute_url()}#league-games")


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
    games = services.season_games(season)
    rows = services.season_table(season, games)
    data = {
        "slug": season.slug,
        "name": season.name,
        "edition": season.edition.slug,
        "rules": {
            "best": season.best,
            "minimum_events": season.minimum_events,
            "points_scale": season.points_scale,
            "league_points": {"win": season.points_win, "draw": season.points_draw, "loss": season.points_loss},
        },
        "standings": [
            {
                "place": r.row.place,
                "player": r.name,
                "total": r.row.total,
                "league": {
                    "wins": r.row.league.wins,
                    "draws": r.row.league.draws,
                    "losses": r.row.league.losses,
                    "points": r.row.league.points,
                },
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
        # Confirmed games only: a waiting report is one player's word, not yet a result.
        "league_games": [
            {
                "date": g.played_on.isoformat(),
                "player_a": services.display_name(g.player_a),
                "player_b": services.display_name(g.player_b),
                "outcome": g.outcome,
                "mission": g.mission,
                "turns": g.turns,
            }
            for g in games
            if g.counts
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def event_results_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event.objects.visible_to(request.user), slug=slug)
    if event.standings_hidden and not event.is_organiser(request.user):
        # Placings kept back until the prize-giving are kept back from the export too.
        message = _("The organiser is keeping the standings hidden until the prize-giving.")
        return HttpResponse(message, status=403, content_type="text/plain; charset=utf-8")
    response = HttpResponse(
        exports.results_csv(services.event_placings(event), teams=event.is_team_event),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-results.csv"'
    return response


@require_safe
def event_results_api(request: HttpRequest, slug: str) -> HttpResponse:
    """The CSV's rows as JSON, for published events only (the API has no sign-in)."""
    event = Event.objects.filter(published=True, slug=slug).first()
    if event is None:
        return JsonResponse({"error": "No published event has this address."}, status=404)
    if event.standings_hidden:
        # As the standings API: nobody's place before the prize-giving, and said so.
        response = JsonResponse({"slug": event.slug, "hidden": True, "results": []})
        response["Cache-Control"] = "no-cache"
        return response
    rows = [
        {
            "placing": p.place,
            "player": p.name,
            "army": p.army,
            "wins": p.wins,
            "draws": p.draws,
            "losses": p.losses,
            "points": p.score,
            **({"team": p.team or None, "team_placing": p.team_placing} if event.is_team_event else {}),
        }
        for p in services.event_placings(event)
    ]
    data = {"slug": event.slug, "hidden": False, "results": rows}
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
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
    entries = list(entries)
    games = services.event_games_of(entry.pk for entry in entries)
    events = []
    for entry in entries:
        placing = None
        # An event whose organiser hides its standings until the prize-giving shows no placing yet.
        if not entry.event.standings_hidden or entry.event.is_organiser(request.user):
            placing = next((p for p in services.event_placings(entry.event) if p.user_id == player.pk), None)
        submission = getattr(entry, "submission", None)
        events.append(
            {
                "event": entry.event,
                "placing": placing,
                "army": submission.army_name if submission else "",
                "games": games.get(entry.pk, []),
            }
        )
    steps = RatingStep.objects.filter(user=player).order_by("pool", "date")
    context = {
        "player": player,
        "own": own,
        "hidden": bool(profile and profile.hidden),
        "events": events,
        "league_games": services.player_league_games(player, request.user),
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
