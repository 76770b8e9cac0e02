"""Entry points for the Django views and the JSON API.

Each returns a frozen dataclass of ``rules.combat.results`` whose probabilities are exact
``Fraction``s; ``serialise`` turns one into the API's JSON shape. Bad input raises ``RulesError``
whose ``field`` names the input (and whose message starts with it). Each result carries
``unverified``: the inferred config switches (``RulesConfig.unverified``) that could change that answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from rules.combat import bag, cq, indirect, national
from rules.combat.config import RulesConfig, config_for
from rules.combat.context import (
    BANDS,
    BASE_MORALE,
    COVERS,
    DAMAGE_VALUE,
    FACINGS,
    MAX_MODELS,
    MAX_PINS,
    QUALITIES,
    ShooterCtx,
    TargetCtx,
    check_choice,
    check_int,
)
from rules.combat.damage import ShotKind, damage, p_damage, p_save, save_need
from rules.combat.dice import (
    ONE,
    PMF,
    ZERO,
    convolve,
    convolve_power,
    dense,
    dice_pmf,
    mean,
    mixture,
    p_at_least,
    point,
    poisson_binomial,
)
from rules.combat.flamer import flamer_hits, resolve_flamethrowers
from rules.combat.groups import ShotGroupInput
from rules.combat.he import default_models_under_template, resolve_he
from rules.combat.morale import order_test as _order_test
from rules.combat.morale import pins_that_matter, shooting_with_morale
from rules.combat.results import (
    AntiTankResult,
    CloseQuartersOdds,
    Dist,
    GroupInfo,
    MoraleOutcome,
    OrderDiceOdds,
    OrderTestOdds,
    PenRoll,
    RangingOdds,
    ReactionOdds,
    Roll,
    Save,
    ShootingResult,
    ShotStep,
    Unverified,
    VehicleOutcome,
    largest_change,
    to_json,
)
from rules.combat.to_hit import Need, p_hit, ranging_need, to_hit
from rules.combat.vehicles import (
    CATEGORIES,
    ShotChain,
    ShotSpec,
    StatePMF,
    VehicleCtx,
    can_damage,
    penetration_categories,
    resolve_shots,
    shot_spec,
    start_state,
    summarise,
)
from rules.combat.volley import ShotGroup, VolleyResult, combine_results, mix_results, resolve_volley
from rules.combat.weapons import Weapon, check_band
from rules.errors import RulesError

TargetInput = TargetCtx  # kind, quality, models, cover, down, damage_value, facing, gun_shield, ...


@dataclass(frozen=True)
class _Plan:
    """One group, resolved to needs and dice."""

    label: str
    kind: ShotKind
    weapon: Weapon
    dice: PMF
    hit: Need
    dmg: Need
    save: int | None
    indirect: bool
    band: str
    template: int | None
    reroll_failed_pen: bool = False


def _pmf_block(pmf: Mapping[int, Fraction], fill: bool = True) -> Dist:
    """A distribution and its mean; ``fill`` writes the zero entries from 0 up for charts."""
    return Dist(dense(pmf) if fill else dict(pmf), mean(pmf))


def _need_block(need: Need, p: Fraction) -> Roll:
    return Roll(need.need, tuple(need.modifiers), p)


def _weapon_params(w: Weapon) -> dict[str, object]:
    """A weapon as error params: its name for the English message, its slug to find a translated name."""
    return {"weapon": w.name, "weapon_slug": w.slug}


def _within(field: str, params: Mapping[str, object]) -> dict[str, object]:
    """An inner error's params with its field placed under ``field`` ("order" -> "groups[0].order")."""
    inner = params.get("field")
    return {**params, "field": f"{field}.{inner}" if inner else field}


def _check_target(target: object) -> TargetCtx:
    if not isinstance(target, TargetCtx):
        raise RulesError(
            "target: expected a TargetInput", code="wrong-type", params={"field": "target", "expected": "TargetInput"}
        )
    return target


