"""The catalogue: armies, their units, the units' options.

Built-in generic armies come from fixtures; national lists come from the importers. Either
way each row keeps its source, and imported rows keep the id they had in the source data
(``source_id``) so a re-import updates them in place.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.signals import m2m_changed
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from armybuilder.localised import shown, shown_typed, shown_weapons
from armybuilder.reference.models import (
    Edition,
    EditionSlugManager,
    EditionSlugQuerySet,
    NamedInEdition,
    SpecialRule,
    Weapon,
)
from armybuilder.stamps import Created, Stamped, StampedQuerySet
from rules.army import model as army_rules
from rules.combat.context import SOFT_SKIN_DV


class Quality(models.TextChoices):
    INEXPERIENCED = "inexperienced", _("Inexperienced")
    REGULAR = "regular", _("Regular")
    VETERAN = "veteran", _("Veteran")


class UnitType(models.TextChoices):
    HEADQUARTERS = "headquarters", _("Headquarters")
    INFANTRY = "infantry", _("Infantry")
    TEAM = "team", _("Team")
    ARTILLERY = "artillery", _("Artillery")
    VEHICLE_SOFT = "vehicle_soft", _("Soft-skin vehicle")
    VEHICLE_ARMOURED = "vehicle_armoured", _("Armoured vehicle")
    TRANSPORT = "transport", _("Transport")


VEHICLE_UNIT_TYPES = frozenset({UnitType.VEHICLE_SOFT, UnitType.VEHICLE_ARMOURED, UnitType.TRANSPORT})


class Slot(models.TextChoices):
    OFFICER = "officer", _("Officer")
    COMPANY_COMMANDER = "company_commander", _("Company commander")
    CHARACTER = "character", _("National character")
    INFANTRY = "infantry", _("Infantry squad")
    MEDIC = "medic", _("Medic")
    FORWARD_OBSERVER = "forward_observer", _("Forward observer")
    SNIPER = "sniper", _("Sniper")
    MACHINE_GUN = "machine_gun", _("Machine gun")
    LIGHT_MORTAR = "light_mortar", _("Light mortar")
    MORTAR = "mortar", _("Mortar")
    FLAMETHROWER = "flamethrower", _("Flamethrower")
    ANTI_TANK = "anti_tank", _("Anti-tank team")
    ANTI_TANK_GUN = "anti_tank_gun", _("Anti-tank gun")
    ARTILLERY = "artillery", _("Artillery")
    ARMOURED_CAR = "armoured_car", _("Armoured car")
    TANK = "tank", _("Tank")
    TRANSPORT = "transport", _("Transport")
    OTHER = "other", _("Other")


class OfficerRank(models.TextChoices):
    SECOND_LIEUTENANT = "second_lieutenant", _("Second Lieutenant")
    FIRST_LIEUTENANT = "first_lieutenant", _("First Lieutenant")
    CAPTAIN = "captain", _("Captain")
    MAJOR = "major", _("Major")
    PLATOON_COMMANDER = "platoon_commander", _("Platoon Commander")
    COMPANY_COMMANDER = "company_commander", _("Company Commander")


class Origin(models.TextChoices):
    BUILTIN = "builtin", _("Built in")
    BATTLESCRIBE = "battlescribe", _("BattleScribe import")
    BARRACKS = "barracks", _("Barracks import")
    MODULE = "module", _("Army-builder module import")


class ArmyQuerySet(EditionSlugQuerySet):
    def visible(self) -> ArmyQuerySet:
        return self.filter(hidden=False)


class Army(NamedInEdition):
    edition = models.ForeignKey(Edition, on_delete=models.PROTECT, related_name="armies")
    slug = models.SlugField(max_length=80)
    name = models.CharField(max_length=120)
    name_fr = models.CharField(max_length=120, blank=True)
    description = models.TextField(blank=True)
    national_rules = models.ManyToManyField(SpecialRule, blank=True, related_name="armies")
    theatre_selectors = models.JSONField(default=list, blank=True, help_text="Names of theatre selectors.")
    # Imported armies: the game system's own platoon tables (armydata.model.ImportedForce as dicts);
    # empty for built-in armies, whose lists follow the edition's tables in rules/army/force_org.py.
    force_org = models.JSONField(default=list, blank=True, help_text="Platoon tables read from imported data.")
    origin = models.CharField(max_length=16, choices=Origin.choices, default=Origin.BUILTIN)
    source = models.CharField(max_length=300)
    source_id = models.CharField(max_length=120, blank=True)
    # BattleScribe imports: what a roster (.ros) names its data by (game_system_id,
    # game_system_name, game_system_revision, catalogue_revision, points_type_id), so a list of
    # the army exports as a roster. Empty for other data and for armies imported before it was kept.
    roster_header = models.JSONField(default=dict, blank=True, help_text="Roster ids read from BattleScribe data.")
    # Imported armies: rule texts as the source writes them, kept apart from Muster's own
    # paraphrases (``SpecialRule.summary``) and always shown quoted and credited:
    # {"source": {"name", "author", "url"}, "rules": {rule slug: text}}. Empty for built-in armies.
    source_rule_texts = models.JSONField(
        default=dict, blank=True, help_text="Rule texts quoted from the imported source, with its credit."
    )
    hidden = models.BooleanField(default=False)

    objects = EditionSlugManager.from_queryset(ArmyQuerySet)()

    class Meta:
        ordering = ["edition__number", "name"]
        constraints = [models.UniqueConstraint(fields=["edition", "slug"], name="unique_army_per_edition")]
        verbose_name_plural = "armies"

    def natural_key(self) -> tuple[str, str]:
        return (self.edition.slug, self.slug)

    natural_key.dependencies = ["reference.edition", "reference.specialrule"]  # type: ignore[attr-defined]

    @property
    def source_credit(self) -> dict[str, str]:
        """Who the quoted rule texts are from: ``name``, ``author`` and ``url`` (each may be empty)."""
        credit = (self.source_rule_texts or {}).get("source")
        return (
            {key: str(credit.get(key) or "") for key in ("name", "author", "url")} if isinstance(credit, dict) else {}
        )

    def quoted_rule_text(self, rule: SpecialRule) -> str:
        """The source's own text of one of this army's rules, or ""."""
        texts = (self.source_rule_texts or {}).get("rules")
        text = texts.get(rule.slug) if isinstance(texts, dict) else None
        return text if isinstance(text, str) else ""

    @property
    def national_rules_shown(self) -> list[tuple[SpecialRule, str]]:
        """Each national rule with the source's quoted text of it ("" when the source gives none)."""
        return [(rule, self.quoted_rule_text(rule)) for rule in self.national_rules.all()]

    def force_rules(self) -> tuple[army_rules.ForceEntrySpec, ...]:
        """The imported platoon tables as plain data for rules/ (kept on the instance)."""
        cached = self.__dict__.get("_force_rules")
        if cached is None:
            cached = self.__dict__["_force_rules"] = tuple(_force_entry(force) for force in self.force_org or ())
        return cached


