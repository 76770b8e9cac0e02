"""``manage.py seed_event --players N --rounds R --seed S``: a demo event, played to its last round.

N players, each with a legal list of a built-in army of the edition (a Reinforced Platoon: its
cheapest officer and two of its cheapest infantry sections), sealed and approved; R rounds
paired as the organiser would (round 1 at random, then Swiss), each result entered by one
player and confirmed by the other, at random. The same seed gives the same armies, pairings and
results. The event's slug is printed last, for scripts (benchmarks, load tests) to read.

``--open-round`` pairs and publishes one round more, left without results for the players to
enter (the load test's tournament day); ``--password`` gives every player that password (hashed
once, so 500 players cost one hash), so they can log in through the real form. Without it the
players' accounts have no usable password.

``--team-size K`` builds a team event instead: the players, in teams of K (N a multiple of K),
"Team 1" captained by its first player and so on; each round the teams are paired Swiss, each
captain sets a line-up in an order drawn from the seed, and every game is resulted as above.

A season of such events is built by the leagues' ``seed_season``, which reuses this command's steps
(seasons sit above events: events know nothing of them).
"""

from __future__ import annotations

import datetime
import random

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from armybuilder.catalogue.models import Army, Origin, Unit
from armybuilder.events import services, teams
from armybuilder.events.models import TEAM_SIZE_MAX, TEAM_SIZE_MIN, Entrant, Event, Outcome, Submission, Team, TeamMatch
from armybuilder.lists.models import ArmyList, ForceOrg, PlatoonKind
from armybuilder.lists.services import entry_add, platoon_add
from armybuilder.lists.summary import list_summary
from armybuilder.reference.models import Edition

# Events of a demo season are this far apart: a club's monthly event.
SEASON_EVENT_GAP = datetime.timedelta(days=28)


def _cheapest(army: Army, slot: str) -> list[Unit]:
    units = list(Unit.objects.filter(army=army, slot=slot).prefetch_related("options"))
    # Sorted by their cheapest quality; units without a cost at any quality last.
    return sorted(units, key=lambda unit: (min(unit.base_cost().values(), default=10**6), unit.slug))


