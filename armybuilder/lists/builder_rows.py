"""The builder's roster: a list's entries as compact rows grouped by platoon, with their totals.

``Roster`` takes a list loaded with ``ArmyList.objects.for_builder(details=False)``, summarises
it once (no query) and gives the builder's templates what they show: a ``Row`` per entry (what
its editor shows worked out only when it is opened) and a ``Group`` per platoon, its total and
problems. The views decide which of these an answer sends.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from armybuilder.catalogue.change_notes import unit_change_notes
from armybuilder.catalogue.models import OfficerRank, Quality, UnitType
from armybuilder.lists.builder_forms import option_blocks, platoon_choices, platoon_kind_labels
from armybuilder.lists.models import ArmyList, Entry, ForceOrg, Platoon
from armybuilder.lists.summary import list_summary
from rules.army import price_table
from rules.army.model import ListSummary
from rules.army.points import men_within_size


def builder_url(army_list: ArmyList) -> str:
    return reverse("ab-list-builder", args=[army_list.pk])


def damage_value_text(unit) -> str:
    """A vehicle's damage value as the builder says it ("Damage value 9+"), wherever the unit is
    shown (its row, its editor, the catalogue); empty for men and guns, whose quality says it."""
    value = unit.vehicle_damage_value
    return _("Damage value %(value)s+") % {"value": value} if value else ""


@dataclass
class EntryErrors:
    """Messages next to each of an entry's controls (empty lists when all is well)."""

    quality: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    platoon: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    # Refusals next to one option or option group, by field name or block key (``OptionsForm``).
    option_fields: dict[str, list[str]] = field(default_factory=dict)
    name: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return any((self.quality, self.models, self.platoon, self.options, self.option_fields, self.name, self.actions))


NO_ERRORS = EntryErrors()


@dataclass
class Errors:
    """Validation messages to show next to the fields of a refused action."""

    entries: dict[int, EntryErrors] = field(default_factory=dict)
    platoons: dict[int, list[str]] = field(default_factory=dict)
    new_platoon: list[str] = field(default_factory=list)
    add: list[str] = field(default_factory=list)


def labels(choices: Iterable[tuple[str, object]]) -> dict[str, str]:
    return {value: str(label) for value, label in choices}


class Labels:
    """Quality, unit type and rank labels in the active language, translated once per response."""

    def __init__(self) -> None:
        self.quality = labels(Quality.choices)
        self.unit_type = labels(UnitType.choices)
        self.rank = labels(OfficerRank.choices)


