"""Evaluating one unit: building selections of its tree for a quality, deciding conditions,
modifiers and limits against them, and summing their costs."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, replace

from armydata.classify import weapon_mount
from armydata.model import ImportedWeaponLine
from armydata.qualities import is_quality_group, quality_of

from .document import _float, _truthy
from .tree import _Condition, _ConditionGroup, _Modifier, _Node, _static_hidden

# Shared entries linked into shared entries can fan out exponentially; a unit whose tree
# expands past this many nodes, or whose pricing builds more selections than the work limit,
# is skipped rather than allowed to stall the import.
MAX_UNIT_NODES = 20_000
MAX_UNIT_WORK = 2_000_000

_MEN_GROUP_RE = re.compile(r"\b(men|members|models|soldiers|squad|crew|additional|extra|attendants?)\b", re.IGNORECASE)
_MAN_NAME_RE = re.compile(
    r"\b(soldiers?|nco|man|men|trooper|troopers|crewman|crewmen|attendants?|rifleman|riflemen|spotters?|loaders?)\b",
    re.IGNORECASE,
)
# Groups of choices rather than of men, whatever else their name says ("Squad Options").
_CHOICES_GROUP_RE = re.compile(r"\b(options?|upgrades?|equipment|weapons?)\b", re.IGNORECASE)


def _choices_group(group: _Node) -> bool:
    return bool(_CHOICES_GROUP_RE.search(group.name)) and not _MEN_GROUP_RE.search(group.name)


_TEAM_NAME_RE = re.compile(r"\bteams?\b", re.IGNORECASE)
_CREW_RE = re.compile(r"^\s*crew\s*\(?\s*(\d+)", re.IGNORECASE)
_KNOWN_CONDITIONS = frozenset(
    {"lessThan", "greaterThan", "equalTo", "notEqualTo", "atLeast", "atMost", "instanceOf", "notInstanceOf"}
)


@dataclass(eq=False)
class _Sel:
    node: _Node
    count: int
    children: list[_Sel]
    is_model: bool
    group: _Node | None


@dataclass
class _Ctx:
    counts: dict[str, int]
    models: int
    model_entries: int
    total: int


class _UnitTooComplex(Exception):
    pass


@dataclass
class _Priced:
    base: dict[str, int]
    per_model: dict[str, int]
    per_model_nodes: dict[str, _Node]
    base_models: int
    max_models: int | None
    trees: dict[str, tuple[_Sel, _Ctx]]
    implicit_models: int = 0


class _Unit:
    """Prices one unit node by building and costing selections of its tree."""

    def __init__(self, node: _Node, wrapper: _Node | None, *, points: str, categories: dict[str, str]):
        self.node = node
        self.points = points
        # Every category the data defines: a condition on one the unit lacks is decided (false).
        self.categories = categories
        self.wrapper = wrapper
        self.notes: list[str] = []
        self.work = 0
        self.known_ids: set[str] = set()
        self._count_nodes(node)
        self.unit_ids = set(node.ids) | {cat for cat, _ in node.categories}
        if wrapper is not None:
            self.unit_ids |= set(wrapper.ids) | {cat for cat, _ in wrapper.categories}
        self.fallback_models = self._crew_size() or 1
        self.quality_groups: dict[int, dict[str, _Node]] = {}
        # Groups whose choices carry the quality (a tank's variants, each with its own quality
        # choice): the unit is offered at a quality only through one of them, so the minimal
        # selection leaves them out and each variant is priced as a required option.
        self.variant_groups: set[int] = set()
        # The quality choice of the entry the unit sits in, when that choice prices it (see
        # ``_find_wrapper_quality``): quality -> a stand-in selected with the unit.
        self.outer_quality: dict[str, _Node] = {}
        self._find_quality_groups(node)
        if not self.quality_groups and wrapper is not None:
            self._find_wrapper_quality(node, wrapper)
        if not self.quality_groups:
            self._find_variant_groups(node)
        self.qualities: dict[str, _Node | None] = {}
        for options in self.quality_groups.values():
            for quality, entry in options.items():
                if not _static_hidden(entry):
                    self.qualities.setdefault(quality, entry)

    def note(self, message: str) -> None:
        if message not in self.notes:
            self.notes.append(message)

    def _count_nodes(self, root: _Node) -> None:
        seen = 0
        stack = [root]
        while stack:
            node = stack.pop()
            seen += 1
            if seen > MAX_UNIT_NODES:
                raise _UnitTooComplex
            self.known_ids |= node.ids
            stack.extend(node.children)

    def _crew_size(self) -> int:
        rules = list(self.node.rules) + (list(self.wrapper.rules) if self.wrapper else [])
        for rule in rules:
            match = _CREW_RE.match(rule)
            if match:
                return int(match.group(1))
        return 0

    def _find_quality_groups(self, node: _Node) -> None:
        for child in node.children:
            if child.kind != "group":
                continue
            entries = [c for c in child.children if c.kind == "entry"]
            qualities = [quality_of(e.name) for e in entries]
            named = is_quality_group(child.name) and any(qualities)
            if entries and (all(qualities) or named):
                mapping: dict[str, _Node] = {}
                for entry, quality in zip(entries, qualities, strict=True):
                    if quality is not None:
                        mapping.setdefault(quality, entry)
                    else:
                        self.note(f"{entry.name!r} in the quality group {child.name!r} is not a quality; ignored")
                self.quality_groups[id(child)] = mapping
            else:
                self._find_quality_groups(child)

    def _find_wrapper_quality(self, node: _Node, wrapper: _Node) -> None:
        """The quality choice of the entry a unit sits in, when the unit is priced by it.

        A team the data types as a unit inside a squad it types as a model (a "Light Machine Gun
        Team" in a "Tank Rider Squad") has no quality choice of its own: its men's costs test the
        squad's ("root-entry" conditions on its Regular and Veteran). It is offered at each of them.
        """
        tested = {c.child_id for n in _nodes(node) for m in n.modifiers for c in _conditions(m.condition)}
        for child in wrapper.children:
            if child.kind != "group" or child.hidden:
                continue
            entries = [c for c in child.children if c.kind == "entry"]
            qualities = [quality_of(e.name) for e in entries]
            if not entries or not all(qualities) or not any(e.ids & tested for e in entries):
                continue
            mapping: dict[str, _Node] = {}
            for entry, quality in zip(entries, qualities, strict=True):
                mapping.setdefault(quality or "", entry)
                self.known_ids |= entry.ids
                # Selected beside the unit's own entries so conditions count it; it costs nothing
                # here (its price, if any, is the squad's).
                self.outer_quality.setdefault(quality or "", replace(entry, costs=(), modifiers=(), children=()))
            self.quality_groups[id(child)] = mapping
            return

    def _find_variant_groups(self, node: _Node) -> None:
        for child in node.children:
            if child.kind != "group":
                continue
            for entry in child.children:
                if entry.kind != "entry" or entry.type == "unit":
                    continue
                before = len(self.quality_groups)
                self._find_quality_groups(entry)
                if len(self.quality_groups) > before:
                    self.variant_groups.add(id(child))
            if id(child) not in self.variant_groups:
                self._find_variant_groups(child)

    def offers(self, node: _Node, quality: str) -> bool:
        """Whether an entry holding its own quality choice (a variant) is offered at ``quality``."""
        for child in node.children:
            options = self.quality_groups.get(id(child))
            if options is not None:
                entry = options.get(quality)
                return entry is not None and not _static_hidden(entry)
        return True

    # conditions and modifiers

    def _count(self, child_id: str, ctx: _Ctx) -> int | None:
        if child_id == "model":
            return ctx.models
        if child_id == "unit":
            return 1
        if child_id in ("any", ""):
            return ctx.total
        if child_id in self.known_ids or child_id in self.unit_ids:
            return ctx.counts.get(child_id, 0)
        return None

    def _condition(self, condition: _Condition, ctx: _Ctx) -> bool | None:
        if condition.percent or condition.type not in _KNOWN_CONDITIONS:
            return None
        if condition.type in ("instanceOf", "notInstanceOf"):
            if condition.child_id in self.unit_ids:
                result = True
            elif condition.child_id in self.categories:
                result = False
            else:
                return None
            return result if condition.type == "instanceOf" else not result
        if condition.field != "selections":
            return None
        count = self._count(condition.child_id, ctx)
        if count is None:
            return None
        value = condition.value
        return {
            "lessThan": count < value,
            "greaterThan": count > value,
            "equalTo": count == value,
            "notEqualTo": count != value,
            "atLeast": count >= value,
            "atMost": count <= value,
        }[condition.type]

    def _group(self, group: _ConditionGroup | None, ctx: _Ctx) -> bool | None:
        if group is None:
            return True
        results = [self._condition(c, ctx) for c in group.conditions]
        results += [self._group(g, ctx) for g in group.groups]
        if group.type == "or":
            if any(r is True for r in results):
                return True
            return False if all(r is False for r in results) else None
        if any(r is False for r in results):
            return False
        return True if all(r is True for r in results) else None

    def _times(self, modifier: _Modifier, ctx: _Ctx) -> int | None:
        if not modifier.repeats:
            return 1
        total = 0
        for repeat in modifier.repeats:
            if repeat.percent or repeat.field != "selections" or repeat.value <= 0:
                return None
            count = self._count(repeat.child_id, ctx)
            if count is None:
                return None
            steps = count / repeat.value
            total += (math.ceil(steps) if repeat.round_up else math.floor(steps)) * repeat.repeats
        return total

    def own_cost(self, node: _Node, ctx: _Ctx) -> float:
        value = node.cost(self.points)
        for modifier in node.modifiers:
            if modifier.field != self.points:
                continue
            applies = self._group(modifier.condition, ctx)
            if applies is None:
                self.note(
                    f"a cost modifier on {node.name!r} depends on choices outside the unit "
                    "(force, theatre or roster); ignored"
                )
                continue
            if not applies:
                continue
            times = self._times(modifier, ctx)
            if times is None:
                self.note(f"a repeating cost modifier on {node.name!r} counts something outside the unit; ignored")
                continue
            amount = _float(modifier.value)
            if modifier.type == "set":
                value = amount
            elif modifier.type == "increment":
                value += amount * times
            elif modifier.type == "decrement":
                value -= amount * times
            elif modifier.type == "multiply":
                value *= amount**times
            else:
                self.note(f"cost modifier type {modifier.type!r} on {node.name!r} is not supported; ignored")
        return value

    def hidden(self, node: _Node, ctx: _Ctx) -> bool:
        hidden = node.hidden
        for modifier in node.modifiers:
            if modifier.field != "hidden" or modifier.type != "set":
                continue
            applies = self._group(modifier.condition, ctx)
            if applies is True:
                hidden = _truthy(modifier.value)
            elif applies is None and not _truthy(modifier.value):
                # Shown under some roster state we cannot see: treat it as available.
                hidden = False
        return hidden

    def limit(self, node: _Node, kind: str, ctx: _Ctx) -> int | None:
        """The entry's minimum within its parent, or the tightest maximum it is under.

        Any maximum bounds the count inside one unit, whatever its scope (a "1 per force"
        entry cannot appear twice in a unit); only a parent-scoped minimum forces selections.
        """
        values: list[float] = []
        for constraint in node.constraints:
            if constraint.type != kind or constraint.field != "selections" or constraint.percent:
                continue
            if kind == "min" and constraint.scope != "parent":
                continue
            value: float | None = constraint.value
            for modifier in node.modifiers:
                if not constraint.id or modifier.field != constraint.id or value is None:
                    continue
                applies = self._group(modifier.condition, ctx)
                times = self._times(modifier, ctx) if applies else 0
                if applies is None or times is None:
                    # The limit moves with roster state we cannot see: it tells us nothing.
                    value = None
                    continue
                if not applies:
                    continue
                amount = _float(modifier.value)
                if modifier.type == "set":
                    value = amount
                elif modifier.type == "increment":
                    value += amount * times
                elif modifier.type == "decrement":
                    value -= amount * times
            if value is not None:
                values.append(value)
        if not values:
            return None
        if kind == "min":
            return max(0, int(max(values)))
        chosen = min(values)
        # Old BattleScribe files write -1 for "no limit".
        return None if chosen < 0 else int(chosen)

    def option_man(self, node: _Node, group: _Node | None, ctx: _Ctx) -> bool:
        """A single man the unit may add that is not one more of its ordinary men (a mortar's
        spotter, an extra crewman): an option that adds a model, not a step in the unit's size."""
        if ctx.counts.get(node.id, 0) or self.limit(node, "max", ctx) != 1:
            return False
        # A cap on a group of the unit's choices ("Upgrades", at most 2: a spotter and a tractor)
        # limits how many choices are taken, not how many men the group holds.
        return group is None or self.limit(group, "max", ctx) is None or _choices_group(group)

    # building selections

    def is_model(self, node: _Node, group: _Node | None) -> bool:
        if node is self.node or node.type == "unit":
            return False
        if node.type == "model":
            return True
        if group is not None:
            # "Squad Members" holds men; "Squad Options" holds the squad's choices.
            if _MEN_GROUP_RE.search(group.name) and not _CHOICES_GROUP_RE.search(group.name):
                return True
            # Beside men in a group of choices ("Upgrades": a spotter, a tractor) an upgrade stays
            # an upgrade.
            if not _choices_group(group) and any(
                sibling.type == "model" for sibling in group.children if sibling.kind == "entry"
            ):
                return True
        # "Loader" is one man; "LMG Team (gunner and loader)" is a team, whose men are its own entries.
        return bool(_MAN_NAME_RE.search(node.name)) and not _TEAM_NAME_RE.search(node.name)

    def _select(
        self, node: _Node, count: int, group: _Node | None, quality: str, extras: dict[_Node, int], ctx: _Ctx
    ) -> _Sel:
        self.work += 1
        if self.work > MAX_UNIT_WORK:
            raise _UnitTooComplex
        return _Sel(
            node=node,
            count=count,
            children=self._children(node, quality, extras, ctx),
            is_model=self.is_model(node, group),
            group=group,
        )

    def _children(self, node: _Node, quality: str, extras: dict[_Node, int], ctx: _Ctx) -> list[_Sel]:
        selections: list[_Sel] = []
        for child in node.children:
            if child.kind == "group":
                selections.extend(self._group_selections(child, quality, extras, ctx))
                continue
            if child.type == "unit" and node is self.node and not extras.get(child):
                continue  # a unit inside the unit is a team the player may add, never part of it
            count = (self.limit(child, "min", ctx) or 0) + extras.get(child, 0)
            if count > 0 and not self.hidden(child, ctx):
                selections.append(self._select(child, count, None, quality, extras, ctx))
        return selections

    def _group_selections(self, group: _Node, quality: str, extras: dict[_Node, int], ctx: _Ctx) -> list[_Sel]:
        if self.hidden(group, ctx):
            return []
        quality_options = self.quality_groups.get(id(group))
        if quality_options is not None:
            entry = quality_options.get(quality)
            return [self._select(entry, 1, group, quality, extras, ctx)] if entry is not None else []
        selections: list[_Sel] = []
        mandatory = 0
        added = 0
        for child in group.children:
            if child.kind == "group":
                selections.extend(self._group_selections(child, quality, extras, ctx))
                continue
            if child.type == "unit" and group in self.node.children and not extras.get(child):
                continue
            minimum = self.limit(child, "min", ctx) or 0
            extra = extras.get(child, 0)
            if minimum + extra > 0 and not self.hidden(child, ctx):
                selections.append(self._select(child, minimum + extra, group, quality, extras, ctx))
                mandatory += minimum
                added += extra
        # The group's minimum is met with its default entry first; an added entry then goes
        # on top, unless the group is full, in which case it takes a default's place (picking
        # an SMG instead of the pistol in a one-weapon group).
        fill = max(0, (self.limit(group, "min", ctx) or 0) - mandatory)
        if id(group) in self.variant_groups:
            fill = 0  # a variant is a priced option, never part of the minimal selection
        maximum = self.limit(group, "max", ctx)
        if maximum is not None and fill and mandatory + fill + added > maximum:
            fill = max(0, maximum - mandatory - added)
        if fill > 0:
            pick = self._default_choice(group, quality, ctx)
            if pick is not None:
                for selection in selections:
                    if selection.node is pick:
                        selection.count += fill
                        break
                else:
                    selections.append(self._select(pick, fill, group, quality, extras, ctx))
        return selections

    def _default_choice(self, group: _Node, quality: str, ctx: _Ctx) -> _Node | None:
        visible = [c for c in group.children if c.kind == "entry" and not self.hidden(c, ctx)]
        if not visible:
            return None
        for entry in visible:
            if group.default_id and group.default_id in entry.ids:
                return entry
        # A nested rating group (an attached specialist's own quality) follows the unit's.
        for entry in visible:
            if quality_of(entry.name) == quality:
                return entry
        costs = [(self.cost(self._select(e, 1, group, quality, {}, ctx), ctx), i) for i, e in enumerate(visible)]
        return visible[min(costs)[1]]

    def context(self, root: _Sel, models_override: int | None = None) -> _Ctx:
        counts: dict[str, int] = defaultdict(int)
        totals = [0, 0]

        def walk(selection: _Sel, multiplier: int) -> None:
            amount = multiplier * selection.count
            for ident in selection.node.ids:
                counts[ident] += amount
            for category, _ in selection.node.categories:
                counts[category] += amount
            totals[0] += amount
            if selection.is_model:
                totals[1] += amount
            for child in selection.children:
                walk(child, amount)

        walk(root, 1)
        model_entries = totals[1]
        models = model_entries or self.fallback_models
        if models_override is not None:
            models = models_override
        return _Ctx(counts=dict(counts), models=models, model_entries=model_entries, total=totals[0])

    def configure(self, quality: str, extras: dict[_Node, int]) -> tuple[_Sel, _Ctx]:
        counts: dict[str, int] = defaultdict(int)
        for ident in self.unit_ids:
            counts[ident] = 1
        entry = self.qualities.get(quality)
        if entry is not None:
            for ident in entry.ids:
                counts[ident] += 1
        for node, amount in extras.items():
            for ident in node.ids:
                counts[ident] += amount
        ctx = _Ctx(counts=dict(counts), models=self.fallback_models, model_entries=0, total=1)
        # Visibility depends on what is selected and the selection depends on visibility;
        # a second pass with the first pass's selection settles the Bolt Action patterns.
        root = _Sel(self.node, 1, [], False, None)
        outer = self.outer_quality.get(quality)
        for _ in range(2):
            children = self._children(self.node, quality, extras, ctx)
            if outer is not None:
                children.append(_Sel(outer, 1, [], False, None))
            root = _Sel(self.node, 1, children, False, None)
            ctx = self.context(root)
        return root, ctx

    def cost(self, selection: _Sel, ctx: _Ctx) -> float:
        own = self.own_cost(selection.node, ctx)
        return selection.count * (own + sum(self.cost(child, ctx) for child in selection.children))


def _nodes(root: _Node):
    """The node and every node below it."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def _conditions(group: _ConditionGroup | None):
    """Every condition of a condition group, its nested groups' included."""
    if group is None:
        return
    yield from group.conditions
    for inner in group.groups:
        yield from _conditions(inner)


def _walk(selection: _Sel):
    yield selection
    for child in selection.children:
        yield from _walk(child)


def _find_selection(root: _Sel, node: _Node) -> _Sel | None:
    for selection in _walk(root):
        if selection.node is node:
            return selection
    return None


def _weapons_of(selection: _Sel) -> list[str]:
    names: list[str] = []
    for item in _walk(selection):
        for profile in item.node.profiles:
            if profile.is_weapon and profile.name not in names:
                names.append(profile.name)
    return names


def _weapon_lines(root: _Sel) -> list[ImportedWeaponLine]:
    """One line per weapon entry of a vehicle, with the mount and arc its entry's name gives.

    An entry holding two weapons ("turret-mounted gun and co-axial MMG") puts the first on the
    named mount and the others on the co-axial mount when the name mentions one.
    """
    counts: dict[tuple[str, str, str], int] = {}  # (weapon, mount, arc) -> how many, in source order

    def walk(selection: _Sel, multiplier: int) -> None:
        amount = multiplier * selection.count
        weapons = [p for p in selection.node.profiles if p.is_weapon and p.name]
        mount, arc, coaxial = weapon_mount(selection.node.name, *selection.node.rules)
        for index, profile in enumerate(weapons):
            key = (profile.name, "coaxial" if index and coaxial else mount, arc)
            counts[key] = counts.get(key, 0) + amount
        for child in selection.children:
            walk(child, amount)

    walk(root, 1)
    return [ImportedWeaponLine(weapon, mount, count, arc) for (weapon, mount, arc), count in counts.items()]


def _round(value: float) -> int:
    return int(math.floor(value + 0.5))


def _models_in(selection: _Sel) -> int:
    """The men a selection stands for, its nested model entries included."""

    def walk(item: _Sel, multiplier: int) -> int:
        amount = multiplier * item.count
        own = amount if item.is_model else 0
        return own + sum(walk(child, amount) for child in item.children)

    return walk(selection, 1)


def _instances(tree: _Sel, node: _Node) -> int:
    """How many times ``node`` is selected in the tree, its parents' counts multiplied in."""

    def walk(item: _Sel, multiplier: int) -> int:
        amount = multiplier * item.count
        own = amount if item.node is node else 0
        return own + sum(walk(child, amount) for child in item.children)

    return walk(tree, 1)
