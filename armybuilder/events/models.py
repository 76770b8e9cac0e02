"""Events: an organiser's club night or tournament, its entrants, their sealed lists, rounds and results.

A submission seals a list: its JSON export as it was, its points and a hash of the export, and the
facts legality reads (order dice, platoons, units, the list's own problems). Legality against the
event is worked out from those facts whenever it is shown (``rules.events.legality``), so changing
the event's rules re-judges every list without reading one of them again, and later edits of the
list change nothing until its owner submits again.
"""

from __future__ import annotations

import dataclasses
import secrets
import uuid
from datetime import date, timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from armybuilder.catalogue.models import Army, Unit
from armybuilder.jobs import Job, JobQuerySet
from armybuilder.lists.models import POINTS_LIMIT_MAX, ArmyList
from armybuilder.reference.models import Edition
from armybuilder.stamps import Timestamped
from rules.army.model import Problem
from rules.events import legality
from rules.events import missions as missions_rules
from rules.events import stages as stage_rules
from rules.events import timer as round_timer
from rules.events.standings import DEFAULT_ORDER, TIEBREAKS, Scoring
from rules.game.engine import summarise
from rules.leagues.teams import TEAM_TIEBREAKS

ROUNDS_MAX = 12
TEAM_SIZE_MIN, TEAM_SIZE_MAX = 2, 8


class Tiebreak(models.TextChoices):
    SCORE = "score", _("Total score")
    SOS = "sos", _("Strength of schedule")
    DICE = "dice", _("Enemy order dice destroyed")
    POINTS = "points", _("Points of enemy units destroyed")


def _new_seed() -> str:
    return secrets.token_hex(8)


class PublishedQuerySet(models.QuerySet):
    """Rows an organiser publishes when ready (events, and the leagues' seasons)."""

    def visible_to(self, user) -> PublishedQuerySet:
        """The published rows, and the visitor's own (drafts included)."""
        if user is not None and user.is_authenticated:
            return self.filter(models.Q(published=True) | models.Q(organiser=user))
        return self.filter(published=True)