def _plan_groups(
    cfg: RulesConfig, shooter: ShooterCtx, groups: Sequence[ShotGroupInput], target: TargetCtx, used: set[str]
) -> list[_Plan]:
    if not isinstance(groups, Sequence) or isinstance(groups, str) or not groups:
        raise RulesError("groups: at least one shot group is required", code="no-groups", params={"field": "groups"})
    total = 0
    plans: list[_Plan] = []
    for i, g in enumerate(groups):
        field = f"groups[{i}]"
        if not isinstance(g, ShotGroupInput):
            raise RulesError(
                f"{field}: expected a ShotGroupInput",
                code="wrong-type",
                params={"field": field, "expected": "ShotGroupInput"},
            )
        if not isinstance(g.weapon, Weapon):
            raise RulesError(
                f"{field}.weapon: expected a Weapon",
                code="wrong-type",
                params={"field": f"{field}.weapon", "expected": "Weapon"},
            )
        check_int(f"{field}.models", g.models, 1, MAX_MODELS)
        check_choice(f"{field}.band", g.band, BANDS)
        check_choice(f"{field}.ammo", g.ammo, ("auto", "ap", "he"))
        check_int(f"{field}.ranging_attempt", g.ranging_attempt, 1, 20)
        total += g.models
        if total > MAX_MODELS:
            raise RulesError(
                f"groups: more than {MAX_MODELS} firing models",
                code="too-many-models",
                params={"field": "groups", "maximum": MAX_MODELS},
            )
        w = g.weapon
        he = _fires_he(w, g.ammo, target, field)
        kind: ShotKind = "flamer" if w.flamethrower else ("he" if he else "kinetic")
        ind = w.indirect if g.indirect is None else g.indirect
        if not ind:  # indirect fire has its own range and no bands
            check_band(f"{field}.band", w, g.band)
        if ind and w.he_size is None:
            raise RulesError(
                f"{field}.indirect: only HE weapons fire indirectly",
                code="indirect-not-he",
                params={"field": f"{field}.indirect", **_weapon_params(w)},
            )
        member = replace(shooter, short_crew=g.short_crew, steady_on_move=shooter.steady_on_move or g.steady_on_move)
        if w.fixed and shooter.order == "advance" and not shooter.vehicle:
            used.add("fixed_fires_on_advance")
        try:
            hit = to_hit(
                cfg, member, target, w, g.band, indirect=ind, ranging_attempt=g.ranging_attempt, zeroed=g.zeroed
            )
        except RulesError as exc:
            inner = _within(field, exc.params)
            raise RulesError(f"{field}.{exc}", code=exc.code, params=inner, field=str(inner["field"])) from exc
        dmg = damage(cfg, target, w, target.facing, g.band, he=he, indirect=ind)
        sv = save_need(cfg, target, w, g.band == "point_blank", he=he, indirect=ind)
        check_int(f"{field}.extra_dice", g.extra_dice, 0, MAX_MODELS)
        dice = convolve_power(w.shots_pmf, g.models + g.extra_dice) if kind != "flamer" else point(g.models)
        template = None
        if kind == "he" and target.kind in ("infantry", "artillery"):
            if g.models_under_template is not None:
                check_int(f"{field}.models_under_template", g.models_under_template, 0, MAX_MODELS)
                template = g.models_under_template
            else:
                template = default_models_under_template(w.he_size or 1)
        _note_switches(cfg, target, kind, hit, dmg, sv, ind, used)
        plans.append(_Plan(w.slug or w.name, kind, w, dice, hit, dmg, sv, ind, g.band, template, g.reroll_failed_pen))
    return plans


def _fires_he(w: Weapon, ammo: str, target: TargetCtx, field: str) -> bool:
    if w.flamethrower:
        return False
    if ammo == "he":
        if w.he_size is None:
            raise RulesError(
                f"{field}.ammo: {w.name} has no HE",
                code="no-he",
                params={"field": f"{field}.ammo", **_weapon_params(w)},
            )
        return True
    if ammo == "ap":
        if w.pen == 0 and w.he_size is not None:
            raise RulesError(
                f"{field}.ammo: {w.name} only fires HE",
                code="he-only",
                params={"field": f"{field}.ammo", **_weapon_params(w)},
            )
        return False
    if w.he_size is None:
        return False
    return w.pen == 0 or target.kind in ("infantry", "artillery")


def _note_switches(
    cfg: RulesConfig,
    target: TargetCtx,
    kind: ShotKind,
    hit: Need,
    dmg: Need,
    sv: int | None,
    ind: bool,
    used: set[str],
) -> None:
    """Record the config switches a group's numbers depend on."""
    if hit.need > 6:
        used.add("seven_plus")
    if dmg.need <= 1 or (sv is not None and sv <= 1):
        used.add("nat1_always_fails")
    labels = {label for label, _ in dmg.modifiers}
    for label, switch in (
        ("Gun shield", "gun_shield_dv"),
        ("Building", "building_extra_protection"),
        ("Side armour", "side_pen"),
        ("Rear armour", "rear_pen"),
        ("Top armour", "top_pen"),
    ):
        if label in labels:
            used.add(switch)
    if target.kind in ("infantry", "artillery"):
        used.add("exceptional_damage")
    if kind == "flamer":
        used.update({"flamer_hits", "flamer_pins", "flamer_ignores_to_hit_mods", "flamer_forced_morale"})
        if target.is_vehicle:
            used.add("flamer_vs_vehicle")
    if kind == "he" and target.kind != "armoured":
        used.add("he_pins")
        if target.down and not target.is_vehicle:
            used.add("he_down_rounding")
        if cfg.he_hits_mode == "random":
            used.add("he_hits_mode")
    if ind and target.kind == "armoured" and target.open_topped:
        used.add("superficial_above_six")


# --- shooting ----------------------------------------------------------------------------------


