"""Points of one entry: the unit at its quality, the models beyond its base, and its options.

``entry_points`` trusts nothing about the entry: a quality the unit does not offer, a model
count outside the unit's range or an option the unit does not have raise ``RulesError`` with a
sentence the page can show as it is. ``summary.summarise`` turns those errors into problems.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.army.model import QUALITIES, EntrySpec, OptionSpec, UnitSpec
from rules.errors import RulesError

QUALITY_LABELS = {"inexperienced": "Inexperienced", "regular": "Regular", "veteran": "Veteran"}


def quality_label(quality: str) -> str:
    return QUALITY_LABELS.get(quality, quality)


def join_words(words: list[str], last: str = "and") -> str:
    """Words as prose: A; A and B; A, B and C."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def unit_cost(unit: UnitSpec, quality: str, models: int, name: str | None = None) -> int:
    """The unit's own cost (no options) at ``quality`` with ``models`` models.

    ``name`` (default: the unit's) is the name error messages use, e.g. the entry's own name.
    """
    name = name or unit.name
    if quality not in unit.base_cost:
        offered = [quality_label(q) for q in QUALITIES if q in unit.base_cost]
        if not offered:
            raise RulesError(f"{name} has no points value at any quality.", code="no-quality", params={"name": name})
        raise RulesError(
            f"{name} cannot be {quality_label(quality)}; it comes as {join_words(offered, 'or')} only.",
            code="quality",
            params={
                "name": name,
                "quality": quality,
                "offered": join_words(offered, "or"),
                "offered_keys": ",".join(q for q in QUALITIES if q in unit.base_cost),
            },
        )
    if not unit.base_models <= models <= unit.max_models:
        if unit.base_models == unit.max_models:
            allowed = f"exactly {unit.base_models}"
            code = "models-exact"
        else:
            allowed = f"{unit.base_models} to {unit.max_models}"
            code = "models-range"
        raise RulesError(
            f"{name} has {models} models; it must have {allowed}.",
            code=code,
            params={"name": name, "models": models, "minimum": unit.base_models, "maximum": unit.max_models},
        )
    extra = models - unit.base_models
    if extra and quality not in unit.per_model_cost:
        raise RulesError(
            f"{name} has no cost for extra models at {quality_label(quality)}.",
            code="extra-models-cost",
            params={"name": name, "quality": quality},
        )
    return unit.base_cost[quality] + extra * unit.per_model_cost.get(quality, 0)


def option_limit(option: OptionSpec, models: int) -> int:
    """How many times an option can be taken: its max_count, else one per model or once per unit.

    A whole-unit option (``all_models``) is one choice, for every model: any count from 1 to
    the models means "taken" (lists saved before it was whole-unit stored a count of men).
    """
    if option.all_models:
        return max(models, 1)
    if option.max_count is not None:
        return option.max_count
    return models if option.per_model else 1


def options_cost(unit: UnitSpec, quality: str, models: int, chosen: dict[str, int], name: str | None = None) -> int:
    """Cost of the options taken (option key -> count); counts of 0 are ignored.

    A per-model option costs its price once per model that takes it; a whole-unit option its
    price times the models; a per-unit option its flat price, once for each time it is taken
    (most can be taken once).
    """
    if not chosen:
        return 0  # most entries take no option: nothing to look up
    name = name or unit.name
    by_key = {option.key: option for option in unit.options}
    groups: dict[str, list[OptionSpec]] = {}
    total = 0
    for key in sorted(chosen, key=lambda k: _option_position(unit, k)):
        count = chosen[key]
        option = by_key.get(key)
        if option is None:
            raise RulesError(
                f"{name} has no option “{key}”.", code="unknown-option", params={"name": name, "option": key}
            )
        params: dict[str, object] = {"name": name, "option": option.name}
        if not isinstance(count, int):
            raise RulesError(
                f"{name}: {option.name} has a count that is not a whole number ({count!r}).",
                code="option-count-type",
                params={**params, "count": repr(count)},
            )
        count = int(count)  # a checkbox may store True/False
        if count == 0:
            continue
        if count < 0:
            raise RulesError(
                f"{name}: {option.name} cannot be taken {count} times.",
                code="option-negative",
                params={**params, "count": count},
            )
        limit = option_limit(option, models)
        if count > limit:
            if limit == 0:
                raise RulesError(
                    f"{name}: {option.name} cannot be taken with {models} models.",
                    code="option-no-models",
                    params={**params, "models": models},
                )
            times = "once" if limit == 1 else f"{limit} times"
            raise RulesError(
                f"{name}: {option.name} can be taken at most {times}; it was taken {count} times.",
                code="option-max-once" if limit == 1 else "option-max",
                params={**params, "limit": limit, "count": count},
            )
        if quality not in option.cost:
            raise RulesError(
                f"{name}: {option.name} has no cost at {quality_label(quality)}.",
                code="option-cost",
                params={**params, "quality": quality},
            )
        if option.group:
            groups.setdefault(option.group, []).append(option)
        # A whole-unit option is bought for every model the entry has.
        total += option.cost[quality] * (models if option.all_models else count)
    for taken in groups.values():
        if len(taken) > 1:
            names = join_words([option.name for option in taken])
            raise RulesError(
                f"{name}: {names} exclude each other; choose one.",
                code="option-exclusive",
                params={"name": name, "options": names, "option_names": tuple(option.name for option in taken)},
            )
    for option, other in option_conflicts(unit.options, chosen):
        raise RulesError(
            f"{name}: {option.name} cannot be taken with {other.name}.",
            code="option-excludes",
            params={"name": name, "option": option.name, "other": other.name},
        )
    return total


def option_conflicts(
    options: Iterable[OptionSpec], chosen: Mapping[str, object]
) -> list[tuple[OptionSpec, OptionSpec]]:
    """The options taken together although one excludes the other (``OptionSpec.excludes``).

    Each pair is (the option taken later in the unit's order, the earlier one it clashes with),
    once, whichever of the two names the other: "Anti-tank grenades (if no Panzerfaust taken)"
    and "Panzerfaust" clash however the list took them. Every check of a list's options (the
    points, the builder's form, a list file's import) asks this one function.
    """
    ordered = list(options)
    taken = [option for option in ordered if _is_taken(chosen.get(option.key))]
    conflicts: list[tuple[OptionSpec, OptionSpec]] = []
    for index, option in enumerate(taken):
        for earlier in taken[:index]:
            if earlier.key in option.excludes or option.key in earlier.excludes:
                conflicts.append((option, earlier))
    return conflicts


def _is_taken(count: object) -> bool:
    return count is True or (isinstance(count, int) and not isinstance(count, bool) and count > 0)


def _option_position(unit: UnitSpec, key: str) -> tuple[int, str]:
    # Report problems in the order the unit lists its options, unknown keys last.
    for position, option in enumerate(unit.options):
        if option.key == key:
            return (position, key)
    return (len(unit.options), key)


def entry_points(entry: EntrySpec) -> int:
    """Points of one entry: base cost at its quality, extra models, then options."""
    cost = unit_cost(entry.unit, entry.quality, entry.models, entry.name)
    return cost + options_cost(entry.unit, entry.quality, entry.models, dict(entry.options), entry.name)
