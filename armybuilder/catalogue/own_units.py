"""Players' own units: saved as catalogue rows with an owner, so every page takes them as it takes data.

Writing one (from the form, a copy of a built-in unit, a shared set or an imported list) goes
through ``write_unit``; the definition it writes is a plain dict (``definition``), the same one
a JSON list export carries.
"""

from __future__ import annotations

import json
import re

from django.contrib.auth import get_user_model
from django.core.exceptions import NON_FIELD_ERRORS
from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from armybuilder.catalogue import own_forms
from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.catalogue.mounts import mount_label
from armybuilder.reference.models import SpecialRule, Weapon
from armydata import untrusted
from rules.army import own_units
from rules.army.model import QUALITIES

SOURCE = "A player's entry, typed from their book"


class TooManyUnits(Exception):
    def __init__(self) -> None:
        super().__init__(
            _("You have %(n)s units of your own already, the most one player can keep.")
            % {"n": own_units.OWN_UNITS_MAX}
        )


class NeedsAccount(Exception):
    def __init__(self) -> None:
        super().__init__(_("This list takes a player's own units: log in to copy it, and they become yours."))


def room_for(owner, count: int = 1) -> bool:
    return Unit.objects.filter(owner=owner).count() + count <= own_units.OWN_UNITS_MAX


def _lock_owner(owner) -> None:
    """Lock the owner's user row until the transaction ends, so the cap is counted by one writer
    at a time: racing creates each counted 199 and the red team ended at 202 own units."""
    get_user_model().objects.select_for_update().filter(pk=owner.pk).values_list("pk", flat=True).first()


def _unique(base: str, taken: set[str], length: int) -> str:
    base = (slugify(base) or "unit")[: length - 4]
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


def definition(unit: Unit) -> dict:
    """An own unit as plain data: what its form edits, a copy repeats and a list export carries."""
    options = sorted(unit.options.all(), key=lambda o: (o.position, o.name))
    return {
        "name": unit.name,
        "unit_type": unit.unit_type,
        "slot": unit.slot,
        "officer_rank": unit.officer_rank,
        "damage_value": unit.damage_value,
        "transport_capacity": unit.transport_capacity,
        "base_models": unit.base_models,
        "max_models": unit.max_models,
        "cost": unit.base_cost(),
        "per_model": unit.per_model_cost(),
        "composition": unit.composition,
        "weapons_text": unit.weapons_text,
        "weapons": [
            {
                "weapon": line.get("weapon", ""),
                "count": line.get("count", 1),
                "mount": line.get("mount", ""),
                "arc": line.get("arc", ""),
            }
            for line in unit.weapon_lines or ()
        ]
        or [{"weapon": w.slug, "count": 1, "mount": "", "arc": ""} for w in unit.weapons.all()],
        "options": [
            {
                "key": option.slug,
                "name": option.name,
                "cost": definition_cost(option),
                "per_model": option.per_model,
                "all_models": option.all_models,
                "max_count": option.max_count,
                "group": option.group,
                "adds_models": option.adds_models,
                "grants": option.grants_weapon.slug if option.grants_weapon else "",
                "replaces": option.replaces_weapon.slug if option.replaces_weapon else "",
            }
            for option in options
        ],
        "special_rules": sorted(rule.slug for rule in unit.special_rules.all()),
    }


def _weapons_text(lines: list[dict], weapons: dict[str, Weapon]) -> str:
    parts = []
    for line in lines:
        weapon = weapons.get(line["weapon"])
        name = weapon.name if weapon else line["weapon"]
        mount = mount_label(line)
        text = f"{line['count']}× {name}" if line["count"] > 1 else name
        parts.append(f"{text} ({mount})" if mount else text)
    return ", ".join(parts)


