"""Small plain factories for list tests: each builds the minimum and takes overrides as keywords."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model
from django.test import Client

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
    """A 2nd Lieutenant-style officer unit (1 model, up to 3 with attendants), costed as ``make_unit``."""
    kwargs.setdefault("name", "Second Lieutenant")
    kwargs.setdefault("unit_type", "headquarters")
    kwargs.setdefault("slot", "officer")
    kwargs.setdefault("officer_rank", "second_lieutenant")
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


def make_deep_catalogue(army: Army) -> dict[str, Unit]:
    """The community data's shapes in one small army: each unit shows one way the books build units.

    - ``guards``: 5 to 10 men; each may swap his rifle for an SMG (+4 a man); an LMG team of 2
      men with its LMG (+20); anti-tank grenades for the whole squad or none (+2 a man); up to 2
      of 3 "Upgrades"; a Panzerfaust and a rifle grenade that exclude each other.
    - ``panzer``: offered at Regular and Veteran only through its variant (one required), which
      carries the prices; Ausf. J comes at Veteran only.
    - ``gun``: artillery that a national rule may make free, one per list.
    """
    from tests.catalogue.factories import make_special_rule, make_weapon

    edition = army.edition
    rifle = make_weapon(edition, "rifle", name="Rifle")
    smg = make_weapon(edition, "smg", name="Submachine gun", range_max=12, shots="2")
    lmg = make_weapon(edition, "lmg", name="Light machine gun", range_max=30, shots="4")
    lmg.special_rules.add(make_special_rule(edition, "team", name="Team"))
    guards = make_unit(army, slug="guards", name="Guards Squad", cost_inexperienced=None, cost_regular=50,
                       cost_veteran=65, per_model_inexperienced=None)  # fmt: skip
    guards.weapons.add(rifle)
    guards.option_groups = [{"key": "upgrades", "label": "Upgrades", "minimum": 0, "maximum": 2, "per_model": False}]
    guards.save()
    prices = {"cost_inexperienced": None}
    make_option(guards, slug="smg", name="SMG instead of rifle", per_model=True, position=1, cost_regular=4,
                cost_veteran=4, grants_weapon=smg, replaces_weapon=rifle, **prices)  # fmt: skip
    make_option(guards, slug="lmg-team", name="LMG team", adds_models=2, position=2, cost_regular=20,
                cost_veteran=26, grants_weapon=lmg, **prices)  # fmt: skip
    make_option(guards, slug="grenades", name="Anti-tank grenades", all_models=True, position=3, cost_regular=2,
                cost_veteran=2, **prices)  # fmt: skip
    for position, (slug, name, cost) in enumerate((("scope", "Scope", 5), ("bayonets", "Bayonets", 3),
                                                   ("flag", "Flag", 7)), start=4):  # fmt: skip
        make_option(guards, slug=slug, name=name, group="upgrades", position=position, cost_regular=cost,
                    cost_veteran=cost, **prices)  # fmt: skip
    make_option(guards, slug="panzerfaust", name="Panzerfaust", excludes=["rifle-grenade"], position=7,
                cost_regular=5, cost_veteran=5, **prices)  # fmt: skip
    make_option(guards, slug="rifle-grenade", name="Rifle grenade", position=8, cost_regular=5, cost_veteran=5,
                **prices)  # fmt: skip
    panzer = make_unit(army, slug="panzer", name="Panzer III", unit_type="vehicle_armoured", slot="tank",
                       cost_inexperienced=None, cost_regular=0, cost_veteran=0, per_model_inexperienced=None,
                       per_model_regular=None, per_model_veteran=None, base_models=1, max_models=1,
                       damage_value=9)  # fmt: skip
    panzer.option_groups = [{"key": "variant", "label": "Variant", "minimum": 1, "maximum": 1, "per_model": False}]
    panzer.save()
    make_option(panzer, slug="ausf-f", name="Ausf. F", group="variant", position=1, cost_regular=120,
                cost_veteran=145, **prices)  # fmt: skip
    make_option(panzer, slug="ausf-j", name="Ausf. J", group="variant", position=2, cost_regular=None,
                cost_veteran=160, **prices)  # fmt: skip
    gun = make_unit(army, slug="gun", name="Medium Artillery", unit_type="artillery", slot="artillery",
                    cost_inexperienced=60, cost_regular=75, cost_veteran=90, base_models=4, max_models=4)  # fmt: skip
    make_option(gun, slug="free-unit", name="Free Unit", free_unit=True, free_per_list=1, position=1,
                cost_inexperienced=0, cost_regular=0, cost_veteran=0)  # fmt: skip
    make_option(gun, slug="spotter", name="Spotter", position=2, cost_inexperienced=10, cost_regular=10,
                cost_veteran=10)  # fmt: skip
    return {"guards": guards, "panzer": panzer, "gun": gun}


def client_for(user=None) -> Client:
    """A test client signed in as ``user`` (a visitor when None)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client
