"""Saved army lists: a list, its platoons and its entries (units taken, with their choices)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum
from django.utils.translation import gettext_lazy as _

from armybuilder.catalogue.models import Army, Quality, Unit
from armybuilder.reference.models import Edition
from armybuilder.stamps import Stamped, StampedManager, Timestamped
from rules.army import model as army_rules
from rules.army.names import ENTRY_FORMAT, PLATOON_FORMAT, distinct_names

POINTS_LIMIT_MAX = 10_000

# Units in one list, enforced wherever entries are written (``services``, the JSON import).
# Real lists hold fewer than 40 units: a platoon takes at most about 15 (officer, squads and
# one of each support choice), and even a 5,000-point game of five full platoons stays under
# 80. 100 keeps that headroom while bounding the work one list can ask for: its unit cards or
# print PDF render in a few seconds and a couple of hundred MB (see docs/deploy.md), where a
# 500-unit list took 30 s and 660 MB and four of them at once took every worker down.
ENTRIES_MAX = 100


def new_share_token() -> str:
    # 128 bits of randomness: unguessable, and URL-safe for the share link.
    return secrets.token_urlsafe(16)


class ForceOrg(models.TextChoices):
    PLATOONS = "platoons", _("Platoons (the edition's force organisation)")
    NONE = "none", _("No restrictions")


class PlatoonKind(models.TextChoices):
    REINFORCED_PLATOON = "reinforced_platoon", _("Reinforced Platoon")
    RIFLE_PLATOON = "rifle_platoon", _("Rifle Platoon")
    HEAVY_WEAPONS_PLATOON = "heavy_weapons_platoon", _("Heavy Weapons Platoon")
    ARTILLERY_PLATOON = "artillery_platoon", _("Artillery Platoon")
    ARMOURED_PLATOON = "armoured_platoon", _("Armoured Platoon")
    RECCE_PLATOON = "recce_platoon", _("Recce Infantry Platoon")
    ENGINEER_PLATOON = "engineer_platoon", _("Engineer Platoon")


def _own_units(expression: models.Aggregate) -> Subquery:
    """One aggregate of the list owner's own units: the builder's catalogue offers them."""
    rows = Unit.objects.filter(owner=OuterRef("owner")).order_by().values("owner")
    return Subquery(rows.annotate(value=expression).values("value")[:1])


def _aggregate(model: type[models.Model], expression: models.Aggregate) -> Subquery:
    """One aggregate of a list's own rows (its entries or platoons), as a subquery of the list."""
    rows = model.objects.filter(army_list=OuterRef("pk")).order_by().values("army_list")
    return Subquery(rows.annotate(value=expression).values("value")[:1])


# What a list's pages show changes only with these: the list's row, its army's, its entries and
# platoons (how many, which, when last written), the owner's own units (the builder's catalogue
# offers them), the units they take, those units' options
# (how many, which, when last written) and the weapons and rules the units carry (how many
# links, when last written). Read together in one query, so a cache or an ETag keyed by them
# cannot outlive any write, whichever code made it: a deleted or added row moves a count and a
# sum of ids, an edited one its stamp (``Stamped``: ``save()`` and ``QuerySet.update()`` both
# move it, a save that changes nothing does not).
REVISION_FIELDS = (
    "pk",
    "updated_at",
    "army__updated_at",
    "entry_count",
    "entry_ids",
    "entry_stamp",
    "unit_stamp",
    "option_count",
    "option_ids",
    "option_stamp",
    "weapon_count",
    "weapon_stamp",
    "rule_count",
    "rule_stamp",
    "platoon_count",
    "platoon_ids",
    "platoon_stamp",
    "own_count",
    "own_ids",
    "own_stamp",
)


