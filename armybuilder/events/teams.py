"""Team events: teams and their sign-up, team rounds paired Swiss, captains' line-ups, team standings.

A team event is an event with a ``team_size``. Everything a player does alone stays as at any
event: they join, submit their list (sealed and judged as any other), and play and result their
games as ``Pairing``/``Result`` rows. What a team event adds:

- a ``Team`` founded by its captain, which players join by its code (or the organiser adds them);
- rounds paired team against team (``TeamMatch``), Swiss on team results without rematches
  (``rules.leagues.teams.pair_teams``);
- each captain's line-up, their players in table order, hidden from the other team until both are
  set; then the games are made, first against first and so on;
- team standings (``rules.leagues.teams.team_standings``) beside the individual ones.

The event's scoring (win, draw, loss) scores both a team's result and each game; a team pairing
counts once each of its games has a counted result. Views call these after checking who asks.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Q

from armybuilder.events.errors import EventError
from armybuilder.events.models import TEAM_NAME_MAX, Entrant, Event, Pairing, Round, Submission, Team, TeamMatch
from rules.events.pairing import PairingImpossible
from rules.leagues import teams as team_rules

# -- Sign-up ----------------------------------------------------------------------------------


def teams_locked(event: Event) -> bool:
    """Teams are settled once the first round is paired: who plays for whom no longer changes."""
    return Round.objects.filter(event=event).exists()


def _check_open(event: Event, *, by_organiser: bool = False) -> None:
    """Players change teams until round 1 is paired; the organiser may still bring in a substitute
    (a player dropped mid-event) or take a player off, but founds no team mid-event."""
    if not event.is_team_event:
        raise EventError("not-team-event")
    if not by_organiser and teams_locked(event):
        raise EventError("teams-locked")


@transaction.atomic
def create_team(event: Event, entrant: Entrant, name: str) -> Team:
    """The entrant founds a team and captains it."""
    _check_open(event)
    name = " ".join(name.split())[:TEAM_NAME_MAX]
    if not name:
        raise EventError("team-name")
    entrant = Entrant.objects.select_for_update(of=("self",)).get(pk=entrant.pk)
    if entrant.team_id is not None:
        raise EventError("in-team")
    if Team.objects.filter(event=event, name__iexact=name).exists():
        raise EventError("team-name-taken")
    try:
        with transaction.atomic():
            team = Team.objects.create(event=event, name=name, captain=entrant)
    except IntegrityError as exc:  # the same name founded at the same moment
        raise EventError("team-name-taken") from exc
    entrant.team = team
    entrant.save(update_fields=["team", "updated_at"])
    return team


@transaction.atomic
def join_team(event: Event, team_id: int, entrant_id: int, *, by_organiser: bool = False) -> Team:
    """The entrant joins the team (by its code, or added by the organiser); refused once it is full
    (counting the players who still play: a dropped one leaves a place for a substitute)."""
    _check_open(event, by_organiser=by_organiser)
    team = Team.objects.select_for_update().filter(event=event, pk=team_id).first()  # one joiner at a time
    if team is None:
        raise EventError("no-team")
    entrant = Entrant.objects.select_for_update(of=("self",)).filter(event=event, pk=entrant_id).first()
    if entrant is None:
        raise EventError("no-entrant")
    if entrant.team_id == team.pk:
        return team
    if entrant.team_id is not None:
        raise EventError("in-team")
    if Entrant.objects.filter(team=team, dropped=False).count() >= event.team_size:
        raise EventError("team-full")
    entrant.team = team
    entrant.save(update_fields=["team", "updated_at"])
    return team


@transaction.atomic
def leave_team(event: Event, entrant_id: int, *, by_organiser: bool = False) -> Team:
    """The entrant leaves their team (or the organiser takes them off it). A captain who leaves hands
    the captaincy to the player who joined first after them; the last one to leave ends the team,
    unless it has played (its team pairings keep it)."""
    _check_open(event, by_organiser=by_organiser)
    entrant = Entrant.objects.select_for_update(of=("self",)).filter(event=event, pk=entrant_id).first()
    if entrant is None or entrant.team_id is None:
        raise EventError("no-team")
    team = Team.objects.select_for_update().get(pk=entrant.team_id)
    entrant.team = None
    entrant.save(update_fields=["team", "updated_at"])
    if team.captain_id == entrant.pk:
        successor = Entrant.objects.filter(team=team).order_by("joined_at", "pk").first()
        if successor is None:
            if not TeamMatch.objects.filter(Q(team_a=team) | Q(team_b=team)).exists():
                team.delete()
            return team
        team.captain = successor
        team.save(update_fields=["captain", "updated_at"])
    return team


def team_of_code(event: Event, code: str) -> Team | None:
    return Team.objects.filter(event=event, join_code=code).select_related("captain__user").first()


def teams_with_members(event: Event) -> list[Team]:
    """The event's teams, each with its members, their accounts and sealed lists: two queries."""
    members = (
        Entrant.objects.select_related("user", "submission").defer("submission__snapshot").order_by("joined_at", "pk")
    )
    return list(Team.objects.filter(event=event).prefetch_related(Prefetch("members", queryset=members)))


# -- Rounds -----------------------------------------------------------------------------------


def _playing(team: Team) -> list[Entrant]:
    """The team's players who can play: their list approved, not dropped."""
    return [
        member
        for member in team.members.all()
        if not member.dropped
        and getattr(member, "submission", None) is not None
        and member.submission.status == Submission.Status.APPROVED
    ]