def shooting(
    edition: str,
    *,
    order: str,
    firer_quality: str,
    firer_pins: int,
    groups: Sequence[ShotGroupInput],
    target: TargetInput,
    anti_tank_gun: bool = False,
    d2_pins: bool = False,
    vehicle: bool = False,
) -> ShootingResult:
    """Resolve one unit's shooting at one target.

    Returns ``need_to_hit``/``need_to_damage`` (per group: need, modifiers, p), ``save`` (per group in
    3e, else None), ``p_pin``, ``pins``/``hits``/``casualties`` (``Dist``), ``p_exceptional``
    (1e/2e against men, else None), ``morale`` (units of men and soft-skins), ``vehicle`` (armoured
    targets), ``p_destroyed`` (vehicles), ``firer_pins_added`` and ``unverified``. ``groups`` gives each
    group's weapon, kind ("kinetic", "he", "flamer"), dice, ``indirect`` and ``template`` (models under
    one HE template against men, else None). A vehicle counts as one model, so its casualties PMF is
    {0: survives, 1: destroyed}. ``anti_tank_gun`` gives every group the Anti-tank Gun rule; a weapon
    can also carry it (``Weapon.anti_tank_gun``). ``d2_pins``: the unit's small-arms fire pins D2, not
    one, at men and soft-skins (a national rule, ``rules.combat.national.large_squad``). ``vehicle``: the
    firing unit is a vehicle, so its Fixed guns fire on an Advance order (at the -1 for moving); a
    towed gun's do not in 1st and 2nd edition.
    """
    cfg = config_for(edition)
    shooter = ShooterCtx(
        quality=firer_quality,
        pins=firer_pins,
        order=order,
        anti_tank_gun=anti_tank_gun,
        d2_pins=d2_pins,
        vehicle=vehicle,
    )
    target = _check_target(target)
    if target.is_vehicle:
        target = replace(target, models=1, down=False, starting_models=None)
    result, used = _shooting(cfg, shooter, groups, target)
    # Against a vehicle each weapon group pushes the vehicle's whole state machine through its own
    # dice, and every unverified switch re-runs all of it: with several groups that reached 1.2 s of
    # CPU. There the switches are named without the size of their effect.
    measure = not (target.is_vehicle and len(groups) > VEHICLE_GROUPS_MEASURED)
    return _with_unverified(result, cfg, used, lambda alt: _shooting(alt, shooter, groups, target)[0], measure=measure)


def _shooting(
    cfg: RulesConfig, shooter: ShooterCtx, groups: Sequence[ShotGroupInput], target: TargetCtx
) -> tuple[ShootingResult, set[str]]:
    """``shooting`` under ``cfg``, with the config switches the answer read."""
    used: set[str] = set()
    plans = _plan_groups(cfg, shooter, groups, target, used)
    common: dict[str, Any] = {
        "edition": cfg.edition,
        "target_kind": target.kind,
        "groups": tuple(
            GroupInfo(p.label, p.kind, _pmf_block(p.dice, fill=False), p.indirect, p.template) for p in plans
        ),
        "need_to_hit": tuple(_need_block(p.hit, p_hit(cfg, p.hit.need)) for p in plans),
        "need_to_damage": tuple(_need_block(p.dmg, p_damage(cfg, p.dmg.need)) for p in plans),
        "save": (
            tuple(None if p.save is None else Save(p.save, p_save(cfg, p.save)) for p in plans)
            if cfg.cover_mode == "save" and target.kind in ("infantry", "artillery")
            else None
        ),
    }
    if target.kind == "armoured" or (target.kind == "soft_skin" and not cfg.soft_skin_destroyed_when_damaged):
        if target.kind == "soft_skin":
            used.add("soft_skin_destroyed_when_damaged")
        result = _shoot_armoured(cfg, plans, target, used, common)
    else:
        if target.kind == "soft_skin":
            used.add("soft_skin_destroyed_when_damaged")
        volley = _shoot_men(cfg, plans, target, used, d2_pins=shooter.d2_pins)
        fate = shooting_with_morale(cfg, volley, target)
        if target.kind in ("infantry", "artillery"):
            used.add("morale_check_trigger")
        used.update(_morale_cap_used(cfg, target))
        result = ShootingResult(
            **common,
            p_pin=volley.p_pin,
            pins=_pmf_block(volley.pins_pmf),
            hits=_pmf_block(volley.hits_pmf),
            casualties=_pmf_block(volley.casualties_pmf),
            p_exceptional=volley.p_exceptional,
            morale=MoraleOutcome(
                p_check=fate.p_check,
                p_destroyed_by_check=fate.p_destroyed_by_check,
                p_wiped_out=fate.p_wiped_out,
                p_pin_rout=fate.p_pin_rout,
                p_destroyed=fate.p_destroyed,
            ),
            vehicle=None,
            p_destroyed=fate.p_destroyed if target.kind == "soft_skin" else None,
            firer_pins_added=volley.firer_pins,
            unverified=(),
        )
    return result, used


# A switch whose other values move no figure by more than this is not reported: the pages show
# probabilities to 0.1 %, so a smaller move could not change what a player reads.
NEGLIGIBLE = Fraction(1, 2000)


# Weapon groups at a vehicle whose unverified switches are still measured by re-running the volley.
VEHICLE_GROUPS_MEASURED = 1


def _with_unverified(
    result: Any, cfg: RulesConfig, used: set[str], rerun: Callable[[RulesConfig], Any], *, measure: bool = True
) -> Any:
    """``result`` with the unverified switches that could change it, and by how much.

    Each unverified switch the answer read is tried at its other plausible values
    (``RulesConfig.alternatives``) and the answer worked out again: a switch that moves none of the
    headline figures (``headline``) by ``NEGLIGIBLE`` or more is dropped; the others carry the largest
    move of any figure. A
    switch with no known alternative, or whose alternative makes the input impossible (a fixed weapon
    that could not fire), is kept with no amount, as is every switch when ``measure`` is false (an
    answer too costly to work out again).
    """
    details: list[Unverified] = []
    for name in sorted(used & cfg.unverified):
        alternatives = cfg.alternatives(name) if measure else ()
        if not alternatives:
            details.append(Unverified(name))
            continue
        best: tuple[Fraction, str] | None = (ZERO, "")
        for value in alternatives:
            try:
                other = rerun(replace(cfg, **{name: value}))
            except RulesError:
                best = None
                break
            move = largest_change(result, other)
            if move[0] > best[0]:
                best = move
        if best is None:
            details.append(Unverified(name))
        elif best[0] >= NEGLIGIBLE:
            details.append(Unverified(name, best[1], best[0]))
    return replace(result, unverified=tuple(d.switch for d in details), unverified_detail=tuple(details))


