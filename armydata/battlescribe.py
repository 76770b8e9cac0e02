"""BattleScribe data (a .gst game system plus .cat catalogues) to the neutral import model.

BattleScribe files describe a *roster editor*, not a price list: a unit is a tree of
selectable entries whose costs, visibility and limits change through modifiers as the user
picks things. Bolt Action data uses that machinery to encode quality. The 2nd-edition
community files put a "Rating" group under each unit whose Inexperienced/Regular/Veteran
entries carry the price, and hide the extra-man entries of the wrong quality with modifiers
conditioned on the chosen rating. NewRecruit-era 3rd-edition files instead link shared
quality entries into a "Veterancy" group and *set* the model costs through modifiers
conditioned on which of them is selected.

Rather than recognise each encoding by name, this parser evaluates the tree: for every
quality the unit offers it builds the minimal legal selection (the quality entry, every
entry or group with a minimum, defaults where a group must be filled), evaluates the
conditions and modifiers against that selection, and sums the costs. Adding one more model
entry gives the per-model cost; adding one option at a time gives the option costs. Conditions
that look outside the unit (the force type, the theatre chosen elsewhere in the roster)
cannot be decided here: cost modifiers depending on them are reported and ignored, and
visibility depending on them counts as "available".
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from xml.etree.ElementTree import Element

from .classify import Classification, classify, is_setting, platoon_kind, weapon_mount
from .model import (
    QUALITIES,
    ImportedArmy,
    ImportedCatalogue,
    ImportedForce,
    ImportedForceLimit,
    ImportedLimitAdjustment,
    ImportedOption,
    ImportedOptionGroup,
    ImportedRule,
    ImportedUnit,
    ImportedWeapon,
    ImportedWeaponLine,
    ImportReport,
)
from .safety import CatalogueImportError, parse_xml

MAX_DEPTH = 60
# Shared entries linked into shared entries can fan out exponentially; a unit whose tree
# expands past this many nodes, or whose pricing builds more selections than the work limit,
# is skipped rather than allowed to stall the import.
MAX_UNIT_NODES = 20_000
MAX_UNIT_WORK = 2_000_000
# Choices per unit the importer prices; a unit with more keeps the first ones and says so.
MAX_OPTIONS = 400

_ENTRY_TAGS = ("selectionEntry", "selectionEntryGroup")
# A quality choice is named just that, maybe with a bracketed note ("Veteran (+3 pts)");
# "Regular Soldier" is a model, not a quality.
_QUALITY_RE = re.compile(r"^\s*(inexperienced|regular|experienced|veteran)\s*(\(.*\))?\s*$", re.IGNORECASE)
# Community 3rd-edition data calls the quality choice "Veterancy", "Rating", "Experience" or
# "Quality"; in a group so named, "Experienced" is the Regular choice.
_QUALITY_GROUP_RE = re.compile(r"\b(veterancy|rating|experience|quality|qualities)\b", re.IGNORECASE)
_QUALITY_ALIASES = {"experienced": "regular"}
_QUALITY_WORD_RE = re.compile(r"\b(inexperienced|regular|veteran)\b", re.IGNORECASE)
_POINTS_NAME_RE = re.compile(r"^\s*(pts|points?|pt)\s*$", re.IGNORECASE)
_SELECTOR_RE = re.compile(r"th(?:r)?ea?t(?:re|er)\s+selector", re.IGNORECASE)
_NOT_A_UNIT_RE = re.compile(r"theat(?:re|er)|utility|army special rules|points? adjust", re.IGNORECASE)
_MEN_GROUP_RE = re.compile(r"\b(men|members|models|soldiers|squad|crew|additional|extra|attendants?)\b", re.IGNORECASE)
_MAN_NAME_RE = re.compile(
    r"\b(soldiers?|nco|man|men|trooper|troopers|crewman|crewmen|attendants?|rifleman|riflemen|spotters?|loaders?)\b",
    re.IGNORECASE,
)
_CREW_RE = re.compile(r"^\s*crew\s*\(?\s*(\d+)", re.IGNORECASE)
_IGNORED_TAGS = frozenset({"description", "comment", "readme", "publications", "alias"})
_KNOWN_CONDITIONS = frozenset(
    {"lessThan", "greaterThan", "equalTo", "notEqualTo", "atLeast", "atMost", "instanceOf", "notInstanceOf"}
)

# --- the resolved tree -------------------------------------------------------------------


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


@dataclass
class _Document:
    filename: str
    root: Element
    kind: str
    id: str
    name: str
    game_system_id: str
    library: bool
    entries: dict[str, Element] = field(default_factory=dict)
    profiles: dict[str, Element] = field(default_factory=dict)
    rules: dict[str, Element] = field(default_factory=dict)
    info_groups: dict[str, Element] = field(default_factory=dict)
    categories: dict[str, str] = field(default_factory=dict)
    characteristic_types: dict[str, str] = field(default_factory=dict)


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


def _float(value: str | None, default: float = 0.0) -> float:
    try:
        result = float(value) if value not in (None, "") else default
    except ValueError:
        return default
    return result if math.isfinite(result) else default


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() == "true"


def _strip_namespaces(root: Element) -> None:
    for element in root.iter():
        if isinstance(element.tag, str) and "}" in element.tag:
            element.tag = element.tag.split("}", 1)[1]


def _load(filename: str, data: bytes) -> _Document:
    root = parse_xml(filename, data)
    _strip_namespaces(root)
    if root.tag not in ("gameSystem", "catalogue"):
        raise CatalogueImportError(f"{filename} is not a BattleScribe game system or catalogue (root <{root.tag}>)")
    doc = _Document(
        filename=filename,
        root=root,
        kind=root.tag,
        id=root.get("id", ""),
        name=_clean(root.get("name")) or filename,
        game_system_id=root.get("gameSystemId", ""),
        library=_truthy(root.get("library")),
    )
    # Shared definitions are the intended link targets, so they win over an inline entry
    # that happens to reuse the same id.
    for container in ("sharedSelectionEntries", "sharedSelectionEntryGroups"):
        for holder in root.findall(container):
            for element in holder:
                if element.tag in _ENTRY_TAGS and element.get("id"):
                    doc.entries.setdefault(element.get("id", ""), element)
    for element in root.iter():
        element_id = element.get("id")
        if not element_id:
            continue
        if element.tag in _ENTRY_TAGS:
            doc.entries.setdefault(element_id, element)
        elif element.tag == "profile":
            doc.profiles.setdefault(element_id, element)
        elif element.tag == "rule":
            doc.rules.setdefault(element_id, element)
        elif element.tag == "infoGroup":
            doc.info_groups.setdefault(element_id, element)
        elif element.tag == "categoryEntry":
            doc.categories.setdefault(element_id, _clean(element.get("name")))
        elif element.tag == "characteristicType":
            doc.characteristic_types.setdefault(element_id, _clean(element.get("name")))
    return doc


# --- resolving links ---------------------------------------------------------------------


class _Resolver:
    """Turns XML entries of one catalogue (plus its libraries and game system) into nodes."""

    def __init__(self, chain: list[_Document], points: str, cost_types: dict[str, str], report: ImportReport):
        self.chain = chain
        self.points = points
        self.cost_types = cost_types
        self.report = report
        self._memo: dict[int, _Node] = {}
        self._stack: list[tuple[int, str]] = []
        self.categories: dict[str, str] = {}
        self.characteristic_types: dict[str, str] = {}
        for doc in reversed(chain):
            self.categories.update(doc.categories)
            self.characteristic_types.update(doc.characteristic_types)

    def _find(self, table: str, target_id: str) -> tuple[Element, _Document] | None:
        for doc in self.chain:
            element = getattr(doc, table).get(target_id)
            if element is not None:
                return element, doc
        return None

    def resolve(self, element: Element, doc: _Document, depth: int = 0) -> _Node | None:
        if depth > MAX_DEPTH:
            raise CatalogueImportError(
                f"{doc.filename}: entries nest more than {MAX_DEPTH} levels deep near {element.get('name')!r}"
            )
        if element.tag == "entryLink":
            return self._resolve_link(element, doc, depth)
        if element.tag not in _ENTRY_TAGS:
            return None
        key = id(element)
        if key in self._memo:
            return self._memo[key]
        self._stack.append((key, _clean(element.get("name")) or element.get("id", "?")))
        try:
            node = self._build(element, doc, depth)
        finally:
            self._stack.pop()
        self._memo[key] = node
        return node

    def _resolve_link(self, link: Element, doc: _Document, depth: int) -> _Node | None:
        target_id = link.get("targetId", "")
        link_label = f"{_clean(link.get('name')) or 'link'} ({link.get('id', '?')})"
        found = self._find("entries", target_id)
        if found is None:
            self.report.skip(link_label, f"{doc.filename}: link target {target_id} not found")
            return None
        target_element, target_doc = found
        if id(target_element) in {key for key, _ in self._stack}:
            names = [name for key, name in self._stack]
            start = next(i for i, (key, _) in enumerate(self._stack) if key == id(target_element))
            cycle = " -> ".join([*names[start:], names[start]])
            raise CatalogueImportError(f"{doc.filename}: entry links form a cycle: {cycle}")
        target = self.resolve(target_element, target_doc, depth + 1)
        if target is None:
            return None
        own = self._parts(link, doc, depth, link_label)
        costs = dict(target.costs)
        # The link's own costs replace the target's for the same cost type: that is how a
        # catalogue re-prices a shared entry for one army.
        costs.update(own.costs)
        categories = list(target.categories)
        if any(primary for _, primary in own.categories):
            categories = [(cat, False) for cat, _ in categories]
        categories.extend(own.categories)
        return replace(
            target,
            ids=target.ids | {link.get("id", "")} - {""},
            hidden=target.hidden or _truthy(link.get("hidden")),
            costs=tuple(costs.items()),
            categories=tuple(categories),
            modifiers=target.modifiers + own.modifiers,
            constraints=target.constraints + own.constraints,
            children=target.children + own.children,
            profiles=target.profiles + own.profiles,
            rules=target.rules + own.rules,
        )

    def _build(self, element: Element, doc: _Document, depth: int) -> _Node:
        element_id = element.get("id", "")
        name = _clean(element.get("name"))
        label = f"{name!r} ({element_id})"
        parts = self._parts(element, doc, depth, label)
        return _Node(
            kind="group" if element.tag == "selectionEntryGroup" else "entry",
            id=element_id,
            ids=frozenset({element_id}) - {""},
            name=name,
            type=element.get("type", "") if element.tag == "selectionEntry" else "",
            hidden=_truthy(element.get("hidden")),
            costs=tuple(parts.costs.items()),
            categories=tuple(parts.categories),
            modifiers=parts.modifiers,
            constraints=parts.constraints,
            children=parts.children,
            profiles=parts.profiles,
            rules=parts.rules,
            default_id=element.get("defaultSelectionEntryId", ""),
            label=label,
        )

    def _parts(self, element: Element, doc: _Document, depth: int, label: str) -> _Parts:
        parts = _Parts()
        children: list[_Node] = []
        for child in element:
            tag = child.tag
            if tag == "costs":
                parts.costs.update(self._costs(child, doc, label))
            elif tag == "categoryLinks":
                for link in child:
                    if link.tag == "categoryLink" and link.get("targetId"):
                        parts.categories.append((link.get("targetId", ""), _truthy(link.get("primary"))))
            elif tag == "modifiers":
                parts.modifiers += tuple(self._modifier(m, None, ()) for m in child if m.tag == "modifier")
            elif tag == "modifierGroups":
                parts.modifiers += self._modifier_groups(child, None, ())
            elif tag == "constraints":
                parts.constraints += tuple(_constraint(c) for c in child if c.tag == "constraint")
            elif tag == "profiles":
                parts.profiles += tuple(self._profile(p) for p in child if p.tag == "profile")
            elif tag == "rules":
                parts.rules += tuple(_clean(r.get("name")) for r in child if r.tag == "rule")
            elif tag == "infoLinks":
                profiles, rules = self._info_links(child, label, 0)
                parts.profiles += profiles
                parts.rules += rules
            elif tag == "infoGroups":
                for group in child:
                    profiles, rules = self._info_group(group, label, 0)
                    parts.profiles += profiles
                    parts.rules += rules
            elif tag in ("selectionEntries", "selectionEntryGroups", "entryLinks"):
                for sub in child:
                    node = self.resolve(sub, doc, depth + 1)
                    if node is not None:
                        children.append(node)
            elif tag in _IGNORED_TAGS:
                continue
            else:
                self.report.warn(f"{doc.filename}: {label}: <{tag}> is not supported; ignored")
        parts.children = tuple(children)
        return parts

    def _costs(self, element: Element, doc: _Document, label: str) -> dict[str, float]:
        costs: dict[str, float] = {}
        for cost in element:
            if cost.tag != "cost":
                continue
            type_id = cost.get("typeId", "")
            if type_id not in self.cost_types:
                raise CatalogueImportError(
                    f"{doc.filename}: {label} uses cost type {type_id!r}, which the game system does not define"
                )
            if type_id == self.points:
                costs[type_id] = _float(cost.get("value"))
        return costs

    def _modifier(
        self, element: Element, outer: _ConditionGroup | None, outer_repeats: tuple[_Repeat, ...]
    ) -> _Modifier:
        own = _condition_group_of(element)
        return _Modifier(
            type=element.get("type", ""),
            field=element.get("field", ""),
            value=element.get("value", ""),
            condition=_and(outer, own),
            repeats=outer_repeats + _repeats_of(element),
        )

    def _modifier_groups(
        self, element: Element, outer: _ConditionGroup | None, outer_repeats: tuple[_Repeat, ...]
    ) -> tuple[_Modifier, ...]:
        result: list[_Modifier] = []
        for group in element:
            if group.tag != "modifierGroup":
                continue
            condition = _and(outer, _condition_group_of(group))
            repeats = outer_repeats + _repeats_of(group)
            for child in group:
                if child.tag == "modifiers":
                    result.extend(self._modifier(m, condition, repeats) for m in child if m.tag == "modifier")
                elif child.tag == "modifierGroups":
                    result.extend(self._modifier_groups(child, condition, repeats))
        return tuple(result)

    def _profile(self, element: Element) -> _Profile:
        characteristics = []
        holder = element.find("characteristics")
        for characteristic in holder if holder is not None else ():
            if characteristic.tag != "characteristic":
                continue
            name = _clean(characteristic.get("name")) or self.characteristic_types.get(
                characteristic.get("typeId", ""), ""
            )
            characteristics.append((name, _clean(characteristic.text)))
        return _Profile(
            id=element.get("id", ""),
            name=_clean(element.get("name")),
            type_name=_clean(element.get("typeName")),
            characteristics=tuple(characteristics),
        )

    def _info_links(self, element: Element, label: str, depth: int) -> tuple[tuple[_Profile, ...], tuple[str, ...]]:
        profiles: list[_Profile] = []
        rules: list[str] = []
        for link in element:
            if link.tag != "infoLink":
                continue
            kind = link.get("type", "")
            target_id = link.get("targetId", "")
            if kind == "profile":
                found = self._find("profiles", target_id)
                if found:
                    profiles.append(self._profile(found[0]))
                    continue
            elif kind == "rule":
                found = self._find("rules", target_id)
                if found:
                    rules.append(_apply_name_modifiers(_clean(found[0].get("name")), link))
                    continue
            elif kind == "infoGroup":
                found = self._find("info_groups", target_id)
                if found and depth < MAX_DEPTH:
                    more_profiles, more_rules = self._info_group(found[0], label, depth + 1)
                    profiles.extend(more_profiles)
                    rules.extend(more_rules)
                    continue
            self.report.warn(f"{label}: info link to {kind or 'something'} {target_id} not found; ignored")
        return tuple(profiles), tuple(rules)

    def _info_group(self, element: Element, label: str, depth: int) -> tuple[tuple[_Profile, ...], tuple[str, ...]]:
        profiles: list[_Profile] = []
        rules: list[str] = []
        for child in element:
            if child.tag == "profiles":
                profiles.extend(self._profile(p) for p in child if p.tag == "profile")
            elif child.tag == "rules":
                rules.extend(_clean(r.get("name")) for r in child if r.tag == "rule")
            elif child.tag == "infoLinks":
                more_profiles, more_rules = self._info_links(child, label, depth + 1)
                profiles.extend(more_profiles)
                rules.extend(more_rules)
            elif child.tag == "infoGroups" and depth < MAX_DEPTH:
                for group in child:
                    more_profiles, more_rules = self._info_group(group, label, depth + 1)
                    profiles.extend(more_profiles)
                    rules.extend(more_rules)
        return tuple(profiles), tuple(rules)


@dataclass
class _Parts:
    costs: dict[str, float] = field(default_factory=dict)
    categories: list[tuple[str, bool]] = field(default_factory=list)
    modifiers: tuple[_Modifier, ...] = ()
    constraints: tuple[_Constraint, ...] = ()
    children: tuple[_Node, ...] = ()
    profiles: tuple[_Profile, ...] = ()
    rules: tuple[str, ...] = ()


def _apply_name_modifiers(name: str, element: Element) -> str:
    holder = element.find("modifiers")
    for modifier in holder if holder is not None else ():
        if modifier.tag != "modifier" or modifier.get("field") != "name":
            continue
        value = modifier.get("value", "")
        if modifier.get("type") == "set":
            name = value
        elif modifier.get("type") == "append":
            name = f"{name} {value}"
    # Sources append " (3)" and "(3)" alike; one spelling keeps rule names comparable.
    return re.sub(r"(\S)\(", r"\1 (", _clean(name))


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


def quality_of(name: str) -> str | None:
    """The quality a choice named like "Veteran" or "Experienced (+2 pts)" stands for."""
    match = _QUALITY_RE.match(name)
    if match is None:
        return None
    word = match.group(1).lower()
    return _QUALITY_ALIASES.get(word, word)


def _static_hidden(node: _Node) -> bool:
    """Hidden in the source with nothing that could ever show it."""
    if not node.hidden:
        return False
    return not any(m.field == "hidden" and m.type == "set" and not _truthy(m.value) for m in node.modifiers)


def _is_weapon_node(node: _Node) -> bool:
    return any(profile.is_weapon for profile in node.profiles)


# --- evaluating one unit -----------------------------------------------------------------


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


class _Unit:
    """Prices one unit node by building and costing selections of its tree."""

    def __init__(self, node: _Node, parser: _ArmyParser, wrapper: _Node | None):
        self.node = node
        self.parser = parser
        self.points = parser.points
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
        self._find_quality_groups(node)
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
            named = bool(_QUALITY_GROUP_RE.search(child.name)) and any(qualities)
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
            elif condition.child_id in self.parser.resolver.categories:
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
        return group is None or self.limit(group, "max", ctx) is None

    # building selections

    def is_model(self, node: _Node, group: _Node | None) -> bool:
        if node is self.node or node.type == "unit":
            return False
        if node.type == "model":
            return True
        if group is not None:
            if _MEN_GROUP_RE.search(group.name):
                return True
            if any(sibling.type == "model" for sibling in group.children if sibling.kind == "entry"):
                return True
        return bool(_MAN_NAME_RE.search(node.name))

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
        for _ in range(2):
            root = _Sel(self.node, 1, self._children(self.node, quality, extras, ctx), False, None)
            ctx = self.context(root)
        return root, ctx

    def cost(self, selection: _Sel, ctx: _Ctx) -> float:
        own = self.own_cost(selection.node, ctx)
        return selection.count * (own + sum(self.cost(child, ctx) for child in selection.children))


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


# --- turning one catalogue into an army ----------------------------------------------------


@dataclass
class _Priced:
    base: dict[str, int]
    per_model: dict[str, int]
    per_model_nodes: dict[str, _Node]
    base_models: int
    max_models: int | None
    trees: dict[str, tuple[_Sel, _Ctx]]
    implicit_models: int = 0


class _ArmyParser:
    def __init__(self, catalogue: _Document, resolver: _Resolver, report: ImportReport):
        self.catalogue = catalogue
        self.resolver = resolver
        self.points = resolver.points
        self.report = report

    def category_names(self, *nodes: _Node | None) -> list[str]:
        primary: list[str] = []
        others: list[str] = []
        for node in nodes:
            if node is None:
                continue
            for category, is_primary in node.categories:
                name = self.resolver.categories.get(category, "")
                if name:
                    (primary if is_primary else others).append(name)
        return [*primary, *others]

    def parse(self, roots: list[_Node], national_rules: list[str]) -> ImportedArmy:
        units: list[ImportedUnit] = []
        selectors: list[str] = []
        seen: dict[str, int] = {}  # source id -> index in units
        for root in roots:
            categories = self.category_names(root)
            if _SELECTOR_RE.search(root.name):
                selectors.extend(n for n in _selectable_names(root) if n not in selectors)
                continue
            if is_setting(root.name, *categories):
                # Every roster takes it once: a setting, not a unit (no order die, no points, no slot).
                self.report.skip(f"{root.name} ({root.id})", "roster setting, not a unit")
                continue
            if categories and _NOT_A_UNIT_RE.search(categories[0]):
                self.report.skip(f"{root.name} ({root.id})", f"utility entry ({categories[0]}), not a unit")
                continue
            for unit_node, wrapper in self._units_in(root):
                unit = self._unit(unit_node, wrapper)
                if unit is None:
                    continue
                # The links that reach the unit: a roster may name it by any of them.
                reached = unit_node.ids | (wrapper.ids if wrapper is not None else frozenset())
                aliases = sorted(reached - {unit.source_id})
                if unit.source_id in seen:
                    known = units[seen[unit.source_id]]
                    if known.slot != unit.slot:
                        self.report.warn(
                            f"{self.catalogue.name}: {unit.name!r} is offered in several slots "
                            f"({known.slot}, {unit.slot}); imported once"
                        )
                    merged = list(dict.fromkeys([*known.source_aliases, *aliases]))
                    units[seen[unit.source_id]] = replace(known, source_aliases=merged)
                    continue
                seen[unit.source_id] = len(units)
                units.append(replace(unit, source_aliases=aliases))
        return ImportedArmy(
            source_id=self.catalogue.id,
            name=self.catalogue.name,
            national_rules=national_rules,
            units=units,
            theatre_selectors=selectors,
        )

    def _units_in(self, root: _Node) -> list[tuple[_Node, _Node | None]]:
        if root.type == "unit":
            return [(root, None)]
        nested: list[_Node] = []

        def walk(node: _Node) -> None:
            for child in node.children:
                if child.kind == "group":
                    walk(child)
                elif child.type == "unit":
                    nested.append(child)

        walk(root)
        if not nested:
            return [(root, None)]
        return [(unit, root) for unit in nested]

    def _unit(self, node: _Node, wrapper: _Node | None) -> ImportedUnit | None:
        label = f"{node.name} ({node.id})"
        try:
            unit = _Unit(node, self, wrapper)
            priced = self._price(unit)
            if not priced.base:
                self.report.skip(label, "no quality of this unit can be selected")
                return None
            result = self._assemble(unit, priced, wrapper)
        except _UnitTooComplex:
            self.report.skip(label, "too large to price (its entries expand past the importer's limits)")
            return None
        except RecursionError:
            self.report.skip(label, "its entries nest too deeply to evaluate")
            return None
        for note in unit.notes:
            self.report.warn(f"{self.catalogue.name}: {node.name}: {note}")
        return result

    def _fallback_quality(self, unit: _Unit) -> str:
        match = _QUALITY_WORD_RE.search(unit.node.name)
        if match:
            return match.group(1).lower()
        root, _ = unit.configure("regular", {})
        for selection in _walk(root):
            if selection.is_model or selection.node is unit.node:
                match = _QUALITY_WORD_RE.search(selection.node.name)
                if match:
                    return match.group(1).lower()
            for profile in selection.node.profiles:
                quality = quality_of(profile.name)
                if quality and not profile.is_weapon:
                    return quality
        unit.note("no quality found in the source; priced as Regular")
        return "regular"

    def _price(self, unit: _Unit) -> _Priced:
        qualities = [q for q in QUALITIES if q in unit.qualities]
        if not unit.quality_groups:
            fallback = self._fallback_quality(unit)
            unit.qualities[fallback] = None
            qualities = [fallback]
        priced = _Priced(base={}, per_model={}, per_model_nodes={}, base_models=0, max_models=0, trees={})
        models_seen: set[int] = set()
        max_seen: set[int | None] = set()
        for quality in qualities:
            root, ctx = unit.configure(quality, {})
            priced.trees[quality] = (root, ctx)
            total = unit.cost(root, ctx)
            if total < 0:
                unit.note(f"base cost at {quality} comes out negative ({total:g}); set to 0")
                total = 0
            if total != int(total):
                unit.note(f"base cost at {quality} is fractional ({total:g}); rounded")
            priced.base[quality] = _round(total)
            base_models = ctx.model_entries or unit.fallback_models
            if not ctx.model_entries:
                # No entry stands for these models (an officer alone, a gun's crew): a roster
                # lists only the models added to them.
                priced.implicit_models = unit.fallback_models
            models_seen.add(base_models)
            node, extra, capacity = self._per_model(unit, quality, ctx, total)
            if node is not None:
                if extra < 0:
                    unit.note(f"an extra model at {quality} comes out negative ({extra:g}); set to 0")
                    extra = 0
                priced.per_model[quality] = _round(extra)
                priced.per_model_nodes[quality] = node
            max_seen.add(None if capacity is None else base_models + capacity)
        priced.base_models = min(models_seen) if models_seen else 1
        if len(models_seen) > 1:
            unit.note(f"the number of models differs between qualities ({sorted(models_seen)}); kept the smallest")
        if None in max_seen:
            priced.max_models = None
        else:
            priced.max_models = max(m for m in max_seen if m is not None) if max_seen else priced.base_models
        # A cap on the unit's models as a whole ("at most 6 men", childId "model") bounds what the
        # model entries would allow one by one.
        caps = [
            int(c.value)
            for n in (unit.node, unit.wrapper)
            if n is not None
            for c in n.constraints
            if c.type == "max" and c.child_id == "model" and c.field == "selections" and not c.percent and c.value >= 0
        ]
        if caps:
            cap = max(min(caps), priced.base_models)
            priced.max_models = cap if priced.max_models is None else min(priced.max_models, cap)
        return priced

    def _model_slots(self, unit: _Unit) -> list[tuple[_Node, _Node | None]]:
        slots: list[tuple[_Node, _Node | None]] = []

        def walk(node: _Node, group: _Node | None) -> None:
            for child in node.children:
                if child.kind == "group":
                    if id(child) not in unit.quality_groups:
                        walk(child, child)
                elif child.type != "unit" and unit.is_model(child, group):
                    slots.append((child, group))

        walk(unit.node, None)
        return slots

    def _per_model(self, unit: _Unit, quality: str, ctx: _Ctx, base: float) -> tuple[_Node | None, float, int | None]:
        """The cheapest model that can still be added, its price, and the room left for models.

        Room is None when nothing in the source caps the number of models.
        """
        best: tuple[float, int, _Node] | None = None
        loose_room: int | None = 0
        group_rooms: dict[int, list[int | None]] = {}
        for index, (node, group) in enumerate(self._model_slots(unit)):
            if unit.hidden(node, ctx) or (group is not None and unit.hidden(group, ctx)):
                continue
            if unit.option_man(node, group, ctx):
                continue
            maximum = unit.limit(node, "max", ctx)
            room = None if maximum is None else max(0, maximum - ctx.counts.get(node.id, 0))
            if group is None:
                loose_room = _add(loose_room, room)
                group_room = None
            else:
                if id(group) not in group_rooms:
                    group_max = unit.limit(group, "max", ctx)
                    taken = sum(ctx.counts.get(c.id, 0) for c in group.children if c.kind == "entry")
                    group_rooms[id(group)] = [0, None if group_max is None else max(0, group_max - taken)]
                record = group_rooms[id(group)]
                record[0] = _add(record[0], room)
                group_room = record[1]
            if room == 0 or group_room == 0:
                continue
            grown, grown_ctx = unit.configure(quality, {node: 1})
            if _find_selection(grown, node) is None:
                continue
            candidate = (unit.cost(grown, grown_ctx) - base, index, node)
            if best is None or candidate[:2] < best[:2]:
                best = candidate
        capacity = loose_room
        for entries_room, group_room in group_rooms.values():
            capacity = _add(capacity, _smaller(entries_room, group_room))
        if best is None:
            return None, 0.0, capacity
        return best[2], best[0], capacity

    def _assemble(self, unit: _Unit, priced: _Priced, wrapper: _Node | None) -> ImportedUnit:
        node = unit.node
        weapons: list[str] = []
        rules: list[str] = []
        vehicle = None
        quality_nodes = {id(n) for n in unit.qualities.values() if n is not None}
        profiles = [*node.profiles, *(wrapper.profiles if wrapper is not None else ())]
        for root, _ in priced.trees.values():
            for name in _weapons_of(root):
                if name not in weapons:
                    weapons.append(name)
            for selection in _walk(root):
                for profile in selection.node.profiles:
                    if vehicle is None and profile.is_vehicle:
                        vehicle = profile
                    if not profile.is_weapon and profile not in profiles:
                        profiles.append(profile)
                if id(selection.node) in quality_nodes or _is_weapon_node(selection.node):
                    continue
                for rule in selection.node.rules:
                    if rule and rule not in rules:
                        rules.append(rule)
        if wrapper is not None:
            for rule in wrapper.rules:
                if rule and rule not in rules:
                    rules.append(rule)
            if vehicle is None:
                vehicle = next((p for p in wrapper.profiles if p.is_vehicle), None)
        damage_text = vehicle.get("damage value", "damage", "dv") if vehicle else None
        transport_text = vehicle.get("transport", "transport capacity") if vehicle else None
        kind, type_source = self._classify(unit, wrapper, damage_text, transport_text, profiles, rules)
        hidden = _static_hidden(node) or (wrapper is not None and _static_hidden(wrapper))
        if hidden:
            self.report.warn(f"{self.catalogue.name}: {node.name!r} is hidden in the source; imported as hidden")
        options, option_groups = self._options(unit, priced, weapons)
        # Vehicles keep each weapon on its own mount, read from the first offered quality's tree
        # (the default kit does not change with quality).
        lines = _weapon_lines(next(iter(priced.trees.values()))[0]) if damage_text else []
        return ImportedUnit(
            source_id=node.id,
            name=node.name,
            unit_type=kind.unit_type,
            slot=kind.slot,
            base_cost=dict(priced.base),
            per_model_cost=dict(priced.per_model),
            base_models=priced.base_models,
            min_models=priced.base_models,
            max_models=priced.max_models,
            implicit_models=priced.implicit_models,
            weapons=weapons,
            options=options,
            special_rules=rules,
            damage_value=_first_int(damage_text, r"(\d+)\s*\+") if damage_text else None,
            transport_capacity=_first_int(transport_text, r"(\d+)") if transport_text else None,
            officer_rank=kind.officer_rank,
            hidden=hidden,
            weapon_lines=lines,
            categories=list(dict.fromkeys(c for n in (node, wrapper) if n is not None for c, _ in n.categories)),
            type_source=type_source,
            option_groups=option_groups,
        )

    def _classify(
        self,
        unit: _Unit,
        wrapper: _Node | None,
        damage: str | None,
        transport: str | None,
        profiles: list[_Profile],
        rules: list[str],
    ) -> tuple[Classification, str]:
        """The unit's kind and what told it: its categories, else its profiles, else its name.

        Data without type categories keeps the kind in its profiles: a damage value or a profile
        type naming a vehicle, a gun's crew and shield naming artillery.
        """
        display = f"{unit.node.name} {wrapper.name if wrapper else ''}".strip()
        categories = self.category_names(unit.node, wrapper)
        if not classify(categories, "").guessed:
            return classify(categories, display, damage=damage, transport=transport), "categories"
        hints = _profile_kinds(profiles, rules)
        if damage is not None or hints:
            result = classify(hints, display, damage=damage, transport=transport)
            label = result.unit_type.replace("_", " ")
            unit.note(f"no category says what kind of unit this is; its profiles say {label} (guessed)")
            return result, "profiles"
        result = classify(categories, display)
        if result.guessed:
            unit.note("no category says what kind of unit this is; imported as infantry")
        else:
            label = result.unit_type.replace("_", " ")
            unit.note(f"no category or profile says what kind of unit this is; its name says {label} (guessed)")
        return result, "name"

    def _options(
        self, unit: _Unit, priced: _Priced, base_weapons: list[str]
    ) -> tuple[list[ImportedOption], list[ImportedOptionGroup]]:
        """Every choice inside the unit, at any depth, with the limits its groups set.

        Entries that are part of the unit at every quality are walked into: their choices are
        the unit's options. A choice inside a model that the unit holds several of (or inside
        the entry that adds its men) is a per-man choice. A choice inside an option is priced
        with that option taken and named after it.
        """
        in_base: dict[int, set[str]] = defaultdict(set)
        base_counts: dict[int, int] = defaultdict(int)
        for quality, (root, _) in priced.trees.items():
            for selection in _walk(root):
                in_base[id(selection.node)].add(quality)
                base_counts[id(selection.node)] = max(base_counts[id(selection.node)], selection.count)
        per_model_ids = {id(n) for n in priced.per_model_nodes.values()}
        quality_ids = {id(n) for mapping in unit.quality_groups.values() for n in mapping.values()}
        offered = set(priced.base)
        first = next(iter(priced.trees))
        candidates: list[_Candidate] = []
        present_cache: dict[tuple[int, ...], set[int]] = {}
        left_out: list[str] = []

        def present(context: tuple[_Node, ...]) -> set[int]:
            """The entries selected with the context taken, at a quality it can be taken at."""
            key = tuple(id(c) for c in context)
            if key not in present_cache:
                present_cache[key] = set()
                for quality in priced.trees:
                    tree, _ = unit.configure(quality, dict.fromkeys(context, 1))
                    if all(_find_selection(tree, c) is not None for c in context):
                        present_cache[key] = {id(s.node) for s in _walk(tree)}
                        break
            return present_cache[key]

        def walk(
            node: _Node, group: _Node | None, context: tuple[_Node, ...], prefix: str, per_man: bool, owner: str = ""
        ) -> None:
            for child in node.children:
                if child.kind == "group":
                    # A rating group inside an option (an attached man's own quality) follows the unit's.
                    if id(child) not in unit.quality_groups and not _is_rating_group(child):
                        walk(child, child, context, prefix, per_man, owner)
                    continue
                if id(child) in quality_ids:
                    continue
                if len(candidates) + len(left_out) > MAX_OPTIONS:
                    left_out.append(f"{child.name!r} in {unit.node.name!r}")
                    continue
                if id(child) in per_model_ids:
                    # The entry that adds the unit's men: its own choices are each man's.
                    inner = context if id(child) in in_base else (*context, child)
                    walk(child, None, inner, prefix, True, child.name)
                    continue
                there = id(child) in present(context) if context else in_base.get(id(child), set()) >= offered
                if there:
                    many = base_counts.get(id(child), 1) > 1 and unit.is_model(child, group)
                    walk(child, None, context, prefix, per_man or many, child.name)
                    continue
                candidates.append(_Candidate(child, group, context, prefix, per_man, owner))
                if present((*context, child)):  # its own choices, when it can be taken at all
                    walk(child, None, (*context, child), f"{prefix}{child.name}: ", per_man, child.name)

        walk(unit.node, None, (), "", False)
        chosen: list[tuple[_Candidate, ImportedOption]] = []
        groups: dict[int, ImportedOptionGroup | None] = {}
        keys: dict[int, str] = {}
        merged: dict[tuple[object, ...], int] = {}
        for candidate in candidates:
            if unit.work > MAX_UNIT_WORK // 2:
                # Pricing stops short of the work limit, so a huge unit keeps its price and first choices.
                where = candidate.context[-1].name if candidate.context else unit.node.name
                left_out.append(f"{candidate.node.name!r} in {where!r}")
                continue
            option = self._option(unit, priced, candidate, base_weapons)
            if option is None:
                continue
            group = candidate.group
            if candidate.per_man:
                # The same swap offered to the extra man of each quality (an attendant entry per
                # rating) is one per-man choice, priced at each quality.
                same = (option.name, group.name if group else "", option.grants_weapon, option.replaces_weapon)
                if same in merged:
                    index = merged[same]
                    first, known = chosen[index]
                    both = {**option.cost, **known.cost}
                    cost = {q: both[q] for q in QUALITIES if q in both}
                    chosen[index] = (first, replace(known, cost=cost))
                    continue
                merged[same] = len(chosen)
            if group is not None:
                if id(group) not in groups:
                    groups[id(group)] = self._option_group(unit, priced, candidate, keys)
                    keys[id(group)] = self._group_key(group, keys)
                spec = groups[id(group)]
                if spec is not None or self._exclusive(unit, priced, candidate):
                    option = replace(option, group=spec.key if spec is not None else keys[id(group)])
            chosen.append((candidate, option))
        options = _distinct(chosen)
        if left_out:
            unit.note(f"{len(left_out)} choices too many or too deep to price were not imported (e.g. {left_out[0]})")
        specs = [spec for spec in groups.values() if spec is not None]
        used = {option.group for option in options}
        return options, [spec for spec in specs if spec.key in used]

    @staticmethod
    def _group_key(group: _Node, keys: dict[int, str]) -> str:
        key = group.name or group.id or "choice"
        taken = set(keys.values())
        number = 2
        while key in taken:
            key = f"{group.name or group.id} ({number})"
            number += 1
        return key

    def _group_limits(self, unit: _Unit, priced: _Priced, candidate: _Candidate) -> tuple[int, int | None, int]:
        """The group's minimum and maximum, and how many of its entries the unit already holds."""
        group = candidate.group
        assert group is not None
        quality = next(iter(priced.trees))
        if candidate.context:
            tree, ctx = unit.configure(quality, dict.fromkeys(candidate.context, 1))
        else:
            tree, ctx = priced.trees[quality]
        held = sum(s.count for s in _walk(tree) if s.group is group)
        return unit.limit(group, "min", ctx) or 0, unit.limit(group, "max", ctx), held

    def _exclusive(self, unit: _Unit, priced: _Priced, candidate: _Candidate) -> bool:
        return self._group_limits(unit, priced, candidate)[1] == 1

    def _option_group(
        self, unit: _Unit, priced: _Priced, candidate: _Candidate, keys: dict[int, str]
    ) -> ImportedOptionGroup | None:
        """The shared limit of a selection group, or None when "one of these" (or nothing) says it all."""
        group = candidate.group
        assert group is not None
        key = self._group_key(group, keys)
        if id(group) in unit.variant_groups:
            return ImportedOptionGroup(key=key, label=group.name, minimum=1, maximum=1)
        if any(unit.is_model(c, group) for c in group.children if c.kind == "entry" and c is not candidate.node):
            # A group of the unit's men ("Squad Members", "Additional Men"): its limit counts men,
            # which the unit's size already bounds, not choices.
            return None
        minimum, maximum, held = self._group_limits(unit, priced, candidate)
        quality = next(iter(priced.trees))
        context = dict.fromkeys(candidate.context, 1)
        root, ctx = unit.configure(quality, context) if context else priced.trees[quality]
        ratio = self._per_model_limit(unit, priced, quality, group, context, root, ctx)
        if ratio:
            # A limit that grows with the unit's men is a limit per man.
            return ImportedOptionGroup(key=key, label=group.name, maximum=ratio, per_model=True)
        if candidate.per_man:
            # "Each man may swap his rifle for one of ...": the cap is per man.
            return ImportedOptionGroup(key=key, label=group.name, maximum=maximum, per_model=True) if maximum else None
        # Entries the unit holds by default fill the minimum; the options replace them.
        minimum = max(0, minimum - held)
        if minimum == 0 and maximum in (None, 1):
            return None
        return ImportedOptionGroup(key=key, label=group.name, minimum=minimum, maximum=maximum)

    def _per_model_limit(
        self,
        unit: _Unit,
        priced: _Priced,
        quality: str,
        node: _Node,
        context: dict[_Node, int],
        root: _Sel,
        ctx: _Ctx,
    ) -> int:
        """How many each man may take, when the entry's maximum grows with the unit's men (a
        constraint modified once per model); 0 when it does not."""
        base = unit.limit(node, "max", ctx)
        if base is None or not any(m.field and any(c.id == m.field for c in node.constraints) for m in node.modifiers):
            return 0
        grown: list[int | None] = [unit.limit(node, "max", unit.context(root, models_override=ctx.models + 1))]
        extra = priced.per_model_nodes.get(quality)
        if extra is not None:
            bigger, bigger_ctx = unit.configure(quality, {**context, extra: 1})
            if _find_selection(bigger, extra) is not None:
                grown.append(unit.limit(node, "max", bigger_ctx))
        if not any(value is not None and value > base for value in grown):
            return 0
        return max(1, round(base / max(ctx.models, 1)))

    def _option(
        self, unit: _Unit, priced: _Priced, candidate: _Candidate, base_weapons: list[str]
    ) -> ImportedOption | None:
        node, group = candidate.node, candidate.group
        costs: dict[str, int] = {}
        per_model_flags: set[bool] = set()
        grants: str | None = None
        replaces: str | None = None
        max_count: int | None = None
        adds_models = 0
        whole_unit = False
        scaled = False
        context = dict.fromkeys(candidate.context, 1)
        for quality in priced.trees:
            if not all(unit.offers(n, quality) for n in (*candidate.context, node)):
                continue
            if context:
                root, ctx = unit.configure(quality, context)
                if any(_find_selection(root, c) is None for c in context):
                    continue
            else:
                root, ctx = priced.trees[quality]
            if unit.hidden(node, ctx) or (group is not None and unit.hidden(group, ctx)):
                continue
            limit = unit.limit(node, "max", ctx)
            if limit is None and group is not None:
                limit = unit.limit(group, "max", ctx)
            if limit == 0:
                continue
            tree, tree_ctx = unit.configure(quality, {**context, node: 1})
            selection = _find_selection(tree, node)
            if selection is None:
                continue
            delta = unit.cost(tree, tree_ctx) - unit.cost(root, ctx)
            option_weapons = _weapons_of(selection)
            if replaces is None and group is not None:
                for before in _walk(root):
                    if before.group is group and _find_selection(tree, before.node) is None:
                        replaces = next(iter(_weapons_of(before)), None)
                        break
            per_model_node = priced.per_model_nodes.get(quality)
            men = _models_in(selection) // max(selection.count, 1)
            if not candidate.per_man and any(
                self._per_model_limit(unit, priced, quality, n, context, root, ctx) for n in (node, group) if n
            ):
                # Its maximum grows with the unit's men ("any man may swap his rifle"): per man.
                scaled = True
            if candidate.per_man or scaled:
                # Taken once for each man of the model it sits in: the price is per man.
                per_model_flags.add(True)
                costs[quality] = _round(delta / max(_instances(tree, node), 1))
            elif selection.is_model and per_model_node is not None and not unit.option_man(node, group, ctx):
                per_model_flags.add(False)
                plain = _weapons_of_node(per_model_node, unit, quality)
                if set(option_weapons) - set(plain):
                    # A "soldier with LMG" entry is one of the squad's models: what the
                    # player pays for is the difference from an ordinary soldier.
                    delta -= priced.per_model.get(quality, 0)
                    replaces = replaces or next(iter(plain), None)
                costs[quality] = _round(delta)
            elif men or node.type == "unit":
                # A team inside the unit (an LMG team, an extra crewman): its own men, its own price.
                per_model_flags.add(False)
                adds_models = max(adds_models, men or _team_size(node) or 1)
                costs[quality] = _round(delta)
            else:
                slope = self._slope(unit, quality, node, per_model_node, tree, tree_ctx, root, delta, context)
                if abs(slope) > 1e-9:
                    per_model_flags.add(True)
                    whole_unit = True
                    fixed = delta - slope * tree_ctx.models
                    if abs(fixed) > 0.5:
                        unit.note(f"option {node.name!r} costs {fixed:g} plus {slope:g} per model; imported per model")
                    costs[quality] = _round(slope)
                else:
                    per_model_flags.add(False)
                    costs[quality] = _round(delta)
            if grants is None and option_weapons:
                fresh = [w for w in option_weapons if w not in base_weapons]
                grants = (fresh or option_weapons)[0]
            if limit is not None:
                max_count = limit if max_count is None else max(max_count, limit)
        if not costs:
            self.report.skip(f"{node.name} ({node.id})", f"option of {unit.node.name!r} that can never be taken")
            return None
        if len(per_model_flags) > 1:
            unit.note(f"option {node.name!r} is per model at some qualities only; imported per model")
        per_model = True in per_model_flags
        if not per_model and max_count is None and not adds_models:
            # Nothing caps how often it is taken (an SMG for "any number of men"): as often as
            # there are men, each priced, rather than once for the unit.
            scaled = True
            per_model = True
        # An upgrade priced for every model and taken once is the whole unit's (grenades for all or none).
        all_models = per_model and whole_unit and not (candidate.per_man or scaled) and max_count in (None, 1)
        if candidate.per_man or scaled:
            max_count = None  # one per man: the unit's models are the cap
        return ImportedOption(
            source_id=node.id,
            name=f"{candidate.prefix}{node.name}",
            per_model=per_model,
            cost=costs,
            max_count=max_count,
            grants_weapon=grants,
            replaces_weapon=replaces if replaces != grants else None,
            all_models=all_models,
            adds_models=adds_models,
        )

    def _slope(
        self,
        unit: _Unit,
        quality: str,
        node: _Node,
        per_model_node: _Node | None,
        tree: _Sel,
        tree_ctx: _Ctx,
        root: _Sel,
        delta: float,
        context: dict[_Node, int],
    ) -> float:
        """How much the option's price grows with each extra model in the unit."""
        if per_model_node is not None and per_model_node is not node:
            with_both, both_ctx = unit.configure(quality, {**context, node: 1, per_model_node: 1})
            bigger, bigger_ctx = unit.configure(quality, {**context, per_model_node: 1})
            if _find_selection(bigger, per_model_node) is not None and _find_selection(with_both, node) is not None:
                return (unit.cost(with_both, both_ctx) - unit.cost(bigger, bigger_ctx)) - delta
        # A fixed-size unit: see whether the option's own modifiers count the models.
        more = unit.context(tree, models_override=tree_ctx.models + 1)
        base_more = unit.context(root, models_override=tree_ctx.models + 1)
        return (unit.cost(tree, more) - unit.cost(root, base_more)) - delta


