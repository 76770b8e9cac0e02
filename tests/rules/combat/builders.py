"""Shared builders for the combat tests (plain module, no fixtures needed)."""

from __future__ import annotations

from rules.combat.config import config_for
from rules.combat.context import TargetCtx
from rules.combat.weapons import Weapon

CFG1 = config_for("1e")
CFG2 = config_for("2e")
CFG3 = config_for("3e")

RIFLE = Weapon("Rifle", "rifle", 24)
SMG = Weapon("Submachine gun", "smg", 12, shots="2", assault=True)
LMG = Weapon("Light machine gun", "lmg", 36, shots="4", team=True)
MMG = Weapon("Medium machine gun", "mmg", 36, shots="5", team=True, fixed=True)
PANZERFAUST = Weapon("Panzerfaust", "panzerfaust", 12, pen=6, shaped_charge=True)
MEDIUM_MORTAR = Weapon("Medium mortar", "medium-mortar", 60, range_min=12, he_size=2, indirect=True)
LIGHT_HOWITZER = Weapon("Light howitzer", "light-howitzer", 48, he_size=2)
MEDIUM_AT_GUN = Weapon("Medium anti-tank gun", "medium-at-gun", 60, pen=5, he_size=1, team=True, fixed=True)
FLAMER_2E = Weapon("Flamethrower", "flamethrower", 6, shots="D6", pen=3, flamethrower=True, team=True)
FLAMER_3E = Weapon("Flamethrower", "flamethrower", 6, pen=2, flamethrower=True, team=True)


def target(**kwargs: object) -> TargetCtx:
    return TargetCtx(**kwargs)  # type: ignore[arg-type]