def _morale_cap_used(cfg: RulesConfig, target: TargetCtx) -> set[str]:
    raw = target.base_morale + target.officer_bonus + target.morale_modifier
    return {"morale_cap"} if raw > cfg.morale_cap else set()


def _shoot_men(
    cfg: RulesConfig, plans: list[_Plan], target: TargetCtx, used: set[str], *, d2_pins: bool = False
) -> VolleyResult:
    """Units of men (and soft-skins destroyed when damaged, as one model with no save)."""
    parts: list[VolleyResult] = []
    pin_cap = pins_that_matter(cfg, target)
    kinetic = [
        ShotGroup(p.dice if len(p.dice) > 1 else next(iter(p.dice)), p.hit.need, p.dmg.need, p.save)
        for p in plans
        if p.kind == "kinetic"
    ]
    if kinetic:
        volley = resolve_volley(cfg, kinetic, target)
        parts.append(national.d2_pins(volley) if d2_pins else volley)
    for p in plans:
        ph = p_hit(cfg, p.hit.need)
        if p.kind == "he":
            size = p.weapon.he_size or 1
            if target.is_vehicle:
                hits: int | None = 1  # one damage roll per HE hit on a vehicle [S000, JK3]
            elif cfg.he_hits_mode == "random" or target.in_building:
                hits = None
            else:
                hits = p.template
            if any(n > 1 for n in p.dice):
                used.add("he_multi_hit_pins")
            parts.append(
                mix_results(
                    (
                        w,
                        resolve_he(
                            cfg,
                            ph,
                            hits,
                            target,
                            size,
                            p.indirect,
                            shots=n,
                            point_blank=p.band == "point_blank",
                            pin_cap=pin_cap,
                        ),
                    )
                    for n, w in p.dice.items()
                )
            )
        elif p.kind == "flamer":
            single = target.is_vehicle and cfg.flamer_vs_vehicle == "one_roll"
            pen = target.dv - p.dmg.need  # the flamer's Pen; no gun shield or building protection [BS2]
            count = next(iter(p.dice))
            if count > 1:
                used.add("mixed_fire_pins")  # each flamethrower's pins are a batch of their own
            parts.append(
                resolve_flamethrowers(
                    cfg,
                    p.hit.need,
                    target,
                    p.weapon.vehicle_mounted,
                    pen=pen,
                    count=count,
                    hits=point(1) if single else None,
                    pin_cap=pin_cap,
                )
            )
    if len(parts) > 1:
        used.add("mixed_fire_pins")
    return combine_results(cfg, parts, target.models, pin_cap=pin_cap)


def _vehicle(target: TargetCtx) -> VehicleCtx:
    return VehicleCtx(
        dv=target.dv,
        morale=target.base_morale,
        open_topped=target.open_topped,
        has_turret=target.has_turret,
        slow=target.slow,
        carries_flamer=target.carries_flamer,
    )


def _shot_spec(
    cfg: RulesConfig, plan: _Plan, target: TargetCtx, vehicle: VehicleCtx, used: set[str]
) -> ShotSpec | None:
    """One die of a group as the vehicle engine's ``ShotSpec``; None when it cannot hurt or pin.

    A firing unit pins an armoured vehicle once if it hits with a weapon that could damage it (any
    hit on an open-topped one), however many such hits; each damage result adds its own pin (notes §7
    [BS2, JK3, S002, S000]). A flamethrower hit places its own D3+1 pins instead.
    """
    ph = p_hit(cfg, plan.hit.need)
    pen_total = target.dv - plan.dmg.need
    result_mod = 0
    if target.carries_flamer:
        result_mod += 1  # the target carries flamethrowers [BS2, JK3, BTB]
    if target.open_topped and plan.indirect:
        result_mod += 1  # open-topped and hit by indirect fire [S002, S000]
    if result_mod and cfg.superficial_mode == "3e_table":
        used.add("superficial_above_six")
    if plan.kind == "flamer":
        # A flamethrower hit pins D3+1 and forces a morale check: failing abandons the vehicle [JK3, BS2].
        return shot_spec(
            vehicle,
            ph,
            pen_total,
            result_mod=result_mod,
            hit_pins=dice_pmf(cfg.flamer_pins),
            pen_rolls=flamer_hits(cfg, plan.weapon.vehicle_mounted) if cfg.flamer_vs_vehicle == "per_hit" else None,
            forced_check=cfg.flamer_forced_morale,
            reroll_failed_pen=plan.reroll_failed_pen,
        )
    pins_it = can_damage(target.dv, pen_total) or target.open_topped
    if not pins_it:
        return None  # cannot hurt or pin an enclosed vehicle
    return shot_spec(
        vehicle,
        ph,
        pen_total,
        result_mod=result_mod,
        hit_pins=point(0),
        unit_pin=True,
        reroll_failed_pen=plan.reroll_failed_pen,
    )


def _push_states(
    cfg: RulesConfig, plan: _Plan, target: TargetCtx, vehicle: VehicleCtx, states: StatePMF, used: set[str]
) -> StatePMF:
    """Push the vehicle state distribution through every die of one group, one die at a time (§2.6)."""
    spec = _shot_spec(cfg, plan, target, vehicle, used)
    if spec is None:
        return states
    return resolve_shots(cfg, vehicle, spec, states, plan.dice)