# What a unit's own (non-weapon) profiles say it is, as category-like names the classifier reads.
_PROFILE_KINDS = (
    (re.compile(r"armou?red car|scout car|recce vehicle|reconnaissance vehicle", re.I), "Armoured car"),
    (
        re.compile(r"half-?track|\btrucks?\b|\blorry\b|\btransport\b|\bcarriers?\b|\btractor\b|\bjeep\b", re.I),
        "Transport",
    ),
    (
        re.compile(
            r"\btanks?\b|assault guns?|tank destroyer|self.propelled|\bspg\b|tank hunter|\bpanzer|"
            r"armou?red (fighting )?vehicle|\bafv\b",
            re.I,
        ),
        "Tank",
    ),
    (re.compile(r"anti-?\s?tank gun|\bat gun\b", re.I), "Anti-tank gun"),
    (re.compile(r"\bartillery\b|howitzer|field gun|anti-?\s?aircraft gun|\bflak\b", re.I), "Artillery"),
    (re.compile(r"\bvehicles?\b", re.I), "Vehicle"),
    (re.compile(r"\binfantry\b|\bsquad\b|\bsection\b", re.I), "Infantry"),
    (re.compile(r"\bteam\b", re.I), "Team"),
)
# A profile type or characteristic that says what the unit is ("Type", "Unit Type", "Composition / Type").
_KIND_FIELD_RE = re.compile(r"\b(type|class|kind|composition)\b", re.I)
_SHIELD_RE = re.compile(r"\bshield\b", re.I)