def _force_entry(force: dict) -> army_rules.ForceEntrySpec:
    return army_rules.ForceEntrySpec(
        kind=force["kind"],
        label=force.get("name", ""),
        source=f"imported force entry {force.get('source_id', '')}",
        limits=tuple(
            army_rules.ForceLimitSpec(
                key=limit["category"],
                label=limit.get("label", ""),
                categories=(limit["category"],),
                slots=tuple(limit.get("slots", ())),
                minimum=limit.get("minimum", 0),
                maximum=limit.get("maximum"),
                adjustments=tuple(army_rules.LimitAdjustment(**a) for a in limit.get("adjustments", ())),
            )
            for limit in force.get("limits", ())
        ),
    )


class UnitQuerySet(StampedQuerySet):
    def for_army(self, army: Army) -> UnitQuerySet:
        return self.filter(army=army)

    def available(self) -> UnitQuerySet:
        return self.filter(hidden=False, removed=False)

    def for_catalogue(self) -> UnitQuerySet:
        return self.prefetch_related("options", "weapons", "special_rules")

    def builtin(self) -> UnitQuerySet:
        """Units of the shipped or imported data: no player's own entries."""
        return self.filter(owner__isnull=True)

    def owned_by(self, user) -> UnitQuerySet:
        """A signed-in player's own units (none for a visitor)."""
        if user is None or not user.is_authenticated:
            return self.none()
        return self.filter(owner=user)

    def for_player(self, army: Army, user) -> UnitQuerySet:
        """What a player may add to a list of ``army``: its data, and their own units of the edition.

        An own unit saved for "only this army" (``army_only``) is offered to lists of its army alone.

        The one place a builder, a list import or a copy asks which units a player can take, so
        an own unit works wherever a built-in one does and nobody else's ever shows.
        """
        scope = Q(army=army, owner__isnull=True)
        if user is not None and user.is_authenticated:
            # Their units of the edition, save those kept to another army ("only this army").
            scope |= Q(owner=user, army=army) | Q(owner=user, army__edition_id=army.edition_id, army_only=False)
        return self.filter(scope).available()