def _best_categories(cfg: RulesConfig, plans: list[_Plan], target: TargetCtx) -> dict[str, Fraction]:
    """Distribution of the best damage category scored by any die of the attack (a miss is "none")."""
    cdf = dict.fromkeys(CATEGORIES, ONE)  # P(best <= c)
    for p in plans:
        ph = p_hit(cfg, p.hit.need)
        cats = penetration_categories(target.dv, target.dv - p.dmg.need, cfg.nat1_always_fails, p.reroll_failed_pen)
        for i, c in enumerate(CATEGORIES):
            at_most = (ONE - ph) + ph * sum((cats[x] for x in CATEGORIES[: i + 1]), ZERO)
            cdf[c] *= sum((w * at_most**n for n, w in p.dice.items()), ZERO)
    out: dict[str, Fraction] = {}
    previous = ZERO
    for c in CATEGORIES:
        out[c] = cdf[c] - previous
        previous = cdf[c]
    return out


def _shoot_armoured(
    cfg: RulesConfig, plans: list[_Plan], target: TargetCtx, used: set[str], common: Mapping[str, Any]
) -> ShootingResult:
    """Armoured targets: the state distribution after the whole attack, die by die, group by group."""
    vehicle = _vehicle(target)
    used.update({"vehicle_tables", "superficial_mode", "pin_on_no_effect"})
    if target.base_morale > cfg.morale_cap:
        used.add("morale_cap")
    states = start_state(vehicle, target.pins)
    for plan in plans:
        states = _push_states(cfg, plan, target, vehicle, states, used)
    summary = summarise(cfg, vehicle, states, target.pins)
    hits = point(0)
    for p in plans:
        ph = p_hit(cfg, p.hit.need)
        hits = convolve(hits, mixture((w, poisson_binomial([ph] * n)) for n, w in p.dice.items()))
    pins_pmf = summary.pins_added
    return ShootingResult(
        **common,
        p_pin=ONE - pins_pmf.get(0, ZERO),
        pins=_pmf_block(pins_pmf),
        hits=_pmf_block(hits),
        casualties=_pmf_block({0: ONE - summary.p_knocked_out, 1: summary.p_knocked_out}),
        p_exceptional=None,
        morale=None,
        vehicle=VehicleOutcome(
            p_knocked_out=summary.p_knocked_out,
            p_immobilised=summary.p_immobilised,
            p_pin_rout=summary.p_pin_rout,
            categories=_best_categories(cfg, plans, target),
            categories_per_hit=tuple(
                penetration_categories(target.dv, target.dv - p.dmg.need, cfg.nat1_always_fails, p.reroll_failed_pen)
                for p in plans
            ),
            pen_total=tuple(target.dv - p.dmg.need for p in plans),
            pins=dense(pins_pmf),
        ),
        p_destroyed=summary.p_knocked_out,
        firer_pins_added=sum(cfg.flamer_firer_pin * next(iter(p.dice)) for p in plans if p.kind == "flamer"),
        unverified=(),
    )


# --- anti-tank sequences -------------------------------------------------------------------------


def anti_tank(
    edition: str,
    *,
    weapon: Weapon,
    damage_value: int,
    shots: int = 1,
    facing: str = "front",
    band: str = "normal",
    need_to_hit: int | None = None,
    order: str = "fire",
    firer_quality: str = "regular",
    firer_pins: int = 0,
    anti_tank_gun: bool = False,
    ammo: Literal["auto", "ap", "he"] = "auto",
    vehicle_quality: str = "regular",
    pins: int = 0,
    cover: str = "none",
    open_topped: bool = False,
    has_turret: bool = True,
    slow: bool = False,
    carries_flamer: bool = False,
    steady_on_move: bool = False,
    reroll_failed_pen: bool = False,
    vehicle: bool = False,
) -> AntiTankResult:
    """``shots`` separate shots of ``weapon`` at one armoured vehicle, resolved one after the other (§2.6).

    The need to hit comes from the firer context unless ``need_to_hit`` is given. Returns
    ``need_to_hit``, ``need_to_damage`` (with ``pen_total``), ``p_hit``, ``categories`` (per hit),
    ``by_shot`` (cumulative KO and immobilised chances after each shot), ``p_knocked_out``,
    ``p_immobilised``, ``p_pin_rout``, ``pins`` and ``unverified``. Each shot is its own firing (a gun
    on successive turns, or several guns), so each hit from a weapon that could damage the vehicle pins.
    ``steady_on_move``: a national rule spares the weapon the -1 for moving (``rules.combat.national``).
    ``reroll_failed_pen``: a national rule re-rolls a failed pen roll (Italy's Improvised AT).
    ``vehicle``: the firer is a vehicle, whose Fixed gun fires on an Advance order (see ``shooting``).
    """
    cfg = config_for(edition)
    check_int("shots", shots, 1, MAX_MODELS)
    if not isinstance(weapon, Weapon):
        raise RulesError(
            "weapon: expected a Weapon", code="wrong-type", params={"field": "weapon", "expected": "Weapon"}
        )
    check_int("damage_value", damage_value, 6, 12)
    check_choice("facing", facing, FACINGS)
    check_choice("vehicle_quality", vehicle_quality, QUALITIES)
    check_choice("cover", cover, COVERS)
    check_int("pins", pins, 0, MAX_PINS)
    target = TargetCtx(
        kind="armoured",
        quality=vehicle_quality,
        models=1,
        cover=cover,
        damage_value=damage_value,
        facing=facing,
        pins=pins,
        open_topped=open_topped,
        has_turret=has_turret,
        slow=slow,
        carries_flamer=carries_flamer,
    )
    shooter = ShooterCtx(
        quality=firer_quality,
        pins=firer_pins,
        order=order,
        anti_tank_gun=anti_tank_gun,
        steady_on_move=steady_on_move,
        vehicle=vehicle,
    )
    if need_to_hit is not None:
        check_int("need_to_hit", need_to_hit, 1, 12)
    if not weapon.indirect:
        check_band("band", weapon, band)
    args = (shooter, weapon, band, ammo, target, shots, need_to_hit, reroll_failed_pen)
    try:
        result, used = _anti_tank(cfg, *args)
    except RulesError as exc:
        # The one shot group is internal: name the calculator's own field ("order", not "groups[0].order").
        field = (exc.field or "").removeprefix("groups[0].")
        message = str(exc).removeprefix("groups[0].")
        raise RulesError(message, code=exc.code, params={**exc.params, "field": field}, field=field) from exc
    return _with_unverified(result, cfg, used, lambda alt: _anti_tank(alt, *args)[0])