def _profile_kinds(profiles: list[_Profile], rules: list[str]) -> list[str]:
    """Category-like names for what a unit's profiles say it is: "Tank", "Transport", "Artillery"...

    A profile type names the kind ("Vehicle", "Tank"), or a characteristic called type or
    composition does; a crew together with a gun shield is an artillery piece.
    """
    texts: list[str] = []
    crew = shield = False
    for profile in profiles:
        if profile.is_weapon:
            continue
        texts.append(profile.type_name)
        for key, value in profile.characteristics:
            if _KIND_FIELD_RE.search(key):
                texts.append(value)
            if re.search(r"\bcrew\b", key, re.I) or re.search(r"\bcrew\b", value, re.I):
                crew = True
            if _SHIELD_RE.search(key) or _SHIELD_RE.search(value):
                shield = True
            if re.search(r"\btransport", key, re.I) and (_first_int(value, r"(\d+)") or 0) > 0:
                # A vehicle that carries men: a transport, whatever else its profile says.
                texts.insert(0, "transport")
    kinds: list[str] = []
    for text in texts:
        for pattern, kind in _PROFILE_KINDS:
            if pattern.search(text or "") and kind not in kinds:
                kinds.append(kind)
                break
    for rule in rules:
        crew = crew or bool(re.search(r"\bcrew\b|\bteam\b", rule, re.I))
        shield = shield or bool(_SHIELD_RE.search(rule))
    if not kinds and crew and shield:
        kinds.append("Artillery")
    return kinds


