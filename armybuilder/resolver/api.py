"""The calculator's JSON API: POST a scenario as JSON, get exact odds back as JSON.

Probabilities are reduced fractions as strings ("7/12", "0", "1"); distributions map a count (a string)
to a fraction string. The engine returns frozen dataclasses; ``serialise`` turns them into this JSON at
the edge, and the fields are documented in ``docs/resolver-api.md``. Bad input is a 400
``{"error": ..., "field": "groups[0].weapon"}`` naming the field (the engine's ``RulesError.field``, in
the API's spelling); only POST is allowed (405 otherwise).

These endpoints are exempt from CSRF on purpose: they are stateless calculators that read no session,
no user and nothing private, and change nothing, so a forged cross-site request gains nothing. Any
endpoint that reads the session or writes data must not copy this.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from armybuilder.reference.models import Edition
from armybuilder.reference.models import Weapon as WeaponRow
from armybuilder.resolver import adapters
from armybuilder.resolver.errors import english_message
from armydata import untrusted
from rules.combat import api as engine
from rules.combat import national
from rules.combat.config import config_for
from rules.combat.context import AMMO, BANDS, COVERS, FACINGS, KINDS, MAX_MODELS, MAX_PINS, ORDERS, QUALITIES
from rules.combat.cq import MAX_REACTION_SHOTS
from rules.combat.tank_assault import MAX_PEN as MAX_ASSAULT_PEN
from rules.combat.tank_assault import VEHICLE_KINDS, VEHICLE_ORDERS, tank_assault, vehicle_assault_check
from rules.errors import RulesError

GROUP_FIELDS = ("weapon", "models", "range", "models_under_template", "ammo", "indirect", "ranging_attempt", "zeroed")
TARGET_FIELDS = (
    "kind",
    "quality",
    "models",
    "starting_models",
    "cover",
    "down",
    "damage_value",
    "facing",
    "gun_shield",
    "army",
    "unit_rule",
)
# The armies whose national rules act on shooting (``rules.combat.national``): "" for none.
FIRER_ARMIES = ("", *national.modelled_armies())
# An infantry assault on a vehicle also reads Japan's rules (Banzai Charge, Death Before Dishonour).
ASSAULT_ARMIES = (*FIRER_ARMIES, "imperial-japan")
TARGET_ARMIES = ("", *national.modelled_armies(effects=national.TARGET_MORALE))
# The rule a target unit gains from its army's Italian bonus (``rules.combat.unit_rules``): "" for none.
TARGET_UNIT_RULES = ("", "fanatics", "stubborn")
# Limits of this API's requests, not rules: how many dice a bag may hold and how many weapon rows.
MAX_BAG_DICE = 200
MAX_GROUPS = 8
_MISSING = object()


class BadInput(Exception):
    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def _bad(field: str | None, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message, "field": field}, status=status)


def json_endpoint(view: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[HttpRequest], HttpResponse]:
    """POST-only JSON in, JSON out; ``BadInput`` and engine ``RulesError`` become 400s naming the field."""

    @csrf_exempt  # stateless and reads nothing private: see the module docstring
    @wraps(view)
    def wrapper(request: HttpRequest) -> HttpResponse:
        if request.method != "POST":
            response = _bad(None, "Only POST is allowed; send the scenario as a JSON body.", status=405)
            response["Allow"] = "POST"
            return response
        try:
            body = untrusted.loads(request.body)
        except untrusted.UntrustedInput as exc:
            return _bad(exc.field, f"The {exc.field} {exc.message}" if exc.field == "body" else exc.message)
        try:
            data = _object(body, "body")
            return JsonResponse(engine.serialise(view(data)))
        except BadInput as exc:
            return _bad(exc.field, exc.message)
        except RulesError as exc:
            return _bad(_api_field(exc.field), english_message(exc))

    return wrapper


# Engine field names that the API spells differently.
_ENGINE_FIELDS = {"firer_quality": "firer.quality", "firer_pins": "firer.pins", "band": "range"}


def _api_field(field: str | None) -> str | None:
    """The engine's field name in the API's spelling ("groups[0].band" -> "groups[0].range")."""
    if not field:
        return None
    parts = field.split(".")
    parts[-1] = _ENGINE_FIELDS.get(parts[-1], parts[-1])
    path = ".".join(parts)
    return _ENGINE_FIELDS.get(path, path)


# --- strict readers -----------------------------------------------------------------------------


def _object(value: object, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadInput(path, "Expected a JSON object.")
    return value


def _only(data: Mapping[str, Any], allowed: Sequence[str], path: str) -> None:
    for key in data:
        if key not in allowed:
            where = f"{path}.{key}" if path != "body" else key
            raise BadInput(where, f"Unknown field {key!r}; expected {', '.join(allowed)}.")


def _get(data: Mapping[str, Any], key: str, path: str, default: object = _MISSING) -> Any:
    if key in data:
        return data[key]
    if default is _MISSING:
        raise BadInput(path, "This field is required.")
    return default


def _int(value: object, path: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(path, f"Expected a whole number from {lo} to {hi}.")
    if not lo <= value <= hi:
        raise BadInput(path, f"Must be from {lo} to {hi}, not {value}.")
    return value


def _bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise BadInput(path, "Expected true or false.")
    return value


def _choice(value: object, path: str, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise BadInput(path, f"Expected one of {', '.join(choices)}.")
    return value


def _edition(data: Mapping[str, Any]) -> str:
    value = _get(data, "edition", "edition")
    if not isinstance(value, str) or not Edition.objects.filter(slug=value).exists():
        slugs = ", ".join(Edition.objects.values_list("slug", flat=True))
        raise BadInput("edition", f"Unknown edition; expected one of {slugs}.")
    try:
        config_for(value)
    except RulesError:
        raise BadInput("edition", "This edition has no combat rules.") from None
    return value


def _firer(data: Mapping[str, Any], national_fields: tuple[str, ...] = ()) -> tuple[str, int]:
    firer = _object(data.get("firer", {}), "firer")
    _only(firer, ("quality", "pins", *national_fields), "firer")
    quality = _choice(firer.get("quality", "regular"), "firer.quality", QUALITIES)
    pins = _int(firer.get("pins", 0), "firer.pins", 0, MAX_PINS)
    return quality, pins


def _weapons(edition: str, slugs: Sequence[str]) -> dict[str, WeaponRow]:
    return {w.slug: w for w in WeaponRow.objects.all().for_chart().filter(edition__slug=edition, slug__in=set(slugs))}


# --- endpoints ----------------------------------------------------------------------------------


@json_endpoint
def resolve_shooting(data: dict[str, Any]) -> dict[str, Any]:
    _only(data, ("edition", "order", "firer", "groups", "target"), "body")
    edition = _edition(data)
    order = _choice(data.get("order", "fire"), "order", ORDERS)
    firer_quality, firer_pins = _firer(data, ("army", "gyro", "fire_and_manoeuvre", "vehicle"))
    firer_data = data.get("firer", {})
    army = _choice(firer_data.get("army", ""), "firer.army", FIRER_ARMIES)
    gyro = _bool(firer_data.get("gyro", False), "firer.gyro")
    # A vehicle's Fixed guns fire on an Advance order; a gyro-stabilised gun is always a vehicle's.
    firer_vehicle = _bool(firer_data.get("vehicle", False), "firer.vehicle") or gyro
    # A Bersaglieri unit of an Italian list that chose Combattere: its rifles advance without the -1.
    fire_and_manoeuvre = _bool(firer_data.get("fire_and_manoeuvre", False), "firer.fire_and_manoeuvre")

    raw_groups = _get(data, "groups", "groups")
    if not isinstance(raw_groups, list) or not raw_groups:
        raise BadInput("groups", "Expected a list of at least one weapon group.")
    if len(raw_groups) > MAX_GROUPS:
        raise BadInput("groups", f"At most {MAX_GROUPS} weapon groups.")
    parsed = []
    for i, raw in enumerate(raw_groups):
        path = f"groups[{i}]"
        group = _object(raw, path)
        _only(group, GROUP_FIELDS, path)
        slug = _get(group, "weapon", f"{path}.weapon")
        if not isinstance(slug, str):
            raise BadInput(f"{path}.weapon", "Expected a weapon slug (a string).")
        models = _int(_get(group, "models", f"{path}.models"), f"{path}.models", 1, MAX_MODELS)
        band = None if group.get("range") is None else _choice(group["range"], f"{path}.range", BANDS)
        template = group.get("models_under_template")
        indirect = group.get("indirect")
        extra = {
            "models_under_template": None
            if template is None
            else _int(template, f"{path}.models_under_template", 0, MAX_MODELS),
            "ammo": _choice(group.get("ammo", "auto"), f"{path}.ammo", AMMO),
            "indirect": None if indirect is None else _bool(indirect, f"{path}.indirect"),
            "ranging_attempt": _int(group.get("ranging_attempt", 1), f"{path}.ranging_attempt", 1, 5),
            "zeroed": _bool(group.get("zeroed", False), f"{path}.zeroed"),
        }
        parsed.append((slug, models, band, extra))
    if sum(p[1] for p in parsed) > MAX_MODELS:
        raise BadInput("groups", f"At most {MAX_MODELS} models can fire together.")
    rows = _weapons(edition, [p[0] for p in parsed])
    for i, (slug, *_) in enumerate(parsed):
        if slug not in rows:
            raise BadInput(f"groups[{i}].weapon", f"Unknown weapon {slug!r} for edition {edition}.")
    parsed = [(slug, n, band or adapters.default_band(rows[slug]), extra) for slug, n, band, extra in parsed]

    target_data = _object(_get(data, "target", "target"), "target")
    _only(target_data, TARGET_FIELDS, "target")
    kind = _choice(_get(target_data, "kind", "target.kind"), "target.kind", KINDS)
    vehicle = kind in ("soft_skin", "armoured")
    models = target_data.get("models", 1) if vehicle else _get(target_data, "models", "target.models")
    dv = target_data.get("damage_value")
    if dv is not None:
        dv = _int(dv, "target.damage_value", 2, 12)
    if kind == "armoured" and dv is None:
        raise BadInput("target.damage_value", "Required for an armoured target (7 to 11).")
    if kind in ("infantry", "artillery"):
        dv = None  # men use their quality's damage value
    models = _int(models, "target.models", 1, MAX_MODELS)
    # The unit's strength before any losses, for the half-strength morale check (default: as it is now).
    starting = target_data.get("starting_models")
    if starting is not None and not vehicle:
        starting = _int(starting, "target.starting_models", models, MAX_MODELS)
    target = engine.TargetInput(
        kind=kind,
        quality=_choice(target_data.get("quality", "regular"), "target.quality", QUALITIES),
        models=models,
        starting_models=None if vehicle else starting,
        cover=_choice(target_data.get("cover", "none"), "target.cover", COVERS),
        down=_bool(target_data.get("down", False), "target.down"),
        damage_value=dv,
        facing=_choice(target_data.get("facing", "front"), "target.facing", FACINGS),
        gun_shield=_bool(target_data.get("gun_shield", False), "target.gun_shield"),
    )
    groups = [
        engine.ShotGroupInput(adapters.to_rules_weapon(rows[slug]), n, band, **extra) for slug, n, band, extra in parsed
    ]
    target_army = _choice(target_data.get("army", ""), "target.army", TARGET_ARMIES)
    target_gain = _choice(target_data.get("unit_rule", ""), "target.unit_rule", TARGET_UNIT_RULES)
    prepared = national.prepare_shooting(
        edition,
        army,
        target_army,
        groups,
        target,
        quality=firer_quality,
        order=order,
        gyro=gyro,
        fire_and_manoeuvre=fire_and_manoeuvre,
        target_gain=target_gain,
    )
    result = engine.shooting(
        edition,
        order=order,
        firer_quality=firer_quality,
        firer_pins=firer_pins,
        groups=prepared.groups,
        target=prepared.target,
        d2_pins=prepared.d2_pins,
        vehicle=firer_vehicle,
    )
    applied = [
        {"rule": a.slug, "name": a.name, "change": a.change, "group": i}
        for i, group in enumerate(prepared.per_group)
        for a in group
    ] + [{"rule": a.slug, "name": a.name, "change": a.change, "group": None} for a in prepared.unit]
    return {**engine.serialise(result), "national_rules": applied}


@json_endpoint
def resolve_anti_tank(data: dict[str, Any]) -> dict[str, Any]:
    _only(data, ("edition", "weapon", "shots", "range", "order", "firer", "target"), "body")
    edition = _edition(data)
    slug = _get(data, "weapon", "weapon")
    if not isinstance(slug, str):
        raise BadInput("weapon", "Expected a weapon slug (a string).")
    rows = _weapons(edition, [slug])
    if slug not in rows:
        raise BadInput("weapon", f"Unknown weapon {slug!r} for edition {edition}.")
    firer_quality, firer_pins = _firer(data, ("vehicle",))
    firer_vehicle = _bool(_object(data.get("firer", {}), "firer").get("vehicle", False), "firer.vehicle")
    target = _object(_get(data, "target", "target"), "target")
    _only(
        target,
        ("damage_value", "facing", "quality", "pins", "cover", "open_topped", "has_turret", "slow", "carries_flamer"),
        "target",
    )
    return engine.anti_tank(
        edition,
        weapon=adapters.to_rules_weapon(rows[slug]),
        damage_value=_int(_get(target, "damage_value", "target.damage_value"), "target.damage_value", 6, 12),
        shots=_int(data.get("shots", 1), "shots", 1, MAX_MODELS),
        facing=_choice(target.get("facing", "front"), "target.facing", FACINGS),
        band=adapters.default_band(rows[slug]) if data.get("range") is None else _choice(data["range"], "range", BANDS),
        order=_choice(data.get("order", "fire"), "order", ORDERS),
        firer_quality=firer_quality,
        firer_pins=firer_pins,
        vehicle=firer_vehicle,
        anti_tank_gun=adapters.is_anti_tank_gun(rows[slug]),
        vehicle_quality=_choice(target.get("quality", "regular"), "target.quality", QUALITIES),
        pins=_int(target.get("pins", 0), "target.pins", 0, MAX_PINS),
        cover=_choice(target.get("cover", "none"), "target.cover", COVERS),
        open_topped=_bool(target.get("open_topped", False), "target.open_topped"),
        has_turret=_bool(target.get("has_turret", True), "target.has_turret"),
        slow=_bool(target.get("slow", False), "target.slow"),
        carries_flamer=_bool(target.get("carries_flamer", False), "target.carries_flamer"),
    )


ASSAULT_VEHICLE_FIELDS = ("kind", "damage_value", "order", "quality", "pins", "has_turret", "slow", "carries_flamer")


@json_endpoint
def resolve_tank_assault(data: dict[str, Any]) -> dict[str, Any]:
    """Infantry assaulting a vehicle (``rules.combat.tank_assault``); ``army`` "italy" with ``at_weapons``
    re-rolls a failed pen roll in 2nd edition (Improvised AT); "imperial-japan" with ``banzai`` (the
    assault is on the closest visible enemy) passes the Tank Fear test (Banzai Charge), both listed in
    ``national_rules``. ``vehicle_assault``: the unit's morale check if a vehicle assaults it [R], passed
    by Death Before Dishonour."""
    _only(
        data,
        ("edition", "men", "pen", "at_weapons", "quality", "pins", "officer_bonus", "army", "banzai", "vehicle"),
        "body",
    )
    edition = _edition(data)
    army = _choice(data.get("army", ""), "army", ASSAULT_ARMIES)
    at_weapons = _bool(data.get("at_weapons", False), "at_weapons")
    banzai = national.banzai(edition, army, _bool(data.get("banzai", False), "banzai"))
    quality = _choice(data.get("quality", "regular"), "quality", QUALITIES)
    pins = _int(data.get("pins", 0), "pins", 0, MAX_PINS)
    officer_bonus = _int(data.get("officer_bonus", 0), "officer_bonus", 0, 4)
    vehicle = _object(_get(data, "vehicle", "vehicle"), "vehicle")
    _only(vehicle, ASSAULT_VEHICLE_FIELDS, "vehicle")
    improvised = national.improvised_at_grenades(edition, army, at_weapons)
    try:
        result = tank_assault(
            edition,
            men=_int(_get(data, "men", "men"), "men", 1, MAX_MODELS),
            pen=_int(_get(data, "pen", "pen"), "pen", 0, MAX_ASSAULT_PEN),
            at_weapons=at_weapons,
            quality=quality,
            pins=pins,
            officer_bonus=officer_bonus,
            vehicle=_choice(_get(vehicle, "kind", "vehicle.kind"), "vehicle.kind", VEHICLE_KINDS),
            damage_value=_int(_get(vehicle, "damage_value", "vehicle.damage_value"), "vehicle.damage_value", 6, 12),
            vehicle_order=_choice(vehicle.get("order", "other"), "vehicle.order", VEHICLE_ORDERS),
            vehicle_quality=_choice(vehicle.get("quality", "regular"), "vehicle.quality", QUALITIES),
            vehicle_pins=_int(vehicle.get("pins", 0), "vehicle.pins", 0, MAX_PINS),
            has_turret=_bool(vehicle.get("has_turret", True), "vehicle.has_turret"),
            slow=_bool(vehicle.get("slow", False), "vehicle.slow"),
            carries_flamer=_bool(vehicle.get("carries_flamer", False), "vehicle.carries_flamer"),
            reroll_failed_pen=improvised is not None,
            tank_fear_passed=banzai is not None,
        )
    except RulesError as exc:
        if exc.field == "vehicle_order":  # the engine's name for the API's vehicle.order
            raise BadInput("vehicle.order", english_message(exc)) from exc
        raise
    applied = [] if improvised is None else [{"rule": improvised.slug, "name": improvised.name, "change": "pen"}]
    if banzai is not None and result.tank_fear_passed:
        applied.append({"rule": banzai.slug, "name": banzai.name, "change": "order"})
    steadfast = national.passes_vehicle_assault(edition, army, "infantry")
    morale, p_pass = vehicle_assault_check(
        edition, quality=quality, pins=pins, officer_bonus=officer_bonus, auto_pass=steadfast is not None
    )
    vehicle_assault = {"morale": morale, "p_pass": p_pass, "rule": steadfast.slug if steadfast else None}
    return {**engine.serialise(result), "national_rules": applied, "vehicle_assault": engine.serialise(vehicle_assault)}


@json_endpoint
def resolve_order_test(data: dict[str, Any]) -> dict[str, Any]:
    _only(data, ("edition", "quality", "pins", "officer_bonus", "modifier"), "body")
    edition = _edition(data)
    return engine.order_test(
        edition,
        quality=_choice(_get(data, "quality", "quality"), "quality", QUALITIES),
        pins=_int(data.get("pins", 0), "pins", 0, MAX_PINS),
        officer_bonus=_int(data.get("officer_bonus", 0), "officer_bonus", 0, 4),
        modifier=_int(data.get("modifier", 0), "modifier", -10, 10),
    )


def _cq_side(data: Mapping[str, Any], name: str, *, defender: bool) -> dict[str, Any]:
    side = _object(_get(data, name, name), name)
    # Only the defender has a position; only the assaulting side's Blood Curdling Charge acts.
    extra = ("defensive_position",) if defender else ("blood_curdling_charge",)
    _only(side, ("models", "quality", "tough_fighters", "tough_as_boots", *extra), name)
    out: dict[str, Any] = {
        "models": _int(_get(side, "models", f"{name}.models"), f"{name}.models", 1, MAX_MODELS),
        "quality": _choice(side.get("quality", "regular"), f"{name}.quality", QUALITIES),
        "tough_fighters": _bool(side.get("tough_fighters", False), f"{name}.tough_fighters"),
        "tough_as_boots": _bool(side.get("tough_as_boots", False), f"{name}.tough_as_boots"),
    }
    for flag in extra:
        out[flag] = _bool(side.get(flag, False), f"{name}.{flag}")
    return out


def _cq_reaction(data: Mapping[str, Any]) -> dict[str, int] | None:
    """The defenders' reaction fire, if the body asks for it: shots, the score to hit, the attackers' pins."""
    if data.get("reaction") is None:
        return None
    reaction = _object(data["reaction"], "reaction")
    _only(reaction, ("shots", "to_hit", "attacker_pins"), "reaction")
    return {
        "shots": _int(_get(reaction, "shots", "reaction.shots"), "reaction.shots", 1, MAX_REACTION_SHOTS),
        "to_hit": _int(_get(reaction, "to_hit", "reaction.to_hit"), "reaction.to_hit", 2, 7),
        "attacker_pins": _int(reaction.get("attacker_pins", 0), "reaction.attacker_pins", 0, MAX_PINS),
    }


@json_endpoint
def resolve_close_quarters(data: dict[str, Any]) -> dict[str, Any]:
    _only(data, ("edition", "attacker", "defender", "reaction"), "body")
    edition = _edition(data)
    attacker = _cq_side(data, "attacker", defender=False)
    defender = _cq_side(data, "defender", defender=True)
    reaction = _cq_reaction(data)
    return engine.close_quarters(edition, attacker=attacker, defender=defender, reaction=reaction)


@json_endpoint
def resolve_order_dice(data: dict[str, Any]) -> dict[str, Any]:
    _only(data, ("own", "enemy", "draws"), "body")
    own = _int(_get(data, "own", "own"), "own", 0, MAX_BAG_DICE)
    enemy = _int(_get(data, "enemy", "enemy"), "enemy", 0, MAX_BAG_DICE)
    if own + enemy == 0:
        raise BadInput("own", "The bag is empty: own and enemy are both 0.")
    draws = _int(data.get("draws", 1), "draws", 1, own + enemy)
    return engine.order_dice(own=own, enemy=enemy, draws=draws)


@json_endpoint
def resolve_ranging_in(data: dict[str, Any]) -> dict[str, Any]:
    _only(data, ("edition", "turns"), "body")
    edition = _edition(data)
    return engine.ranging_in(edition, turns=_int(data.get("turns", 5), "turns", 1, 20))
