"""Weapon profiles as the resolver sees them.

The Django side fills ``Weapon`` from its per-edition weapons table, so the profile numbers (range,
shots, Pen, HE size) are already the edition's own [S002, S000, S001, JS3]; the engine never looks a
weapon up by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.combat.context import BANDS, POINT_BLANK_RANGE
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
    vehicle_mounted: bool = False  # a vehicle's flamethrower scores D6+1 hits, not D6 (notes §17)
    anti_tank_gun: bool = False  # the 3e Anti-tank Gun rule: +1 to hit vehicles on a Fire order [JK3]

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
    def bands(self) -> tuple[str, ...]:
        """The range bands this weapon can fire in when firing directly (in ``BANDS`` order).

        Point blank is within 6", long range beyond half the maximum range [S004, S002, S000], and
        nothing lies beyond the maximum or inside the minimum range. So a flamethrower (6") is only ever
        at point blank, a 12" weapon (an SMG, a Panzerfaust) is at point blank or long range, and a
        mortar with a 12" minimum never at point blank.
        """
        lo = self.range_min or 0
        hi = self.range_max
        half = Fraction(hi, 2)
        possible = {
            # some distance d with lo <= d <= hi in each band
            "point_blank": hi > 0 and lo <= POINT_BLANK_RANGE,
            "normal": max(lo, POINT_BLANK_RANGE) < half or (lo > POINT_BLANK_RANGE and lo <= half),
            "long": hi > max(half, POINT_BLANK_RANGE),
        }
        return tuple(b for b in BANDS if possible[b])


def check_band(field: str, weapon: Weapon, band: str) -> str:
    """Return ``band`` if ``weapon`` can fire in it, else raise RulesError naming ``field``."""
    if band in BANDS and band not in weapon.bands:
        raise RulesError(
            f"{field}: {weapon.name} cannot fire at {band.replace('_', ' ')} range "
            f"(it can: {', '.join(b.replace('_', ' ') for b in weapon.bands) or 'none'})",
            code="band-out-of-reach",
            params={
                "field": field,
                "band": band,
                "bands": ", ".join(weapon.bands),
                "weapon": weapon.name,
                "weapon_slug": weapon.slug,
            },
        )
    return band
