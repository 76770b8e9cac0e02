"""A small Soviet-like imported army, its rows written the way the catalogue importer writes them.

- ``smg``: the "Submachine Gun Squad": 5 to 11 men, every man with an SMG.
- ``guard``: the "Guard Squad": 4 to 11 men with rifles; any man may swap his rifle for an SMG
  (a per-man choice sharing the squad's limit), an LMG team of 2 men may join (its gunner fires
  the LMG, his loader nothing), anti-tank grenades for the whole squad or none.

Both are typed teams, as imports made before the classifier read "Infantry Squads" first typed
them (the data files its squads under "Machine Gun Team" as well): who fires what must not hang
on the type.
"""

from __future__ import annotations

from armybuilder.catalogue.models import Army, Option, Origin, Unit
from armybuilder.lists.models import ArmyList, Entry
from armybuilder.reference.models import Weapon


def make_imported_soviets(weapons: dict[str, Weapon]) -> dict[str, Unit]:
    edition = weapons["rifle"].edition
    army = Army.objects.create(
        edition=edition,
        slug="soviet-union-imported",
        name="Armies of the soviet union",
        origin=Origin.BATTLESCRIBE,
        source="BattleScribe import: Bolt Action: Third Edition, catalogue 7c15",
        source_id="7c15-f6a9-718a-725c",
    )
    common = {
        "army": army,
        "slot": "infantry",
        "cost_regular": 50,
        "per_model_regular": 10,
        "base_models": 5,
        "max_models": 11,
        "composition": "5 to 11 models",
        "source": "BattleScribe import: Bolt Action: Third Edition, entry",
    }
    smg = Unit.objects.create(
        slug="submachine-gun-squad",
        name="Submachine Gun Squad",
        unit_type="team",
        weapons_text="Submachine gun (SMG)",
        source_id="u-smg",
        **{**common, "slot": "machine_gun"},
    )
    smg.weapons.set([weapons["smg"]])
    guard = Unit.objects.create(
        slug="guard-squad",
        name="Guard Squad",
        unit_type="team",
        weapons_text="Rifle",
        source_id="u-guard",
        option_groups=[{"key": "Weapons", "label": "Weapons", "minimum": 0, "maximum": None, "per_model": True}],
        **{**common, "slot": "machine_gun", "base_models": 4},
    )
    guard.weapons.set([weapons["rifle"]])
    Option.objects.create(
        unit=guard,
        slug="submachine-gun-smg",
        name="Submachine gun (SMG)",
        position=1,
        group="Weapons",
        cost_inexperienced=3,
        cost_regular=3,
        cost_veteran=3,
        grants_weapon=weapons["smg"],
        replaces_weapon=weapons["rifle"],
        source_id="o-smg",
    )
    Option.objects.create(
        unit=guard,
        slug="light-machine-gun-team",
        name="Light Machine Gun Team",
        position=2,
        max_count=1,
        adds_models=2,
        cost_inexperienced=28,
        cost_regular=35,
        cost_veteran=41,
        grants_weapon=weapons["lmg"],
        source_id="o-lmg-team",
    )
    Option.objects.create(
        unit=guard,
        slug="anti-tank-grenades",
        name="Anti-tank Grenades (Molotov cocktails)",
        position=3,
        all_models=True,
        per_model=True,
        cost_inexperienced=2,
        cost_regular=2,
        cost_veteran=2,
        source_id="o-at-grenades",
    )
    return {"smg": smg, "guard": guard}


def add_imported_entries(army_list: ArmyList, units: dict[str, Unit]) -> dict[str, Entry]:
    """The issue's two squads: 5 SMGs; 7 men of whom 3 took SMGs, with the LMG team (9 men)."""
    smg = Entry.objects.create(army_list=army_list, unit=units["smg"], models_count=5, position=0)
    guard = Entry.objects.create(
        army_list=army_list,
        unit=units["guard"],
        models_count=7,
        position=1,
        options={"submachine-gun-smg": 3, "light-machine-gun-team": 1, "anti-tank-grenades": 1},
    )
    return {"smg": smg, "guard": guard}