class Row:
    """One entry as its roster row shows it; what only its editor shows is worked out on demand."""

    def __init__(
        self,
        entry: Entry,
        points: int | None,
        *,
        errors: EntryErrors = NO_ERRORS,
        is_open: bool = False,
        first: bool = True,
        last: bool = True,
        is_new: bool = False,
        change_note: str = "",
        choices: list[tuple[str, str]] | None = None,
        base_url: str = "",
        labels: Labels | None = None,
        name: str | None = None,
    ) -> None:
        self.entry, self.pk, self.points, self.errors = entry, entry.pk, points, errors
        self.key, self.url = f"entry-{entry.pk}", f"{base_url}entries/{entry.pk}/"
        self.open_url = f"{base_url}?edit={entry.pk}#entry-{entry.pk}"
        self.labels = labels or Labels()
        self.is_open, self.first, self.last, self.is_new = is_open, first, last, is_new
        self.change_note, self.platoon_choices = change_note, choices or []
        unit = entry.unit
        self.unit = unit
        # ``name``: the list's name for it, numbered when another unit shares it (``entry_names``).
        self.name = name or entry.name or unit.display_name
        self.unit_name = unit.display_name
        self.quality = entry.quality
        self.quality_label = self.labels.quality.get(entry.quality, entry.quality)
        self.models = entry.models_count
        # Every model, the teams' men included: what the row says the unit fields.
        self.total_models = entry.total_models
        self.models_text = ngettext("%(counter)s model", "%(counter)s models", self.total_models) % {
            "counter": self.total_models
        }

    @cached_property
    def damage_value(self) -> str:
        """A vehicle's damage value as the row and the editor say it ("Damage value 9+")."""
        return damage_value_text(self.unit)

    @cached_property
    def chips(self) -> list[str]:
        """The options taken, in the unit's order, as short labels ("2× Submachine gun")."""
        taken = self.entry.options or {}
        chips = []
        for option in self.unit.options.all():
            count = taken.get(option.slug)
            if count:
                chips.append(f"{count}× {option.display_name}" if count > 1 else option.display_name)
        return chips

    # -- The editor -------------------------------------------------------------------------

    @cached_property
    def facts(self) -> str:
        unit = self.unit
        facts = [self.labels.unit_type.get(unit.unit_type, unit.unit_type)]
        if unit.officer_rank:
            facts.append(self.labels.rank.get(unit.officer_rank, unit.officer_rank))
        if self.damage_value:
            facts.append(self.damage_value)
        if unit.display_weapons:
            facts.append(unit.display_weapons)
        return " · ".join(facts)

    @cached_property
    def qualities(self) -> list[tuple[str, str]]:
        return [(q, self.labels.quality[q]) for q in self.unit.qualities()]

    @property
    def fixed_models(self) -> bool:
        return self.unit.base_models == self.unit.max_models

    @property
    def can_fewer(self) -> bool:
        return self.models > self.unit.base_models

    @property
    def can_more(self) -> bool:
        return self.models + self.men_within_size < self.unit.max_models

    @cached_property
    def men_within_size(self) -> int:
        """The men of the teams taken whose places the data counts within the unit's size."""
        return men_within_size([option.to_rules() for option in self.unit.options.all()], self.entry.options or {})

    @cached_property
    def models_hint(self) -> str:
        hint = f"{self.unit.base_models}–{self.unit.max_models}"
        per_model = self.unit.per_model_cost().get(self.quality)
        if per_model:
            hint += ", " + _("+%(cost)s pts each extra") % {"cost": per_model}
        if self.total_models != self.models:
            hint += ", " + _("%(n)s with the teams") % {"n": self.total_models}
        return hint

    @cached_property
    def option_blocks(self) -> list:
        blocks = option_blocks(self.entry)
        placed = self.errors.option_fields
        if placed:
            for block in blocks:
                if block.legend:  # a group: its own refusals (radio choice, shared limit) beside it
                    block.errors = placed.get(block.key, [])
                for choice in block.choices:
                    if choice.widget != "radio":
                        choice.errors = placed.get(choice.field_name, [])
        return blocks

    @cached_property
    def price_table(self) -> str:
        """What builder.js needs to price a men, quality or option change at once (the server's
        answer still decides): ``rules.army.price_table.encode``."""
        return price_table.encode(self.unit.to_rules())

    @property
    def platoon_value(self) -> str:
        return str(self.entry.platoon_id or "")


@dataclass
class Group:
    """A platoon (None: the units in no platoon) with its rows, total and problems."""

    platoon: Platoon | None
    rows: list[Row]
    points: int
    problems: list[tuple[object, str]]
    errors: list[str] = field(default_factory=list)
    base_url: str = ""
    # The list's name for the platoon, numbered when another platoon shares it (``platoon_names``).
    numbered_name: str = ""

    @property
    def key(self) -> str:
        return f"platoon-{self.platoon.pk}" if self.platoon else "platoon-none"

    @property
    def url(self) -> str:
        return f"{self.base_url}platoons/{self.platoon.pk}/" if self.platoon else ""

    @property
    def kind(self) -> str:
        return platoon_kind_labels().get(self.platoon.kind, self.platoon.kind) if self.platoon else ""

    @property
    def name(self) -> str:
        if not self.platoon:
            return _("Not in a platoon")
        return self.numbered_name or self.platoon.name or self.kind


def problem_href(problem) -> str:
    if problem.entry_key:
        return f"#entry-{problem.entry_key}"
    return f"#platoon-{problem.platoon_key}" if problem.platoon_key else ""