class Event(Timestamped):
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_events")
    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    place = models.CharField(_("place"), max_length=200, blank=True)
    edition = models.ForeignKey(Edition, on_delete=models.PROTECT, related_name="+", verbose_name=_("edition"))
    points_limit = models.PositiveIntegerField(
        _("points limit"), default=1000, validators=[MinValueValidator(1), MaxValueValidator(POINTS_LIMIT_MAX)]
    )
    max_order_dice = models.PositiveSmallIntegerField(
        _("order-dice cap"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(200)]
    )
    max_platoons = models.PositiveSmallIntegerField(
        _("platoon cap"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(50)]
    )
    allowed_armies = models.ManyToManyField(Army, blank=True, related_name="+", verbose_name=_("allowed armies"))
    data_cutoff = models.DateField(_("data cut-off date"), null=True, blank=True)
    banned_units = models.ManyToManyField(Unit, blank=True, related_name="+", verbose_name=_("banned units"))
    list_deadline = models.DateTimeField(_("list deadline"), null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=3, validators=[MinValueValidator(1), MaxValueValidator(ROUNDS_MAX)]
    )
    score_win = models.PositiveSmallIntegerField(_("points for a win"), default=3)
    score_draw = models.PositiveSmallIntegerField(_("points for a draw"), default=1)
    score_loss = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    # The tiebreak keys (``rules.events.standings.TIEBREAKS``) in order, comma-separated.
    tiebreaks = models.CharField(_("tiebreak order"), max_length=40, default=",".join(DEFAULT_ORDER))
    prefer_sides = models.BooleanField(_("pair Axis against Allies where possible"), default=False)
    lists_revealed = models.BooleanField(default=False)
    published = models.BooleanField(default=False)
    # The round timer's "last turn should start by": this many minutes before the round's end.
    last_turn_minutes = models.PositiveSmallIntegerField(
        _("last turn starts this many minutes before the end of a round"),
        default=15,
        validators=[MaxValueValidator(120)],
    )
    # The rules pack's missions (``rules.events.missions``): each a list of its parts (3rd edition:
    # victory condition, deployment zone, deployment type; 2nd edition: the scenario's name).
    missions = models.JSONField(default=list, blank=True)
    # Before the prize-giving: the standings page and API show nobody's place but the organiser's view.
    standings_hidden = models.BooleanField(_("hide the standings"), default=False)
    # Round 1's random order: kept, so the same entrants always give the same first round.
    seed = models.CharField(max_length=32, default=_new_seed, editable=False)
    # A team event: teams of this many players, paired team against team (``rules.leagues.teams``);
    # None for an individual event.
    team_size = models.PositiveSmallIntegerField(
        _("players per team"),
        null=True,
        blank=True,
        validators=[MinValueValidator(TEAM_SIZE_MIN), MaxValueValidator(TEAM_SIZE_MAX)],
        help_text=_("Empty for an individual event; 2 to 8 for a team event."),
    )
    # The team tiebreak keys (``rules.leagues.teams.TEAM_TIEBREAKS``) after team points, comma-separated.
    team_tiebreaks = models.CharField(_("team tiebreak order"), max_length=40, default=",".join(TEAM_TIEBREAKS))

    objects = PublishedQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-pk"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        if not self.slug:
            base = slugify(self.name)[:60] or "event"
            self.slug = f"{base}-{secrets.token_hex(3)}"
        super().save(*args, **kwargs)

    @property
    def tiebreak_order(self) -> tuple[str, ...]:
        keys = tuple(key for key in self.tiebreaks.split(",") if key in TIEBREAKS)
        return keys or DEFAULT_ORDER

    @property
    def is_team_event(self) -> bool:
        return bool(self.team_size)

    @property
    def team_tiebreak_order(self) -> tuple[str, ...]:
        keys = tuple(key for key in self.team_tiebreaks.split(",") if key in TEAM_TIEBREAKS)
        return keys or TEAM_TIEBREAKS

    @property
    def ranks_by_points(self) -> bool:
        """Whether results record the points of enemy units destroyed (a tiebreak of the event)."""
        return "points" in self.tiebreak_order

    def mission_list(self) -> list[missions_rules.Mission]:
        return [missions_rules.Mission(tuple(str(part) for part in parts)) for parts in self.missions or ()]

    @property
    def scoring(self) -> Scoring:
        return Scoring(win=self.score_win, draw=self.score_draw, loss=self.score_loss)

    def is_organiser(self, user) -> bool:
        return user is not None and user.is_authenticated and user.pk == self.organiser_id

    @property
    def submissions_open(self) -> bool:
        return self.list_deadline is None or timezone.now() <= self.list_deadline

    def rules(self) -> legality.EventRules:
        """The event's rules as plain data; reads the allowed armies and bans (prefetch them)."""
        return legality.EventRules(
            edition=self.edition.slug,
            points_limit=self.points_limit,
            max_order_dice=self.max_order_dice,
            max_platoons=self.max_platoons,
            allowed_armies=frozenset(army.natural_key() for army in self.allowed_armies.all()),
            banned_units=frozenset(unit.slug for unit in self.banned_units.all()),
            data_cutoff=self.data_cutoff,
        )


WALK_IN_NAME_MAX = 100