def _anti_tank(
    cfg: RulesConfig,
    shooter: ShooterCtx,
    weapon: Weapon,
    band: str,
    ammo: Literal["auto", "ap", "he"],
    target: TargetCtx,
    shots: int,
    need_to_hit: int | None,
    reroll_failed_pen: bool = False,
) -> tuple[AntiTankResult, set[str]]:
    pins = target.pins
    damage_value = target.dv
    used: set[str] = {"vehicle_tables", "superficial_mode", "pin_on_no_effect"}
    group = ShotGroupInput(weapon, 1, band, ammo=ammo, reroll_failed_pen=reroll_failed_pen)
    plan = _plan_groups(cfg, shooter, [group], target, used)[0]
    plan = replace(plan, dice=point(1))
    if need_to_hit is not None:
        plan = replace(plan, hit=Need(need_to_hit, ()))
        used.discard("seven_plus")
        if need_to_hit > 6:
            used.add("seven_plus")
    if target.base_morale > cfg.morale_cap:
        used.add("morale_cap")
    vehicle = _vehicle(target)
    states = start_state(vehicle, pins)
    spec = _shot_spec(cfg, plan, target, vehicle, used)
    if spec is not None and spec.unit_pin:
        # Each shot is its own firing, so every hit places that firing's pin.
        spec = replace(spec, unit_pin=False, pins=((1, 1),), pins_den=1)
    by_shot = []
    if spec is None:
        step = summarise(cfg, vehicle, states, pins)
        by_shot = [ShotStep(i, step.p_knocked_out, step.p_immobilised) for i in range(1, shots + 1)]
    else:
        # One chain for the whole sequence: the per-shot figures are read off it as it goes.
        chain = ShotChain(cfg, vehicle, spec, states)
        for i in range(1, shots + 1):
            chain.step()
            by_shot.append(ShotStep(i, chain.mass(lambda s: s.ko), chain.mass(lambda s: s.immobilised and not s.ko)))
        states = chain.pmf()
    summary = summarise(cfg, vehicle, states, pins)
    ph = p_hit(cfg, plan.hit.need)
    pen_total = damage_value - plan.dmg.need
    result = AntiTankResult(
        edition=cfg.edition,
        need_to_hit=_need_block(plan.hit, ph),
        need_to_damage=PenRoll(plan.dmg.need, plan.dmg.modifiers, p_damage(cfg, plan.dmg.need), pen_total),
        p_hit=ph,
        categories=penetration_categories(damage_value, pen_total, cfg.nat1_always_fails, reroll_failed_pen),
        by_shot=tuple(by_shot),
        p_knocked_out=summary.p_knocked_out,
        p_immobilised=summary.p_immobilised,
        p_pin_rout=summary.p_pin_rout,
        pins=_pmf_block(summary.pins_added),
        unverified=(),
    )
    return result, used


# --- morale ------------------------------------------------------------------------------------------


