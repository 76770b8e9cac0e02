"""The weapons imported army lists brought, by army: where the reference shows them.

An import maps every weapon it can onto the rulebook chart; the few the chart lacks are
``Weapon.imported`` rows, which the chart and the compare view never show. They belong to the
armies whose units (or options) carry them, and are listed under each such army, with their source.
"""

from __future__ import annotations

from collections import defaultdict

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.reference.models import Weapon


def imported_weapons_by_army(armies: list[Army]) -> list[tuple[Army, list[Weapon]]]:
    """Each of ``armies`` that carries imported weapons, with them by name. Three queries."""
    ids = [army.pk for army in armies]
    through = Unit.weapons.through
    pairs = set(
        through.objects.filter(weapon__imported=True, unit__army_id__in=ids, unit__removed=False).values_list(
            "unit__army_id", "weapon_id"
        )
    )
    pairs |= set(
        Option.objects.filter(grants_weapon__imported=True, unit__army_id__in=ids, unit__removed=False).values_list(
            "unit__army_id", "grants_weapon_id"
        )
    )
    weapons = {weapon.pk: weapon for weapon in Weapon.objects.filter(pk__in={pk for _, pk in pairs}).for_chart()}
    by_army: defaultdict[int, list[Weapon]] = defaultdict(list)
    for army_id, weapon_id in pairs:
        by_army[army_id].append(weapons[weapon_id])
    return [
        (army, sorted(by_army[army.pk], key=lambda weapon: weapon.display_name.casefold()))
        for army in armies
        if by_army.get(army.pk)
    ]
