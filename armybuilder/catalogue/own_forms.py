"""The form of a player's own unit: its profile, its weapon lines, its options and its rules.

Every field is parsed here, at the edge, and each refusal is shown next to its field; the
coherence of the whole (a vehicle has a damage value, sizes agree with costs) is
``rules.army.own_units.check``.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from armybuilder.catalogue.models import Army, OfficerRank, Slot, Unit, UnitType
from armybuilder.catalogue.mounts import ARCS, MOUNTS
from armybuilder.reference.models import Edition, SpecialRule, Weapon
from armydata.names import shown_name
from rules.army import own_units
from rules.army.model import QUALITIES
from rules.army.own_units import OPEN_TOPPED

MESSAGES = {
    "no_quality": _("Give the cost of at least one quality."),
    "max_below_base": _("The largest size cannot be smaller than the base size."),
    "per_model_missing": _("Give the cost of each extra man at this quality, or make the largest size the base size."),
    "per_model_without_quality": _("This quality has no base cost."),
    "vehicle_needs_damage": _("A vehicle needs its damage value."),
    "damage_only_vehicles": _("Only vehicles have a damage value."),
    "capacity_only_vehicles": _("Only vehicles carry passengers."),
    "open_topped_only_vehicles": _("Only a vehicle can be open-topped."),
    "officer_needs_rank": _("Choose the officer's rank."),
    "rank_only_headquarters": _("Only a headquarters unit has a rank."),
    "vehicle_weapon_needs_mount": _("Give each of a vehicle's weapons its mount."),
    "mount_only_vehicles": _("Only vehicles mount weapons; leave the mount empty."),
    "option_names_repeat": _("Two options have the same name."),
}

QUALITY_LABELS = {
    "inexperienced": _("Inexperienced"),
    "regular": _("Regular"),
    "veteran": _("Veteran"),
}


# No cost of an own unit is below 0: a negative option took a list's points below zero ("Points:
# −1800 / 200"), a way to hide a unit's price under an event's limit, and the sealed list could not
# be stored. A cheaper variant is typed as its own lower price instead.
COST_BELOW_ZERO = _("A cost cannot be below 0: type the cheaper price itself instead.")
OPTION_NEEDS_NAME = _("Name the option.")


def mark_steppers(form: forms.Form, names: tuple[str, ...]) -> None:
    """Counts get −/+ buttons from the page's script (the box stays typeable); costs do not."""
    for name in names:
        if name in form.fields:
            form.fields[name].widget.attrs.update({"data-stepper": "", "inputmode": "numeric"})


def _cost_field(label: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0,
        max_value=own_units.COST_MAX,
        error_messages={"min_value": COST_BELOW_ZERO},
    )