class UnitManager(models.Manager.from_queryset(UnitQuerySet)):  # type: ignore[misc]
    def get_by_natural_key(self, edition_slug: str, army_slug: str, slug: str) -> Unit:
        return self.get(army__edition__slug=edition_slug, army__slug=army_slug, slug=slug)


# What a saved list's "changed in the catalogue" note names: the unit's fields that make its
# points, its options (with its ``Option`` rows) and its profile (with its weapons and rules).
POINTS_FIELDS = tuple(f"{kind}_{quality}" for kind in ("cost", "per_model") for quality in army_rules.QUALITIES)
OPTIONS_FIELDS = ("option_groups",)
PROFILE_FIELDS = (
    "unit_type",
    "slot",
    "base_models",
    "max_models",
    "officer_rank",
    "damage_value",
    "transport_capacity",
    "composition",
    "weapons_text",
    "weapons_text_fr",
    "weapon_lines",
    "implicit_models",
    "weapons",  # many-to-many: written by ``load_reference_data``'s comparison, linked in ``_links_changed``
    "special_rules",
)


class Unit(Stamped):
    """A unit a list can take: its costs per quality, model counts, weapons and options.

    ``cost_<quality>`` is the price at ``base_models``; ``per_model_<quality>`` the price of each
    model added beyond it. A null cost means the quality is not offered.

    Besides ``updated_at`` (any change, for revisions), three stamps say when its points, its
    options and its profile last changed, for the notes of the lists that take it
    (``catalogue.change_notes``). Its options' writes move ``options_updated_at``, its weapons'
    and rules' links ``profile_updated_at`` (``Option``, ``_links_changed``).
    """

    STAMP_GROUPS = {
        "points_updated_at": POINTS_FIELDS,
        "options_updated_at": OPTIONS_FIELDS,
        "profile_updated_at": PROFILE_FIELDS,
    }

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="units")
    slug = models.SlugField(max_length=120)
    name = models.CharField(max_length=120)
    name_fr = models.CharField(max_length=120, blank=True)
    unit_type = models.CharField(max_length=20, choices=UnitType.choices)
    slot = models.CharField(max_length=20, choices=Slot.choices)
    position = models.PositiveIntegerField(default=0)
    cost_inexperienced = models.PositiveIntegerField(null=True, blank=True)
    cost_regular = models.PositiveIntegerField(null=True, blank=True)
    cost_veteran = models.PositiveIntegerField(null=True, blank=True)
    per_model_inexperienced = models.PositiveIntegerField(null=True, blank=True)
    per_model_regular = models.PositiveIntegerField(null=True, blank=True)
    per_model_veteran = models.PositiveIntegerField(null=True, blank=True)
    base_models = models.PositiveSmallIntegerField(default=1)
    max_models = models.PositiveSmallIntegerField(default=1)
    officer_rank = models.CharField(max_length=20, choices=OfficerRank.choices, blank=True)
    damage_value = models.PositiveSmallIntegerField(null=True, blank=True)
    transport_capacity = models.PositiveSmallIntegerField(null=True, blank=True)
    composition = models.CharField(max_length=300, blank=True, help_text="Who is in the unit, briefly.")
    weapons_text = models.CharField(max_length=300, blank=True, help_text="Default armament, as printed.")
    weapons_text_fr = models.CharField(max_length=300, blank=True)
    weapons = models.ManyToManyField(Weapon, blank=True, related_name="units")
    # The distinct weapons above say what the unit can fire; the lines say how it carries them,
    # one per mount, so a tank's turret gun, co-axial MMG and hull MMG stay separate (own arc).
    weapon_lines = models.JSONField(
        default=list,
        blank=True,
        help_text='One line per weapon mount: [{"weapon": slug, "mount": "turret", "count": 1, "arc": "360"}].',
    )
    special_rules = models.ManyToManyField(SpecialRule, blank=True, related_name="units")
    theatres = models.JSONField(default=list, blank=True, help_text="Theatre selectors it belongs to; empty = all.")
    categories = models.JSONField(
        default=list, blank=True, help_text="Imported units: the source's category ids, which force limits count."
    )
    # Shared limits of the unit's options, as rules.army.model.OptionGroupSpec dicts:
    # [{"key": "upgrades", "label": "Upgrades", "minimum": 0, "maximum": 2, "per_model": false}].
    option_groups = models.JSONField(
        default=list, blank=True, help_text="Limits shared by the options of one group (min/max choices in all)."
    )
    implicit_models = models.PositiveSmallIntegerField(
        default=0, help_text="Imported units: models of the base size that no source entry stands for."
    )
    source = models.CharField(max_length=300)
    source_id = models.CharField(max_length=120, blank=True)
    # Imported units: the ids of the links that reach the unit in the data (a force entry's
    # links); a roster names a unit by the id of the link it was taken through.
    source_aliases = models.JSONField(
        default=list, blank=True, help_text="Imported units: other source ids (links) a roster may name it by."
    )
    hidden = models.BooleanField(default=False)
    removed = models.BooleanField(default=False, help_text="Gone from the latest import; kept for saved lists.")
    # Dice the unit puts in the bag: one for nearly every unit; an attachment some data lists at 0.
    order_dice = models.PositiveSmallIntegerField(default=1, help_text="Order dice the unit gives.")
    # The war periods the data offers the unit in, as letters of "EML" (early, mid, late war); "" = any.
    periods = models.CharField(max_length=3, blank=True, help_text="War periods: letters of EML; empty = any.")
    # Why the data keeps the unit out of ordinary play (campaign, community, experimental, ...): the
    # builder offers such units only to a list that asks for them.
    source_flags = models.JSONField(
        default=list, blank=True, help_text="Imported units: campaign, community, experimental... (hidden by default)."
    )
    # A player's own unit, typed from their book: only they (and whoever they share it with) see
    # it. Null for the shipped and imported data.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="own_units"
    )
    # An own unit offered to every army of its edition (the default: a player's generic entries),
    # or to its own army only (a national unit that no other army of the edition may take).
    army_only = models.BooleanField(default=False, help_text="Own units: offered to its army only.")
    points_updated_at = models.DateTimeField(default=timezone.now, editable=False)
    options_updated_at = models.DateTimeField(default=timezone.now, editable=False)
    profile_updated_at = models.DateTimeField(default=timezone.now, editable=False)

    objects = UnitManager()

    class Meta:
        ordering = ["army", "position", "name"]
        constraints = [models.UniqueConstraint(fields=["army", "slug"], name="unique_unit_per_army")]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str, str, str]:
        return (*self.army.natural_key(), self.slug)

    natural_key.dependencies = ["catalogue.army", "reference.weapon"]  # type: ignore[attr-defined]

    @property
    def display_name(self) -> str:
        # A player's own unit keeps the name they typed; the data's names go through the glossary.
        if self.owner_id is not None:
            return shown_typed(self.name, self.name_fr)
        return shown(self.name, self.name_fr)

    @property
    def is_own(self) -> bool:
        """A player's entry, not checked data: marked so on every page that shows it."""
        return self.owner_id is not None

    @property
    def display_weapons(self) -> str:
        # A player's own unit keeps what they typed; the data's armament goes through the glossary.
        if self.owner_id is not None:
            return shown_typed(self.weapons_text, self.weapons_text_fr)
        return shown_weapons(self.weapons_text, self.weapons_text_fr)

    @property
    def vehicle_damage_value(self) -> int | None:
        """A vehicle's damage value: the data's, else a soft-skin's or a transport's by the rules
        (6+); None for men, guns and an armoured vehicle the data gives none."""
        if self.unit_type not in VEHICLE_UNIT_TYPES:
            return None
        if self.damage_value:
            return self.damage_value
        if self.unit_type in (UnitType.VEHICLE_SOFT, UnitType.TRANSPORT):
            return SOFT_SKIN_DV
        return None

    def base_cost(self) -> dict[str, int]:
        costs = {q: getattr(self, f"cost_{q}") for q in army_rules.QUALITIES}
        return {q: c for q, c in costs.items() if c is not None}

    def per_model_cost(self) -> dict[str, int]:
        costs = {q: getattr(self, f"per_model_{q}") for q in army_rules.QUALITIES}
        return {q: c for q, c in costs.items() if c is not None}

    def qualities(self) -> list[str]:
        return list(self.base_cost())

    def to_rules(
        self, *, key: str | None = None, options: tuple[army_rules.OptionSpec, ...] | None = None
    ) -> army_rules.UnitSpec:
        """Plain data for rules/; uses ``options.all()``, so prefetch options for lists of units.

        An unsaved unit (one read from a file or a sealed list) gives its own ``key`` and ``options``:
        it has no id, and no options to read from the database.
        """
        if options is None:
            options = tuple(option.to_rules() for option in self.options.all())
        return army_rules.UnitSpec(
            key=str(self.pk) if key is None else key,
            name=self.name,
            unit_type=self.unit_type,
            slot=self.slot,
            base_cost=self.base_cost(),
            per_model_cost=self.per_model_cost(),
            base_models=self.base_models,
            max_models=self.max_models,
            officer_rank=self.officer_rank or None,
            options=options,
            transport_capacity=self.transport_capacity,
            damage_value=self.damage_value,
            categories=tuple(self.categories or ()),
            option_groups=tuple(army_rules.OptionGroupSpec(**group) for group in self.option_groups or ()),
            order_dice=self.order_dice,
        )