class Entrant(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    # None for a walk-in the organiser entered without an account, until the player claims it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="event_entries"
    )
    # A walk-in's name as the organiser typed it; kept after a claim (the account's name is shown then).
    walk_in_name = models.CharField(_("name"), max_length=WALK_IN_NAME_MAX, blank=True)
    # The secret of a walk-in's claim link (the organiser hands it to the player); None once claimed.
    claim_token = models.CharField(max_length=64, null=True, blank=True, unique=True, editable=False)
    joined_at = models.DateTimeField(auto_now_add=True)
    dropped = models.BooleanField(default=False)
    # The first round the player is no longer paired in (their earlier games still count, and they
    # stay in the standings marked as dropped). Null with ``dropped``: dropped before any round.
    dropped_from = models.PositiveSmallIntegerField(null=True, blank=True)
    # Check-in on the day: once the organiser has checked anyone in, only checked-in players are
    # paired, so a no-show never gets a game and a late arrival is paired from the next round.
    checked_in = models.BooleanField(default=False)
    # At a team event, the team the player plays for (None until they join or found one).
    team = models.ForeignKey("Team", null=True, blank=True, on_delete=models.SET_NULL, related_name="members")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["user__username", "pk"]
        constraints = [
            # One entry per account; walk-ins have none, so any number of them may enter.
            models.UniqueConstraint(
                fields=["event", "user"], condition=models.Q(user__isnull=False), name="one_entry_per_event"
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(walk_in_name=""), name="entrant_account_or_name"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_walk_in(self) -> bool:
        """Entered by the organiser and not claimed by an account (yet): no phone of theirs plays."""
        return self.user_id is None

    @property
    def name(self) -> str:
        """The name pages and the API show: the player's own name if they gave one, else their username;
        a walk-in's name as the organiser typed it."""
        if self.user_id is None:
            return self.walk_in_name
        return self.user.get_full_name() or self.user.get_username()


def _new_join_code() -> str:
    return secrets.token_urlsafe(9)


TEAM_NAME_MAX = 60


class Team(Timestamped):
    """A team of a team event: its captain founds it, players join it by its code (or the organiser
    adds them), and the captain sets who plays whom against each team it meets."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team name"), max_length=TEAM_NAME_MAX)
    captain = models.OneToOneField(
        Entrant, null=True, blank=True, on_delete=models.SET_NULL, related_name="captained_team"
    )
    # The secret of the team's join link, which the captain hands to their players.
    join_code = models.CharField(max_length=32, unique=True, default=_new_join_code, editable=False)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="one_team_name_per_event")]

    def __str__(self) -> str:
        return self.name


class Submission(models.Model):
    """The list an entrant plays, sealed: what it was when submitted, whatever happens to it since."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the organiser")
        APPROVED = "approved", _("Approved")
        RETURNED = "returned", _("Sent back")

    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE, related_name="submission")
    army_list = models.ForeignKey(ArmyList, null=True, on_delete=models.SET_NULL, related_name="+")
    list_name = models.CharField(max_length=100)
    army_name = models.CharField(max_length=120)
    army_slug = models.CharField(max_length=80)
    snapshot = models.JSONField()  # the list's muster-list JSON export when sealed
    hash = models.CharField(max_length=64)  # sha256 of the export's canonical JSON
    points = models.PositiveIntegerField()
    # Everything ``rules.events.legality`` reads besides points (``SealedFacts`` as JSON).
    facts = models.JSONField(default=dict)
    submitted_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    note = models.TextField(_("note to the player"), blank=True)
    # Moves with every save (sealed again, judged): part of the event's version (``freshness``).
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.entrant}: {self.list_name}"

    def sealed_facts(self) -> legality.SealedFacts:
        facts = self.facts
        data_date = facts.get("army_data_date")
        return legality.SealedFacts(
            edition=facts.get("edition", ""),
            army=tuple(facts.get("army", ("", ""))),
            army_name=self.army_name,
            points=self.points,
            order_dice=facts.get("order_dice", 0),
            platoons=facts.get("platoons", 0),
            units=tuple(tuple(unit) for unit in facts.get("units", ())),
            army_data_date=date.fromisoformat(data_date) if data_date else None,
            list_problems=tuple(
                Problem(message=p["message"], rule=p["rule"], params=p.get("params", {}))
                for p in facts.get("problems", ())
            ),
        )

    @property
    def own_unit_names(self) -> list[str]:
        """The sealed list's units that are the player's own entries, not checked data."""
        return [str(name) for name in self.facts.get("own_units", ())]

    def problems(self, rules: legality.EventRules) -> tuple[Problem, ...]:
        return legality.check(rules, self.sealed_facts())

    def sealed_list(self, *, name: str | None = None):
        """The list as sealed, read into memory (``lists.snapshot.SealedList``), own units included;
        ``ListImportError`` when the catalogue no longer has a unit or option it takes."""
        from armybuilder.lists.snapshot import read_sealed

        return read_sealed(self.snapshot, name=name)


