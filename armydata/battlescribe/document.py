"""Reading BattleScribe files: one game system or catalogue as an XML tree with its tables
(entries, profiles, rules, categories by id), its points cost type, and the libraries it links."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from armydata.safety import CatalogueImportError, parse_xml

_ENTRY_TAGS = ("selectionEntry", "selectionEntryGroup")
_POINTS_NAME_RE = re.compile(r"^\s*(pts|points?|pt)\s*$", re.IGNORECASE)


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