def order_test(
    edition: str,
    *,
    quality: str,
    pins: int,
    officer_bonus: int | str = 0,
    modifier: int = 0,
    shirkers: bool = False,
) -> OrderTestOdds:
    """Odds of an order test.

    ``officer_bonus`` is the bonus itself (0-4) or a rank name from the edition's officer table
    ("second_lieutenant" ... "major"; 3e "platoon_commander", "company_commander"). Returns
    ``morale`` (after clamping), ``test_needed``, ``p_pass``, ``p_fail`` (= 1 - p_pass, FUBAR included),
    ``p_fubar``, ``p_fail_not_fubar``, ``p_fubar_friendly_fire``, ``p_fubar_panic``, ``p_double_one``
    (2e, else None) and ``unverified``.
    """
    cfg = config_for(edition)
    check_choice("quality", quality, QUALITIES)
    check_int("pins", pins, 0, MAX_PINS)
    check_int("modifier", modifier, -10, 10)
    used: set[str] = set()
    if isinstance(officer_bonus, str):
        ranks = dict(cfg.officer_bonuses)
        if officer_bonus not in ranks:
            raise RulesError(
                f"officer_bonus: unknown rank {officer_bonus!r} for {cfg.edition} (expected {', '.join(ranks)})",
                code="unknown-rank",
                params={
                    "field": "officer_bonus",
                    "rank": officer_bonus,
                    "edition": cfg.edition,
                    "ranks": ", ".join(ranks),
                },
            )
        bonus = ranks[officer_bonus]
        used.add("officer_bonuses")
    else:
        bonus = check_int("officer_bonus", officer_bonus, 0, 4)
    raw = BASE_MORALE[quality] + bonus + modifier - pins * (2 if shirkers else 1)
    if raw > cfg.morale_cap:
        used.add("morale_cap")

    def odds(c: RulesConfig) -> OrderTestOdds:
        res = _order_test(c, BASE_MORALE[quality], bonus, pins, modifier, shirkers=shirkers)
        return OrderTestOdds(
            edition=c.edition,
            morale=res.morale,
            test_needed=res.test_needed,
            p_pass=res.p_pass,
            p_fail=res.p_fail,
            p_fubar=res.p_fubar,
            p_fail_not_fubar=res.p_fail_not_fubar,
            p_fubar_friendly_fire=res.p_fubar_friendly_fire,
            p_fubar_panic=res.p_fubar_panic,
            p_double_one=res.p_double_one,
            unverified=(),
        )

    return _with_unverified(odds(cfg), cfg, used, odds)


# --- close quarters ------------------------------------------------------------------------------


_SIDE_FIELDS = {
    "models",
    "quality",
    "tough_fighters",
    "assault_weapons",
    "defensive_position",
    "tough_as_boots",
    "blood_curdling_charge",
}
_REACTION_FIELDS = {"shots", "to_hit", "attacker_pins"}


def _cq_side(name: str, data: Mapping[str, Any], defender: bool, edition: str = "v2") -> cq.CQSide:
    if not isinstance(data, Mapping):
        raise RulesError(
            f"{name}: expected a mapping of models, quality, tough_fighters ...",
            code="wrong-type",
            params={"field": name, "expected": "mapping"},
        )
    # Only the defender has a position, and only the assaulting side's Blood Curdling Charge acts.
    allowed = _SIDE_FIELDS - ({"blood_curdling_charge"} if defender else {"defensive_position"})
    for key in data:
        if key not in allowed:
            raise RulesError(f"{name}.{key}: unknown field", code="unknown-field", params={"field": f"{name}.{key}"})
    if "models" not in data:
        raise RulesError(f"{name}.models: required", code="required", params={"field": f"{name}.models"})
    models = check_int(f"{name}.models", data["models"], 1, MAX_MODELS)
    quality = check_choice(f"{name}.quality", data.get("quality", "regular"), QUALITIES)
    aw = data.get("assault_weapons", 0)
    if isinstance(aw, bool):
        aw = models if aw else 0
    aw = check_int(f"{name}.assault_weapons", aw, 0, models)
    for flag in ("tough_fighters", "defensive_position", "tough_as_boots", "blood_curdling_charge"):
        if not isinstance(data.get(flag, False), bool):
            raise RulesError(
                f"{name}.{flag}: expected true or false",
                code="not-bool",
                params={"field": f"{name}.{flag}", "value": data[flag]},
            )
    return cq.CQSide(
        models=models,
        quality=quality,
        tough_fighters=data.get("tough_fighters", False),
        assault_weapons=aw,
        defensive_position=data.get("defensive_position", False),
        # Tough as Boots: acts only in 2nd edition and for Regular or Veteran men (national.tough_as_boots).
        extra_per_three=national.tough_as_boots(edition, data.get("tough_as_boots", False), quality) is not None,
    )


def _reaction(data: Mapping[str, Any] | None) -> cq.Reaction | None:
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise RulesError(
            "reaction: expected a mapping of shots, to_hit and attacker_pins",
            code="wrong-type",
            params={"field": "reaction", "expected": "mapping"},
        )
    for key in data:
        if key not in _REACTION_FIELDS:
            field = f"reaction.{key}"
            raise RulesError(f"{field}: unknown field", code="unknown-field", params={"field": field})
    for key in ("shots", "to_hit"):
        if key not in data:
            raise RulesError(f"reaction.{key}: required", code="required", params={"field": f"reaction.{key}"})
    return cq.Reaction(
        shots=check_int("reaction.shots", data["shots"], 1, cq.MAX_REACTION_SHOTS),
        need_hit=check_int("reaction.to_hit", data["to_hit"], 2, 7),
        attacker_pins=check_int("reaction.attacker_pins", data.get("attacker_pins", 0), 0, MAX_PINS),
    )


def _reaction_odds(c: RulesConfig, rx: cq.ReactionResult, reaction: cq.Reaction, quality: str) -> ReactionOdds:
    dv = DAMAGE_VALUE[quality]
    return ReactionOdds(
        shots=reaction.shots,
        need_to_hit=Roll(reaction.need_hit, (), p_hit(c, reaction.need_hit)),
        need_to_damage=Roll(dv, (), p_damage(c, dv)),
        casualties=_pmf_block(rx.casualties),
        p_pin=rx.p_pin,
        p_wiped_out=rx.p_wiped_out,
        p_check=rx.p_check,
        p_broken=rx.p_broken,
        p_assault=rx.p_assault,
    )