class Seal(models.Model):
    """One sealing of a list (the submission keeps only the last): what the daily limit counts."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    sealed_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.user_id} at {self.sealed_at:%Y-%m-%d %H:%M}"


class Round(Timestamped):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    published = models.BooleanField(default=False)
    # The round's timer (``rules.events.timer``): its length in minutes, when it started, when it
    # was paused (None while running) and the time spent paused so far.
    timer_length = models.PositiveSmallIntegerField(default=0)
    timer_started_at = models.DateTimeField(null=True, blank=True)
    timer_paused_at = models.DateTimeField(null=True, blank=True)
    timer_paused_total = models.DurationField(default=timedelta(0))
    # The mission every game of the round plays (its label, one of the event's missions when set).
    mission = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="one_round_number_per_event")]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"

    def timer(self) -> round_timer.Timer:
        return round_timer.Timer(
            length=self.timer_length,
            started_at=self.timer_started_at,
            paused_at=self.timer_paused_at,
            paused_total=self.timer_paused_total,
        )

    def set_timer(self, timer: round_timer.Timer) -> None:
        """Keep the timer's new state (saved, so the event's version moves)."""
        self.timer_length, self.timer_started_at = timer.length, timer.started_at
        self.timer_paused_at, self.timer_paused_total = timer.paused_at, timer.paused_total
        fields = ["timer_length", "timer_started_at", "timer_paused_at", "timer_paused_total", "updated_at"]
        self.save(update_fields=fields)


class TeamMatch(models.Model):
    """Two teams paired in a round (``team_b`` None: a bye, a team win without games).

    Each captain sets their line-up, their players in table order; the other team sees it only once
    both are set, and then the games are made: the first of each line-up against each other, and so
    on (``Pairing.team_match``).
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="team_matches")
    team_a = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    team_b = models.ForeignKey(Team, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(default=0)
    # Entrant ids in table order; empty until the team's captain (or the organiser) sets it.
    lineup_a = models.JSONField(default=list, blank=True)
    lineup_b = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["position", "pk"]

    def __str__(self) -> str:
        return f"{self.round}: {self.team_a} v {self.team_b or 'bye'}"

    @property
    def is_bye(self) -> bool:
        return self.team_b_id is None

    def side_of(self, team_id: int | None) -> str | None:
        if team_id is None:
            return None
        if team_id == self.team_a_id:
            return "a"
        if team_id == self.team_b_id:
            return "b"
        return None

    @property
    def lineups_set(self) -> bool:
        return bool(self.lineup_a) and bool(self.lineup_b)


class Pairing(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    # At a team event, the team pairing this game belongs to.
    team_match = models.ForeignKey(TeamMatch, null=True, blank=True, on_delete=models.CASCADE, related_name="games")
    table = models.PositiveSmallIntegerField(null=True, blank=True)  # None for the bye
    player_a = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(default=0)
    # The game-day game played from this pairing (both sealed lists frozen in it), if one was started.
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["position", "pk"]

    def __str__(self) -> str:
        return f"{self.round}: {self.player_a} v {self.player_b or 'bye'}"

    def proposed_result(self) -> dict[str, object] | None:
        """The finished game's result as this pairing's: the outcome, the order dice and the points
        each player destroyed (those of the enemy units destroyed in the game) and the turns played,
        or None while it is playing.

        The game's side a is whoever started it. Replays the game's state (two queries and fewer than
        ``SNAPSHOT_EVERY`` actions), so the round page asks only for the viewer's own pairings.
        """
        game = self.game
        if game is None or not game.result:
            return None
        starter_is_a = game.owner_id == self.player_a.user_id
        if game.result == "draw":
            outcome = Outcome.DRAW
        else:
            outcome = Outcome.A_WINS if (game.result == "a") == starter_is_a else Outcome.B_WINS
        state = game.state(log=False)
        turns = summarise(state).turns_played
        # What a side destroyed is what the other side lost: its order dice and its points.
        proposal: dict[str, object] = {"outcome": outcome, "turns": turns or None}
        for figure, of_unit in (("dice", lambda u: u.setup.dice), ("points", lambda u: u.setup.points)):
            lost = {side: sum(of_unit(u) for u in state.side_units(side) if u.destroyed) for side in ("a", "b")}
            by_starter, by_other = lost["b"], lost["a"]
            proposal[f"{figure}_a"], proposal[f"{figure}_b"] = (
                (by_starter, by_other) if starter_is_a else (by_other, by_starter)
            )
        return proposal

    @property
    def is_bye(self) -> bool:
        return self.player_b_id is None

    def seat_of(self, entrant_id: int) -> str | None:
        if entrant_id == self.player_a_id:
            return "a"
        if entrant_id == self.player_b_id:
            return "b"
        return None


class Outcome(models.TextChoices):
    # From player a's side of the pairing.
    A_WINS = "a", _("Player A won")
    B_WINS = "b", _("Player B won")
    DRAW = "draw", _("Draw")


MAX_TURNS = 12  # a game lasts six turns, sometimes a seventh; room for a mission's own length
MAX_POINTS_DESTROYED = 100_000  # far above any army Muster stores


class Result(models.Model):
    """A pairing's result: entered by one player, confirmed by the other, or set by the organiser."""

    pairing = models.OneToOneField(Pairing, on_delete=models.CASCADE, related_name="result")
    outcome = models.CharField(max_length=4, choices=Outcome.choices)
    dice_a = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(200)])
    dice_b = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(200)])
    # Points of the enemy units each player destroyed: recorded where the event ranks by them.
    points_a = models.PositiveIntegerField(null=True, blank=True, validators=[MaxValueValidator(MAX_POINTS_DESTROYED)])
    points_b = models.PositiveIntegerField(null=True, blank=True, validators=[MaxValueValidator(MAX_POINTS_DESTROYED)])
    # Turns played, as Bolt Action results record it; optional (null: not said).
    turns = models.PositiveSmallIntegerField(null=True, blank=True, validators=[MaxValueValidator(MAX_TURNS)])
    entered_by = models.ForeignKey(Entrant, null=True, on_delete=models.SET_NULL, related_name="+")
    confirmed = models.BooleanField(default=False)
    by_organiser = models.BooleanField(default=False)
    # The mission the game was played on: the round's when the result was entered.
    mission = models.CharField(max_length=200, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.pairing}: {self.outcome}"

    @property
    def counts(self) -> bool:
        """Only a confirmed or organiser-set result counts in the standings."""
        return self.confirmed or self.by_organiser

    def outcome_text(self) -> str:
        """The outcome with the players' names ("alice won"), as the round page says it."""
        pairing = self.pairing
        if self.outcome == Outcome.DRAW:
            return str(Outcome.DRAW.label)
        winner = pairing.player_a if self.outcome == Outcome.A_WINS else pairing.player_b
        return gettext("%(name)s won") % {"name": winner.name if winner is not None else "?"}

    def outcomes(self) -> tuple[str, str]:
        return {"a": ("win", "loss"), "b": ("loss", "win"), "draw": ("draw", "draw")}[self.outcome]