@transaction.atomic
def write_unit(owner, army: Army, data: dict, unit: Unit | None = None) -> Unit:
    """Create (or, given ``unit``, rewrite) an own unit from a ``definition`` dict.

    The caller has validated ``data``; weapons and rules are looked up by slug in the army's
    edition (unknown slugs are dropped). Options keep their keys, so the lists that took one
    keep it through an edit.
    """
    edition = army.edition
    weapons = {w.slug: w for w in Weapon.objects.filter(edition=edition)}
    lines = [
        {
            "weapon": line["weapon"],
            "mount": line.get("mount", ""),
            "count": line.get("count", 1),
            "arc": line.get("arc", ""),
        }
        for line in data.get("weapons", ())
        if line["weapon"] in weapons
    ]
    values = {
        "name": data["name"],
        "unit_type": data["unit_type"],
        "slot": data["slot"],
        "officer_rank": data.get("officer_rank") or "",
        "damage_value": data.get("damage_value"),
        "transport_capacity": data.get("transport_capacity"),
        "base_models": data["base_models"],
        "max_models": data["max_models"],
        "composition": data.get("composition") or "",
        "weapons_text": data.get("weapons_text") or _weapons_text(lines, weapons),
        # Only mounted lines are kept as lines: a squad's weapons are its men's, one line each.
        "weapon_lines": lines if any(line["mount"] for line in lines) else [],
        "source": SOURCE,
        "army_only": bool(data.get("army_only")),
    }
    for quality in QUALITIES:
        values[f"cost_{quality}"] = data.get("cost", {}).get(quality)
        values[f"per_model_{quality}"] = data.get("per_model", {}).get(quality)
    if unit is None:
        _lock_owner(owner)
        if not room_for(owner):
            raise TooManyUnits
        taken = set(Unit.objects.filter(army=army).values_list("slug", flat=True))
        unit = Unit.objects.create(
            army=army, owner=owner, slug=_unique(f"own-{owner.pk}-{data['name']}", taken, 120), **values
        )
    else:
        for name, value in values.items():
            setattr(unit, name, value)
        unit.army = army
        unit.save()
    unit.weapons.set([weapons[line["weapon"]] for line in lines])
    unit.special_rules.set(SpecialRule.objects.filter(edition=edition, slug__in=data.get("special_rules", ())))
    _write_options(unit, data.get("options", ()), weapons)
    return unit


def _write_options(unit: Unit, rows, weapons: dict[str, Weapon]) -> None:
    existing = {option.slug: option for option in unit.options.all()}
    by_name = {option.name.casefold(): option.slug for option in existing.values()}
    taken: set[str] = set()
    kept: set[str] = set()
    for position, row in enumerate(rows):
        # An option keeps its key through an edit (by key, or by its unchanged name), so the
        # lists that took it keep it.
        key = row.get("key") or by_name.get(row["name"].casefold())
        key = key if key in existing and key not in kept else None
        # A new option keeps the key its definition gives (an imported list's entries name it).
        slug = key or _unique(row.get("key") or row["name"], taken | set(existing), 120)
        taken.add(slug)
        kept.add(slug)
        values = {
            "name": row["name"],
            "position": position,
            "per_model": bool(row.get("per_model")),
            "all_models": bool(row.get("all_models")),
            "max_count": row.get("max_count"),
            "group": row.get("group") or "",
            "adds_models": row.get("adds_models") or 0,
            "grants_weapon": weapons.get(row.get("grants") or ""),
            "replaces_weapon": weapons.get(row.get("replaces") or ""),
            # The form and a file refuse a cost below 0; a copy of a built-in option that saves
            # points (or of a unit saved before that bound) is kept at 0, never below.
            **{f"cost_{q}": max(0, row.get("cost") or 0) for q in QUALITIES},
        }
        option = existing.get(slug)
        if option is None:
            Option.objects.create(unit=unit, slug=slug, **values)
        else:
            for name, value in values.items():
                setattr(option, name, value)
            option.save()
    unit.options.exclude(slug__in=kept).delete()


