"""Small plain factories for the calculator tests: the minimum rows, overrides as keywords."""

from __future__ import annotations

import itertools

from armybuilder.catalogue.models import Army, Unit
from armybuilder.lists.models import ArmyList, Entry
from armybuilder.reference.models import Edition, SpecialRule, Weapon
from tests.lists import factories as lists_factories
from tests.reference import factories as reference_factories

_counter = itertools.count(1)

# slug: (name, range, shots, pen, he_size, special rules), as in the 2nd and 3rd edition charts.
PROFILES = {
    "rifle": ("Rifle", 24, "1", 0, None, ()),
    "smg": ("SMG", 12, "2", 0, None, ("assault",)),
    "lmg": ("LMG", 36, "4", 0, None, ("team",)),
    "panzerfaust": ("Panzerfaust", 12, "1", 6, None, ("shaped-charge",)),
    "medium-at-gun": ("Medium AT gun", 60, "1", 5, 1, ("team", "fixed", "anti-tank-gun")),
    "flamethrower": ("Flamethrower", 6, "1", 2, None, ("team", "flamethrower")),
    "light-mortar": ("Light mortar", 24, "1", 0, 1, ("team", "indirect-fire")),
    "vehicle-flamethrower": ("Flamethrower (vehicle)", 12, "1", 2, None, ("flamethrower",)),
    "light-autocannon": ("Light autocannon", 48, "2", 2, 1, ()),
    "anti-tank-rifle": ("Anti-tank rifle", 36, "1", 2, None, ("team",)),
}


def make_edition(slug: str = "v2") -> Edition:
    return lists_factories.make_edition(slug)


def make_rule(edition: Edition, slug: str) -> SpecialRule:
    rule, _ = SpecialRule.objects.get_or_create(
        edition=edition, slug=slug, defaults={"name": slug.replace("-", " ").title(), "source": "test"}
    )
    return rule


def make_weapon(edition: Edition | None = None, slug: str = "rifle", **kwargs) -> Weapon:
    edition = edition or make_edition()
    name, range_max, shots, pen, he_size, rules = PROFILES.get(slug, (slug.title(), 24, "1", 0, None, ()))
    kwargs.setdefault("name", name)
    kwargs.setdefault("category", "heavy" if pen or he_size else "small-arms")
    kwargs.setdefault("position", next(_counter))
    kwargs.setdefault("range_max", range_max)
    kwargs.setdefault("shots", shots)
    kwargs.setdefault("pen", pen)
    kwargs.setdefault("he_size", he_size)
    kwargs.setdefault("source", "test")
    special_rules = tuple(make_rule(edition, rule) for rule in rules)
    return reference_factories.make_weapon(edition, special_rules, slug=slug, **kwargs)


def make_chart(slug: str = "v2") -> dict[str, Weapon]:
    """An edition with the weapons the tests use."""
    edition = make_edition(slug)
    return {weapon: make_weapon(edition, weapon) for weapon in PROFILES}


# The list tests' default costs that the calculator tests' units have never carried.
UNCOSTED = ("cost_inexperienced", "cost_veteran", "per_model_inexperienced", "per_model_regular", "per_model_veteran")


def _test_army(edition: Edition) -> Army:
    army, _ = Army.objects.get_or_create(
        edition=edition, slug="test-army", defaults={"name": "Test army", "source": "test"}
    )
    return army


def make_unit(edition: Edition | None = None, weapons: tuple[Weapon, ...] = (), **kwargs) -> Unit:
    """The list tests' unit, in the edition's one test army, with a Regular base cost only."""
    for cost in UNCOSTED:
        kwargs.setdefault(cost, None)
    unit = lists_factories.make_unit(army=_test_army(edition or make_edition()), **kwargs)
    unit.weapons.set(weapons)
    return unit


def make_list(owner=None, edition: Edition | None = None, **kwargs) -> ArmyList:
    return lists_factories.make_list(owner, _test_army(edition or make_edition()), **kwargs)


def make_entry(army_list: ArmyList, unit: Unit, **kwargs) -> Entry:
    kwargs.setdefault("quality", "regular")
    kwargs.setdefault("models_count", 10)
    return Entry.objects.create(army_list=army_list, unit=unit, **kwargs)