@dataclass(frozen=True)
class _Candidate:
    """A choice of a unit: its group, the options it sits inside (taken with it), and whether
    each man takes it (it sits inside a model the unit holds several of)."""

    node: _Node
    group: _Node | None
    context: tuple[_Node, ...]
    prefix: str
    per_man: bool
    parent: str = ""  # the entry it sits in, to tell apart two choices of one name


def _distinct(chosen: list[tuple[_Candidate, ImportedOption]]) -> list[ImportedOption]:
    """Two choices of one unit from one shared entry (an SMG for the NCO, an SMG for each man) get
    the id of the link that reaches each, and the name of the model they belong to."""
    names: dict[str, int] = defaultdict(int)
    ids: dict[str, int] = defaultdict(int)
    for _, option in chosen:
        names[option.name] += 1
        ids[option.source_id] += 1
    result: list[ImportedOption] = []
    for candidate, option in chosen:
        if ids[option.source_id] > 1:
            links = sorted(candidate.node.ids - {candidate.node.id})
            if links:
                option = replace(option, source_id=links[0])
        if names[option.name] > 1 and candidate.parent:
            option = replace(option, name=f"{candidate.parent}: {option.name}")
        result.append(option)
    return result


def _is_rating_group(group: _Node) -> bool:
    entries = [c for c in group.children if c.kind == "entry"]
    qualities = [quality_of(e.name) for e in entries]
    return bool(entries) and (all(qualities) or (bool(_QUALITY_GROUP_RE.search(group.name)) and any(qualities)))


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


