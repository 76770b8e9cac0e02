"""Damage and save rolls: the score needed, Pen modifiers and 3e cover saves (spec §2.2)."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from rules.combat.config import RulesConfig
from rules.combat.context import Band, Facing, TargetCtx
from rules.combat.dice import p_at_least
from rules.combat.to_hit import Modifier, Need
from rules.combat.weapons import Weapon

ShotKind = Literal["kinetic", "he", "flamer"]


def shot_kind(weapon: Weapon, he: bool) -> ShotKind:
    """Classify a shot: flamethrower, HE (template, Pen from the HE size) or kinetic."""
    if weapon.flamethrower:
        return "flamer"
    if he:
        return "he"
    return "kinetic"


def shot_pen(weapon: Weapon, he: bool) -> int:
    """The Pen added to the damage roll: the HE size for HE (1" +1 ... 4" +4 [S002, S000]), else the profile Pen."""
    if he and not weapon.flamethrower:
        return weapon.he_size or 0
    return weapon.pen


def pen_modifiers(
    cfg: RulesConfig, weapon: Weapon, facing: Facing, band: Band, *, he: bool = False, indirect: bool = False
) -> tuple[Modifier, ...]:
    """Pen modifiers against an armoured target (§10).

    Side/top +1 and rear +2 for every shot; indirect fire and flamethrowers always strike the top
    [JK3, BS2]. Long range -1 and the 3e point-blank +1 apply to kinetic shots only, never to shaped
    charges, HE or flamethrowers [S004, BS2, ARB, JK3].
    """
    kind = shot_kind(weapon, he)
    mods: list[Modifier] = []
    if indirect or kind == "flamer":
        if cfg.top_pen:
            mods.append(("Top armour", cfg.top_pen))
    else:
        bonus = {"side": cfg.side_pen, "top": cfg.top_pen, "rear": cfg.rear_pen}.get(facing, 0)
        if bonus:
            mods.append((f"{facing.capitalize()} armour", bonus))
    kinetic = kind == "kinetic" and not weapon.shaped_charge
    if kinetic and band == "long" and cfg.long_range_pen:
        mods.append(("Long range", cfg.long_range_pen))
    if kinetic and band == "point_blank" and cfg.pb_pen_bonus:
        mods.append(("Point blank", cfg.pb_pen_bonus))
    return tuple(mods)


def damage(
    cfg: RulesConfig,
    target: TargetCtx,
    weapon: Weapon,
    facing: Facing,
    band: Band,
    *,
    he: bool = False,
    indirect: bool = False,
) -> Need:
    """The damage roll needed: DV plus protection, minus Pen and Pen modifiers (§2.2).

    Modifiers are listed as signed contributions to the roll, so need = DV - sum(modifiers), like the
    to-hit roll. A need above 6 means the shot cannot harm the target.
    """
    kind = shot_kind(weapon, he)
    mods: list[Modifier] = []
    pen = shot_pen(weapon, he)
    if pen:
        mods.append(("HE Pen" if kind == "he" else "Pen", pen))
    # Gun shields protect against shots from the front, not HE or flamethrowers [BS2, NK, S000].
    if target.gun_shield and facing == "front" and kind == "kinetic" and cfg.gun_shield_dv:
        mods.append(("Gun shield", -cfg.gun_shield_dv))
    # 2e buildings give extra protection against small arms and heavy weapons, not HE or flamers [S002].
    if (
        target.in_building
        and target.kind in ("infantry", "artillery")
        and kind == "kinetic"
        and cfg.building_extra_protection
    ):
        mods.append(("Building", -cfg.building_extra_protection))
    if target.kind == "armoured":
        mods.extend(pen_modifiers(cfg, weapon, facing, band, he=he, indirect=indirect))
    return Need(target.dv - sum(v for _, v in mods), tuple(mods))


def p_damage(cfg: RulesConfig, need: int) -> Fraction:
    """P(damage) for a required score; there is no 7+ rule for damage [S004, BAA]."""
    return p_at_least(need, cfg.nat1_always_fails)


def save_need(
    cfg: RulesConfig,
    target: TargetCtx,
    weapon: Weapon,
    point_blank: bool,
    *,
    he: bool = False,
    indirect: bool | None = None,
) -> int | None:
    """The 3e cover save needed, or None when no save applies (§6).

    Soft 5+, hard 4+; Down makes no cover 5+ and improves cover by 2, except against point-blank fire.
    Flamethrowers and indirect fire allow no saves [JK3]; direct HE does [JK3].
    """
    return cover_save_need(
        cfg,
        target,
        kind=shot_kind(weapon, he),
        indirect=weapon.indirect if indirect is None else indirect,
        point_blank=point_blank,
    )


def cover_save_need(
    cfg: RulesConfig, target: TargetCtx, *, kind: ShotKind, indirect: bool, point_blank: bool
) -> int | None:
    """``save_need`` for a shot described by its kind rather than a weapon profile."""
    if cfg.cover_mode != "save" or target.kind not in ("infantry", "artillery"):
        return None
    if kind == "flamer" or indirect:
        return None
    if kind == "he" and not cfg.he_saves_direct:
        return None
    need: int | None = {"soft": cfg.soft_save, "hard": cfg.hard_save}.get(target.cover)
    if target.down and not (point_blank and cfg.down_ignored_at_point_blank):
        need = cfg.down_open_save if need is None else need - cfg.down_save_bonus
    return need


def p_save(cfg: RulesConfig, need: int | None) -> Fraction:
    """P(save); a natural 1 never saves [JK3, R], so the best chance is 5/6."""
    if need is None:
        return Fraction(0)
    return p_at_least(need, cfg.nat1_always_fails)
