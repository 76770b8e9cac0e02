"""Small plain factories for list tests: each builds the minimum and takes overrides as keywords."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.lists.models import ArmyList, Entry, Platoon
from armybuilder.reference.models import Edition

_counter = itertools.count(1)


def _next() -> int:
    return next(_counter)


def make_user(username: str | None = None, password: str = "correct-horse-battery", **kwargs):
    username = username or f"user{_next()}"
    kwargs.setdefault("email", f"{username}@example.org")
    return get_user_model().objects.create_user(username=username, password=password, **kwargs)


def make_edition(slug: str = "v3", **kwargs) -> Edition:
    number = int(slug[1:]) if slug[1:].isdigit() else 100 + _next()
    kwargs.setdefault("number", number)
    kwargs.setdefault("name", f"Edition {slug}")
    edition, _ = Edition.objects.get_or_create(slug=slug, defaults=kwargs)
    return edition


def make_army(edition: Edition | None = None, **kwargs) -> Army:
    n = _next()
    kwargs.setdefault("slug", f"army-{n}")
    kwargs.setdefault("name", f"Army {n}")
    kwargs.setdefault("source", "test")
    return Army.objects.create(edition=edition or make_edition(), **kwargs)


def make_unit(army: Army | None = None, **kwargs) -> Unit:
    n = _next()
    kwargs.setdefault("slug", f"unit-{n}")
    kwargs.setdefault("name", f"Unit {n}")
    kwargs.setdefault("unit_type", "infantry")
    kwargs.setdefault("slot", "infantry")
    kwargs.setdefault("cost_inexperienced", 35)
    kwargs.setdefault("cost_regular", 50)
    kwargs.setdefault("cost_veteran", 65)
    kwargs.setdefault("per_model_inexperienced", 7)
    kwargs.setdefault("per_model_regular", 10)
    kwargs.setdefault("per_model_veteran", 13)
    kwargs.setdefault("base_models", 5)
    kwargs.setdefault("max_models", 10)
    kwargs.setdefault("source", "test")
    return Unit.objects.create(army=army or make_army(), **kwargs)


def make_list(owner=None, army: Army | None = None, **kwargs) -> ArmyList:
    army = army or make_army()
    kwargs.setdefault("name", f"List {_next()}")
    kwargs.setdefault("edition", army.edition)
    return ArmyList.objects.create(owner=owner, army=army, **kwargs)


def make_entry(army_list: ArmyList, unit: Unit | None = None, **kwargs) -> Entry:
    unit = unit or make_unit(army=army_list.army)
    kwargs.setdefault("models_count", unit.base_models)
    return Entry.objects.create(army_list=army_list, unit=unit, **kwargs)


def make_option(unit: Unit, **kwargs) -> Option:
    n = _next()
    kwargs.setdefault("slug", f"option-{n}")
    kwargs.setdefault("name", f"Option {n}")
    kwargs.setdefault("cost_inexperienced", 3)
    kwargs.setdefault("cost_regular", 3)
    kwargs.setdefault("cost_veteran", 3)
    return Option.objects.create(unit=unit, **kwargs)


def make_platoon(army_list: ArmyList, **kwargs) -> Platoon:
    kwargs.setdefault("kind", "rifle_platoon")
    return Platoon.objects.create(army_list=army_list, **kwargs)


def make_officer(army: Army, **kwargs) -> Unit:
    """A 2nd Lieutenant-style officer unit (1 model, up to 3 with attendants)."""
    kwargs.setdefault("name", "Second Lieutenant")
    kwargs.setdefault("unit_type", "headquarters")
    kwargs.setdefault("slot", "officer")
    kwargs.setdefault("officer_rank", "second_lieutenant")
    kwargs.setdefault("cost_inexperienced", 35)
    kwargs.setdefault("cost_regular", 50)
    kwargs.setdefault("cost_veteran", 65)
    kwargs.setdefault("per_model_inexperienced", 7)
    kwargs.setdefault("per_model_regular", 10)
    kwargs.setdefault("per_model_veteran", 13)
    kwargs.setdefault("base_models", 1)
    kwargs.setdefault("max_models", 3)
    return make_unit(army, **kwargs)


def make_builder_list(owner=None, *, edition: str = "v2", entries: int = 0, **kwargs) -> ArmyList:
    """A list with a platoon, and ``entries`` infantry squads (with two options) in it."""
    army = make_army(edition=make_edition(edition))
    army_list = make_list(owner, army, **kwargs)
    if entries:
        kind = "reinforced_platoon" if edition in ("v1", "v2") else "rifle_platoon"
        platoon = make_platoon(army_list, kind=kind)
        squad = make_unit(army, name="Rifle Squad")
        make_option(squad, slug="lmg", name="Light machine gun", cost_regular=20)
        make_option(squad, slug="smg", name="Submachine gun", per_model=True)
        for position in range(entries):
            make_entry(army_list, squad, platoon=platoon, position=position, options={"lmg": 1})
    return army_list
