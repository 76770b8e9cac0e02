"""Players' own units: saved as catalogue rows with an owner, so every page takes them as it takes data.

Writing one (from the form, a copy of a built-in unit, a shared set or an imported list) goes
through ``write_unit``; the definition it writes is a plain dict (``definition``), the same one
a JSON list export carries.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.catalogue.mounts import mount_label
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


def room_for(owner, count: int = 1) -> bool:
    return Unit.objects.filter(owner=owner).count() + count <= own_units.OWN_UNITS_MAX


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
                "cost": option.cost_regular
                if option.cost_regular is not None
                else next(iter(option.cost().values()), 0),
                "per_model": option.per_model,
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
    }
    for quality in QUALITIES:
        values[f"cost_{quality}"] = data.get("cost", {}).get(quality)
        values[f"per_model_{quality}"] = data.get("per_model", {}).get(quality)
    if unit is None:
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
        slug = key or _unique(row["name"], taken | set(existing), 120)
        taken.add(slug)
        kept.add(slug)
        values = {
            "name": row["name"],
            "position": position,
            "per_model": bool(row.get("per_model")),
            "max_count": row.get("max_count"),
            "group": row.get("group") or "",
            "adds_models": row.get("adds_models") or 0,
            "grants_weapon": weapons.get(row.get("grants") or ""),
            "replaces_weapon": weapons.get(row.get("replaces") or ""),
            **{f"cost_{q}": row.get("cost", 0) for q in QUALITIES},
        }
        option = existing.get(slug)
        if option is None:
            Option.objects.create(unit=unit, slug=slug, **values)
        else:
            for name, value in values.items():
                setattr(option, name, value)
            option.save()
    unit.options.exclude(slug__in=kept).delete()


def copy_unit(owner, unit: Unit, army: Army | None = None) -> Unit:
    """A new own unit for ``owner`` with ``unit``'s definition (a built-in one, or a shared one)."""
    data = definition(unit)
    data["options"] = [{**row, "key": None} for row in data["options"]]
    return write_unit(owner, army or unit.army, data)


def lists_using(unit: Unit) -> list[str]:
    """The names of the saved lists (the trash's too) that take ``unit``: it cannot go while they do."""
    from armybuilder.lists.models import ArmyList

    rows = ArmyList.objects.filter(entries__unit=unit).distinct().order_by("name")
    return [
        _("%(name)s (in the trash)") % {"name": row.name} if row.deleted_at else row.name
        for row in rows.only("name", "deleted_at")
    ]