_TEAM_SIZE_RE = re.compile(r"\b(\d+)\s*(?:-\s*)?(?:men|man|models?|soldiers?|crew(?:men)?)\b", re.IGNORECASE)


def _team_size(node: _Node) -> int:
    """The men of a nested team with no model entries: "2 men" in its name or profiles, or its crew rule."""
    texts = [node.name, *(value for p in node.profiles for _, value in p.characteristics), *node.rules]
    for text in texts:
        match = _TEAM_SIZE_RE.search(text) or _CREW_RE.match(text)
        if match:
            return int(match.group(1))
    return 0


def _weapons_of_node(node: _Node, unit: _Unit, quality: str) -> list[str]:
    tree, _ = unit.configure(quality, {node: 1})
    selection = _find_selection(tree, node)
    return _weapons_of(selection) if selection is not None else []


def _entries_through_groups(node: _Node, group: _Node | None = None):
    for child in node.children:
        if child.kind == "group":
            yield from _entries_through_groups(child, child)
        else:
            yield child, group


def _has_minimum(node: _Node) -> bool:
    return any(c.type == "min" and c.scope == "parent" and c.value > 0 for c in node.constraints)


def _selectable_names(root: _Node) -> list[str]:
    names: list[str] = []

    def walk(node: _Node) -> None:
        for child in node.children:
            if child.kind == "group":
                walk(child)
            elif child.name and child.name not in names:
                names.append(child.name)

    walk(root)
    return names


