"""Following BattleScribe's links: entries of a catalogue, its libraries and its game system
turned into one tree of nodes per root entry (a link re-prices or re-categorises its target)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from xml.etree.ElementTree import Element

from armydata.model import ImportReport
from armydata.safety import CatalogueImportError

from .document import _ENTRY_TAGS, _clean, _Document, _float, _truthy
from .tree import (
    MAX_DEPTH,
    _and,
    _condition_group_of,
    _ConditionGroup,
    _Constraint,
    _constraint,
    _Modifier,
    _Node,
    _Profile,
    _Repeat,
    _repeats_of,
)

_IGNORED_TAGS = frozenset({"description", "comment", "readme", "publications", "alias"})


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