def not_carried(unit: Unit) -> list[str]:
    """What a copy of ``unit`` leaves out because the unit form has no field for it, one note each.

    The form shows them, so a player starting from a built-in unit knows what to set by hand
    (or to remember at the table) instead of losing it unseen.
    """
    notes = []
    options = sorted(unit.options.all(), key=lambda o: (o.position, o.name))
    names = {option.slug: option.name for option in options}
    qualities = set(unit.qualities())
    for option in options:
        if option.excludes:
            others = ", ".join(f"“{names.get(slug, slug)}”" for slug in option.excludes)
            notes.append(
                _("“%(option)s” cannot be taken with %(others)s: the copy does not forbid it.")
                % {"option": option.name, "others": others}
            )
        if option.free_unit:
            notes.append(
                _("“%(option)s” makes the whole unit free: the copy prices it as an ordinary option.")
                % {"option": option.name}
            )
        costs = option.cost()
        if len(set(costs.values())) > 1 or not qualities <= set(costs):
            kept = definition_cost(option)
            notes.append(
                _("“%(option)s” has its own price at each quality: the copy takes %(cost)s pts at every quality.")
                % {"option": option.name, "cost": kept}
            )
    for group in unit.option_groups or ():
        label = group.get("label") or group.get("key", "")
        limits = []
        if group.get("minimum"):
            limits.append(_("at least %(n)s") % {"n": group["minimum"]})
        if group.get("maximum") is not None:
            if group.get("per_model"):
                limits.append(_("at most %(n)s per man") % {"n": group["maximum"]})
            else:
                limits.append(_("at most %(n)s") % {"n": group["maximum"]})
        notes.append(
            _("The group “%(group)s” allows %(limits)s choices in all: the copy lets its options exclude each other.")
            % {"group": label, "limits": ", ".join(str(x) for x in limits) or _("any number of")}
        )
    return notes


def definition_cost(option: Option) -> int:
    """The one price a definition keeps of an option: its regular one, else the first it has."""
    if option.cost_regular is not None:
        return option.cost_regular
    return next(iter(option.cost().values()), 0)


def copy_unit(owner, unit: Unit, army: Army | None = None) -> Unit:
    """A new own unit for ``owner`` with ``unit``'s definition (a built-in one, or a shared one)."""
    data = definition(unit)
    data["options"] = [{**row, "key": None} for row in data["options"]]
    return write_unit(owner, army or unit.army, data)


def lists_using(unit: Unit) -> list[str]:
    """The names of the saved lists (the trash's too) that take ``unit``: it cannot go while they do."""
    # Through the entries' reverse relation: the catalogue sits below the lists and never imports them.
    rows = (
        unit.entries.order_by("army_list__name", "army_list_id")
        .values_list("army_list_id", "army_list__name", "army_list__deleted_at")
        .distinct()
    )
    return [_("%(name)s (in the trash)") % {"name": name} if deleted else name for _pk, name, deleted in rows]


# -- A definition read from a file (a JSON list's ``own_units``) -----------------------------

KEY_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,99}$")
RULES_MAX = 40


def parse_definition(raw: object, place: str, edition, errors: list[str]) -> dict | None:
    """An own unit's definition from untrusted data, as ``write_unit`` takes it; None if refused.

    The file's JSON is checked for its shapes and types here (what a web form cannot send wrong),
    then validated by the unit form itself (``own_forms``): each field's range, the edition's
    weapons and rules, and the coherence of the whole, with the form's messages. Each refusal
    names its place in the file.
    """
    before = len(errors)
    data = _form_data(raw, place, edition, errors)
    if data is None:
        return None
    form, weapons, options = own_forms.bind(data, edition, chart=data["chart"])
    sections = own_forms.validate(form, weapons, options)
    for where, message in _refusals(form, weapons, options, sections or {}):
        errors.append(f"{place}{where}: {message}")
    if len(errors) > before:
        return None
    definition = own_forms.definition_of(form, weapons, options)
    # The file's own option keys (its entries name them), and its rules in its own order.
    definition["options"] = [{"key": key, **row} for key, row in zip(data["keys"], definition["options"], strict=True)]
    definition["special_rules"] = data["rule_slugs"]
    return definition


# A field of the unit form, by the place it has in a file's definition.
FILE_PLACES = {
    **{f"cost_{q}": f".cost.{q}" for q in QUALITIES},
    **{f"per_model_{q}": f".per_model.{q}" for q in QUALITIES},
    "grants_weapon": ".grants",
    "replaces_weapon": ".replaces",
    NON_FIELD_ERRORS: "",
}