def _add(first: int | None, second: int | None) -> int | None:
    """Add two room counts where None means unbounded."""
    return None if first is None or second is None else first + second


def _smaller(first: int | None, second: int | None) -> int | None:
    if first is None:
        return second
    if second is None:
        return first
    return min(first, second)


def _first_int(text: str | None, pattern: str) -> int | None:
    match = re.search(pattern, text or "")
    return int(match.group(1)) if match else None


def _split_rules(text: str | None) -> list[str]:
    """Split "Team, Fixed, HE (2\")" on the commas that are not inside brackets."""
    items: list[str] = []
    depth = 0
    current = ""
    for char in text or "":
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        if char in ",;" and depth == 0:
            items.append(current)
            current = ""
        else:
            current += char
    items.append(current)
    return [item.strip() for item in items if item.strip() and item.strip().lower() not in ("-", "n/a", "none")]


# --- the public entry point ----------------------------------------------------------------


# Editions as data authors spell them in a game system's name: "Bolt Action 3ed", "Third Edition",
# "3rd Ed.", "BA3", "v3", "Bolt Action 2.0". A bare digit counts only when nothing but an edition
# word or a version dot follows it, so a revision number elsewhere in the name does not decide.
_EDITION_PATTERNS = (
    ("v3", r"\bthird\b|\b3\s*(rd|ed|e)\b|\b3(rd)?\s*ed(ition|\.)?|\bv\.?\s*3\b|\bba\s*3\b|\b3\.0\b|\baction\s+3\b"),
    ("v2", r"\bsecond\b|\b2\s*(nd|ed|e)\b|\b2(nd)?\s*ed(ition|\.)?|\bv\.?\s*2\b|\bba\s*2\b|\b2\.0\b|\baction\s+2\b"),
)


