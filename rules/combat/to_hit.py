"""The to-hit roll: the score needed and the labelled modifiers that produced it (spec §2.1)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.combat.config import RulesConfig
from rules.combat.context import Band, ShooterCtx, TargetCtx, check_choice
from rules.combat.dice import p_hit as _p_hit
from rules.combat.weapons import Weapon
from rules.errors import RulesError

Modifier = tuple[str, int]

# Indirect fire needs 6, then 5, 4, 3 and 2 while ranging in, and 2 once zeroed [JK3, BS2, S000].
RANGING_NEEDS = (6, 5, 4, 3, 2)


@dataclass(frozen=True)
class Need:
    """A required score and the signed modifiers behind it, ready for display."""

    need: int
    modifiers: tuple[Modifier, ...]


def ranging_need(attempt: int, zeroed: bool = False) -> int:
    """Score needed on the ``attempt``-th consecutive indirect shot (1-based) at a stationary target."""
    if zeroed:
        return 2
    if attempt < 1:
        raise RulesError(
            f"ranging_attempt: must be at least 1, got {attempt}",
            code="too-small",
            params={"field": "ranging_attempt", "minimum": 1, "value": attempt},
        )
    return RANGING_NEEDS[min(attempt, len(RANGING_NEEDS)) - 1]


def to_hit_modifiers(
    cfg: RulesConfig, shooter: ShooterCtx, target: TargetCtx, weapon: Weapon, band: Band
) -> tuple[Modifier, ...]:
    """The signed to-hit modifiers for one shooter, each with a display label.

    Only non-zero modifiers are listed. Modifiers apply per shooter, so range is the band of the models
    in this group [redditchtabletopgamers thread 2139].
    """
    check_choice("band", band, ("point_blank", "normal", "long"))
    mods: list[Modifier] = []
    # 2e flamethrowers ignore cover, Down and long range [BS2]; 3e uses the normal list [JK3].
    flamer_exempt = weapon.flamethrower and cfg.flamer_ignores_to_hit_mods
    infantry_like = target.kind in ("infantry", "artillery")

    if band == "point_blank" and cfg.point_blank_to_hit:
        mods.append(("Point blank", cfg.point_blank_to_hit))
    if band == "long" and cfg.long_range_to_hit and not flamer_exempt:
        mods.append(("Long range", cfg.long_range_to_hit))
    if shooter.order == "advance" and not weapon.assault:
        # Only a towed gun is held by Fixed: a vehicle turns with its gun (``ShooterCtx.vehicle``).
        if weapon.fixed and not shooter.vehicle and not cfg.fixed_fires_on_advance:
            raise RulesError(
                f"order: {weapon.name} is a fixed weapon and cannot fire on an Advance order",
                code="fixed-on-advance",
                params={"field": "order", "weapon": weapon.name, "weapon_slug": weapon.slug},
            )
        if not shooter.steady_on_move:
            mods.append(("Fire on the move", cfg.moving_to_hit))
    if shooter.pins:
        if cfg.pinned_firer == "per_pin":
            mods.append((f"Pinned ({shooter.pins})", -shooter.pins))
        else:
            mods.append(("Pinned", -1))
    if shooter.quality == "inexperienced":
        mods.append(("Inexperienced firer", cfg.inexperienced_firer_to_hit))
    if weapon.team and shooter.short_crew:
        mods.append(("Team weapon short of crew", cfg.short_crew_to_hit))
    if cfg.cover_mode == "to_hit" and not flamer_exempt:
        # Soft and hard cover do not stack; Down stacks with either [PS2].
        if target.cover == "hard" and cfg.hard_cover_to_hit:
            mods.append(("Hard cover", cfg.hard_cover_to_hit))
        elif target.cover == "soft" and cfg.soft_cover_to_hit:
            mods.append(("Soft cover", cfg.soft_cover_to_hit))
        if target.down and infantry_like and cfg.down_to_hit:
            mods.append(("Target Down", cfg.down_to_hit))
    if infantry_like and target.models <= cfg.small_team_max_models and cfg.small_team_to_hit:
        mods.append(("Small unit or team", cfg.small_team_to_hit))
    if weapon.shaped_charge and cfg.shaped_charge_to_hit:
        mods.append(("Shaped charge", cfg.shaped_charge_to_hit))
    at_gun = shooter.anti_tank_gun or weapon.anti_tank_gun
    if at_gun and target.is_vehicle and shooter.order == "fire" and cfg.at_gun_vs_vehicle_to_hit:
        mods.append(("Anti-tank gun", cfg.at_gun_vs_vehicle_to_hit))
    return tuple(mods)


def to_hit(
    cfg: RulesConfig,
    shooter: ShooterCtx,
    target: TargetCtx,
    weapon: Weapon,
    band: Band,
    *,
    indirect: bool | None = None,
    ranging_attempt: int = 1,
    zeroed: bool = False,
) -> Need:
    """The score needed to hit and its modifiers.

    Indirect fire overrides every modifier with the ranging-in ladder (§2.1); ``indirect`` defaults to
    the weapon's own flag.
    """
    if weapon.indirect if indirect is None else indirect:
        need = ranging_need(ranging_attempt, zeroed)
        label = "Indirect fire (zeroed)" if zeroed else f"Indirect fire, ranging attempt {ranging_attempt}"
        return Need(need, ((label, 0),))
    mods = to_hit_modifiers(cfg, shooter, target, weapon, band)
    return Need(cfg.base_to_hit - sum(v for _, v in mods), mods)


def to_hit_need(cfg: RulesConfig, shooter: ShooterCtx, target: TargetCtx, weapon: Weapon, band: Band) -> int:
    """The score needed to hit (spec §3 signature): base to hit minus the sum of the modifiers."""
    return to_hit(cfg, shooter, target, weapon, band).need


def p_hit(cfg: RulesConfig, need: int) -> Fraction:
    """P(hit) for a required score, applying the edition's 7+ and natural-1 rules."""
    return _p_hit(need, cfg.seven_plus, cfg.nat1_always_fails)
