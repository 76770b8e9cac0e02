"""Reading events' results for seasons, ratings, players' pages and the results export.

Events are read through their own services and models, never changed from here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from armybuilder.events import services as event_services
from armybuilder.events import teams as team_services
from armybuilder.events.models import Event, Pairing, Submission
from armybuilder.leagues.models import LeagueGame, RatingStep, Season
from rules.leagues import elo, league
from rules.leagues.season import Placing, Row, season_standings

GAME_SYSTEM = "bolt-action"


def pool_of(edition_slug: str) -> str:
    return f"{GAME_SYSTEM}/{edition_slug}"


# -- One event's final table --------------------------------------------------------------------


@dataclass
class EventPlacing:
    place: int
    user_id: int | None  # None for a walk-in the organiser entered without an account
    name: str
    army: str
    wins: int
    draws: int
    losses: int
    score: int
    entrant_id: int = 0
    team: str = ""  # a team event's: the player's team and its place in the team standings
    team_placing: int | None = None

    @property
    def player_key(self) -> int:
        """The player in a season: their account; a walk-in (no account, no player page) stands alone,
        keyed by their entry (negative, so never an account's number)."""
        return self.user_id if self.user_id is not None else -self.entrant_id


def event_placings(event: Event) -> list[EventPlacing]:
    """The event's standings with each player's army (its name only) and win/draw/loss counts."""
    rounds = event_services.rounds_with_pairings(event, published_only=True)
    tally: dict[int, list[int]] = {}
    for round_ in rounds:
        for pairing in round_.pairings.all():
            if pairing.is_bye:
                tally.setdefault(pairing.player_a_id, [0, 0, 0])[0] += 1
                continue
            result = getattr(pairing, "result", None)
            if result is None or not result.counts:
                continue
            for key, outcome in zip((pairing.player_a_id, pairing.player_b_id), result.outcomes(), strict=True):
                tally.setdefault(key, [0, 0, 0])[("win", "draw", "loss").index(outcome)] += 1
    armies = dict(Submission.objects.filter(entrant__event=event).values_list("entrant_id", "army_name"))
    teams = {}
    if event.is_team_event:
        teams = {row.team.pk: (row.team.name, row.row.place) for row in team_services.team_standings(event)}
    out = []
    for row in event_services.event_standings(event, rounds):
        wins, draws, losses = tally.get(row.row.key, [0, 0, 0])
        out.append(
            EventPlacing(
                place=row.row.place,
                user_id=row.entrant.user_id,
                name=row.entrant.name,
                army=armies.get(row.row.key, ""),
                wins=wins,
                draws=draws,
                losses=losses,
                score=row.row.score,
                entrant_id=row.entrant.pk,
                team=teams.get(row.entrant.team_id, ("", None))[0],
                team_placing=teams.get(row.entrant.team_id, ("", None))[1],
            )
        )
    return out


@dataclass
class EventGame:
    """One of a player's games at an event, from their side, for their page."""

    round: int
    opponent: str  # "" for a bye
    result: str  # "win", "draw", "loss", "bye", or "" while no counted result


def event_games_of(entrant_ids: Iterable[int]) -> dict[int, list[EventGame]]:
    """The games of these entries in published rounds, by entry, in round order (one query)."""
    ids = set(entrant_ids)
    pairings = (
        Pairing.objects.filter(round__published=True)
        .filter(Q(player_a_id__in=ids) | Q(player_b_id__in=ids))
        .select_related("round", "player_a__user", "player_b__user", "result")
        .order_by("round__number", "pk")
    )
    games: dict[int, list[EventGame]] = {}
    for pairing in pairings:
        side = 0 if pairing.player_a_id in ids else 1
        own = (pairing.player_a_id, pairing.player_b_id)[side]
        if pairing.is_bye:
            games.setdefault(own, []).append(EventGame(pairing.round.number, "", "bye"))
            continue
        opponent = (pairing.player_b, pairing.player_a)[side]
        result = getattr(pairing, "result", None)
        outcome = result.outcomes()[side] if result is not None and result.counts else ""
        games.setdefault(own, []).append(EventGame(pairing.round.number, opponent.name, outcome))
    return games


# -- Seasons ------------------------------------------------------------------------------------


@dataclass
class SeasonRow:
    row: Row
    name: str
    username: str
    events: dict[int, Event]


def display_name(user) -> str:
    """A player's name as pages show it: their full name, else their username (never their e-mail)."""
    return user.get_full_name() or user.get_username()


def season_games(season: Season) -> list[LeagueGame]:
    """The season's league games, newest first, confirmed or waiting, with both players."""
    return list(season.league_games.select_related("player_a", "player_b"))


def season_table(season: Season, games: list[LeagueGame] | None = None) -> list[SeasonRow]:
    """The season's standings from the placings of its events of the season's edition and its counted
    league games (``games``: the season's games when already read, to read them once)."""
    # An event whose standings are hidden until its prize-giving adds its placings once shown.
    events = {
        e.pk: e for e in season.events.filter(edition=season.edition, standings_hidden=False).order_by("date", "pk")
    }
    placings = []
    users: dict[int, tuple[str, str]] = {}
    for event in events.values():
        table = event_placings(event)
        for placing in table:
            placings.append(Placing(event.pk, event.date, placing.player_key, placing.place, len(table)))
            users.setdefault(placing.player_key, (placing.name, ""))
    counted = [game for game in (season_games(season) if games is None else games) if game.counts]
    for game in counted:
        for player in (game.player_a, game.player_b):
            users.setdefault(player.pk, (display_name(player), ""))
    tallies = league.tallies(
        (league.LeagueGame(g.player_a_id, g.player_b_id, g.outcome) for g in counted), season.game_points
    )
    usernames = dict(get_user_model().objects.filter(pk__in=users).values_list("pk", "username"))
    names = {pk: name for pk, (name, _) in users.items()}
    rows = season_standings(
        placings,
        best=season.best,
        minimum=season.minimum_events,
        scale=season.points_scale,
        names=names,
        league=tallies,
    )
    return [SeasonRow(row, names[row.player], usernames.get(row.player, ""), events) for row in rows]


# -- League games -------------------------------------------------------------------------------


def report_game(season: Season, user, data: dict) -> LeagueGame:
    """Record a game from a valid ``LeagueGameForm``: the organiser's counts at once, a player's waits."""
    by_organiser = season.organiser_id == user.pk
    return LeagueGame.objects.create(
        season=season,
        player_a=data["player_a"],
        player_b=data["player_b"],
        outcome=data["outcome"],
        played_on=data["played_on"],
        mission=data.get("mission", ""),
        turns=data.get("turns"),
        reported_by=user,
        by_organiser=by_organiser,
    )


def may_report(season: Season, user) -> bool:
    """Whether the season page offers ``user`` the form: its organiser always, players while it is open."""
    if not user.is_authenticated:
        return False
    return season.organiser_id == user.pk or (season.published and season.reports_open)


def can_confirm(game: LeagueGame, user) -> bool:
    """Only the player who did not report the game confirms it, while it waits."""
    return not game.counts and user.pk == game.player_b_id and game.reported_by_id != user.pk


def can_withdraw(game: LeagueGame, user, season: Season) -> bool:
    """Either player withdraws (or disputes) a game while it waits; the organiser deletes any game."""
    if not user.is_authenticated:
        return False
    if user.pk == season.organiser_id:
        return True
    return not game.counts and user.pk in (game.player_a_id, game.player_b_id)


@dataclass
class PlayerGame:
    """One of a player's league games from their side, for their page."""

    game: LeagueGame
    opponent: object  # the other account
    result: str  # "win", "draw" or "loss"


def player_league_games(player, viewer) -> list[PlayerGame]:
    """The player's league games in seasons the visitor may see, newest first (waiting ones too)."""
    games = (
        LeagueGame.objects.of_player(player)
        .filter(season__in=Season.objects.visible_to(viewer))
        .select_related("season", "player_a", "player_b")
        .order_by("-played_on", "-pk")
    )
    return [PlayerGame(g, g.opponent_of(player), g.result_for(player)) for g in games]


@dataclass
class GameLine:
    """A league game as the season page shows it to one visitor."""

    game: LeagueGame
    confirmable: bool
    withdrawable: bool
    own: bool  # the visitor played it: withdrawing is theirs to do while it waits


def game_lines(season: Season, games: list[LeagueGame], user) -> list[GameLine]:
    return [
        GameLine(g, can_confirm(g, user), can_withdraw(g, user, season), user.pk in (g.player_a_id, g.player_b_id))
        for g in games
    ]


# -- Ratings ------------------------------------------------------------------------------------


def rated_games() -> list[elo.RatedGame]:
    """Every game Muster knows with a counted result: the games of events and the league games."""
    return event_games() + league_games()


def league_games() -> list[elo.RatedGame]:
    """Every confirmed (or organiser-entered) league game of a published season, on its own date."""
    games = LeagueGame.objects.counted().filter(season__published=True).select_related("season__edition").order_by("pk")
    return [
        elo.RatedGame(
            pool=pool_of(game.season.edition.slug),
            date=game.played_on,
            key=f"season-{game.season_id}/game-{game.pk}",
            player_a=game.player_a_id,
            player_b=game.player_b_id,
            outcome={"a": "win", "b": "loss", "draw": "draw"}[game.outcome],
        )
        for game in games
    ]


def event_games() -> list[elo.RatedGame]:
    """Every game with a counted result in a published round of an event (byes are not games).

    A game against a walk-in is not rated while the walk-in has no account (a rating belongs to an
    account); once they claim their entry, the next recomputation rates it."""
    pairings = (
        Pairing.objects.filter(round__published=True, player_b__isnull=False, result__isnull=False)
        .filter(player_a__user__isnull=False, player_b__user__isnull=False)
        .select_related("round__event__edition", "player_a", "player_b", "result")
        .order_by("pk")
    )
    games = []
    for pairing in pairings:
        result = pairing.result
        if not result.counts:
            continue
        event = pairing.round.event
        games.append(
            elo.RatedGame(
                pool=pool_of(event.edition.slug),
                date=event.date,
                key=f"event-{event.pk}/round-{pairing.round.number}/pairing-{pairing.pk}",
                player_a=pairing.player_a.user_id,
                player_b=pairing.player_b.user_id,
                outcome=result.outcomes()[0],
            )
        )
    return games


@transaction.atomic
def recompute_ratings(games: Iterable[elo.RatedGame] | None = None) -> list[tuple[str, int, int, Decimal]]:
    """Rebuild every rating step from the games; a summary line per pool: games, players, rating sum."""
    games = list(rated_games() if games is None else games)
    histories = elo.ratings(games)
    RatingStep.objects.all().delete()
    steps = [
        RatingStep(user_id=user, pool=pool, date=s.date, rating=s.rating, change=s.change, games=s.games)
        for pool, history in histories.items()
        for user, own in history.items()
        for s in own
    ]
    RatingStep.objects.bulk_create(steps, batch_size=500)
    summary = []
    for pool in sorted(histories):
        count = sum(1 for game in games if game.pool == pool)
        latest = elo.current(histories[pool])
        summary.append((pool, count, len(latest), sum(latest.values(), Decimal(0))))
    return summary
