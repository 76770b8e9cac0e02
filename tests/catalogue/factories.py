"""Small builders for catalogue rows: each test makes only the armies and units it reads."""

from __future__ import annotations

from itertools import count

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.reference.models import Edition, SpecialRule, Weapon

_numbers = count(1)


def make_edition(slug: str = "v2", **kwargs) -> Edition:
    kwargs.setdefault("number", int(slug[1:]))
    kwargs.setdefault("name", f"Edition {slug}")
    return Edition.objects.get_or_create(slug=slug, defaults=kwargs)[0]


def make_weapon(edition: Edition, slug: str = "rifle", **kwargs) -> Weapon:
    kwargs.setdefault("name", slug.replace("-", " ").capitalize())
    kwargs.setdefault("category", "small-arms")
    kwargs.setdefault("range_max", 24)
    kwargs.setdefault("shots", "1")
    kwargs.setdefault("source", "test")
    return Weapon.objects.create(edition=edition, slug=slug, **kwargs)


def make_special_rule(edition: Edition, slug: str = "team", **kwargs) -> SpecialRule:
    kwargs.setdefault("name", slug.replace("-", " ").title())
    kwargs.setdefault("source", "test")
    return SpecialRule.objects.create(edition=edition, slug=slug, **kwargs)


def make_army(edition: Edition | None = None, **kwargs) -> Army:
    n = next(_numbers)
    kwargs.setdefault("slug", f"army-{n}")
    kwargs.setdefault("name", f"Army {n}")
    kwargs.setdefault("source", "test")
    return Army.objects.create(edition=edition or make_edition(), **kwargs)


def make_unit(army: Army, **kwargs) -> Unit:
    n = next(_numbers)
    kwargs.setdefault("slug", f"unit-{n}")
    kwargs.setdefault("name", f"Unit {n}")
    kwargs.setdefault("unit_type", "infantry")
    kwargs.setdefault("slot", "infantry")
    kwargs.setdefault("cost_regular", 50)
    kwargs.setdefault("source", "test")
    return Unit.objects.create(army=army, **kwargs)


def make_option(unit: Unit, **kwargs) -> Option:
    n = next(_numbers)
    kwargs.setdefault("slug", f"option-{n}")
    kwargs.setdefault("name", f"Option {n}")
    return Option.objects.create(unit=unit, **kwargs)
