"""Read-only JSON for the catalogue: an edition's armies, and an army's units with their options.

Costs are keyed by quality and list only the qualities a unit is offered at (an option's, only
those the option is offered at). An option may add models (a team), make its unit free, or
share a limit with others of its ``group`` (the unit's ``option_groups``). An officer's
effects come from ``rules.army.officers`` for the army's edition, so the API and the list
summary agree.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.reference.models import Edition, Weapon
from rules.army.officers import rank_effect
from rules.errors import RulesError


def _not_found(message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=404)


def _army_json(army: Army, edition: Edition) -> dict[str, Any]:
    return {
        "edition": edition.slug,
        "slug": army.slug,
        "name": army.name,
        "name_fr": army.name_fr,
        "description": army.description,
        "national_rules": [rule.name for rule in army.national_rules.all()],
        "theatre_selectors": army.theatre_selectors,
        "origin": army.origin,
        "source": army.source,
        "units_url": reverse("cat-api-units", args=[edition.slug, army.slug]),
    }


def _officer_json(edition: Edition, rank: str) -> dict[str, Any] | None:
    if not rank:
        return None
    item: dict[str, Any] = {"rank": rank, "effects": None}
    try:
        effect = rank_effect(edition.slug, rank)
    except RulesError as error:
        item["error"] = str(error)
        return item
    item["label"] = effect.label
    item["effects"] = {
        "morale_bonus": effect.morale_bonus,
        "extra_orders": effect.extra_orders,
        "command_range": effect.command_range,
        "commands_own_platoon_only": effect.commands_platoon,
        "unverified": effect.unverified,
        "source": effect.source,
    }
    return item


def _weapon_ref(weapons: dict[int, Weapon], pk: int | None) -> dict[str, str] | None:
    weapon = weapons.get(pk) if pk is not None else None
    return {"slug": weapon.slug, "name": weapon.name} if weapon else None


def _option_json(option: Option, qualities: list[str], weapons: dict[int, Weapon]) -> dict[str, Any]:
    cost = option.cost()
    return {
        "slug": option.slug,
        "name": option.name,
        "name_fr": option.name_fr,
        "per_model": option.per_model,
        "all_models": option.all_models,
        "cost": {quality: cost[quality] for quality in qualities if quality in cost},
        "max_count": option.max_count,
        "group": option.group,
        "excludes": list(option.excludes or ()),
        "adds_models": option.adds_models,
        "free_unit": option.free_unit,
        "free_per_list": option.free_per_list,
        "grants_weapon": _weapon_ref(weapons, option.grants_weapon_id),
        "replaces_weapon": _weapon_ref(weapons, option.replaces_weapon_id),
    }


def _unit_json(unit: Unit, edition: Edition, weapons: dict[int, Weapon]) -> dict[str, Any]:
    qualities = unit.qualities()
    return {
        "slug": unit.slug,
        "name": unit.name,
        "name_fr": unit.name_fr,
        "unit_type": unit.unit_type,
        "slot": unit.slot,
        "cost": unit.base_cost(),
        "per_model_cost": unit.per_model_cost(),
        "min_models": unit.base_models,
        "max_models": unit.max_models,
        "officer": _officer_json(edition, unit.officer_rank),
        "damage_value": unit.damage_value,
        "transport_capacity": unit.transport_capacity,
        "composition": unit.composition,
        "weapons_text": unit.weapons_text,
        "weapons_text_fr": unit.weapons_text_fr,
        "weapons": [{"slug": w.slug, "name": w.name} for w in unit.weapons.all()],
        "weapon_lines": unit.weapon_lines,
        "special_rules": [{"slug": r.slug, "name": r.name} for r in unit.special_rules.all()],
        "options": [_option_json(option, qualities, weapons) for option in unit.options.all()],
        "option_groups": list(unit.option_groups or ()),
        "theatres": unit.theatres,
        "source": unit.source,
    }


@require_safe
def armies(request: HttpRequest, edition: str) -> JsonResponse:
    # Queries: the edition, its armies, their national rules.
    found = Edition.objects.filter(slug=edition).first()
    if found is None:
        return _not_found(f"Unknown edition {edition!r}.")
    listed = Army.objects.all().for_edition(found).visible().prefetch_related("national_rules")
    return JsonResponse([_army_json(army, found) for army in listed], safe=False)


@require_safe
def units(request: HttpRequest, edition: str, army: str) -> JsonResponse:
    # Queries: the edition, the army, its units, their options, weapons and special rules, and
    # the edition's weapons (for the options' granted and replaced weapons): 7 whatever the size.
    found = Edition.objects.filter(slug=edition).first()
    if found is None:
        return _not_found(f"Unknown edition {edition!r}.")
    found_army = Army.objects.all().for_edition(found).visible().filter(slug=army).first()
    if found_army is None:
        return _not_found(f"Edition {edition!r} has no army {army!r}.")
    listed = Unit.objects.all().for_army(found_army).builtin().available().for_catalogue()
    weapons = {weapon.pk: weapon for weapon in Weapon.objects.filter(edition=found)}
    return JsonResponse([_unit_json(unit, found, weapons) for unit in listed], safe=False)
