"""What a caller asks the shooting engine to fire: one group of models with one weapon.

Its own module so that the national rules (``rules.combat.national``), which read the groups, and
the entry points (``rules.combat.api``), which apply the national rules, both depend on it rather
than on each other. ``rules.combat.api`` re-exports it for its callers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.combat.weapons import Weapon


@dataclass(frozen=True)
class ShotGroupInput:
    """Models of the firing unit that fire the same weapon from the same range band.

    ``models_under_template`` is the count of models one HE template covers (default: see
    ``he.DEFAULT_MODELS_UNDER_TEMPLATE``). ``ammo`` picks AP or HE for guns with both ("auto": HE at
    infantry/artillery, which is compulsory [BS2, JK3], AP at vehicles). ``indirect`` overrides the
    weapon's flag; ``ranging_attempt``/``zeroed`` give the indirect to-hit step.
    """

    weapon: Weapon
    models: int
    band: str = "normal"
    models_under_template: int | None = None
    ammo: Literal["auto", "ap", "he"] = "auto"
    indirect: bool | None = None
    ranging_attempt: int = 1
    zeroed: bool = False
    short_crew: bool = False
    steady_on_move: bool = False  # no -1 for moving: a national rule (``rules.combat.national``)
    reroll_failed_pen: bool = False  # a failed pen roll at a vehicle is rolled again: a national rule
    extra_dice: int = 0  # bonus dice of the group's weapon: a national rule (one per three riflemen)
