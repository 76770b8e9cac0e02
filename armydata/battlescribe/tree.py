"""The resolved tree of a BattleScribe unit: entries and groups with their costs, categories,
modifiers, constraints and profiles, after links are followed; and the readers of its XML parts."""

from __future__ import annotations

from dataclasses import dataclass
from xml.etree.ElementTree import Element

from .document import _float, _truthy

MAX_DEPTH = 60


@dataclass(frozen=True)
class _Condition:
    type: str
    field: str
    scope: str
    child_id: str
    value: float
    percent: bool


@dataclass(frozen=True)
class _ConditionGroup:
    type: str
    conditions: tuple[_Condition, ...] = ()
    groups: tuple[_ConditionGroup, ...] = ()


@dataclass(frozen=True)
class _Repeat:
    field: str
    child_id: str
    value: float
    repeats: int
    round_up: bool
    percent: bool


@dataclass(frozen=True)
class _Modifier:
    type: str
    field: str
    value: str
    condition: _ConditionGroup | None
    repeats: tuple[_Repeat, ...]


@dataclass(frozen=True)
class _Constraint:
    id: str
    type: str
    field: str
    scope: str
    value: float
    percent: bool
    child_id: str = ""  # newer files: what the constraint counts ("model": the unit's models)


@dataclass(frozen=True)
class _Profile:
    id: str
    name: str
    type_name: str
    characteristics: tuple[tuple[str, str], ...]

    def get(self, *names: str) -> str | None:
        wanted = {name.lower() for name in names}
        for key, value in self.characteristics:
            if key.lower() in wanted:
                return value
        return None

    @property
    def is_weapon(self) -> bool:
        return self.get("range") is not None and self.get("shots") is not None

    @property
    def is_vehicle(self) -> bool:
        return self.get("damage value", "damage", "dv") is not None


@dataclass(frozen=True, eq=False)
class _Node:
    """A selection entry or group after links are resolved; compared by identity."""

    kind: str
    id: str
    ids: frozenset[str]
    name: str
    type: str
    hidden: bool
    costs: tuple[tuple[str, float], ...]
    categories: tuple[tuple[str, bool], ...]
    modifiers: tuple[_Modifier, ...]
    constraints: tuple[_Constraint, ...]
    children: tuple[_Node, ...]
    profiles: tuple[_Profile, ...]
    rules: tuple[str, ...]
    default_id: str
    label: str

    def cost(self, type_id: str) -> float:
        for key, value in self.costs:
            if key == type_id:
                return value
        return 0.0


def _condition(element: Element) -> _Condition:
    return _Condition(
        type=element.get("type", ""),
        field=element.get("field", ""),
        scope=element.get("scope", ""),
        child_id=element.get("childId", ""),
        value=_float(element.get("value")),
        percent=_truthy(element.get("percentValue")),
    )


def _condition_group(element: Element) -> _ConditionGroup:
    conditions: list[_Condition] = []
    groups: list[_ConditionGroup] = []
    for child in element:
        if child.tag == "conditions":
            conditions.extend(_condition(c) for c in child if c.tag == "condition")
        elif child.tag == "conditionGroups":
            groups.extend(_condition_group(g) for g in child if g.tag == "conditionGroup")
    return _ConditionGroup(type=element.get("type", "and") or "and", conditions=tuple(conditions), groups=tuple(groups))


def _condition_group_of(element: Element) -> _ConditionGroup | None:
    group = _condition_group(element)
    return group if group.conditions or group.groups else None


def _and(first: _ConditionGroup | None, second: _ConditionGroup | None) -> _ConditionGroup | None:
    if first is None:
        return second
    if second is None:
        return first
    return _ConditionGroup(type="and", groups=(first, second))


def _repeats_of(element: Element) -> tuple[_Repeat, ...]:
    holder = element.find("repeats")
    return tuple(
        _Repeat(
            field=r.get("field", ""),
            child_id=r.get("childId", ""),
            value=_float(r.get("value"), 1.0),
            repeats=int(_float(r.get("repeats"), 1.0)),
            round_up=_truthy(r.get("roundUp")),
            percent=_truthy(r.get("percentValue")),
        )
        for r in (holder if holder is not None else ())
        if r.tag == "repeat"
    )


def _constraint(element: Element) -> _Constraint:
    return _Constraint(
        id=element.get("id", ""),
        type=element.get("type", ""),
        field=element.get("field", ""),
        scope=element.get("scope", ""),
        value=_float(element.get("value")),
        percent=_truthy(element.get("percentValue")),
        child_id=element.get("childId", ""),
    )


def _static_hidden(node: _Node) -> bool:
    """Hidden in the source with nothing that could ever show it."""
    if not node.hidden:
        return False
    return not any(m.field == "hidden" and m.type == "set" and not _truthy(m.value) for m in node.modifiers)


def _is_weapon_node(node: _Node) -> bool:
    return any(profile.is_weapon for profile in node.profiles)