class OptionQuerySet(StampedQuerySet):
    """Writes of options move their units' ``options_updated_at`` too, however they are made."""

    def _touch_units(self) -> None:
        units = set(self.order_by().values_list("unit_id", flat=True))
        if units:
            Unit.objects.filter(pk__in=units).update(options_updated_at=timezone.now())

    def update(self, **kwargs: object) -> int:
        self._touch_units()
        return super().update(**kwargs)

    def delete(self) -> tuple[int, dict[str, int]]:
        self._touch_units()
        return super().delete()


class OptionManager(models.Manager.from_queryset(OptionQuerySet)):  # type: ignore[misc]
    def get_by_natural_key(self, edition_slug: str, army_slug: str, unit_slug: str, slug: str) -> Option:
        return self.get(
            unit__army__edition__slug=edition_slug, unit__army__slug=army_slug, unit__slug=unit_slug, slug=slug
        )


class Option(Stamped):
    """An upgrade a unit may take: per model or per unit, priced by quality.

    A flat-cost option has the same value in all three cost fields.
    """

    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="options")
    slug = models.SlugField(max_length=120)
    name = models.CharField(max_length=160)
    name_fr = models.CharField(max_length=160, blank=True)
    position = models.PositiveSmallIntegerField(default=0)
    per_model = models.BooleanField(default=False)
    # Taken by the whole unit or not at all (2nd-edition anti-tank grenades, Fanatics): one
    # choice, priced per model, so a squad never buys grenades for 3 men of 10.
    all_models = models.BooleanField(default=False, help_text="Whole unit or none, priced per model.")
    # Null: the option is not offered at that quality (a tank variant carrying its own prices).
    cost_inexperienced = models.IntegerField(
        default=0, null=True, blank=True, help_text="Negative for options that save points."
    )
    cost_regular = models.IntegerField(default=0, null=True, blank=True)
    cost_veteran = models.IntegerField(default=0, null=True, blank=True)
    max_count = models.PositiveSmallIntegerField(null=True, blank=True)
    group = models.CharField(max_length=60, blank=True, help_text="Options in one group exclude each other.")
    # The slugs of the unit's other options this one cannot be taken with, both ways round
    # ("Anti-tank grenades (if no Panzerfaust taken)" excludes ["panzerfaust"]).
    excludes = models.JSONField(
        default=list, blank=True, help_text="Slugs of the unit's options this one cannot be taken with."
    )
    # A team inside the unit (an LMG team in a squad) or an added soldier: models added per one taken.
    adds_models = models.PositiveSmallIntegerField(default=0, help_text="Models each one taken adds to the unit.")
    # The data counts the team's men within the unit's largest size (an NKVD squad of at most 11,
    # its LMG team's two men included), rather than on top of it.
    within_size = models.BooleanField(
        default=False, help_text="The models it adds count within the unit's maximum size."
    )
    free_unit = models.BooleanField(default=False, help_text="Taking it makes the whole unit cost 0.")
    free_per_list = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Free units through this option allowed per list (empty: no limit)."
    )
    grants_weapon = models.ForeignKey(Weapon, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    replaces_weapon = models.ForeignKey(Weapon, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    source_id = models.CharField(max_length=120, blank=True)

    objects = OptionManager()

    class Meta:
        ordering = ["unit", "position", "name"]
        constraints = [models.UniqueConstraint(fields=["unit", "slug"], name="unique_option_per_unit")]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str, str, str, str]:
        return (*self.unit.natural_key(), self.slug)

    natural_key.dependencies = ["catalogue.unit"]  # type: ignore[attr-defined]

    def save(self, *args: object, **kwargs: object) -> None:
        before = None if self._state.adding else self.updated_at
        super().save(*args, **kwargs)
        if self.updated_at != before:  # a real change (``Stamped.save``): the unit's options changed
            Unit.objects.filter(pk=self.unit_id).update(options_updated_at=self.updated_at)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        Unit.objects.filter(pk=self.unit_id).update(options_updated_at=timezone.now())
        return super().delete(*args, **kwargs)

    @property
    def display_name(self) -> str:
        return shown(self.name, self.name_fr)

    def cost(self) -> dict[str, int]:
        """Price per quality; a quality the option is not offered at is left out."""
        costs = {q: getattr(self, f"cost_{q}") for q in army_rules.QUALITIES}
        return {q: c for q, c in costs.items() if c is not None}

    def to_rules(self) -> army_rules.OptionSpec:
        return army_rules.OptionSpec(
            key=self.slug,
            name=self.name,
            per_model=self.per_model,
            cost=self.cost(),
            max_count=self.max_count,
            group=self.group,
            all_models=self.all_models,
            excludes=tuple(self.excludes or ()),
            adds_models=self.adds_models,
            within_size=self.within_size,
            free_unit=self.free_unit,
            free_per_list=self.free_per_list,
        )


@receiver(m2m_changed, sender=Unit.weapons.through)
@receiver(m2m_changed, sender=Unit.special_rules.through)
@receiver(m2m_changed, sender=Army.national_rules.through)
def _links_changed(sender: type, instance: models.Model, action: str, reverse: bool, pk_set: set | None, **kwargs):
    """A unit's weapons or rules, or an army's national rules, were linked or unlinked: move its stamps.

    From either side (``unit.weapons.add(w)`` or ``weapon.units.add(u)``), through the admin, the
    importers or ``load_reference_data``.
    """
    if action not in ("post_add", "post_remove", "pre_clear") or (action != "pre_clear" and not pk_set):
        return  # nothing was linked or unlinked
    owner = Army if sender is Army.national_rules.through else Unit
    if not reverse:
        pks = {instance.pk}
    elif action == "pre_clear":
        field = "armies" if owner is Army else "units"
        pks = set(getattr(instance, field).values_list("pk", flat=True))
    else:
        pks = set(pk_set or ())
    stamps = {"profile_updated_at": timezone.now()} if owner is Unit else {}
    if pks:
        owner.objects.filter(pk__in=pks).update(**stamps)


class UnitShare(Created):
    """A link to a player's own units of one edition: whoever holds it may copy them into theirs."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="unit_shares")
    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=32, unique=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "edition"], name="one_unit_share_per_edition")]

    def __str__(self) -> str:
        return f"{self.owner} · {self.edition.slug}"

    def units(self) -> UnitQuerySet:
        return Unit.objects.filter(owner=self.owner, army__edition=self.edition, removed=False)