def close_quarters(
    edition: str,
    *,
    attacker: Mapping[str, Any],
    defender: Mapping[str, Any],
    first_round: str | None = None,
    reaction: Mapping[str, Any] | None = None,
) -> CloseQuartersOdds:
    """A close-quarters fight between two units of men, after the defenders' reaction fire if any.

    ``attacker``: {models, quality, tough_fighters, assault_weapons (count, or true for all),
    tough_as_boots (the British characteristic, chosen: acts for Regular and Veteran men in 2nd edition),
    blood_curdling_charge (the same: the enemy cannot react by shooting, unless the attackers are
    Inexperienced)}; ``defender``: the same but Blood Curdling Charge, plus ``defensive_position``.
    ``first_round`` overrides the edition's order of strikes. ``reaction``: {shots, to_hit (2-7; 7 is a
    6 then a 6), attacker_pins (before the fire, 0)}: the defenders shoot at the assaulting unit before it
    goes in (``cq.close_quarters_after_reaction``; up to ``cq.MAX_REACTION_MODELS`` men a side).
    Returns ``p_attacker_wins``, ``p_defender_wins``, ``p_both_destroyed`` (summing to 1),
    ``expected_rounds`` (a Fraction; 0 for an assault the reaction stopped), ``first_round``, the dice
    each side rolls at full strength, ``reaction`` (``ReactionOdds``, or None), ``no_reaction`` (the slug
    of the rule that forbade the reaction asked for) and ``unverified``.
    """
    cfg = config_for(edition)
    att = _cq_side("attacker", attacker, defender=False, edition=edition)
    dfd = _cq_side("defender", defender, defender=True, edition=edition)
    if first_round is not None:
        check_choice("first_round", first_round, ("attacker_first", "simultaneous", "defender_first"))
    rx_input = _reaction(reaction)
    blocked = national.blood_curdling_charge(edition, attacker.get("blood_curdling_charge", False), att.quality)
    no_reaction = ""
    if blocked is not None and rx_input is not None:
        rx_input, no_reaction = None, blocked.slug
    if rx_input is not None:
        check_int("attacker.models", att.models, 1, cq.MAX_REACTION_MODELS)
        check_int("defender.models", dfd.models, 1, cq.MAX_REACTION_MODELS)
    used = {"cq_later_rounds"}
    if dfd.defensive_position and first_round is None:
        used.add("cq_first_round_defensive")
    for side in (att, dfd):
        if side.tough_fighters or (side.assault_weapons and cfg.assault_weapon_cq == "tough_fighters"):
            used.add("tough_fighters")
    if rx_input is not None:
        # The reaction reads the morale clamp, and the 7+ rule when asked. Its check after casualties counts
        # from the men who charge, where both readings of the trigger (notes §12) are the same test.
        if BASE_MORALE[att.quality] > cfg.morale_cap:
            used.add("morale_cap")
        if rx_input.need_hit > 6:
            used.add("seven_plus")

    def odds(c: RulesConfig) -> CloseQuartersOdds:
        if rx_input is None:
            res = cq.close_quarters(c, att, dfd, first_round)
        else:
            res = cq.close_quarters_after_reaction(c, att, dfd, rx_input, first_round)
        return CloseQuartersOdds(
            edition=c.edition,
            p_attacker_wins=res.p_attacker_wins,
            p_defender_wins=res.p_defender_wins,
            p_both_destroyed=res.p_both_destroyed,
            expected_rounds=res.expected_rounds,
            first_round=res.first_round,
            attacker_dice=cq.attack_dice(c, att, dfd.quality),
            defender_dice=cq.attack_dice(c, dfd, att.quality),
            unverified=(),
            reaction=None
            if res.reaction is None or rx_input is None
            else _reaction_odds(c, res.reaction, rx_input, att.quality),
            no_reaction=no_reaction,
        )

    return _with_unverified(odds(cfg), cfg, used, odds)


# --- small helpers -----------------------------------------------------------------------------------


def order_dice(*, own: int, enemy: int, draws: int = 1) -> OrderDiceOdds:
    """Order-dice bag odds: ``p_next``, ``p_at_least_one`` in ``draws`` draws and the ``own_dice`` PMF."""
    return OrderDiceOdds(
        p_next=bag.p_next_die(own, enemy),
        p_at_least_one=bag.p_at_least_one(own, enemy, draws),
        own_dice=bag.own_dice_pmf(own, enemy, draws),
    )


def ranging_in(edition: str, *, turns: int = 5) -> RangingOdds:
    """Ranging in on a still target, turn by turn: ``need_by_turn`` (6, 5, 4, 3, 2, 2 ...), ``p_by_turn``
    (that turn's chance) and ``p_first_hit_by_turn`` (P(the first hit has landed by then))."""
    cfg = config_for(edition)
    by_turn = indirect.p_first_hit_by_turn(turns, cfg.nat1_always_fails)
    needs = [ranging_need(t) for t in range(1, turns + 1)]
    return RangingOdds(
        edition=cfg.edition,
        need_by_turn=tuple(needs),
        p_by_turn=tuple(p_at_least(n, cfg.nat1_always_fails) for n in needs),
        p_first_hit_by_turn=tuple(by_turn),
    )


def serialise(obj: Any) -> Any:
    """Make a result JSON-ready (``results.to_json``): dataclasses become objects, Fractions reduced
    strings ("7/12", "0", "1"), dict keys strings, tuples lists; everything else is returned as is."""
    return to_json(obj)
