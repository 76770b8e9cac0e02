"""Seasons grouping events, players' pages and their ratings (the logic lives in rules/leagues/)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from armybuilder.events.models import PublishedQuerySet
from armybuilder.reference.models import Edition
from armybuilder.stamps import Created
from rules.leagues.league import DEFAULT_DRAW, DEFAULT_LOSS, DEFAULT_WIN, GamePoints
from rules.leagues.season import DEFAULT_SCALE


class Season(Created):
    """A club's or league's season: events whose placings earn points by the season's rules."""

    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_seasons")
    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=120)
    edition = models.ForeignKey(Edition, on_delete=models.PROTECT, related_name="+", verbose_name=_("edition"))
    events = models.ManyToManyField("events.Event", blank=True, related_name="seasons", verbose_name=_("events"))
    best = models.PositiveSmallIntegerField(
        _("results counted per player"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=_("Each player's best results that count; empty counts them all."),
    )
    minimum_events = models.PositiveSmallIntegerField(
        _("events needed to be ranked"), default=1, validators=[MinValueValidator(1), MaxValueValidator(100)]
    )
    points_scale = models.PositiveIntegerField(
        _("points for winning an event"), default=DEFAULT_SCALE, validators=[MaxValueValidator(100_000)]
    )
    published = models.BooleanField(_("published"), default=False)
    reports_open = models.BooleanField(
        _("players report league games"),
        default=False,
        help_text=_("Players report games against each other during the season; the opponent confirms."),
    )
    points_win = models.PositiveSmallIntegerField(
        _("points for a league game won"), default=DEFAULT_WIN, validators=[MaxValueValidator(100)]
    )
    points_draw = models.PositiveSmallIntegerField(
        _("points for a league game drawn"), default=DEFAULT_DRAW, validators=[MaxValueValidator(100)]
    )
    points_loss = models.PositiveSmallIntegerField(
        _("points for a league game lost"), default=DEFAULT_LOSS, validators=[MaxValueValidator(100)]
    )

    objects = PublishedQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "pk"]
        constraints = [
            # The admin too: a season page could not rank players by points out of this order.
            models.CheckConstraint(
                condition=models.Q(points_win__gte=models.F("points_draw"), points_draw__gte=models.F("points_loss")),
                name="league_points_in_order",
                violation_error_message=_("A win scores at least a draw, and a draw at least a loss."),
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        if not self.slug:
            self.slug = slugify(self.name)[:70] or "season"
            base, n = self.slug, 2
            while Season.objects.filter(slug=self.slug).exclude(pk=self.pk).exists():
                self.slug, n = f"{base}-{n}", n + 1
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("leagues-season", kwargs={"slug": self.slug})

    @property
    def game_points(self) -> GamePoints:
        return GamePoints(self.points_win, self.points_draw, self.points_loss)


class LeagueGameQuerySet(models.QuerySet["LeagueGame"]):
    def counted(self) -> LeagueGameQuerySet:
        return self.filter(models.Q(confirmed=True) | models.Q(by_organiser=True))

    def of_player(self, user) -> LeagueGameQuerySet:
        return self.filter(models.Q(player_a=user) | models.Q(player_b=user))


class LeagueGame(Created):
    """A game two players of a season report between themselves, outside any event.

    Player a reported it (or the organiser entered it); ``outcome`` is from player a's side, as for
    an event's result. It counts once player b confirms it, or at once when the organiser enters it.
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="league_games")
    player_a = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    outcome = models.CharField(max_length=4, choices=[("a", "a"), ("b", "b"), ("draw", "draw")])
    played_on = models.DateField()
    mission = models.CharField(max_length=200, blank=True)
    turns = models.PositiveSmallIntegerField(null=True, blank=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="reported_league_games"
    )
    confirmed = models.BooleanField(default=False)
    by_organiser = models.BooleanField(default=False)

    objects = LeagueGameQuerySet.as_manager()

    class Meta:
        ordering = ["-played_on", "-pk"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(player_a=models.F("player_b")), name="league_game_two_players")
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.player_a_id} v {self.player_b_id} ({self.outcome})"

    @property
    def counts(self) -> bool:
        return self.confirmed or self.by_organiser

    def result_for(self, user) -> str:
        """ "win", "draw" or "loss" from ``user``'s side."""
        outcomes = {"a": ("win", "loss"), "b": ("loss", "win"), "draw": ("draw", "draw")}[self.outcome]
        return outcomes[0] if user.pk == self.player_a_id else outcomes[1]

    def opponent_of(self, user):
        return self.player_b if user.pk == self.player_a_id else self.player_a


class PlayerProfile(models.Model):
    """A player's choices about their public page."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_profile")
    hidden = models.BooleanField(_("hide my player page"), default=False)

    def __str__(self) -> str:
        return str(self.user)


class RatingStep(models.Model):
    """A player's rating after one day of rated games in one pool; rebuilt by ``recompute_ratings``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_steps")
    pool = models.CharField(max_length=40)  # game system and edition, e.g. "bolt-action/v3"
    date = models.DateField()
    rating = models.DecimalField(max_digits=8, decimal_places=2)
    change = models.DecimalField(max_digits=8, decimal_places=2)
    games = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["pool", "date"]
        constraints = [models.UniqueConstraint(fields=["user", "pool", "date"], name="one_rating_step_per_day")]

    def __str__(self) -> str:
        return f"{self.user} {self.pool} {self.date}: {self.rating}"