class ArmyListQuerySet(models.QuerySet["ArmyList"]):
    def active(self) -> ArmyListQuerySet:
        return self.filter(deleted_at__isnull=True)

    def revisions(self) -> ArmyListQuerySet:
        """Rows of ``REVISION_FIELDS``: everything a list's pages depend on, in one query.

        The options, weapons and rules are counted once per entry taking their unit: a fixed
        multiple for a given list, so the counts and sums still move with every added or removed row.
        """
        return self.annotate(
            entry_count=_aggregate(Entry, Count("pk")),
            entry_ids=_aggregate(Entry, Sum("pk")),
            entry_stamp=_aggregate(Entry, Max("updated_at")),
            unit_stamp=_aggregate(Entry, Max("unit__updated_at")),
            option_count=_aggregate(Entry, Count("unit__options")),
            option_ids=_aggregate(Entry, Sum("unit__options__pk")),
            option_stamp=_aggregate(Entry, Max("unit__options__updated_at")),
            weapon_count=_aggregate(Entry, Count("unit__weapons")),
            weapon_stamp=_aggregate(Entry, Max("unit__weapons__updated_at")),
            rule_count=_aggregate(Entry, Count("unit__special_rules")),
            rule_stamp=_aggregate(Entry, Max("unit__special_rules__updated_at")),
            platoon_count=_aggregate(Platoon, Count("pk")),
            platoon_ids=_aggregate(Platoon, Sum("pk")),
            platoon_stamp=_aggregate(Platoon, Max("updated_at")),
            own_count=_own_units(Count("pk")),
            own_ids=_own_units(Sum("pk")),
            own_stamp=_own_units(Max("updated_at")),
        ).values_list(*REVISION_FIELDS)

    def in_trash(self) -> ArmyListQuerySet:
        return self.filter(deleted_at__isnull=False)

    def owned_by(self, user, anonymous_ids: list[int] | None = None) -> ArmyListQuerySet:
        """Lists the visitor may see and change: their own, or (logged out) the ones in their session."""
        if user is not None and user.is_authenticated:
            return self.filter(owner=user)
        return self.filter(owner__isnull=True, pk__in=anonymous_ids or [])

    def for_builder(self, *, details: bool = True) -> ArmyListQuerySet:
        """Everything the builder, summary and exports read, in a constant number of queries.

        Entries of the same unit share one ``Unit`` instance, whose options are loaded once: a
        50-entry list of two kinds of unit builds two units and their options, not fifty copies.
        Options come in their unit's order (position, name), without the joins that ordering by
        the unit itself (its army, then the army's edition) would add.

        With ``details`` (the default: exports and playsheets) each entry comes with its platoon,
        and each distinct unit with its options, weapons and special rules: 7 queries. The builder
        page reads no weapons, rules, owner or ``entry.platoon``, and passes ``details=False``: the
        list's distinct units and their options (5 queries, with the army's national rules).
        Either way the units are prefetched, not joined: Django's prefetch gives every entry of a
        unit the same instance, and a join would build a unit per entry row.
        """
        from armybuilder.catalogue.models import Option

        # An option's granted weapon comes with it (joined): who fires what reads it (``armament``).
        options = models.Prefetch(
            "options", queryset=Option.objects.select_related("grants_weapon").order_by("position", "name")
        )
        if not details:
            units = Unit.objects.prefetch_related(options)
            entries = Entry.objects.prefetch_related(models.Prefetch("unit", queryset=units))
            return self.select_related("edition", "army").prefetch_related(
                "army__national_rules", "platoons", models.Prefetch("entries", queryset=entries)
            )
        # Who fires what reads each weapon's rules (a team weapon's loader fires nothing): the unit's
        # weapons and the options' granted weapons come with theirs, so the cost stays flat as a list grows.
        detailed = models.Prefetch(
            "options",
            queryset=Option.objects.select_related("grants_weapon")
            .prefetch_related("grants_weapon__special_rules")
            .order_by("position", "name"),
        )
        units = Unit.objects.prefetch_related(detailed, "weapons__special_rules", "special_rules")
        entries = Entry.objects.select_related("platoon").prefetch_related(models.Prefetch("unit", queryset=units))
        return self.select_related("edition", "army", "army__edition", "owner").prefetch_related(
            "platoons", models.Prefetch("entries", queryset=entries)
        )


