"""Rules-reference data: editions, their tables and rows, weapons and special rules.

Every row carries the edition it belongs to (through its table), the source it was taken from
(a seed file name or a public source tag from rules-notes.md) and, where sources disagree or
the fact is an inference, a status and a note saying which value was chosen and why.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from armybuilder.localised import shown
from armybuilder.stamps import Stamped, StampedManager, StampedQuerySet


def _is_french() -> bool:
    return (get_language() or "en").startswith("fr")


def _language() -> str:
    return (get_language() or "en").split("-")[0]


def _translated(translations: dict, field: str, english: str, french: str = "") -> str:
    """A text in the active language: the stored French for French, the ``translations`` of the
    other languages (``{"de": {field: text}}``, from fixtures/src/reference_i18n), else English."""
    language = _language()
    if language == "en":
        return english
    if language == "fr":
        return french or english
    return (translations or {}).get(language, {}).get(field) or english


class Status(models.TextChoices):
    CONFIRMED = "confirmed", _("Confirmed")
    SINGLE = "single", _("Single source")
    UNVERIFIED = "unverified", _("Unverified")
    DISPUTED = "disputed", _("Sources disagree")


class EditionManager(StampedManager):
    def get_by_natural_key(self, slug: str) -> Edition:
        return self.get(slug=slug)


class Edition(Stamped):
    slug = models.SlugField(max_length=8, unique=True)
    number = models.PositiveSmallIntegerField(unique=True)
    name = models.CharField(max_length=60)
    name_fr = models.CharField(max_length=60, blank=True)
    year = models.PositiveSmallIntegerField(null=True, blank=True)
    source = models.TextField(blank=True, help_text="Which documents this edition's data comes from.")

    objects = EditionManager()

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        return (self.slug,)

    @property
    def display_name(self) -> str:
        if _is_french():
            return self.name_fr or self.name
        # "2nd edition" and its like are interface messages, translated in every catalogue.
        return gettext(self.name) if self.name else self.name


class EditionSlugQuerySet(StampedQuerySet):
    """Rows of an edition named by a slug unique within it: tables, special rules, weapons, armies."""

    def for_edition(self, edition: Edition) -> EditionSlugQuerySet:
        return self.filter(edition=edition)


class EditionSlugManager(models.Manager.from_queryset(EditionSlugQuerySet)):  # type: ignore[misc]
    """Fixtures name such a row by its edition's slug and its own (its ``natural_key``)."""

    def get_by_natural_key(self, edition_slug: str, slug: str) -> models.Model:
        return self.get(edition__slug=edition_slug, slug=slug)


class NamedInEdition(Stamped):
    """A row with a name (and its French) that is one edition's: a special rule, a weapon, an army.

    Its text names the edition too, as the same name stands once per edition.
    """

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.name} ({self.edition.slug})"

    @property
    def display_name(self) -> str:
        return shown(self.name, self.name_fr)


class RulesTableQuerySet(EditionSlugQuerySet):
    def with_rows(self) -> RulesTableQuerySet:
        return self.select_related("edition").prefetch_related("rows")


class RulesTable(Stamped):
    """One table of the quick-reference sheets for one edition (orders, terrain, HE, ...).

    ``columns`` is a list of ``{"key": ..., "en": ..., "fr": ..., "de": ...}``; each row's ``cells``
    maps those keys to values (numbers stay numbers so the API and the compare view can use them).
    ``translations`` holds the title and intro in the languages other than English and French.
    """

    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="tables")
    slug = models.SlugField(max_length=60)
    topic = models.SlugField(max_length=40, help_text="The reference page this table is shown on.")
    position = models.PositiveSmallIntegerField(default=0)
    title = models.CharField(max_length=120)
    title_fr = models.CharField(max_length=120, blank=True)
    intro = models.TextField(blank=True)
    intro_fr = models.TextField(blank=True)
    translations = models.JSONField(default=dict, blank=True)
    columns = models.JSONField(default=list)
    source = models.CharField(max_length=200)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.CONFIRMED)
    note = models.TextField(blank=True)

    objects = EditionSlugManager.from_queryset(RulesTableQuerySet)()

    class Meta:
        ordering = ["edition__number", "topic", "position", "slug"]
        constraints = [models.UniqueConstraint(fields=["edition", "slug"], name="unique_table_per_edition")]

    def __str__(self) -> str:
        return f"{self.title} ({self.edition.slug})"

    def natural_key(self) -> tuple[str, str]:
        return (self.edition.slug, self.slug)

    natural_key.dependencies = ["reference.edition"]  # type: ignore[attr-defined]

    @property
    def display_title(self) -> str:
        title = (self.translations or {}).get(_language(), {}).get("title")
        return title or shown(self.title, self.title_fr)

    @property
    def display_intro(self) -> str:
        return _translated(self.translations, "intro", self.intro, self.intro_fr)

    def column_labels(self) -> list[tuple[str, str]]:
        language = _language()
        if language in ("en", "fr"):
            return [(c["key"], shown(c["en"], c.get("fr") or "")) for c in self.columns]
        return [(c["key"], c.get(language) or shown(c["en"])) for c in self.columns]


