"""Points of one entry: the unit at its quality, the models beyond its base, and its options.

``entry_points`` trusts nothing about the entry: a quality the unit does not offer, a model
count outside the unit's range or an option the unit does not have raise ``RulesError`` with a
sentence the page can show as it is. ``summary.summarise`` turns those errors into problems.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.army.model import (
    QUALITIES,
    EntrySpec,
    ListSpec,
    OptionGroupSpec,
    OptionSpec,
    Problem,
    UnitSpec,
    total_models,
)
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
    """How many times an option can be taken: its max_count (per-man ones: at most one a man), else
    one per model or once per unit.

    A whole-unit option (``all_models``) is one choice, for every model: any count from 1 to
    the models means "taken" (lists saved before it was whole-unit stored a count of men).
    """
    if option.all_models:
        return max(models, 1)
    if option.max_count is not None:
        # A per-man choice with a cap ("up to 2 men may swap"): never more than the men.
        return min(option.max_count, models) if option.per_model else option.max_count
    return models if option.per_model else 1


def group_limit(group: OptionGroupSpec, models: int) -> int | None:
    """The most choices a group allows: its maximum, per model of the unit when ``per_model``."""
    if group.maximum is None:
        return None
    return group.maximum * models if group.per_model else group.maximum


def choices_made(option: OptionSpec, count: object) -> int:
    """How many choices a taken option counts for in its group: a whole-unit option is one."""
    if not _is_taken(count):
        return 0
    return 1 if option.all_models else int(count)  # type: ignore[arg-type]


def group_totals(unit: UnitSpec, chosen: Mapping[str, object]) -> list[tuple[OptionGroupSpec, int]]:
    """Each described group of the unit (``UnitSpec.option_groups``) with the choices taken in it."""
    totals = []
    for group in unit.option_groups:
        count = sum(
            choices_made(option, chosen.get(option.key)) for option in unit.options if option.group == group.key
        )
        totals.append((group, count))
    return totals


def group_over_maximum(
    unit: UnitSpec, models: int, chosen: Mapping[str, object]
) -> list[tuple[OptionGroupSpec, int, int]]:
    """(group, choices taken, limit) for each group taken beyond its maximum.

    The points, the builder's form and a list file's import all refuse through this one check.
    """
    over = []
    for group, count in group_totals(unit, chosen):
        limit = group_limit(group, models)
        if limit is not None and count > limit:
            over.append((group, count, limit))
    return over


def options_cost(unit: UnitSpec, quality: str, models: int, chosen: dict[str, int], name: str | None = None) -> int:
    """Cost of the options taken (option key -> count); counts of 0 are ignored.

    A per-model option costs its price once per model that takes it; a whole-unit option its
    price times every model of the entry (its teams' men included); a per-unit option its flat
    price, once for each time it is taken (most can be taken once). ``models`` is the unit's own
    men, which bound per-man choices.
    """
    if not chosen:
        return 0  # most entries take no option: nothing to look up
    name = name or unit.name
    by_key = {option.key: option for option in unit.options}
    described = {group.key for group in unit.option_groups}
    everyone = total_models(models, {option.key: option.adds_models for option in unit.options}, chosen)
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
        if option.group and option.group not in described:
            groups.setdefault(option.group, []).append(option)
        # A whole-unit option is bought for every model the entry has.
        total += option.cost[quality] * (everyone if option.all_models else count)
    for taken in groups.values():
        if len(taken) > 1:
            names = join_words([option.name for option in taken])
            raise RulesError(
                f"{name}: {names} exclude each other; choose one.",
                code="option-exclusive",
                params={"name": name, "options": names, "option_names": tuple(option.name for option in taken)},
            )
    for group, count, limit in group_over_maximum(unit, models, chosen):
        raise RulesError(
            f"{name}: {group.label} allows at most {limit} {'choice' if limit == 1 else 'choices'}; "
            f"{count} were taken.",
            code="option-group-max",
            params={"name": name, "group": group.label, "limit": limit, "count": count},
        )
    within = men_within_size(unit.options, chosen)
    if within and models + within > unit.max_models:
        raise RulesError(
            f"{name} has {models + within} models with its teams; it may have at most {unit.max_models}.",
            code="models-with-teams",
            params={"name": name, "models": models + within, "maximum": unit.max_models},
        )
    for option, other in option_conflicts(unit.options, chosen):
        raise RulesError(
            f"{name}: {option.name} cannot be taken with {other.name}.",
            code="option-excludes",
            params={"name": name, "option": option.name, "other": other.name},
        )
    return total


def men_within_size(options: Iterable[OptionSpec], chosen: Mapping[str, object]) -> int:
    """The men of the teams taken whose places the data counts within the unit's largest size (an
    NKVD squad's LMG team among its 11 men): the unit's own men may be that many fewer."""
    return sum(
        int(count) * option.adds_models
        for option in options
        if option.within_size and isinstance(count := chosen.get(option.key), int) and count > 0
    )


def free_option(unit: UnitSpec, chosen: Mapping[str, object]) -> OptionSpec | None:
    """The taken option that makes the whole unit free (a national rule's free unit), if any."""
    for option in unit.options:
        if option.free_unit and _is_taken(chosen.get(option.key)):
            return option
    return None


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
    """Points of one entry: base cost at its quality, extra models, then options.

    A free unit (``OptionSpec.free_unit`` taken) costs 0 in all, its options included, once its
    choices are checked; ``list_option_problems`` holds it to the option's limit per list. An entry
    whose options would take it below 0 points is refused (``RulesError``, code "negative-points").
    """
    cost = unit_cost(entry.unit, entry.quality, entry.models, entry.name)
    cost += options_cost(entry.unit, entry.quality, entry.models, dict(entry.options), entry.name)
    if free_option(entry.unit, entry.options) is not None:
        return 0
    if cost < 0:
        # Options that save points never take an entry below nothing: a total below 0 would hide
        # other units' points under a limit (a player's own unit once allowed an option at −2000).
        name = entry.name or entry.unit.name
        raise RulesError(
            f"{name} would cost {cost} points with its options; an entry never costs less than 0.",
            code="negative-points",
            params={"name": name, "points": cost},
        )
    return cost


def list_option_problems(spec: ListSpec) -> list[Problem]:
    """Choices the whole list must make right: required groups left short, free units over their limit.

    A group with a ``minimum`` ("choose a variant") not met is a problem of its entry, the entry
    still priced; free units through one option beyond its ``free_per_list`` are a problem
    naming the option and the units.
    """
    problems: list[Problem] = []
    free: dict[str, list[tuple[OptionSpec, EntrySpec]]] = {}
    for entry in spec.entries:
        for group, count in group_totals(entry.unit, entry.options):
            if count < group.minimum:
                if group.minimum == 1:
                    message = f"{entry.name}: choose one of {group.label}."
                else:
                    message = f"{entry.name}: choose at least {group.minimum} of {group.label}; {count} chosen."
                problems.append(
                    Problem(
                        message,
                        "option-group-min",
                        entry_key=entry.key,
                        platoon_key=entry.platoon,
                        params={"name": entry.name, "group": group.label, "minimum": group.minimum, "count": count},
                    )
                )
        option = free_option(entry.unit, entry.options)
        if option is not None and option.free_per_list is not None:
            free.setdefault(option.key, []).append((option, entry))
    for taken in free.values():
        limit = min(option.free_per_list or 0 for option, _entry in taken)
        if len(taken) > limit:
            option = taken[0][0]
            names = join_words([entry.name for _option, entry in taken])
            problems.append(
                Problem(
                    f"{option.name}: {len(taken)} units are free through it ({names}); a list may have {limit}.",
                    "free-unit-limit",
                    entry_key=taken[limit][1].key,
                    platoon_key=taken[limit][1].platoon,
                    params={"option": option.name, "count": len(taken), "names": names, "limit": limit},
                )
            )
    return problems