class ArmyList(Timestamped):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="army_lists"
    )
    edition = models.ForeignKey(Edition, on_delete=models.PROTECT, related_name="+")
    army = models.ForeignKey(Army, on_delete=models.PROTECT, related_name="lists")
    name = models.CharField(max_length=100)
    points_limit = models.PositiveIntegerField(
        default=1000, validators=[MinValueValidator(1), MaxValueValidator(POINTS_LIMIT_MAX)]
    )
    force_org = models.CharField(max_length=12, choices=ForceOrg.choices, default=ForceOrg.PLATOONS)
    max_order_dice = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(200)]
    )
    max_platoons = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(50)]
    )
    share_token = models.CharField(max_length=32, unique=True, default=new_share_token, editable=False)
    # The trait chosen for the whole army when a national rule asks for one (the British national
    # characteristic, the Italian bonus): a slug of ``rules.combat.national.CHOICES``; "" for none.
    national_choice = models.CharField(max_length=40, blank=True, default="")
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = ArmyListQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(points_limit__gte=1) & Q(points_limit__lte=POINTS_LIMIT_MAX), name="points_limit_range"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def entry_names(self) -> dict[int, str]:
        """Each entry's name as every page prints it: shared names numbered (``rules.army.names``).

        Reads ``entries.all()`` (prefetched by ``for_builder()``). Not kept on the instance: a
        rename in the same request must show at once, and numbering a list is cheap.
        """
        return distinct_names(((e.pk, e.display_name) for e in self.entries.all()), ENTRY_FORMAT)

    def platoon_names(self) -> dict[int, str]:
        """Each platoon's name as every page prints it: "Reinforced Platoon 1", "… 2" when shared."""
        return distinct_names(((p.pk, p.display_name) for p in self.platoons.all()), PLATOON_FORMAT)

    def to_rules(self) -> army_rules.ListSpec:
        """Plain data for rules/; expects the ``for_builder()`` prefetches."""
        platoons = list(self.platoons.all())
        entry_names, platoon_names = self.entry_names(), self.platoon_names()
        return army_rules.ListSpec(
            edition=self.edition.slug,
            force_org=self.force_org,
            points_limit=self.points_limit,
            max_order_dice=self.max_order_dice,
            max_platoons=self.max_platoons,
            platoons=tuple(p.to_rules(name=platoon_names.get(p.pk)) for p in platoons),
            entries=tuple(e.to_rules(name=entry_names.get(e.pk)) for e in self.entries.all()),
            forces=self.army.force_rules(),
        )


class PlatoonNaming:
    """A platoon's name and its rules view, for a saved platoon and a sealed one alike (``pk``,
    ``kind`` and ``name`` are theirs)."""

    pk: int | None
    kind: str
    name: str

    @property
    def display_name(self) -> str:
        if self.name:
            return self.name
        # Not get_kind_display(): it translates every kind's label to find one (the builder asks
        # for each platoon's name on every change).
        try:
            return str(PlatoonKind(self.kind).label)
        except ValueError:
            return self.kind

    def to_rules(self, name: str | None = None) -> army_rules.PlatoonSpec:
        """``name``: the list's numbered name for it (``ArmyList.platoon_names``), if known."""
        return army_rules.PlatoonSpec(key=str(self.pk), kind=self.kind, name=name or self.display_name)


class Platoon(PlatoonNaming, Stamped):
    army_list = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="platoons")
    kind = models.CharField(max_length=24, choices=PlatoonKind.choices)
    name = models.CharField(max_length=100, blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    objects = StampedManager()

    class Meta:
        ordering = ["position", "pk"]

    def __str__(self) -> str:
        return self.name or self.get_kind_display()


class EntryReading:
    """A unit of a list as the rules and the pages read it, for a saved entry and a sealed one alike
    (``pk``, ``unit``, ``name``, ``quality``, ``models_count``, ``options`` and ``platoon_id`` are theirs)."""

    @property
    def display_name(self) -> str:
        return self.name or self.unit.display_name

    @property
    def total_models(self) -> int:
        """Every model of the entry: its own plus those of the teams taken (``army_rules.total_models``).

        Reads ``unit.options.all()`` (prefetched by ``ArmyList.objects.for_builder()``).
        """
        adds = {option.slug: option.adds_models for option in self.unit.options.all()}
        return army_rules.total_models(self.models_count, adds, self.options or {})

    def to_rules(self, name: str | None = None) -> army_rules.EntrySpec:
        """``name``: the list's numbered name for it (``ArmyList.entry_names``), if known."""
        return army_rules.EntrySpec(
            key=str(self.pk),
            name=name or self.display_name,
            unit=self.unit.to_rules(),
            quality=self.quality,
            models=self.models_count,
            options=dict(self.options),
            platoon=str(self.platoon_id) if self.platoon_id else None,
        )


class Entry(EntryReading, Stamped):
    """A unit taken in a list. ``options`` maps an option's slug to how many were taken."""

    army_list = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="entries")
    platoon = models.ForeignKey(Platoon, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries")
    # RESTRICT, not PROTECT: a unit a list takes cannot be deleted, unless the list goes in the
    # same deletion (a player leaving takes their own units and the lists that take them).
    unit = models.ForeignKey(Unit, on_delete=models.RESTRICT, related_name="entries")
    name = models.CharField(max_length=100, blank=True)
    quality = models.CharField(max_length=16, choices=Quality.choices, default=Quality.REGULAR)
    models_count = models.PositiveSmallIntegerField(default=1)
    options = models.JSONField(default=dict, blank=True)
    position = models.PositiveIntegerField(default=0)

    objects = StampedManager()

    class Meta:
        ordering = ["position", "pk"]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return self.display_name