# Columns holding modifiers: shown with their sign, as the quick-reference sheets print them.
SIGNED_COLUMNS = frozenset({"value", "morale_bonus"})


def signed(value: int) -> str:
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"


class RulesRowManager(StampedManager):
    def get_by_natural_key(self, edition_slug: str, table_slug: str, position: int) -> RulesRow:
        return self.get(table__edition__slug=edition_slug, table__slug=table_slug, position=position)


class RulesRow(Stamped):
    table = models.ForeignKey(RulesTable, on_delete=models.CASCADE, related_name="rows")
    position = models.PositiveSmallIntegerField()
    cells = models.JSONField(default=dict)
    cells_fr = models.JSONField(default=dict, blank=True, help_text="French text for the cells that differ.")
    # The other languages' text for the same cells: {"de": {"summary": ...}, ...}.
    translations = models.JSONField(default=dict, blank=True)
    source = models.CharField(max_length=200)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.CONFIRMED)
    note = models.TextField(blank=True)

    objects = RulesRowManager()

    class Meta:
        ordering = ["table", "position"]
        constraints = [models.UniqueConstraint(fields=["table", "position"], name="unique_row_position")]

    def __str__(self) -> str:
        return f"{self.table.slug} #{self.position}"

    def natural_key(self) -> tuple[str, str, int]:
        return (*self.table.natural_key(), self.position)

    natural_key.dependencies = ["reference.rulestable"]  # type: ignore[attr-defined]

    def display_cells(self) -> list:
        """The row's values in column order, in the active language, modifiers signed (+2, −1)."""
        language = _language()
        translated = self.cells_fr if language == "fr" else (self.translations or {}).get(language, {})
        values = []
        for column in self.table.columns:
            key = column["key"]
            value = translated[key] if key in translated else self.cells.get(key, "")
            if key in SIGNED_COLUMNS and isinstance(value, int) and not isinstance(value, bool):
                value = signed(value)
            values.append(value)
        return values

    def labelled_cells(self) -> list[tuple[str, Any]]:
        """``display_cells`` with each column's label: a phone stacks the row and names each value."""
        labels = [label for _key, label in self.table.column_labels()]
        return list(zip(labels, self.display_cells(), strict=True))


class SpecialRule(NamedInEdition):
    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="special_rules")
    slug = models.SlugField(max_length=60)
    name = models.CharField(max_length=80)
    name_fr = models.CharField(max_length=80, blank=True)
    summary = models.TextField(blank=True, help_text="A paraphrase, never rulebook prose.")
    summary_fr = models.TextField(blank=True)
    translations = models.JSONField(default=dict, blank=True)  # {"de": {"name": ..., "summary": ...}}
    source = models.CharField(max_length=200)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.CONFIRMED)
    note = models.TextField(blank=True)

    objects = EditionSlugManager()

    class Meta:
        ordering = ["edition__number", "name"]
        constraints = [models.UniqueConstraint(fields=["edition", "slug"], name="unique_rule_per_edition")]

    def natural_key(self) -> tuple[str, str]:
        return (self.edition.slug, self.slug)

    natural_key.dependencies = ["reference.edition"]  # type: ignore[attr-defined]

    @property
    def display_name(self) -> str:
        name = (self.translations or {}).get(_language(), {}).get("name")
        return name or shown(self.name, self.name_fr)

    @property
    def display_summary(self) -> str:
        return _translated(self.translations, "summary", self.summary, self.summary_fr)


class WeaponCategory(models.TextChoices):
    SMALL_ARMS = "small-arms", _("Small arms")
    HEAVY = "heavy", _("Heavy weapons")


class WeaponQuerySet(EditionSlugQuerySet):
    def for_chart(self) -> WeaponQuerySet:
        return self.select_related("edition").prefetch_related("special_rules")

    def rulebook(self) -> WeaponQuerySet:
        """The edition's own chart: what the rulebook prints, never a weapon an import brought."""
        return self.filter(imported=False)


