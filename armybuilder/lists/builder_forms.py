"""Forms for the builder page: each one validates a single action on a list, an entry or a platoon.

Every form is bounded by what the catalogue offers (qualities, model counts, option maxima and
groups) so an invalid POST is refused with a reason and changes nothing. Option maxima come
from ``rules.army.points.option_limit``, the same rule the points maths applies.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from django import forms
from django.core.exceptions import ValidationError
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _

from armybuilder.catalogue.models import Option, Quality, Unit, UnitType
from armybuilder.lists.models import ArmyList, Entry, PlatoonKind
from rules.army.force_org import edition_rules
from rules.army.model import OptionGroupSpec
from rules.army.points import group_limit, group_over_maximum, men_within_size, option_conflicts, option_limit
from rules.combat.national import free_unit_rule
from rules.errors import ForceOrgError

NAME_MAX_LENGTH = 100


def platoon_kinds(edition_slug: str) -> list[tuple[str, str]]:
    """(value, label) of the platoon kinds the edition's force organisation uses (from rules/).

    1st and 2nd edition build on the Reinforced Platoon; 3rd edition on a Rifle Platoon plus
    specialist support platoons. An edition rules/ does not know gets the 2nd edition's.
    """
    try:
        kinds = edition_rules(edition_slug).platoons
    except ForceOrgError:
        kinds = edition_rules("v2").platoons
    labels = dict(PlatoonKind.choices)
    return [(kind, labels[kind]) for kind in kinds]


@functools.cache
def _platoon_kind_labels(language: str) -> dict[str, str]:
    return {value: str(label) for value, label in PlatoonKind.choices}


def platoon_kind_labels() -> dict[str, str]:
    """Each platoon kind's label in the active language (``get_kind_display()`` without its cost)."""
    return _platoon_kind_labels(get_language() or "en")


def platoon_choices(army_list: ArmyList) -> list[tuple[str, str]]:
    """The list's platoons (prefetched) plus "no platoon"."""
    kinds = platoon_kind_labels()
    return [("", str(_("No platoon")))] + [
        (str(p.pk), p.name or kinds.get(p.kind, p.kind)) for p in army_list.platoons.all()
    ]


PERIODS = (("E", _("Early war")), ("M", _("Mid war")), ("L", _("Late war")))


class CatalogueFilterForm(forms.Form):
    q = forms.CharField(label=_("Name"), max_length=NAME_MAX_LENGTH, required=False)
    type = forms.ChoiceField(label=_("Unit type"), choices=[("", _("All types")), *UnitType.choices], required=False)
    period = forms.ChoiceField(label=_("War period"), choices=[("", _("Any period")), *PERIODS], required=False)
    # Imported data marks some units as campaign, community or experimental: offered only when asked.
    extra = forms.BooleanField(label=_("Campaign, community and experimental units"), required=False)

    def extras(self) -> tuple[str, bool]:
        """The valid period filter ("E", "M", "L" or "") and whether marked units are asked for."""
        if not self.is_valid():
            return "", False
        return self.cleaned_data["period"], self.cleaned_data["extra"]

    def filters(self) -> tuple[str, str]:
        """The valid filters (name, unit type); an invalid value filters nothing."""
        if not self.is_valid():
            return "", ""
        return self.cleaned_data["q"], self.cleaned_data["type"]


