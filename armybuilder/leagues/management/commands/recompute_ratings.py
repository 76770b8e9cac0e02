"""Recompute every rating from the counted games: events' and seasons' league games (docs/events.md)."""

from __future__ import annotations

import hashlib

from django.core.management.base import BaseCommand

from armybuilder.leagues import services
from armybuilder.leagues.models import RatingStep


class Command(BaseCommand):
    help = "Rebuild every Elo rating from the games Muster knows; prints a summary that is the same on every run."

    def handle(self, *args, **options) -> None:
        summary = services.recompute_ratings()
        if not summary:
            self.stdout.write("No rated game.")
            return
        for pool, games, players, total in summary:
            self.stdout.write(f"{pool}: {games} games, {players} players, ratings sum {total}")
        # A fingerprint of every step: two runs over the same games print the same one.
        digest = hashlib.sha256()
        for step in RatingStep.objects.order_by("pool", "user_id", "date").values_list(
            "pool", "user_id", "date", "rating", "change", "games"
        ):
            digest.update(repr(step).encode())
        self.stdout.write(f"fingerprint {digest.hexdigest()[:16]}")