def _refusals(form, weapons, options, sections: dict[str, list[str]]):
    """Each message of the form, its rows and its whole-unit check, with its place in the file."""

    def of(errors, prefix: str = ""):
        for field, messages in errors.items():
            where = FILE_PLACES.get(field, f".{field}")
            for message in messages:
                yield f"{prefix}{where}", message

    yield from of(form.errors)
    for name, formset in (("weapons", weapons), ("options", options)):
        for message in formset.non_form_errors():
            yield f".{name}", message
        for i, row in enumerate(formset.forms):
            yield from of(row.errors, f".{name}[{i}]")
        for message in sections.get(name, ()):
            yield f".{name}", message


def _form_data(raw: object, place: str, edition, errors: list[str]) -> dict | None:
    """A file's definition as the unit form's POST data, once its JSON shapes and types are right
    (texts are texts, numbers whole numbers, lists lists); None, with the refusals, when not."""
    if not isinstance(raw, dict):
        errors.append(f"{place}: must be an object describing the unit.")
        return None
    before = len(errors)

    def text(value: object, where: str) -> str:
        if value is None:
            return ""
        if not isinstance(value, str):
            errors.append(f"{where}: must be a text, not {json.dumps(value)}.")
            return ""
        return value

    def number(value: object, where: str) -> int | str:
        if value is None:
            return ""
        if not isinstance(value, int) or isinstance(value, bool):
            errors.append(f"{where}: must be a whole number, not {json.dumps(value)}.")
            return ""
        return value

    def rows(key: str, top: int, what: str) -> list:
        value = raw.get(key) or []
        if not isinstance(value, list) or len(value) > top:
            errors.append(f"{place}.{key}: must be a list of at most {top} {what}.")
            return []
        return value

    data: dict = {
        key: text(raw.get(key), f"{place}.{key}")
        for key in ("name", "unit_type", "slot", "officer_rank", "composition", "weapons_text")
    }
    for key in ("damage_value", "transport_capacity", "base_models", "max_models"):
        data[key] = number(raw.get(key), f"{place}.{key}")
    for key in ("cost", "per_model"):
        value = raw.get(key) or {}
        if not isinstance(value, dict) or not set(value) <= set(QUALITIES):
            errors.append(f"{place}.{key}: must map qualities ({', '.join(QUALITIES)}) to points.")
            continue
        for quality, points in value.items():
            data[f"{key}_{quality}"] = number(points, f"{place}.{key}.{quality}")
    chart = {str(weapon.pk): weapon for weapon in Weapon.objects.filter(edition=edition)}
    weapons = {weapon.slug: pk for pk, weapon in chart.items()}
    rules = dict(SpecialRule.objects.filter(edition=edition).values_list("slug", "pk"))

    def weapon(value: object, where: str) -> str:
        slug = text(value, where)
        # An unknown slug is refused by the form as a weapon not on the chart (no id reads "?").
        return weapons.get(slug, f"?{slug}") if slug else ""

    lines = rows("weapons", own_units.WEAPON_LINES_MAX, "lines")
    for i, line in enumerate(lines):
        where = f"{place}.weapons[{i}]"
        if not isinstance(line, dict) or not line.get("weapon"):
            errors.append(f"{where}: must name a weapon of the {edition.slug} chart by its slug.")
            continue
        data[f"w-{i}-weapon"] = weapon(line["weapon"], f"{where}.weapon")
        data[f"w-{i}-count"] = number(line.get("count", 1), f"{where}.count")
        data[f"w-{i}-mount"] = text(line.get("mount"), f"{where}.mount")
        data[f"w-{i}-arc"] = text(line.get("arc"), f"{where}.arc")
    keys: list[str] = []
    found = rows("options", own_units.OPTIONS_MAX, "options")
    for i, where, option in untrusted.objects(found, f"{place}.options", errors):
        key = option.get("key")
        if not isinstance(key, str) or not KEY_PATTERN.match(key) or key in keys:
            errors.append(f"{where}.key: must be a slug (a-z, 0-9, -) used by no other option of the unit.")
        keys.append(key)
        name = text(option.get("name"), f"{where}.name")
        if not name.strip():
            errors.append(f"{where}.name: {own_forms.OPTION_NEEDS_NAME}")
        data[f"o-{i}-name"] = name
        # A file before costs were required: an option without one is free, never below 0.
        data[f"o-{i}-cost"] = number(option.get("cost", 0), f"{where}.cost")
        data[f"o-{i}-max_count"] = number(option.get("max_count"), f"{where}.max_count")
        data[f"o-{i}-adds_models"] = number(option.get("adds_models", 0), f"{where}.adds_models")
        data[f"o-{i}-group"] = text(option.get("group"), f"{where}.group")
        data[f"o-{i}-grants_weapon"] = weapon(option.get("grants"), f"{where}.grants")
        data[f"o-{i}-replaces_weapon"] = weapon(option.get("replaces"), f"{where}.replaces")
        # Optional (files before all_models was carried have none): true, or not taken.
        for flag in ("per_model", "all_models"):
            if option.get(flag) is True:
                data[f"o-{i}-{flag}"] = "on"
    slugs = rows("special_rules", RULES_MAX, "rule slugs")
    if not all(isinstance(slug, str) for slug in slugs):
        errors.append(f"{place}.special_rules: must be a list of the {edition.slug} rules' slugs.")
        slugs = []
    if own_units.OPEN_TOPPED in slugs and own_units.OPEN_TOPPED in rules:
        data["open_topped"] = "on"
    # An unknown slug is refused by the form as a rule not in the edition (no rule has the id 0).
    data["special_rules"] = [rules.get(slug, 0) for slug in slugs if slug != own_units.OPEN_TOPPED or slug not in rules]
    for prefix, count in (("w", len(lines)), ("o", len(found))):
        data.update({f"{prefix}-TOTAL_FORMS": count, f"{prefix}-INITIAL_FORMS": 0})
    if len(errors) > before:
        return None
    return {**data, "keys": keys, "rule_slugs": list(slugs), "chart": chart}


