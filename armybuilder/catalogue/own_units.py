"""Players' own units: saved as catalogue rows with an owner, so every page takes them as it takes data.

Writing one (from the form, a copy of a built-in unit, a shared set or an imported list) goes
through ``write_unit``; the definition it writes is a plain dict (``definition``), the same one
a JSON list export carries.
"""

from __future__ import annotations

import json
import re

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.catalogue.mounts import ARCS, MOUNTS, mount_label
from armybuilder.reference.models import SpecialRule, Weapon
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

    Every field is checked for its type and range, weapons and rules must be the edition's, and
    the whole must pass ``rules.army.own_units.check``; each refusal names its place.
    """
    from armybuilder.catalogue.models import OfficerRank, Slot, UnitType

    before = len(errors)
    if not isinstance(raw, dict):
        errors.append(f"{place}: must be an object describing the unit.")
        return None

    def text(key: str, top: int, *, required: bool = False) -> str:
        value = raw.get(key, "")
        if value is None:
            value = ""
        if not isinstance(value, str) or len(value) > top or (required and not value.strip()):
            errors.append(
                f"{place}.{key}: must be {'a non-empty' if required else 'a'} text of at most {top} characters."
            )
            return ""
        return value.strip()

    def choice(key: str, values: list[str], *, blank: bool = False) -> str:
        value = raw.get(key) or ""
        if not (value in values or (blank and value == "")):
            errors.append(f"{place}.{key}: {json.dumps(value)} is not one of {', '.join(values)}.")
            return ""
        return value

    def number(value: object, where: str, low: int, high: int, *, optional: bool = False) -> int | None:
        if value is None and optional:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            errors.append(f"{where}: must be a whole number from {low} to {high}, not {json.dumps(value)}.")
            return None
        return value

    def costs(key: str) -> dict[str, int]:
        value = raw.get(key) or {}
        if not isinstance(value, dict) or not set(value) <= set(QUALITIES):
            errors.append(f"{place}.{key}: must map qualities ({', '.join(QUALITIES)}) to points.")
            return {}
        found = {q: number(c, f"{place}.{key}.{q}", 0, own_units.COST_MAX) for q, c in value.items()}
        return {q: c for q, c in found.items() if c is not None}

    weapons = {w.slug for w in Weapon.objects.filter(edition=edition)}
    rules = {r.slug for r in SpecialRule.objects.filter(edition=edition)}
    mounts = ["", *MOUNTS]
    data = {
        "name": text("name", 120, required=True),
        "unit_type": choice("unit_type", list(UnitType.values)),
        "slot": choice("slot", list(Slot.values)),
        "officer_rank": choice("officer_rank", list(OfficerRank.values), blank=True),
        "damage_value": number(raw.get("damage_value"), f"{place}.damage_value", 1, 15, optional=True),
        "transport_capacity": number(
            raw.get("transport_capacity"), f"{place}.transport_capacity", 1, own_units.MODELS_MAX, optional=True
        ),
        "base_models": number(raw.get("base_models"), f"{place}.base_models", 1, own_units.MODELS_MAX) or 1,
        "max_models": number(raw.get("max_models"), f"{place}.max_models", 1, own_units.MODELS_MAX) or 1,
        "cost": costs("cost"),
        "per_model": costs("per_model"),
        "composition": text("composition", 300),
        "weapons_text": text("weapons_text", 300),
        "weapons": [],
        "options": [],
        "special_rules": [],
    }
    raw_lines = raw.get("weapons") or []
    if not isinstance(raw_lines, list) or len(raw_lines) > own_units.WEAPON_LINES_MAX:
        errors.append(f"{place}.weapons: must be a list of at most {own_units.WEAPON_LINES_MAX} lines.")
        raw_lines = []
    for i, line in enumerate(raw_lines):
        where = f"{place}.weapons[{i}]"
        if not isinstance(line, dict) or line.get("weapon") not in weapons:
            errors.append(f"{where}: must name a weapon of the {edition.slug} chart by its slug.")
            continue
        mount, arc = line.get("mount") or "", line.get("arc") or ""
        if mount not in mounts or arc not in ARCS:
            errors.append(
                f"{where}: mount must be one of {', '.join(MOUNTS)} (or empty), "
                f"arc one of {', '.join(a for a in ARCS if a)}."
            )
            continue
        count = number(line.get("count", 1), f"{where}.count", 1, own_units.MODELS_MAX)
        data["weapons"].append({"weapon": line["weapon"], "count": count or 1, "mount": mount, "arc": arc})
    raw_options = raw.get("options") or []
    if not isinstance(raw_options, list) or len(raw_options) > own_units.OPTIONS_MAX:
        errors.append(f"{place}.options: must be a list of at most {own_units.OPTIONS_MAX} options.")
        raw_options = []
    keys: set[str] = set()
    for i, option in enumerate(raw_options):
        where = f"{place}.options[{i}]"
        if not isinstance(option, dict):
            errors.append(f"{where}: must be an object.")
            continue
        key = option.get("key")
        name = option.get("name")
        if not isinstance(key, str) or not KEY_PATTERN.match(key) or key in keys:
            errors.append(f"{where}.key: must be a slug (a-z, 0-9, -) used by no other option of the unit.")
            continue
        if not isinstance(name, str) or not name.strip() or len(name) > 160:
            errors.append(f"{where}.name: must be a non-empty text of at most 160 characters.")
            continue
        keys.add(key)
        grants, replaces = option.get("grants") or "", option.get("replaces") or ""
        if grants not in weapons | {""} or replaces not in weapons | {""}:
            errors.append(f"{where}: grants and replaces must be weapons of the {edition.slug} chart, or empty.")
            continue
        group = option.get("group") or ""
        if not isinstance(group, str) or len(group) > 60:
            errors.append(f"{where}.group: must be a text of at most 60 characters.")
            continue
        data["options"].append(
            {
                "key": key,
                "name": name.strip(),
                # Never below 0, as in the unit form: no option takes a list's points down.
                "cost": number(option.get("cost", 0), f"{where}.cost", 0, own_units.COST_MAX) or 0,
                "per_model": option.get("per_model") is True,
                # Optional (files before it was carried have none): the whole unit or nobody.
                "all_models": option.get("all_models") is True,
                "max_count": number(
                    option.get("max_count"), f"{where}.max_count", 1, own_units.MODELS_MAX, optional=True
                ),
                "group": group,
                "adds_models": number(option.get("adds_models", 0), f"{where}.adds_models", 0, 10) or 0,
                "grants": grants,
                "replaces": replaces,
            }
        )
    raw_rules = raw.get("special_rules") or []
    if not isinstance(raw_rules, list) or len(raw_rules) > RULES_MAX or not set(map(str, raw_rules)) <= rules:
        errors.append(f"{place}.special_rules: must be a list of the {edition.slug} rules' slugs.")
    else:
        data["special_rules"] = [str(slug) for slug in raw_rules]
    if len(errors) > before:
        return None
    spec = own_units.OwnUnitSpec(
        name=data["name"],
        unit_type=data["unit_type"],
        slot=data["slot"],
        base_cost=data["cost"],
        per_model_cost=data["per_model"],
        base_models=data["base_models"],
        max_models=data["max_models"],
        officer_rank=data["officer_rank"],
        damage_value=data["damage_value"],
        transport_capacity=data["transport_capacity"],
        open_topped=own_units.OPEN_TOPPED in data["special_rules"],
        weapons=tuple(own_units.WeaponLine(w["weapon"], w["count"], w["mount"], w["arc"]) for w in data["weapons"]),
        option_names=tuple(o["name"] for o in data["options"]),
    )
    for field_name, code in own_units.check(spec):
        errors.append(f"{place}.{field_name}: {code.replace('_', ' ')}.")
    return None if len(errors) > before else data


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
        from dataclasses import replace

        unit = self.unit
        return replace(
            army_unit_spec(unit),
            options=tuple(option.to_rules() for option in self._options),
        )


def army_unit_spec(unit: Unit):
    """``Unit.to_rules`` without its options (an unsaved unit has none to read)."""
    from rules.army import model as army_rules

    return army_rules.UnitSpec(
        key=str(unit.pk or unit.name),
        name=unit.name,
        unit_type=unit.unit_type,
        slot=unit.slot,
        base_cost=unit.base_cost(),
        per_model_cost=unit.per_model_cost(),
        base_models=unit.base_models,
        max_models=unit.max_models,
        officer_rank=unit.officer_rank or None,
        options=(),
        transport_capacity=unit.transport_capacity,
        damage_value=unit.damage_value,
    )


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