class AddEntryForm(forms.Form):
    unit = forms.ModelChoiceField(
        queryset=Unit.objects.none(),
        error_messages={
            "required": _("Choose a unit to add."),
            "invalid_choice": _("That unit is not in this army's catalogue."),
        },
    )
    platoon = forms.ChoiceField(label=_("Add to"), required=False)

    def __init__(self, *args, army_list: ArmyList, user=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.army_list = army_list
        self.fields["unit"].queryset = Unit.objects.all().for_player(army_list.army, user)
        self.fields["platoon"].choices = platoon_choices(army_list)
        self.fields["platoon"].error_messages["invalid_choice"] = _("That platoon is not in this list.")


class QualityForm(forms.Form):
    quality = forms.ChoiceField(label=_("Quality"))

    def __init__(self, *args, entry: Entry, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        labels = dict(Quality.choices)
        self.fields["quality"].choices = [(q, labels[q]) for q in entry.unit.qualities()]
        self.fields["quality"].error_messages["invalid_choice"] = _("That quality is not offered for this unit.")
        self.entry = entry

    def clean_quality(self) -> str:
        """Refuse a quality a taken option is not offered at (a variant priced for Veterans only)."""
        quality = self.cleaned_data["quality"]
        taken = self.entry.options or {}
        for option in self.entry.unit.options.all():
            if taken.get(option.slug) and getattr(option, f"cost_{quality}", None) is None:
                raise ValidationError(
                    _("%(option)s is not offered at %(quality)s; choose another first.")
                    % {"option": option.display_name, "quality": dict(Quality.choices)[quality]}
                )
        return quality


class ModelsForm(forms.Form):
    """Either an absolute count (the number input) or a step of one (the − and + buttons).

    A step is applied in the database relative to the stored count, so two quick clicks from
    two tabs both count.
    """

    models = forms.IntegerField(label=_("Models"), required=False)
    step = forms.TypedChoiceField(choices=[("-1", "-1"), ("1", "1")], coerce=int, required=False, empty_value=None)

    def __init__(self, *args, entry: Entry, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.entry = entry
        self.low = entry.unit.base_models
        # A team whose men the data counts within the unit's size leaves as many fewer places.
        options = [option.to_rules() for option in entry.unit.options.all()]
        self.high = entry.unit.max_models - men_within_size(options, entry.options or {})

    def clean(self) -> dict:
        data = super().clean()
        step, models = data.get("step"), data.get("models")
        if self.errors:
            return data
        if step is not None:
            target = self.entry.models_count + step
            if target < self.low:
                raise ValidationError(_("Already at the fewest models (%(n)s).") % {"n": self.low})
            if target > self.high:
                raise ValidationError(_("Already at the most models (%(n)s).") % {"n": self.high})
        elif models is None:
            raise ValidationError(_("Enter a number of models."))
        elif not self.low <= models <= self.high:
            raise ValidationError(
                _("This unit has %(low)s to %(high)s models.") % {"low": self.low, "high": self.high}
                if self.low != self.high
                else _("This unit has exactly %(n)s models.") % {"n": self.low}
            )
        return data


class NameForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=NAME_MAX_LENGTH,
        required=False,
        error_messages={"max_length": _("Keep the name to %(limit_value)s characters or fewer.")},
    )


class EntryPlatoonForm(forms.Form):
    platoon = forms.ChoiceField(label=_("Platoon"), required=False)

    def __init__(self, *args, army_list: ArmyList, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["platoon"].choices = platoon_choices(army_list)
        self.fields["platoon"].error_messages["invalid_choice"] = _("That platoon is not in this list.")


class MoveForm(forms.Form):
    direction = forms.ChoiceField(choices=[("up", _("Up")), ("down", _("Down"))])


class PlatoonForm(forms.Form):
    kind = forms.ChoiceField(label=_("Platoon kind"))
    name = forms.CharField(
        label=_("Name (optional)"),
        max_length=NAME_MAX_LENGTH,
        required=False,
        error_messages={"max_length": _("Keep the name to %(limit_value)s characters or fewer.")},
    )

    def __init__(self, *args, edition_slug: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = platoon_kinds(edition_slug)
        self.fields["kind"].error_messages["invalid_choice"] = _("That kind of platoon is not used in this edition.")


@dataclass
class OptionChoice:
    """One option as the entry card shows it; the text fields are ready-made for the template."""

    option: Option
    field_name: str
    count: int
    limit: int
    cost: int | None  # None: not offered at the entry's quality
    widget: str  # "checkbox", "number" or "radio"
    quality_label: str = ""
    free_reason: str = ""  # the national rule that makes the unit free, by name
    slug: str = ""
    label: str = ""
    field_id: str = ""
    cost_text: str = ""
    count_text: str = ""
    limit_text: str = ""
    team_text: str = ""
    errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # The texts are escaped once here rather than at each use in the template.
        self.slug = self.option.slug
        self.label = conditional_escape(self.option.display_name)
        self.field_id = f"{self.field_name}-{self.slug}" if self.widget == "radio" else self.field_name
        if self.cost is None:
            cost_text = gettext("not offered at %(quality)s") % {"quality": self.quality_label}
        elif self.option.free_unit and self.free_reason:
            cost_text = gettext("the whole unit free: %(rule)s") % {"rule": self.free_reason}
        elif self.option.free_unit:
            cost_text = gettext("the whole unit free")
        elif self.option.all_models:
            cost_text = gettext("+%(cost)s pts a man, whole unit") % {"cost": self.cost}
        elif self.widget == "number" and self.option.per_model:
            cost_text = gettext("+%(cost)s pts a man, up to %(limit)s") % {"cost": self.cost, "limit": self.limit}
        elif self.widget == "number":
            cost_text = gettext("+%(cost)s pts each, up to %(limit)s") % {"cost": self.cost, "limit": self.limit}
        else:
            cost_text = gettext("+%(cost)s pts") % {"cost": self.cost}
        self.cost_text = conditional_escape(cost_text)
        if self.option.adds_models:
            # A team inside the unit: its men count as the unit's models everywhere.
            self.team_text = conditional_escape(
                ngettext("adds %(n)s man", "adds %(n)s men", self.option.adds_models) % {"n": self.option.adds_models}
            )
        self.count_text = SafeString(self.count)
        self.limit_text = SafeString(self.limit)

    @property
    def offered(self) -> bool:
        return self.cost is not None


@dataclass
class OptionBlock:
    """Options shown together: a radio group for exclusive once-per-unit options, else a run of fields.

    ``key`` names the block's place for a refusal (``grp-<n>``); ``group`` is the shared limit
    the block's options are held to, when the data describes one (``Unit.option_groups``).
    """

    legend: str
    radio_name: str = ""
    choices: list[OptionChoice] = field(default_factory=list)
    key: str = ""
    title: str = ""
    hint: str = ""
    group: OptionGroupSpec | None = None
    limit: int | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def none_checked(self) -> bool:
        return not any(choice.count for choice in self.choices)

    @property
    def offers_none(self) -> bool:
        """A radio group offers "None" unless a choice is required (a tank's variant)."""
        return self.group is None or self.group.minimum == 0


def _group_hint(group: OptionGroupSpec, limit: int | None) -> str:
    if limit is None:
        return gettext("Choose at least %(n)s.") % {"n": group.minimum} if group.minimum else ""
    if group.minimum and group.minimum == limit:
        return gettext("Choose one.") if limit == 1 else gettext("Choose %(n)s.") % {"n": limit}
    if group.minimum:
        return gettext("Choose %(low)s to %(high)s.") % {"low": group.minimum, "high": limit}
    if group.per_model:
        return gettext("Up to one a man (%(n)s in all).") % {"n": limit}
    return gettext("Up to %(n)s of these.") % {"n": limit}


def _free_reason(entry: Entry) -> str:
    """The name of the army's national rule that makes this unit free (Forward Artillery Doctrine...)."""
    rules = {rule.slug: rule for rule in entry.army_list.army.national_rules.all()}
    slug = free_unit_rule(set(rules), entry.unit.unit_type)
    return rules[slug].display_name if slug else ""


def option_blocks(entry: Entry) -> list[OptionBlock]:
    """The entry's options as the card shows them, in the unit's order (no form needed).

    Options taken at most once per unit that exclude each other (a group the data does not
    describe), or that share a described group of at most one choice, become one radio group
    (``grp-<n>``); any other option is its own field (``opt-<slug>``): a checkbox if it can be
    taken once, else a number bounded by ``option_limit``. A described group's options are shown
    together under its label, with its limit.
    """
    current = entry.options or {}
    unit = entry.unit
    options = list(unit.options.all())
    free_reason = _free_reason(entry) if any(o.free_unit for o in options) else ""
    limits = {option.pk: option_limit(option.to_rules(), entry.models_count) for option in options}
    described = {group["key"]: OptionGroupSpec(**group) for group in unit.option_groups or ()}
    grouped: dict[str, list[Option]] = {}
    for option in options:
        if option.group:
            grouped.setdefault(option.group, []).append(option)

    def single_choice(key: str, members: list[Option]) -> bool:
        once = all(not o.per_model and limits[o.pk] <= 1 for o in members)
        spec = described.get(key)
        if spec is None:
            return len(members) > 1 and once
        return once and spec.maximum == 1 and not spec.per_model

    radio_groups = {key for key, members in grouped.items() if single_choice(key, members)}
    quality_label = str(dict(Quality.choices).get(entry.quality, entry.quality))
    blocks: list[OptionBlock] = []
    by_group: dict[str, OptionBlock] = {}
    for option in options:
        limit = limits[option.pk]
        count = _as_count(current.get(option.slug))
        cost = getattr(option, f"cost_{entry.quality}", None)
        if option.group in radio_groups:
            widget, name = "radio", ""
        elif option.all_models or (limit <= 1 and not option.per_model):
            widget, name = "checkbox", f"opt-{option.slug}"
        else:
            widget, name = "number", f"opt-{option.slug}"
        if not option.group:
            choice = OptionChoice(option, name, count, limit, cost, widget, quality_label, free_reason)
            blocks.append(OptionBlock(legend="", key=name, choices=[choice]))
            continue
        block = by_group.get(option.group)
        if block is None:
            key = f"grp-{len(by_group) + 1}"
            spec = described.get(option.group)
            block = by_group[option.group] = OptionBlock(
                legend=option.group, radio_name=key if widget == "radio" else "", key=key, group=spec
            )
            if spec is None:
                block.title = gettext("Choose one")
            else:
                block.limit = group_limit(spec, entry.models_count)
                block.title = spec.label
                block.hint = _group_hint(spec, block.limit)
            blocks.append(block)
        block.choices.append(
            OptionChoice(option, block.radio_name or name, count, limit, cost, widget, quality_label, free_reason)
        )
    return blocks


class OptionsForm(forms.Form):
    """Every option of the entry's unit (see ``option_blocks``), bounded by its maximum and group.

    ``cleaned_options()`` is the new ``Entry.options`` dict (counts above zero only). A refusal
    that belongs to one option or group is kept in ``placed_errors`` under the field name or the
    block's key, so the page shows it next to that field; ``general_errors()`` are the others.
    """

    def __init__(self, *args, entry: Entry, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.entry = entry
        self.blocks = option_blocks(entry)
        self.placed_errors: dict[str, list[str]] = {}
        for block in self.blocks:
            if block.radio_name:
                choices = [("", _("None")), *((c.option.slug, c.option.display_name) for c in block.choices)]
                self.fields[block.radio_name] = forms.ChoiceField(required=False, choices=choices)
                continue
            for choice in block.choices:
                if choice.widget == "checkbox":
                    self.fields[choice.field_name] = forms.BooleanField(required=False)
                    continue
                message = ngettext(
                    "%(option)s can be taken at most once.",
                    "%(option)s can be taken at most %(limit)s times.",
                    choice.limit,
                ) % {"option": choice.option.display_name, "limit": choice.limit}
                self.fields[choice.field_name] = forms.IntegerField(
                    required=False,
                    min_value=0,
                    max_value=choice.limit,
                    error_messages={"max_value": message, "min_value": _("Enter zero or more.")},
                )

    def _place(self, key: str, message: str) -> None:
        self.placed_errors.setdefault(key, []).append(message)

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            for name, messages in self.errors.items():
                if name in self.fields:
                    self.placed_errors.setdefault(name, []).extend(str(m) for m in messages)
            return data
        chosen = self._chosen(data)
        quality = dict(Quality.choices).get(self.entry.quality, self.entry.quality)
        for block in self.blocks:
            for choice in block.choices:
                if choice.slug in chosen and not choice.offered:
                    self._place(
                        block.radio_name or choice.field_name,
                        gettext("%(option)s is not offered at %(quality)s.")
                        % {"option": choice.option.display_name, "quality": quality},
                    )
            if block.radio_name or not block.legend or block.group is not None:
                continue
            taken = [c.option.display_name for c in block.choices if _as_count(data.get(c.field_name))]
            if len(taken) > 1:
                self._place(
                    block.key, gettext("%(names)s exclude each other; choose one.") % {"names": " / ".join(taken)}
                )
        # A shared limit ("up to 2 of these upgrades"): the same check as the points'.
        unit = self.entry.unit.to_rules()
        keys = {block.group.key: block for block in self.blocks if block.group is not None}
        for group, count, limit in group_over_maximum(unit, self.entry.models_count, chosen):
            block = keys.get(group.key)
            message = ngettext(
                "%(group)s allows at most %(limit)s choice; %(count)s were chosen.",
                "%(group)s allows at most %(limit)s choices; %(count)s were chosen.",
                limit,
            ) % {"group": group.label, "limit": limit, "count": count}
            self._place(block.key if block else "", message)
        # An option that excludes another ("if no Panzerfaust taken"): the same check as the points'.
        options = {c.option.slug: c.option for block in self.blocks for c in block.choices}
        specs = [option.to_rules() for option in options.values()]
        # A team whose men the data counts within the unit's size, taken by a unit already full.
        total = self.entry.models_count + men_within_size(specs, chosen)
        if total > unit.max_models:
            fields = {c.option.slug: c.field_name for block in self.blocks for c in block.choices}
            within = next((s.key for s in specs if s.within_size and chosen.get(s.key)), "")
            self._place(
                fields.get(within, ""),
                gettext("%(name)s has %(models)s models with its teams; it may have at most %(maximum)s.")
                % {"name": self.entry.display_name, "models": total, "maximum": unit.max_models},
            )
        for option, other in option_conflicts(specs, chosen):
            self._place(
                "",
                gettext("%(option)s cannot be taken with %(other)s.")
                % {"option": options[option.key].display_name, "other": options[other.key].display_name},
            )
        if self.placed_errors:
            raise ValidationError([m for messages in self.placed_errors.values() for m in messages])
        return data

    def general_errors(self) -> list[str]:
        """The refusals that belong to no single field or group (shown under the options)."""
        return list(self.placed_errors.get("", []))

    def field_errors(self) -> dict[str, list[str]]:
        """The refusals placed next to one option or group, by field name or block key."""
        return {key: messages for key, messages in self.placed_errors.items() if key}

    def cleaned_options(self) -> dict[str, int]:
        return self._chosen(self.cleaned_data)

    def _chosen(self, data: dict) -> dict[str, int]:
        chosen: dict[str, int] = {}
        for block in self.blocks:
            for choice in block.choices:
                value = data.get(choice.field_name)
                count = int(value == choice.option.slug) if choice.widget == "radio" else _as_count(value)
                if count:
                    chosen[choice.option.slug] = count
        return chosen


def _as_count(value: object) -> int:
    if value is True:
        return 1
    if isinstance(value, int) and value > 0:
        return value
    return 0