def edition_of(system_name: str) -> str | None:
    """The edition ("v2", "v3") a game system's name says, or None when it says neither or both."""
    lowered = system_name.lower()
    found = {edition for edition, pattern in _EDITION_PATTERNS if re.search(pattern, lowered)}
    return found.pop() if len(found) == 1 else None


def _edition(system_name: str) -> str:
    edition = edition_of(system_name)
    if edition is None:
        raise CatalogueImportError(
            f"game system {system_name!r} is not recognisable as Bolt Action 2nd or 3rd edition; "
            "say which it is with --edition v2 or --edition v3 (on the import page: the Edition field)"
        )
    return edition


def _points_type(system: _Document) -> tuple[str, dict[str, str]]:
    cost_types = {
        c.get("id", ""): _clean(c.get("name")) for c in system.root.iter("costType") if c.get("id") is not None
    }
    if not cost_types:
        raise CatalogueImportError(f"{system.filename}: the game system defines no cost types")
    if len(cost_types) == 1:
        return next(iter(cost_types)), cost_types
    matches = [type_id for type_id, name in cost_types.items() if _POINTS_NAME_RE.match(name)]
    if len(matches) != 1:
        listed = ", ".join(f"{name!r}" for name in cost_types.values())
        raise CatalogueImportError(f"{system.filename}: cannot tell which cost type is points among {listed}")
    return matches[0], cost_types