class Command(BaseCommand):
    help = "Build a demo event: players with legal lists, rounds paired and resulted at random."

    def add_arguments(self, parser: CommandParser) -> None:
        self._play_arguments(parser)
        parser.add_argument("--open-round", action="store_true", help="pair and publish one more round, no results")
        parser.add_argument("--password", default="", help="every player's password (default: none usable)")
        parser.add_argument("--team-size", type=int, default=0, help="a team event of teams of this many players")

    def handle(
        self,
        *args,
        players: int,
        rounds: int,
        seed: int,
        edition: str,
        points: int,
        open_round: bool = False,
        password: str = "",
        team_size: int = 0,
        **options,
    ) -> None:
        self._check_play(players, rounds)
        if team_size and not (TEAM_SIZE_MIN <= team_size <= TEAM_SIZE_MAX and players % team_size == 0):
            raise CommandError(
                f"--team-size must be {TEAM_SIZE_MIN} to {TEAM_SIZE_MAX} and divide --players into whole teams."
            )
        if team_size and players // team_size < 2:
            raise CommandError("A team event needs at least two teams.")
        edition_row = self._edition(edition)
        rng = random.Random(seed)
        with transaction.atomic():
            event = self._event(edition_row, players, rounds + open_round, seed, points, team_size)
            armies = self._armies(edition_row, points, edition)
            User = get_user_model()
            users = []
            for index in range(players):
                # Accounts are unique per event; the pages show the short name a club would use.
                users.append(
                    User.objects.create_user(username=f"{event.slug}-p{index + 1}", first_name=f"Player {index + 1}")
                )
            self._enter(event, users, armies, rng, edition_row, points, team_size)
            if password:
                # One hash for every player: the same password, as a test's accounts may share.
                User.objects.filter(event_entries__event=event).update(password=make_password(password))
        self._play(event, rounds, rng, team_size, open_round)
        teams = f" in teams of {team_size}" if team_size else ""
        self.stdout.write(f"{players} players{teams}, {rounds} rounds: /events/{event.slug}/")
        self.stdout.write(event.slug)

    # What a demo season asks too (``seed_season`` extends this command): said and checked once here.
    def _play_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=8)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--edition", default="v2")
        parser.add_argument("--points", type=int, default=1000)

    def _check_play(self, players: int, rounds: int) -> None:
        if not 2 <= players <= 1000:
            raise CommandError("--players must be between 2 and 1000.")
        if not 0 <= rounds <= 12:
            raise CommandError("--rounds must be between 0 and 12.")

    def _edition(self, slug: str) -> Edition:
        edition_row = Edition.objects.filter(slug=slug).first()
        if edition_row is None:
            raise CommandError(f"No edition {slug!r}: load the reference data first (make load-data).")
        return edition_row

    def _armies(self, edition: Edition, points: int, slug: str) -> list[tuple[Army, Unit, Unit]]:
        armies = self._legal_armies(edition, points)
        if not armies:
            raise CommandError(f"No built-in army of {slug} gives a legal Reinforced Platoon.")
        return armies

    def _enter(self, event: Event, users, armies, rng: random.Random, edition: Edition, points: int, team_size=0):
        """Each user enters ``event`` with a list of an army drawn from the seed, sealed and approved."""
        for index, user in enumerate(users):
            army, officer, infantry = armies[rng.randrange(len(armies))]
            army_list = self._build(user, army, officer, infantry, edition, points)
            entrant = Entrant.objects.create(event=event, user=user)
            services.seal(entrant, army_list.pk)
            Submission.objects.filter(entrant=entrant).update(status=Submission.Status.APPROVED)
            if team_size:
                self._sign_up(event, entrant, index, team_size)

    def _play(self, event: Event, rounds: int, rng: random.Random, team_size: int = 0, open_round: bool = False):
        """``rounds`` rounds paired, published and resulted at random; then the event is published."""
        for _number in range(rounds):
            round_ = services.pair_next_round(event)
            services.publish_round(round_)
            if team_size:
                self._set_lineups(event, round_, rng)
            for pairing in round_.pairings.select_related("round", "player_a", "player_b"):
                if pairing.is_bye:
                    continue
                outcome = rng.choice([Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW])
                services.enter_result(pairing, pairing.player_a, outcome, rng.randint(0, 8), rng.randint(0, 8))
                services.confirm_result(pairing, pairing.player_b)
        if open_round:
            services.publish_round(services.pair_next_round(event))
        Event.objects.filter(pk=event.pk).update(published=True)

    def _sign_up(self, event: Event, entrant: Entrant, index: int, team_size: int) -> None:
        """Team ``index // team_size + 1``: founded by its first player, who captains it, joined by the rest."""
        number = index // team_size + 1
        if index % team_size == 0:
            teams.create_team(event, entrant, f"Team {number}")
        else:
            teams.join_team(event, Team.objects.get(event=event, name=f"Team {number}").pk, entrant.pk)

    def _set_lineups(self, event: Event, round_, rng: random.Random) -> None:
        """Each captain's line-up: their players in an order drawn from the seed."""
        for match in TeamMatch.objects.filter(round=round_).order_by("position"):
            if match.is_bye:
                continue
            for side, team_id in (("a", match.team_a_id), ("b", match.team_b_id)):
                players = list(Entrant.objects.filter(team_id=team_id).order_by("pk").values_list("pk", flat=True))
                rng.shuffle(players)
                teams.set_lineup(event, match.pk, side, players)

    def _event(
        self,
        edition: Edition,
        players: int,
        rounds: int,
        seed: int,
        points: int,
        team_size: int = 0,
        season_event: int = 0,
    ) -> Event:
        """The event; ``season_event`` (from 1) names the season's n-th event, four weeks after the one before."""
        organiser, _created = get_user_model().objects.get_or_create(username="seed-organiser")
        kind = f"teams of {team_size}, " if team_size else ""
        name = f"Demo event {seed} ({kind}{players} players)"
        date = datetime.date(2026, 1, 1) + datetime.timedelta(days=seed % 365)
        if season_event:
            name = f"Demo season {seed}, event {season_event} ({players} players)"
            date += SEASON_EVENT_GAP * (season_event - 1)
        event = Event(
            organiser=organiser,
            team_size=team_size or None,
            name=name,
            date=date,
            place="Muster",
            edition=edition,
            points_limit=points,
            rounds=max(rounds, 1),
            # Round 1's order: the same for the same seed, different in each of a season's events.
            seed=f"{seed}.{season_event}" if season_event else str(seed),
            prefer_sides=True,
        )
        event.save()
        return event

    def _legal_armies(self, edition: Edition, points: int) -> list[tuple[Army, Unit, Unit]]:
        """Each built-in army whose cheapest Reinforced Platoon is legal, with its officer and section."""
        armies = Army.objects.visible().filter(edition=edition, origin=Origin.BUILTIN).order_by("slug")
        armies = list(armies) or list(Army.objects.visible().filter(edition=edition).order_by("slug"))
        legal = []
        probe_owner, _created = get_user_model().objects.get_or_create(username="seed-organiser")
        for army in armies:
            for officer in _cheapest(army, "officer")[:3]:
                infantry = _cheapest(army, "infantry")[:1]
                if not infantry:
                    break
                probe = self._build(probe_owner, army, officer, infantry[0], edition, points)
                summary = list_summary(ArmyList.objects.for_builder().get(pk=probe.pk))
                probe.delete()
                if not summary.problems:
                    legal.append((army, officer, infantry[0]))
                    break
        return legal

    def _build(self, user, army: Army, officer: Unit, infantry: Unit, edition: Edition, points: int) -> ArmyList:
        army_list = ArmyList.objects.create(
            owner=user,
            edition=edition,
            army=army,
            name=f"{army.name} demo",
            points_limit=points,
            force_org=ForceOrg.PLATOONS,
        )
        platoon = platoon_add(army_list=army_list, kind=PlatoonKind.REINFORCED_PLATOON)
        entry_add(army_list=army_list, unit=officer, platoon=platoon)
        for _ in range(2):
            entry_add(army_list=army_list, unit=infantry, platoon=platoon)
        return army_list