class Roster:
    """A list loaded with ``for_builder(details=False)``, summarised once, as rows and groups."""

    def __init__(
        self,
        army_list: ArmyList,
        *,
        errors: Errors | None = None,
        open_pk: int | None = None,
        new_pk: int | None = None,
    ) -> None:
        self.army_list = army_list
        self.summary: ListSummary = list_summary(army_list)
        self.errors = errors or Errors()
        self.open_pk, self.new_pk = open_pk, new_pk
        self.use_platoons = army_list.force_org == ForceOrg.PLATOONS
        self.platoons = list(army_list.platoons.all())
        self.entries = list(army_list.entries.all())
        self.base_url = builder_url(army_list)
        platoon_ids = {p.pk for p in self.platoons} if self.use_platoons else set()
        self.group_of = {e.pk: (e.platoon_id if e.platoon_id in platoon_ids else None) for e in self.entries}
        self.labels = Labels()
        self.entry_names = army_list.entry_names()
        self.platoon_names = army_list.platoon_names()
        # The first and last unit of each group: their move buttons at that end are disabled.
        ends: dict[int | None, list[int]] = {}
        for entry in self.entries:
            ends.setdefault(self.group_of[entry.pk], [entry.pk, entry.pk])[1] = entry.pk
        self.firsts = {first for first, _last in ends.values()}
        self.lasts = {last for _first, last in ends.values()}
        # Units an import changed or removed since the list was saved get a note.
        self.notes = unit_change_notes(self.entries, since=army_list.updated_at)

    @cached_property
    def choices(self) -> list[tuple[str, str]]:
        return platoon_choices(self.army_list)

    def entry(self, pk: int) -> Entry | None:
        return next((e for e in self.entries if e.pk == pk), None)

    def in_group(self, platoon_id: int | None) -> list[Entry]:
        return [e for e in self.entries if self.group_of[e.pk] == platoon_id]

    def row(self, entry: Entry, *, is_open: bool | None = None) -> Row:
        return Row(
            entry,
            self.summary.entry_points.get(str(entry.pk)),
            errors=self.errors.entries.get(entry.pk, NO_ERRORS),
            is_open=(entry.pk == self.open_pk) if is_open is None else is_open,
            first=entry.pk in self.firsts,
            last=entry.pk in self.lasts,
            is_new=entry.pk == self.new_pk,
            change_note=self.notes.get(entry.pk, ""),
            choices=self.choices if self.use_platoons else None,
            base_url=self.base_url,
            labels=self.labels,
            name=self.entry_names.get(entry.pk),
        )

    def renamed(self, before: dict[int, str], skip: int | None = None) -> list[Row]:
        """Rows whose printed name moved since ``before`` (an ``entry_names()``): adding a second
        "Rifle Squad" makes the first "Rifle Squad #1", removing it makes it plain again."""
        names = self.entry_names
        return [
            self.row(e, is_open=False)
            for e in self.entries
            if e.pk != skip and e.pk in before and before[e.pk] != names.get(e.pk)
        ]

    def _totals(self, platoon_id: int | None, summary: ListSummary) -> tuple[int, list[tuple[object, str]]]:
        """A group's points and problems in ``summary``, for its units as they are now."""
        keys = {str(e.pk) for e in self.in_group(platoon_id)}
        points = sum(summary.entry_points.get(key) or 0 for key in keys)
        problems = [
            (p, problem_href(p))
            for p in summary.problems
            if (platoon_id is not None and p.platoon_key == str(platoon_id)) or p.entry_key in keys
        ]
        return points, problems

    def group_changed(self, platoon_id: int | None, before: ListSummary) -> bool:
        """Whether a group's header (total, problems) differs from what ``before`` showed."""
        return self._totals(platoon_id, before) != self._totals(platoon_id, self.summary)

    def group(self, platoon_id: int | None) -> Group:
        entries = self.in_group(platoon_id)
        points, problems = self._totals(platoon_id, self.summary)
        platoon = next((p for p in self.platoons if p.pk == platoon_id), None)
        errors = self.errors.platoons.get(platoon_id, []) if platoon_id else []
        # Rows in list order: a group's entries are the list's, filtered.
        rows = [self.row(e) for e in entries]
        name = self.platoon_names.get(platoon_id, "") if platoon_id else ""
        return Group(platoon, rows, points, problems, errors, base_url=self.base_url, numbered_name=name)

    def groups(self) -> list[Group]:
        groups = [self.group(p.pk) for p in self.platoons] if self.use_platoons else []
        # The units in no platoon: always there (hidden while empty) so a unit can be added to it.
        groups.append(self.group(None))
        return groups

    def group_for(self, entry: Entry) -> Group:
        return self.group(self.group_of[entry.pk])
