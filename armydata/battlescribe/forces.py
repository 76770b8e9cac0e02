"""Force organisation from a game system: its platoon kinds with their limits per category."""

from __future__ import annotations

from xml.etree.ElementTree import Element

from armydata.classify import classify, is_setting, platoon_kind
from armydata.model import ImportedForce, ImportedForceLimit, ImportedLimitAdjustment, ImportReport

from .document import _clean, _Document, _float, _truthy
from .tree import _condition_group_of, _repeats_of

_ADJUSTABLE = ("set", "increment", "decrement")
_COMPARISONS = ("lessThan", "greaterThan", "equalTo", "notEqualTo", "atLeast", "atMost")


def _forces(system: _Document, report: ImportReport) -> list[ImportedForce]:
    """The game system's platoon kinds with their limits per category.

    A force is kept when its name says which Muster platoon kind it is; roster settings and
    forces of other kinds are reported. Limits whose conditions this cannot follow (anything
    but counting a category or entry in the platoon) are reported and left out.
    """
    categories = {element.get("id", ""): _clean(element.get("name")) for element in system.root.iter("categoryEntry")}
    forces: list[ImportedForce] = []
    for element in system.root.iter("forceEntry"):
        name = _clean(element.get("name"))
        label = f"force {name!r} ({element.get('id', '?')})"
        if is_setting(name):
            report.skip(label, "roster setting, not a platoon")
            continue
        kind = platoon_kind(name)
        if kind is None:
            report.skip(label, "not a platoon kind Muster knows; its limits are not used")
            continue
        if any(force.kind == kind for force in forces):
            report.skip(label, f"a second force for the {kind.replace('_', ' ')}; the first is used")
            continue
        limits: list[ImportedForceLimit] = []
        holder = element.find("categoryLinks")
        for link in holder if holder is not None else ():
            if link.tag != "categoryLink":
                continue
            limit = _force_limit(link, categories, f"{name}: {_clean(link.get('name'))}", report)
            if limit is not None:
                limits.append(limit)
        if not any(limit.minimum or any(a.bound == "min" for a in limit.adjustments) for limit in limits):
            # A chart without a single requirement would let an empty platoon pass (2nd-edition
            # community data keeps its minimums in the entries): the built-in tables stay in charge.
            report.skip(label, "declares no minimum anywhere; Muster's built-in platoon rules apply")
            continue
        forces.append(ImportedForce(source_id=element.get("id", ""), name=name, kind=kind, limits=tuple(limits)))
    return forces


def _adjustment(modifier: Element, bound: str) -> ImportedLimitAdjustment | None:
    """A modifier on a force limit, when it counts one category or entry in the platoon."""
    kind = modifier.get("type", "")
    if kind not in _ADJUSTABLE:
        return None
    value = int(_float(modifier.get("value")))
    condition = _condition_group_of(modifier)
    repeats = _repeats_of(modifier)
    if repeats:
        # "one more transport per infantry unit": the bound grows by value for every step counted.
        repeat = repeats[0]
        if condition is not None or len(repeats) > 1 or repeat.field != "selections" or repeat.percent:
            return None
        if repeat.value < 1 or kind == "set":
            return None
        return ImportedLimitAdjustment(bound, kind, value * repeat.repeats, repeat.child_id, "per", int(repeat.value))
    if condition is None or condition.type == "or" or condition.groups or len(condition.conditions) != 1:
        return None
    test = condition.conditions[0]
    if test.field != "selections" or test.percent or test.type not in _COMPARISONS:
        return None
    return ImportedLimitAdjustment(bound, kind, value, test.child_id, test.type, int(test.value))


def _force_limit(
    link: Element, categories: dict[str, str], label: str, report: ImportReport
) -> ImportedForceLimit | None:
    category = link.get("targetId", "")
    name = categories.get(category) or _clean(link.get("name"))
    if not category or is_setting(name):
        return None
    bounds: dict[str, int | None] = {"min": 0, "max": None}
    ids: dict[str, str] = {}
    for constraint in link.iter("constraint"):
        kind = constraint.get("type", "")
        if kind not in bounds or constraint.get("field") != "selections" or _truthy(constraint.get("percentValue")):
            continue
        value = int(_float(constraint.get("value")))
        # Old files write -1 for "no limit".
        bounds[kind] = None if kind == "max" and value < 0 else max(0, value)
        ids[constraint.get("id", "")] = kind
    adjustments: list[ImportedLimitAdjustment] = []
    for modifier in link.iter("modifier"):
        bound = ids.get(modifier.get("field", ""))
        if bound is None:
            continue
        adjustment = _adjustment(modifier, bound)
        if adjustment is None:
            # The bound moves with something this cannot follow: it tells us nothing.
            report.warn(f"{label}: a limit that depends on other choices in a way Muster cannot follow; not enforced")
            bounds[bound] = 0 if bound == "min" else None
            continue
        adjustments.append(adjustment)
    adjustments = [a for a in adjustments if bounds[a.bound] is not None or a.type == "set"]
    kind = classify([name], "")
    slots = () if kind.guessed else (kind.slot,)
    return ImportedForceLimit(
        category=category,
        label=name,
        slots=slots,
        minimum=bounds["min"] or 0,
        maximum=bounds["max"],
        adjustments=tuple(adjustments),
    )
