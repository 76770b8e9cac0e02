"""``manage.py seed_season --events N --players P --rounds R --seed S``: a demo season.

N demo events (as ``seed_event`` builds them), four weeks apart, each of P players drawn from a pool
half as large again (so players meet across events and miss some), each played to its last round,
grouped in a published season of the edition that counts each player's best N - 1 results. The same
seed gives the same season standings. The season's slug is printed last, for scripts to read.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import CommandError, CommandParser
from django.db import transaction

from armybuilder.events.management.commands.seed_event import Command as EventCommand
from armybuilder.leagues.models import Season
from armybuilder.reference.models import Edition

# At least two events, so that best N - 1 has a result to drop.
EVENTS_MIN, EVENTS_MAX = 2, 12


class Command(EventCommand):
    help = "Build a demo season: N played events in a published season counting each player's best N - 1."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--events", type=int, default=3)
        self._play_arguments(parser)
        parser.add_argument("--password", default="", help="every player's password (default: none usable)")

    def handle(
        self,
        *args,
        events: int,
        players: int,
        rounds: int,
        seed: int,
        edition: str,
        points: int,
        password: str = "",
        **options,
    ) -> None:
        if not EVENTS_MIN <= events <= EVENTS_MAX:
            raise CommandError(f"--events must be between {EVENTS_MIN} and {EVENTS_MAX}.")
        self._check_play(players, rounds)
        edition_row = self._edition(edition)
        self._season(edition_row, players, rounds, seed, points, events, password, random.Random(seed))

    def _season(
        self, edition: Edition, players: int, rounds: int, seed: int, points: int, count: int, password: str, rng
    ) -> None:
        """``count`` events of ``players`` each, drawn from one pool of players, in a published season."""
        organiser, _created = get_user_model().objects.get_or_create(username="seed-organiser")
        pool_size = players + max(players // 2, 1)
        with transaction.atomic():
            season = Season.objects.create(
                organiser=organiser,
                name=f"Demo season {seed} ({count} events)",
                edition=edition,
                best=count - 1,
            )
            armies = self._armies(edition, points, edition.slug)
            User = get_user_model()
            # The season's slug is unique, so its players' accounts are too, however often it is run.
            pool = [
                User.objects.create_user(username=f"{season.slug}-p{index + 1}", first_name=f"Player {index + 1}")
                for index in range(pool_size)
            ]
            if password:
                User.objects.filter(pk__in=[user.pk for user in pool]).update(password=make_password(password))
        events = []
        for number in range(1, count + 1):
            chosen = [pool[index] for index in sorted(rng.sample(range(pool_size), players))]
            with transaction.atomic():
                event = self._event(edition, players, rounds, seed, points, season_event=number)
                self._enter(event, chosen, armies, rng, edition, points)
            self._play(event, rounds, rng)
            events.append(event)
        season.events.set(events)
        Season.objects.filter(pk=season.pk).update(published=True)
        self.stdout.write(
            f"{count} events of {players} players from {pool_size}, {rounds} rounds each, "
            f"best {count - 1} counted: /seasons/{season.slug}/"
        )
        self.stdout.write(season.slug)