def team_rounds(event: Event, *, published_only: bool = False) -> list[Round]:
    """The event's rounds, each with its team pairings and their games and results: three queries."""
    games = Pairing.objects.select_related("result").order_by("position", "pk")
    matches = TeamMatch.objects.prefetch_related(Prefetch("games", queryset=games)).order_by("position", "pk")
    rounds = Round.objects.filter(event=event)
    if published_only:
        rounds = rounds.filter(published=True)
    return list(rounds.prefetch_related(Prefetch("team_matches", queryset=matches)))


def _complete(match: TeamMatch, size: int) -> bool:
    """A team pairing counts once its games are made and each has a counted result."""
    games = list(match.games.all())
    return len(games) == size and all(
        getattr(game, "result", None) is not None and game.result.counts for game in games
    )


def _rule_matches(event: Event, rounds: list[Round]) -> list[team_rules.TeamMatch]:
    """The counted team pairings of the published rounds, as the rules read them."""
    found = []
    for round_ in rounds:
        if not round_.published:
            continue
        for match in round_.team_matches.all():
            if match.is_bye:
                found.append(team_rules.TeamMatch(team_a=match.team_a_id, team_b=None))
            elif _complete(match, event.team_size):
                games = tuple(
                    team_rules.TeamGame(
                        # Player a of each game is always of team a: the games are made that way.
                        player_a=game.player_a_id,
                        player_b=game.player_b_id,
                        outcome=game.result.outcomes()[0],
                    )
                    for game in match.games.all()
                )
                found.append(team_rules.TeamMatch(team_a=match.team_a_id, team_b=match.team_b_id, games=games))
    return found


@transaction.atomic
def pair_next_team_round(event: Event) -> Round:
    """Pair the next round team against team (a draft for the organiser to check and publish).

    Every team must have as many players as the event's teams, each with an approved list; the last
    round must be published, every line-up set and every game's result counted.
    """
    Event.objects.select_for_update().filter(pk=event.pk).first()  # one pairing at a time per event
    rounds = team_rounds(event)
    if rounds and not rounds[-1].published:
        raise EventError("unpublished-round")
    if len(rounds) >= event.rounds:
        raise EventError("all-rounds")
    for round_ in rounds:
        for match in round_.team_matches.all():
            if not match.is_bye and not _complete(match, event.team_size):
                raise EventError("team-results-missing")
    teams = teams_with_members(event)
    if len(teams) < 2:
        raise EventError("too-few-teams")
    if any(len(_playing(team)) != event.team_size for team in teams):
        raise EventError("teams-incomplete")
    try:
        planned = team_rules.pair_teams(
            [team.pk for team in teams],
            _rule_matches(event, rounds),
            seed=event.seed,
            team_scoring=event.scoring,
            order=event.team_tiebreak_order,
        )
    except PairingImpossible as exc:
        raise EventError("impossible") from exc
    round_ = Round.objects.create(event=event, number=len(rounds) + 1)
    TeamMatch.objects.bulk_create(
        TeamMatch(
            round=round_,
            team_a_id=plan.players[0],
            team_b_id=plan.players[1] if len(plan.players) > 1 else None,
            position=index,
        )
        for index, plan in enumerate(planned)
    )
    return round_


@transaction.atomic
def set_lineup(event: Event, match_id: int, side: str, entrant_ids: list[int]) -> TeamMatch:
    """One team's line-up for its pairing: its players in table order, each once. Once both teams'
    are set the games are made, and the line-ups no longer change."""
    match = (
        TeamMatch.objects.select_for_update(of=("self",))
        .select_related("round", "team_a", "team_b")
        .filter(round__event=event, pk=match_id)
        .first()
    )
    if match is None:
        raise EventError("no-team-match")
    if not match.round.published:
        raise EventError("lineup-draft")
    if match.is_bye or side not in ("a", "b"):
        raise EventError("bye")
    if match.lineups_set:
        raise EventError("lineup-locked")
    team = match.team_a if side == "a" else match.team_b
    players = set(
        Entrant.objects.filter(team=team, dropped=False, submission__status=Submission.Status.APPROVED).values_list(
            "pk", flat=True
        )
    )
    if len(entrant_ids) != event.team_size or len(set(entrant_ids)) != len(entrant_ids):
        raise EventError("lineup-once")
    if not set(entrant_ids) <= players:
        raise EventError("lineup-players")
    setattr(match, f"lineup_{side}", list(entrant_ids))
    match.save(update_fields=[f"lineup_{side}", "updated_at"])
    if match.lineups_set:
        size = event.team_size
        Pairing.objects.bulk_create(
            Pairing(
                round=match.round,
                team_match=match,
                table=match.position * size + index + 1,
                player_a_id=player_a,
                player_b_id=player_b,
                position=match.position * size + index,
            )
            for index, (player_a, player_b) in enumerate(zip(match.lineup_a, match.lineup_b, strict=True))
        )
    return match


def captain_side(match: TeamMatch, entrant: Entrant | None) -> str | None:
    """The side of the pairing whose captain the entrant is, if any."""
    if entrant is None:
        return None
    for side, team in (("a", match.team_a), ("b", match.team_b)):
        if team is not None and team.captain_id == entrant.pk:
            return side
    return None


# -- Standings --------------------------------------------------------------------------------


@dataclass
class TeamStandingRow:
    row: team_rules.TeamRow
    team: Team


def team_standings(event: Event) -> list[TeamStandingRow]:
    """Team standings from the counted team pairings of the published rounds: five queries."""
    rounds = team_rounds(event, published_only=True)
    teams = {team.pk: team for team in teams_with_members(event)}
    rows = team_rules.team_standings(
        list(teams),
        _rule_matches(event, rounds),
        team_scoring=event.scoring,
        game_scoring=event.scoring,
        order=event.team_tiebreak_order,
        names={pk: team.name for pk, team in teams.items()},
    )
    return [TeamStandingRow(row=row, team=teams[row.key]) for row in rows]