class UnitProfileForm(forms.Form):
    """An own unit's own fields: what the unit form and a file's definition (``own_units.parse_definition``)
    both carry, validated here for both, with the same messages."""

    name = forms.CharField(label=_("Name"), max_length=120)
    # An empty form starts as the commonest entry, an infantry squad.
    unit_type = forms.ChoiceField(label=_("Kind"), choices=UnitType.choices, initial=UnitType.INFANTRY)
    slot = forms.ChoiceField(label=_("Slot it fills"), choices=Slot.choices, initial=Slot.INFANTRY)
    officer_rank = forms.ChoiceField(
        label=_("Officer's rank"), choices=[("", _("Not an officer")), *OfficerRank.choices], required=False
    )
    damage_value = forms.IntegerField(label=_("Damage value"), required=False, min_value=1, max_value=15)
    transport_capacity = forms.IntegerField(
        label=_("Transport capacity"), required=False, min_value=1, max_value=own_units.MODELS_MAX
    )
    open_topped = forms.BooleanField(
        label=_("Open-topped"),
        required=False,
        help_text=_("A vehicle whose crew is exposed: it gets the edition's Open-topped rule."),
    )
    base_models = forms.IntegerField(label=_("Base size"), min_value=1, max_value=own_units.MODELS_MAX, initial=1)
    max_models = forms.IntegerField(label=_("Largest size"), min_value=1, max_value=own_units.MODELS_MAX, initial=1)
    cost_inexperienced = _cost_field(_("Inexperienced cost"))
    cost_regular = _cost_field(_("Regular cost"))
    cost_veteran = _cost_field(_("Veteran cost"))
    per_model_inexperienced = _cost_field(_("Inexperienced, each extra man"))
    per_model_regular = _cost_field(_("Regular, each extra man"))
    per_model_veteran = _cost_field(_("Veteran, each extra man"))
    composition = forms.CharField(label=_("Composition"), max_length=300, required=False)
    weapons_text = forms.CharField(
        label=_("Armament as printed"),
        max_length=300,
        required=False,
        help_text=_("Leave empty to list the weapons below."),
    )
    special_rules = forms.ModelMultipleChoiceField(
        label=_("Special rules"),
        queryset=SpecialRule.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": _("That rule is not in this edition.")},
    )

    def __init__(self, *args, edition: Edition, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.edition = edition
        rules = SpecialRule.objects.filter(edition=edition).order_by("name")
        # Open-topped is its own choice beside the vehicle's profile, not one box among the rules.
        self.fields["special_rules"].queryset = rules.exclude(slug=own_units.OPEN_TOPPED)
        if not rules.filter(slug=own_units.OPEN_TOPPED).exists():
            del self.fields["open_topped"]  # an edition whose data has no such rule (1st edition)
        self.fields["special_rules"].label_from_instance = lambda rule: rule.display_name
        mark_steppers(self, ("base_models", "max_models", "damage_value", "transport_capacity"))

    def costs(self, prefix: str) -> dict[str, int]:
        data = self.cleaned_data
        return {q: data[f"{prefix}_{q}"] for q in QUALITIES if data.get(f"{prefix}_{q}") is not None}


AFTER_SCOPE = ("composition", "weapons_text", "special_rules")


class OwnUnitForm(UnitProfileForm):
    """The page's form: the unit's fields, and the army it is kept in and offered to."""

    army = forms.ModelChoiceField(
        label=_("Army"),
        queryset=Army.objects.none(),
        error_messages={"invalid_choice": _("That army is not in this edition.")},
    )
    scope = forms.ChoiceField(
        label=_("Offered to"),
        choices=[("edition", _("Every army of the edition")), ("army", _("Only this army"))],
        initial="edition",
        required=False,  # left out (an older page, a script): the default, every army
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": _("Choose every army of the edition, or only this army.")},
    )
    # The fields in the page's order: the army after the name, the scope after the costs.
    field_order = (
        "name",
        "army",
        *(name for name in UnitProfileForm.base_fields if name not in ("name", *AFTER_SCOPE)),
        "scope",
        *AFTER_SCOPE,
    )

    def __init__(self, *args, edition: Edition, **kwargs) -> None:
        super().__init__(*args, edition=edition, **kwargs)
        self.fields["army"].queryset = Army.objects.filter(edition=edition, hidden=False).order_by("name")


class ChartWeaponField(forms.ModelChoiceField):
    """A weapon of the edition's chart, by id. Given the chart already read (``chart``, by id),
    it is looked up there: a file's many rows then cost no query each."""

    def __init__(self, *args, chart: dict[str, Weapon] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.chart = chart

    def to_python(self, value):
        if self.chart is None or value in self.empty_values:
            return super().to_python(value)
        if (weapon := self.chart.get(str(value))) is None:
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return weapon


def _weapon_choices(edition: Edition, chart: dict[str, Weapon] | None = None) -> forms.ModelChoiceField:
    field = ChartWeaponField(
        label=_("Weapon"),
        queryset=Weapon.objects.filter(edition=edition).order_by("position", "name"),
        required=False,
        empty_label="—",
        error_messages={"invalid_choice": _("That weapon is not on this edition's chart.")},
        chart=chart,
    )
    field.label_from_instance = lambda weapon: weapon.display_name
    return field


class WeaponLineForm(forms.Form):
    weapon = forms.ModelChoiceField(queryset=Weapon.objects.none(), required=False)
    count = forms.IntegerField(label=_("How many"), min_value=1, max_value=own_units.MODELS_MAX, initial=1)
    mount = forms.ChoiceField(label=_("Mount"), choices=[("", _("Carried")), *((k, v[0]) for k, v in MOUNTS.items())])
    arc = forms.ChoiceField(label=_("Arc"), choices=[(k, v[0] or _("None")) for k, v in ARCS.items()], required=False)

    def __init__(
        self, *args, edition: Edition, arc_required: bool = True, chart: dict[str, Weapon] | None = None, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.arc_required = arc_required
        self.fields["weapon"] = _weapon_choices(edition, chart)
        # The printed cards' own words for mounts and arcs, in the page's language.
        language = get_language() or "en"
        french = int(language.startswith("fr"))

        def word(pair: tuple[str, str]) -> str:
            return shown_name(pair[0], language) if pair[0] and not french else pair[french]

        self.fields["mount"].choices = [("", _("Carried")), *((k, word(v)) for k, v in MOUNTS.items())]
        self.fields["arc"].choices = [(k, word(v) or _("None")) for k, v in ARCS.items()]
        self.fields["mount"].required = False
        self.fields["count"].required = False
        mark_steppers(self, ("count",))

    def clean(self) -> dict:
        data = super().clean()
        if data.get("weapon") is None:
            return data
        if data.get("mount") and not data.get("arc") and self.arc_required:
            self.add_error("arc", _("Give the arc of a mounted weapon."))
        if not data.get("count"):
            data["count"] = 1
        return data


class OptionForm(forms.Form):
    name = forms.CharField(label=_("Option"), max_length=160, required=False)
    cost = _cost_field(_("Cost"))
    per_model = forms.BooleanField(label=_("Per man"), required=False)
    all_models = forms.BooleanField(label=_("Whole unit or none"), required=False)
    max_count = forms.IntegerField(label=_("Limit"), required=False, min_value=1, max_value=own_units.MODELS_MAX)
    group = forms.CharField(label=_("Group (excludes the rest of it)"), max_length=60, required=False)
    adds_models = forms.IntegerField(label=_("Men it adds"), required=False, min_value=0, max_value=10)
    grants_weapon = forms.ModelChoiceField(queryset=Weapon.objects.none(), required=False)
    replaces_weapon = forms.ModelChoiceField(queryset=Weapon.objects.none(), required=False)

    def __init__(self, *args, edition: Edition, chart: dict[str, Weapon] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["grants_weapon"] = _weapon_choices(edition, chart)
        self.fields["grants_weapon"].label = _("Gives")
        self.fields["replaces_weapon"] = _weapon_choices(edition, chart)
        self.fields["replaces_weapon"].label = _("Instead of")
        mark_steppers(self, ("max_count", "adds_models"))

    def clean(self) -> dict:
        data = super().clean()
        if not data.get("name"):
            filled = [k for k in ("cost", "max_count", "group", "grants_weapon", "replaces_weapon") if data.get(k)]
            if filled:
                self.add_error("name", OPTION_NEEDS_NAME)
            return data
        if data.get("cost") is None and "cost" not in self.errors:  # one refusal per field
            self.add_error("cost", _("Give the option's cost (0 if free)."))
        return data


WeaponLineFormSet = forms.formset_factory(
    WeaponLineForm,
    extra=3,
    max_num=own_units.WEAPON_LINES_MAX,
    validate_max=True,
    absolute_max=own_units.WEAPON_LINES_MAX,
)
OptionFormSet = forms.formset_factory(
    OptionForm,
    extra=3,
    max_num=own_units.OPTIONS_MAX,
    validate_max=True,
    absolute_max=own_units.OPTIONS_MAX,
)


def weapon_rows(formset: forms.BaseFormSet) -> list[dict]:
    return [form.cleaned_data for form in formset.forms if form.cleaned_data.get("weapon") is not None]


def option_rows(formset: forms.BaseFormSet) -> list[dict]:
    return [form.cleaned_data for form in formset.forms if form.cleaned_data.get("name")]


def check_whole(form: UnitProfileForm, weapons: forms.BaseFormSet, options: forms.BaseFormSet) -> dict[str, list[str]]:
    """The unit's coherence (``rules.army.own_units.check``), each refusal next to its field.

    Findings about the weapon lines or the options as a whole are returned by section, for the
    page to show above those rows; the others are added to the form's fields.
    """
    data = form.cleaned_data
    spec = own_units.OwnUnitSpec(
        name=data["name"],
        unit_type=data["unit_type"],
        slot=data["slot"],
        base_cost=form.costs("cost"),
        per_model_cost=form.costs("per_model"),
        base_models=data["base_models"],
        max_models=data["max_models"],
        officer_rank=data.get("officer_rank") or "",
        damage_value=data.get("damage_value"),
        transport_capacity=data.get("transport_capacity"),
        open_topped=bool(data.get("open_topped")),
        weapons=tuple(
            own_units.WeaponLine(row["weapon"].slug, row["count"], row.get("mount") or "", row.get("arc") or "")
            for row in weapon_rows(weapons)
        ),
        option_names=tuple(row["name"] for row in option_rows(options)),
    )
    sections: dict[str, list[str]] = {"weapons": [], "options": []}
    for field, code in own_units.check(spec):
        if field in sections:
            sections[field].append(str(MESSAGES[code]))
        else:
            form.add_error(field, MESSAGES[code])
    return sections


def refuse_duplicate_name(form: OwnUnitForm, owner, unit: Unit | None) -> None:
    """Two own units of one player and army with the same name would be told apart by nobody."""
    name = form.cleaned_data.get("name")
    army = form.cleaned_data.get("army")
    if not name or army is None:
        return
    same = Unit.objects.filter(owner=owner, army=army, name__iexact=name)
    if unit is not None:
        same = same.exclude(pk=unit.pk)
    if same.exists():
        form.add_error("name", ValidationError(_("You already have a unit of that name in this army.")))


def bind(data, edition: Edition, *, chart: dict[str, Weapon] | None = None):
    """The unit's form and its two row sets, bound to ``data``: the page's POST, or (given the
    edition's ``chart`` of weapons by id, read once) a file's definition (``own_units.parse_definition``),
    which has no army field (the list's army is its) and may carry a mounted weapon without its
    arc (a copy of a built-in unit whose data gave none)."""
    from_file = chart is not None
    kwargs = {"edition": edition}
    form_class = UnitProfileForm if from_file else OwnUnitForm
    return (
        form_class(data, **kwargs),
        WeaponLineFormSet(data, prefix="w", form_kwargs={**kwargs, "arc_required": not from_file, "chart": chart}),
        OptionFormSet(data, prefix="o", form_kwargs={**kwargs, "chart": chart}),
    )


def validate(
    form: UnitProfileForm, weapons: forms.BaseFormSet, options: forms.BaseFormSet
) -> dict[str, list[str]] | None:
    """Every field and row, then, when they all parse, the coherence of the whole (``check_whole``):
    its findings about the weapon lines and options as a whole, by section. None when a field or a
    row is refused (each refusal is on its field)."""
    if form.is_valid() & weapons.is_valid() & options.is_valid():
        return check_whole(form, weapons, options)
    return None


def definition_of(form: UnitProfileForm, weapons: forms.BaseFormSet, options: forms.BaseFormSet) -> dict:
    """The valid form as the definition ``own_units.write_unit`` takes."""
    data = form.cleaned_data
    return {
        "name": data["name"],
        "unit_type": data["unit_type"],
        "slot": data["slot"],
        "officer_rank": data.get("officer_rank") or "",
        "damage_value": data.get("damage_value"),
        "transport_capacity": data.get("transport_capacity"),
        "base_models": data["base_models"],
        "max_models": data["max_models"],
        "cost": form.costs("cost"),
        "per_model": form.costs("per_model"),
        "composition": data.get("composition") or "",
        "weapons_text": data.get("weapons_text") or "",
        "weapons": [
            {
                "weapon": row["weapon"].slug,
                "count": row["count"],
                "mount": row.get("mount") or "",
                "arc": row.get("arc") or "",
            }
            for row in weapon_rows(weapons)
        ],
        "options": [
            {
                "name": row["name"],
                "cost": row["cost"],
                "per_model": row["per_model"],
                "all_models": row["all_models"],
                "max_count": row.get("max_count"),
                "group": row.get("group") or "",
                "adds_models": row.get("adds_models") or 0,
                "grants": row["grants_weapon"].slug if row.get("grants_weapon") else "",
                "replaces": row["replaces_weapon"].slug if row.get("replaces_weapon") else "",
            }
            for row in option_rows(options)
        ],
        "special_rules": [rule.slug for rule in data.get("special_rules", ())]
        + ([OPEN_TOPPED] if data.get("open_topped") else []),
    }
