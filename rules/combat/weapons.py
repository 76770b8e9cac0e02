"""Weapon profiles as the resolver sees them.

The Django side fills ``Weapon`` from its per-edition weapons table, so the profile numbers (range,
shots, Pen, HE size) are already the edition's own [S002, S000, S001, JS3]; the engine never looks a
weapon up by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.combat.dice import PMF, dice_pmf
from rules.errors import RulesError


@dataclass(frozen=True)
class Weapon:
    """One weapon profile.

    ``pen`` is the bonus added to damage rolls (0 for none). ``he_size`` is the HE template in inches
    for weapons that can fire HE; a gun that fires both AP and HE has both. ``shots`` is a dice
    expression ("1", "4", "D6", "D6+1"); a flamethrower's hit dice come from the edition config instead.
    """

    name: str
    slug: str
    range_max: int
    range_min: int | None = None
    shots: str = "1"
    pen: int = 0
    he_size: int | None = None
    assault: bool = False
    team: bool = False
    shaped_charge: bool = False
    flamethrower: bool = False
    indirect: bool = False
    fixed: bool = False
    vehicle_mounted: bool = False

    def __post_init__(self) -> None:
        if self.range_max < 0:
            raise RulesError(
                f"weapon.range_max: must not be negative ({self.slug})",
                code="negative",
                params={"field": "weapon.range_max", "value": self.range_max, "weapon_slug": self.slug},
            )
        if self.range_min is not None and not 0 <= self.range_min <= self.range_max:
            raise RulesError(
                f"weapon.range_min: must lie between 0 and range_max ({self.slug})",
                code="range-min",
                params={"field": "weapon.range_min", "value": self.range_min, "weapon_slug": self.slug},
            )
        if self.pen < 0:
            raise RulesError(
                f"weapon.pen: must not be negative ({self.slug})",
                code="negative",
                params={"field": "weapon.pen", "value": self.pen, "weapon_slug": self.slug},
            )
        if self.he_size is not None and not 1 <= self.he_size <= 6:
            raise RulesError(
                f"weapon.he_size: must be 1 to 6 inches ({self.slug})",
                code="he-size",
                params={"field": "weapon.he_size", "value": self.he_size, "weapon_slug": self.slug},
            )
        pmf = dice_pmf(self.shots)  # raises RulesError for an unreadable shots string
        if min(pmf) < 0 or max(pmf) > 20:
            raise RulesError(
                f"weapon.shots: out of range ({self.slug})",
                code="shots-range",
                params={"field": "weapon.shots", "value": self.shots, "weapon_slug": self.slug},
            )

    @property
    def shots_pmf(self) -> PMF:
        """Distribution of the number of shots one model fires."""
        return dice_pmf(self.shots)

    @property
    def fires_he_only(self) -> bool:
        """True for mortars, howitzers and similar: HE template and no AP Pen."""
        return self.he_size is not None and self.pen == 0