class SetAsideResults(models.Model):
    """The results of a published round the organiser took back, kept as they were (never counted).

    ``results``: one item per result, with the players' ids and names as they were, the table, the
    outcome from player a's side, the dice each destroyed, and whether it was confirmed or set by
    the organiser; read again by the organiser to re-enter them if the round is published again.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="set_aside")
    round_number = models.PositiveSmallIntegerField()
    results = models.JSONField(default=list)
    taken_back_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-taken_back_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.event} round {self.round_number}: {len(self.results)} results set aside"


ADJUSTMENT_LIMIT = 100  # points either way: far beyond any award or deduction of a rules pack


class Adjustment(Timestamped):
    """Bonus or penalty points the organiser gives an entrant: added to their score in the standings."""

    class Category(models.TextChoices):
        LATE_LIST = "late-list", _("Late list")
        SPORTSMANSHIP = "sportsmanship", _("Sportsmanship")
        PAINTING = "painting", _("Painting")
        RULES_PACK = "rules-pack", _("Rules-pack deduction")
        OTHER = "other", _("Other")

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="adjustments")
    category = models.CharField(_("category"), max_length=20, choices=Category.choices)
    amount = models.SmallIntegerField(
        _("points"), validators=[MinValueValidator(-ADJUSTMENT_LIMIT), MaxValueValidator(ADJUSTMENT_LIMIT)]
    )
    # The round it belongs to, if any (a penalty for a game); None for the whole event (a painting award).
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.entrant}: {self.amount:+d} ({self.category})"


class ListsPdfJob(Job):
    """One PDF of every approved list of an event (a roster each), made by the task worker.

    Organiser-only, like the lists before they are revealed: the views look the event up as its
    organiser's first. Progress is counted in lists rendered.
    """

    KEEP = timedelta(hours=24)
    STALE = timedelta(minutes=30)

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pdf_jobs")
    lang = models.CharField(max_length=8)
    paper = models.CharField(max_length=10)
    total = models.PositiveIntegerField(default=0)
    rendered = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0)  # sealed lists whose units are gone from the data
    pdf = models.BinaryField(null=True, blank=True)

    objects = JobQuerySet.as_manager()

    def __str__(self) -> str:
        return f"{self.event} lists ({self.status})"

    @property
    def percent(self) -> int:
        if self.is_done:
            return 100
        return int(100 * self.rendered / self.total) if self.total else 0

    @property
    def filename(self) -> str:
        return f"{self.event.slug}-lists.pdf"


# -- Escalation events ---------------------------------------------------------------------------
# An event without stages keeps one ``Submission`` per entrant. An event with stages
# (``rules.events.stages``: each a points limit and the rounds it plays) takes one ``StageSubmission``
# per entrant and stage instead, sealed, judged and played like a submission, judged against the
# event's rules with the stage's points limit.


class Stage(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField()  # 1, 2, ... in round order
    points_limit = models.PositiveIntegerField(
        _("points limit"), validators=[MinValueValidator(1), MaxValueValidator(POINTS_LIMIT_MAX)]
    )
    first_round = models.PositiveSmallIntegerField(_("from round"))
    last_round = models.PositiveSmallIntegerField(_("to round"))
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="one_stage_number_per_event")]

    def __str__(self) -> str:
        return f"{self.event} stage {self.number}"

    def describe(self) -> str:
        """The stage as pages say it: "Stage 2: 750 points, rounds 3–4"."""
        values = {"n": self.number, "points": self.points_limit, "first": self.first_round, "last": self.last_round}
        if self.first_round == self.last_round:
            return gettext("Stage %(n)s: %(points)s points, round %(first)s") % values
        return gettext("Stage %(n)s: %(points)s points, rounds %(first)s–%(last)s") % values

    def plan(self) -> stage_rules.StagePlan:
        return stage_rules.StagePlan(self.points_limit, self.first_round, self.last_round)

    def rules(self, event_rules: legality.EventRules) -> legality.EventRules:
        """The event's rules with this stage's points limit."""
        return dataclasses.replace(event_rules, points_limit=self.points_limit)


class StageSubmission(models.Model):
    """An entrant's list for one stage, sealed as a submission is (see ``Submission``)."""

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="stage_submissions")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="submissions")
    army_list = models.ForeignKey(ArmyList, null=True, on_delete=models.SET_NULL, related_name="+")
    list_name = models.CharField(max_length=100)
    army_name = models.CharField(max_length=120)
    army_slug = models.CharField(max_length=80)
    snapshot = models.JSONField()
    hash = models.CharField(max_length=64)
    points = models.PositiveIntegerField()
    facts = models.JSONField(default=dict)
    submitted_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Submission.Status.choices, default=Submission.Status.PENDING)
    note = models.TextField(_("note to the player"), blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["stage__number", "pk"]
        constraints = [models.UniqueConstraint(fields=["entrant", "stage"], name="one_list_per_entrant_and_stage")]

    def __str__(self) -> str:
        return f"{self.entrant}: {self.list_name} (stage {self.stage_id})"

    # A stage's list is read exactly as a submission is: the same sealed fields, the same methods.
    sealed_facts = Submission.sealed_facts
    own_unit_names = Submission.own_unit_names
    problems = Submission.problems
    sealed_list = Submission.sealed_list