class Draft:
    """An own unit read from a file, not saved yet: what the list import checks its entries against.

    It answers what ``exchange._parse_entry`` asks of a ``Unit`` (its qualities, sizes, options
    and rules data) without touching the database.
    """

    def __init__(self, army: Army, data: dict) -> None:
        self.data = data
        self.unit = Unit(
            army=army,
            name=data["name"],
            unit_type=data["unit_type"],
            slot=data["slot"],
            base_models=data["base_models"],
            max_models=data["max_models"],
            officer_rank=data["officer_rank"],
            damage_value=data["damage_value"],
            transport_capacity=data["transport_capacity"],
            **{f"cost_{q}": data["cost"].get(q) for q in QUALITIES},
            **{f"per_model_{q}": data["per_model"].get(q) for q in QUALITIES},
        )
        self._options = [
            Option(
                slug=row["key"],
                name=row["name"],
                per_model=row["per_model"],
                all_models=row["all_models"],
                max_count=row["max_count"],
                group=row["group"],
                adds_models=row["adds_models"],
                **{f"cost_{q}": row["cost"] for q in QUALITIES},
            )
            for row in data["options"]
        ]
        self.options = self  # ``unit.options.all()``, as a saved unit answers it

    def all(self) -> list[Option]:
        return self._options

    def __getattr__(self, name: str):
        return getattr(self.unit, name)

    def to_rules(self):
        return self.unit.to_rules(key=self.unit.name, options=tuple(option.to_rules() for option in self._options))


def same_or_new(owner, army: Army, data: dict) -> Unit:
    """The importer's own unit for ``data``: one they already have with the same definition, or a new one.

    Re-importing a list one exported does not fill their units with copies.
    """
    # Only one the list's army is offered (one kept to another army would not be).
    offered = Unit.objects.owned_by(owner).filter(Q(army=army) | Q(army_only=False))
    for unit in offered.filter(army__edition=army.edition, name=data["name"]):
        existing = parse_definition(definition(unit), "existing", army.edition, [])
        if existing == data:
            return unit
    return write_unit(owner, army, data)