class Weapon(NamedInEdition):
    """One line of an edition's weapons chart.

    ``pen`` is the penetration bonus added to damage rolls (0 for none); ``he_size`` is the HE
    template in inches for weapons that fire HE. A gun that fires both (an AT gun) has both.
    Howitzers and mortars have a minimum range; howitzers also have an indirect band.
    """

    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="weapons")
    slug = models.SlugField(max_length=60)
    name = models.CharField(max_length=80)
    name_fr = models.CharField(max_length=80, blank=True)
    category = models.CharField(max_length=12, choices=WeaponCategory.choices)
    position = models.PositiveSmallIntegerField(default=0)
    range_max = models.PositiveSmallIntegerField(help_text="Maximum range in inches.")
    range_min = models.PositiveSmallIntegerField(null=True, blank=True)
    indirect_min = models.PositiveSmallIntegerField(null=True, blank=True)
    indirect_max = models.PositiveSmallIntegerField(null=True, blank=True)
    shots = models.CharField(max_length=12, help_text='"1", "4", "D6", "D6+1"')
    pen = models.PositiveSmallIntegerField(default=0)
    he_size = models.PositiveSmallIntegerField(null=True, blank=True, help_text="HE template, inches.")
    special_rules = models.ManyToManyField(SpecialRule, blank=True, related_name="weapons")
    source = models.CharField(max_length=200)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.CONFIRMED)
    note = models.TextField(blank=True)
    # A weapon a catalogue import brought that the rulebook chart lacks: its army's units fire it,
    # and the reference shows it under that army, never in the rulebook chart or the compare view.
    imported = models.BooleanField(default=False, help_text="Brought by a catalogue import; not in the rulebook.")

    objects = EditionSlugManager.from_queryset(WeaponQuerySet)()

    class Meta:
        ordering = ["edition__number", "category", "position", "name"]
        constraints = [models.UniqueConstraint(fields=["edition", "slug"], name="unique_weapon_per_edition")]

    def natural_key(self) -> tuple[str, str]:
        return (self.edition.slug, self.slug)

    natural_key.dependencies = ["reference.edition", "reference.specialrule"]  # type: ignore[attr-defined]

    @property
    def range_display(self) -> str:
        if not self.range_max and self.indirect_max is None:
            return "–"  # no range: a close-combat weapon (grenades, a demolition charge)
        if self.indirect_min is not None and self.indirect_max is not None:
            return f'{self.range_max}" ({self.indirect_min}–{self.indirect_max}")'
        if self.range_min:
            return f'{self.range_min}–{self.range_max}"'
        return f'{self.range_max}"'

    @property
    def shots_display(self) -> str:
        """Shots as players read them. A flamethrower rolls one die to hit and a hit scores D6 hits
        (D6+1 from a vehicle), so "D6" is shown as "1 (D6 hits)" on the chart, the cards and the
        roster, as the resolver plays it. Expects ``special_rules`` prefetched."""
        if not any(rule.slug == "flamethrower" for rule in self.special_rules.all()):
            return self.shots
        hits = self.shots if "D" in self.shots.upper() else ("D6+1" if self.slug.startswith("vehicle") else "D6")
        return gettext("1 (%(hits)s hits)") % {"hits": hits}

    @property
    def pen_display(self) -> str:
        parts = []
        if self.pen:
            parts.append(f"+{self.pen}")
        if self.he_size:
            parts.append(f'HE ({self.he_size}")')
        return " / ".join(parts) or "–"

    def pen_for_api(self) -> int | str:
        """The API's ``pen``: the integer bonus, or "HE" for a weapon that only fires HE."""
        if self.pen == 0 and self.he_size:
            return "HE"
        return self.pen


class SearchAliasManager(StampedManager):
    def get_by_natural_key(self, edition_slug: str, term: str) -> SearchAlias:
        return self.get(edition__slug=edition_slug, term=term)


class SearchAlias(Stamped):
    """What players type ("MG42", "zook", "flamer", "PM") and the words it stands for in names.

    The weapons search and the builder's catalogue filter read these (``reference.search``), so
    the vocabulary is data, per edition and with its source, not code.
    """

    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="search_aliases")
    term = models.CharField(max_length=60, help_text="As players type it; matched without case or accents.")
    language = models.CharField(max_length=2, blank=True, help_text='"en", "fr", or empty for both.')
    means = models.JSONField(default=list, help_text='Words found in weapon and unit names, e.g. ["machine gun"].')
    source = models.CharField(max_length=200)

    objects = SearchAliasManager()

    class Meta:
        ordering = ["edition__number", "term"]
        constraints = [models.UniqueConstraint(fields=["edition", "term"], name="unique_alias_per_edition")]
        verbose_name_plural = "search aliases"

    def __str__(self) -> str:
        return f"{self.term} → {', '.join(self.means)} ({self.edition.slug})"

    def natural_key(self) -> tuple[str, str]:
        return (self.edition.slug, self.term)

    natural_key.dependencies = ["reference.edition"]  # type: ignore[attr-defined]
