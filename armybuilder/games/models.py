"""Played games: the forces frozen at the start, and the log of actions whose replay is the state."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from armybuilder.lists.models import new_share_token
from rules.game.engine import Action, GameSetup, GameState, replay


class Result(models.TextChoices):
    # From the point of view of side a, the game's creator.
    WIN = "a", _("Win")
    LOSS = "b", _("Loss")
    DRAW = "draw", _("Draw")


class GameQuerySet(models.QuerySet["Game"]):
    def owned_by(self, user) -> GameQuerySet:
        """Games are private to their creator (the opponent reaches one by its share link only)."""
        if user is None or not user.is_authenticated:
            return self.none()
        return self.filter(owner=user)

    def for_index(self) -> GameQuerySet:
        """My games page: one query, without the frozen forces."""
        return self.defer("setup").order_by("-updated_at", "-pk")


class Game(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games")
    name = models.CharField(max_length=200)
    edition = models.CharField(max_length=8)  # the lists' edition slug (v1, v2, v3), frozen at the start
    points_limit = models.PositiveIntegerField(default=0)
    scenario = models.CharField(max_length=100, blank=True)
    # Both forces as plain data (rules.game.engine.GameSetup) plus what "odds now" needs per unit:
    # later edits to the lists never change a game under way.
    setup = models.JSONField()
    share_token = models.CharField(max_length=32, unique=True, default=new_share_token, editable=False)
    # Moves on every action and every undo: the ETag and the polling of the two phones key on it.
    revision = models.PositiveIntegerField(default=0)
    turn = models.PositiveSmallIntegerField(default=1)  # copied from the state for My games
    result = models.CharField(max_length=4, choices=Result.choices, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    def rules_setup(self) -> GameSetup:
        return GameSetup.from_data(self.setup)

    def state(self, actions: list[GameAction] | None = None) -> GameState:
        """The game now: its actions replayed from the start (one query unless ``actions`` is given)."""
        rows = actions if actions is not None else list(self.actions.all())
        return replay(self.rules_setup(), [Action.from_data(row.payload) for row in rows])

    def side_name(self, side: str) -> str:
        return next((s["name"] for s in self.setup["sides"] if s["key"] == side), side)


class GameAction(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)
    payload = models.JSONField()  # rules.game.engine.Action.to_data(), dice rolled included
    by_opponent = models.BooleanField(default=False)  # made through the share link
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_game_action_seq")]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.kind}"