def _library_chain(catalogue: _Document, catalogues: dict[str, _Document]) -> tuple[list[_Document], list[str]]:
    chain: list[_Document] = []
    missing: list[str] = []
    pending = [catalogue]
    while pending:
        current = pending.pop(0)
        if current in chain:
            continue
        chain.append(current)
        for link in current.root.iter("catalogueLink"):
            target = catalogues.get(link.get("targetId", ""))
            if target is None:
                missing.append(_clean(link.get("name")) or link.get("targetId", "?"))
            elif target not in chain:
                pending.append(target)
    return chain, missing


_ROOT_TAGS = frozenset(
    {
        "publications",
        "costTypes",
        "profileTypes",
        "categoryEntries",
        "forceEntries",
        "selectionEntries",
        "entryLinks",
        "rules",
        "infoLinks",
        "infoGroups",
        "profiles",
        "sharedSelectionEntries",
        "sharedSelectionEntryGroups",
        "sharedRules",
        "sharedProfiles",
        "sharedInfoGroups",
        "catalogueLinks",
        "costLimits",
        "readme",
        "comment",
    }
)


# Containers a force or category holds its links in (NewRecruit data links units from a force
# entry, or from a category a force links).
_FORCE_CONTAINERS = frozenset(
    {"forceEntries", "forceEntry", "categoryLinks", "categoryLink", "categoryEntries", "categoryEntry"}
)


def _force_holders(element: Element, depth: int = 0) -> list[Element]:
    holders: list[Element] = []
    for child in element:
        if depth and child.tag in ("selectionEntries", "entryLinks"):
            holders.append(child)
        elif child.tag in _FORCE_CONTAINERS and depth < MAX_DEPTH:
            holders.extend(_force_holders(child, depth + 1))
    return holders


def _root_nodes(doc: _Document, resolver: _Resolver) -> list[_Node]:
    """The entries a roster can start from: the document's root entries and links, and those its
    force entries hold (NewRecruit data often reaches every unit through the force's links)."""
    nodes: list[_Node] = []
    holders: list[Element] = []
    for child in doc.root:
        if child.tag in ("selectionEntries", "entryLinks"):
            holders.append(child)
        elif child.tag not in _ROOT_TAGS:
            resolver.report.warn(f"{doc.filename}: <{child.tag}> at the top level is not supported; ignored")
    holders.extend(_force_holders(doc.root))
    for holder in holders:
        for element in holder:
            node = resolver.resolve(element, doc)
            if node is not None:
                nodes.append(node)
    return nodes


def parse_battlescribe(files: dict[str, bytes], edition: str | None = None) -> ImportedCatalogue:
    """Parse one or more game systems (.gst) and catalogues (.cat) given as name -> bytes.

    ``edition`` ("v2", "v3") overrides the edition read from the game system's name, for data
    whose name does not say it.
    """
    report = ImportReport()
    systems: dict[str, _Document] = {}
    catalogues: dict[str, _Document] = {}
    for name in sorted(files):
        lowered = name.lower()
        if not lowered.endswith((".gst", ".cat")):
            report.skip(name, "not a .gst or .cat file")
            continue
        doc = _load(name, files[name])
        expected = "gameSystem" if lowered.endswith(".gst") else "catalogue"
        if doc.kind != expected:
            raise CatalogueImportError(f"{name} is named like a {expected} but holds a {doc.kind}")
        target = systems if doc.kind == "gameSystem" else catalogues
        if doc.id in target:
            raise CatalogueImportError(f"{name} and {target[doc.id].filename} have the same id {doc.id}")
        target[doc.id] = doc
        report.entries_read += sum(1 for e in doc.root.iter() if e.tag in (*_ENTRY_TAGS, "entryLink"))
    if not catalogues:
        raise CatalogueImportError("no catalogue (.cat) was given")
    used_systems: set[str] = set()
    for catalogue in catalogues.values():
        if catalogue.game_system_id not in systems:
            raise CatalogueImportError(
                f"catalogue {catalogue.name!r} needs game system {catalogue.game_system_id}, which was not given"
            )
        used_systems.add(catalogue.game_system_id)
    if len(used_systems) > 1:
        names = ", ".join(sorted(systems[s].name for s in used_systems))
        raise CatalogueImportError(f"the catalogues belong to different game systems ({names}); import them separately")
    system = systems[next(iter(used_systems))]
    for other in systems.values():
        if other is not system:
            report.warn(f"{other.filename}: game system not used by any catalogue; ignored")
    edition = edition or _edition(system.name)
    points, cost_types = _points_type(system)
    forces = _forces(system, report)

    armies: list[ImportedArmy] = []
    for catalogue in sorted(catalogues.values(), key=lambda c: c.name):
        if catalogue.library:
            continue
        libraries, missing = _library_chain(catalogue, catalogues)
        for name in missing:
            report.warn(f"{catalogue.name}: linked catalogue {name!r} was not given; its entries are missing")
        resolver = _Resolver([*libraries, system], points, cost_types, report)
        roots = _root_nodes(catalogue, resolver)
        for library in libraries[1:]:
            if any(_truthy(link.get("importRootEntries")) for link in catalogue.root.iter("catalogueLink")):
                roots.extend(_root_nodes(library, resolver))
        roots.extend(_root_nodes(system, resolver))
        national = [_clean(r.get("name")) for holder in catalogue.root.findall("rules") for r in holder]
        for holder in catalogue.root.findall("infoLinks"):
            for link in holder:
                found = resolver._find("rules", link.get("targetId", "")) if link.get("type") == "rule" else None
                if found is not None:
                    national.append(_clean(found[0].get("name")))
        armies.append(_ArmyParser(catalogue, resolver, report).parse(roots, [n for n in national if n]))

    weapons = _collect_weapons(system, list(catalogues.values()), report)
    rules = _collect_rules([system, *catalogues.values()])
    report.units = sum(len(army.units) for army in armies)
    report.weapons = len(weapons)
    report.rules = len(rules)
    return ImportedCatalogue(
        system_name=system.name,
        edition=edition,
        armies=armies,
        weapons=weapons,
        rules=rules,
        report=report,
        forces=forces,
    )


# --- force organisation ----------------------------------------------------------------------

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


def _collect_weapons(system: _Document, catalogues: list[_Document], report: ImportReport) -> list[ImportedWeapon]:
    weapons: dict[str, ImportedWeapon] = {}
    for doc in [system, *catalogues]:
        # The game system names the characteristic types that catalogue profiles refer to.
        resolver = _Resolver([doc, system], "", {}, report)
        for element in doc.root.iter("profile"):
            profile = resolver._profile(element)
            if not profile.is_weapon or not profile.name:
                continue
            weapon = ImportedWeapon(
                source_id=profile.id,
                name=profile.name,
                range=profile.get("range") or "",
                shots=profile.get("shots") or "",
                pen=profile.get("pen", "penetration", "pen value", "pv", "ap") or "",
                special_rules=_split_rules(profile.get("special rules", "rules", "special", "notes")),
            )
            known = weapons.get(profile.name)
            if known is None:
                weapons[profile.name] = weapon
            elif (known.range, known.shots, known.pen) != (weapon.range, weapon.shots, weapon.pen):
                report.warn(f"weapon {profile.name!r} is defined twice with different values; kept the first")
    return list(weapons.values())


def _collect_rules(docs: list[_Document]) -> list[ImportedRule]:
    rules: dict[str, ImportedRule] = {}
    for doc in docs:
        for element in doc.root.iter("rule"):
            name = _clean(element.get("name"))
            if not name or name in rules:
                continue
            description = element.find("description")
            text = (description.text or "").strip() if description is not None else ""
            rules[name] = ImportedRule(source_id=element.get("id", ""), name=name, description=text)
    return list(rules.values())
