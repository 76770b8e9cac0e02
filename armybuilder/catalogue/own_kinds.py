"""What the own-unit form starts from when a player picks a kind, and the weapon swaps it offers.

A kind's defaults are the edition's Generic unit of that kind: its type, slot, sizes, damage
value, capacity, officer rank and weapon lines (mounts and arcs), so a medium tank starts
armoured, as a tank, damage value 9 with its turret gun and two MMGs, and a squad starts with
rifles. Nothing here is a figure of its own: an edition without a Generic unit of a kind offers
no such kind. Points and options are never carried over, since they are the player's book's.
"""

from __future__ import annotations

from dataclasses import dataclass

from armybuilder.catalogue.models import Unit
from armybuilder.reference.models import Edition, Weapon

# Each kind, by the Generic unit it starts from (the first slug the edition has: the 2nd
# edition's Generic army names its squad by quality).
KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("squad", ("rifle-squad", "regular-infantry-squad")),
    ("officer", ("platoon-commander", "second-lieutenant")),
    ("team", ("mmg-team",)),
    ("gun", ("medium-at-gun",)),
    ("light-tank", ("light-tank",)),
    ("medium-tank", ("medium-tank",)),
    ("heavy-tank", ("heavy-tank",)),
    ("armoured-car", ("armoured-car",)),
    ("transport", ("half-track", "truck")),
)


@dataclass(frozen=True)
class Kind:
    key: str
    unit: Unit

    @property
    def label(self) -> str:
        return self.unit.display_name


def offered(edition: Edition) -> list[Kind]:
    """The kinds this edition's Generic army can start, in the order above."""
    units = {
        unit.slug: unit
        for unit in Unit.objects.filter(
            army__edition=edition, army__slug="generic", owner__isnull=True, removed=False
        ).prefetch_related("weapons", "special_rules")
    }
    kinds = []
    for key, slugs in KINDS:
        found = next((units[slug] for slug in slugs if slug in units), None)
        if found is not None:
            kinds.append(Kind(key, found))
    return kinds


def find(edition: Edition, key: str) -> Kind | None:
    return next((kind for kind in offered(edition) if kind.key == key), None)


def swap_weapons(edition: Edition) -> list[dict]:
    """The weapons a man of a squad carries, each with how a swap for it is usually written.

    Read from the weapons' rules: a one-shot weapon (a Panzerfaust) is carried besides the
    man's own weapon, by each man who takes it; a team weapon (an LMG) replaces one man's
    weapon, once for the unit; any other (an SMG) replaces the weapon of each man who takes it.
    Fixed, indirect and emplaced weapons are no man's swap.
    """
    chart = Weapon.objects.filter(edition=edition).rulebook().prefetch_related("special_rules").order_by("position")
    swaps = []
    for weapon in chart:
        rules = {rule.slug for rule in weapon.special_rules.all()}
        if rules & {"fixed", "indirect-fire", "howitzer"}:
            continue
        if weapon.category != "small-arms" and not rules & {"team", "one-shot"}:
            continue  # a vehicle's weapon
        mode = "adds" if "one-shot" in rules else "team" if "team" in rules else "each"
        swaps.append({"weapon": weapon, "mode": mode})
    return swaps
