"""BattleScribe and NewRecruit rosters (.ros, or .rosz: the same zipped) as plain data.

A roster is what a player built: forces (one per platoon, plus settings), each holding a tree of
selections. Each selection names the entry it was taken from by ``entryId``; an entry reached
through a link carries the whole path, ``link-id::target-id``, so either id can be matched
against an imported catalogue. Reading is bounded and defused like catalogue files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from .safety import CatalogueImportError, expand_archive, is_archive, parse_xml

ROSTER_SUFFIXES = (".ros", ".rosz")
_POINTS_RE = re.compile(r"^\s*(pts|points?|pt)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class RosterSelection:
    name: str
    entry_ids: tuple[str, ...]  # the entry path, outermost link first
    type: str  # "unit", "model", "upgrade" or ""
    number: int
    points: float  # this selection's own points (BattleScribe writes the total for all ``number``)
    children: tuple[RosterSelection, ...] = ()
    # The category names the tool filed it under, primary first ("Rifle Platoon", "Infantry"):
    # data with one force for the whole army says the platoon this way.
    categories: tuple[str, ...] = ()


@dataclass(frozen=True)
class RosterForce:
    name: str
    entry_id: str
    catalogue_id: str
    catalogue_name: str
    selections: tuple[RosterSelection, ...] = ()
    forces: tuple[RosterForce, ...] = ()


@dataclass(frozen=True)
class Roster:
    name: str
    game_system_id: str
    game_system_name: str
    points: float | None  # the roster's own total, as the tool that wrote it counted
    points_limit: float | None
    forces: tuple[RosterForce, ...] = field(default_factory=tuple)

    def all_forces(self) -> list[RosterForce]:
        found: list[RosterForce] = []
        pending = list(self.forces)
        while pending:
            force = pending.pop(0)
            found.append(force)
            pending[:0] = force.forces
        return found


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


def _number(text: str | None, default: float = 0.0) -> float:
    try:
        value = float(text) if text not in (None, "") else default
    except ValueError:
        return default
    return value if value == value and abs(value) != float("inf") else default


def _points(element: Element, tag: str = "costs", child: str = "cost") -> float | None:
    holder = element.find(tag)
    if holder is None:
        return None
    costs = [c for c in holder if c.tag == child]
    named = [c for c in costs if _POINTS_RE.match(c.get("name", ""))]
    chosen = named or (costs if len(costs) == 1 else [])
    return _number(chosen[0].get("value")) if chosen else None


def _selection(element: Element, depth: int) -> RosterSelection:
    if depth > 60:
        raise CatalogueImportError("the roster's selections nest more than 60 levels deep")
    holder = element.find("selections")
    children = tuple(_selection(s, depth + 1) for s in (holder if holder is not None else ()) if s.tag == "selection")
    ids = tuple(part for part in (element.get("entryId") or "").split("::") if part)
    found = element.find("categories")
    categories = sorted(
        (c for c in (found if found is not None else ()) if c.tag == "category" and _clean(c.get("name"))),
        key=lambda c: (c.get("primary") or "").strip().lower() != "true",
    )
    return RosterSelection(
        name=_clean(element.get("name")),
        entry_ids=ids,
        type=element.get("type", ""),
        number=max(int(_number(element.get("number"), 1)), 0),
        points=_points(element) or 0.0,
        children=children,
        categories=tuple(_clean(c.get("name")) for c in categories),
    )


def _force(element: Element, depth: int) -> RosterForce:
    if depth > 10:
        raise CatalogueImportError("the roster's forces nest more than 10 levels deep")
    selections = element.find("selections")
    forces = element.find("forces")
    return RosterForce(
        name=_clean(element.get("name")),
        entry_id=element.get("entryId", ""),
        catalogue_id=element.get("catalogueId", ""),
        catalogue_name=_clean(element.get("catalogueName")),
        selections=tuple(
            _selection(s, 0) for s in (selections if selections is not None else ()) if s.tag == "selection"
        ),
        forces=tuple(_force(f, depth + 1) for f in (forces if forces is not None else ()) if f.tag == "force"),
    )


def roster_xml(name: str, data: bytes) -> tuple[str, bytes]:
    """The .ros inside a .rosz (or the .ros itself), by name and bytes."""
    if not is_archive(name) and not name.lower().endswith(".rosz"):
        return name, data
    members = expand_archive(name, data, keep=lambda member: member.lower().endswith(".ros"))
    if len(members) != 1:
        raise CatalogueImportError(f"{name} should hold one .ros roster; it holds {len(members)}")
    return next(iter(members.items()))


def parse_roster(name: str, data: bytes) -> Roster:
    """Read a .ros or .rosz roster; raises ``CatalogueImportError`` with a reason a player can act on."""
    if not name.lower().endswith(ROSTER_SUFFIXES):
        raise CatalogueImportError(f"{name} is not a BattleScribe or NewRecruit roster (.ros or .rosz)")
    inner_name, xml = roster_xml(name, data)
    root = parse_xml(inner_name, xml)
    for element in root.iter():
        if isinstance(element.tag, str) and "}" in element.tag:
            element.tag = element.tag.split("}", 1)[1]
    if root.tag != "roster":
        raise CatalogueImportError(f"{inner_name} is not a roster (its root is <{root.tag}>)")
    forces = root.find("forces")
    return Roster(
        name=_clean(root.get("name")) or "Imported roster",
        game_system_id=root.get("gameSystemId", ""),
        game_system_name=_clean(root.get("gameSystemName")),
        points=_points(root),
        points_limit=_points(root, "costLimits", "costLimit"),
        forces=tuple(_force(f, 0) for f in (forces if forces is not None else ()) if f.tag == "force"),
    )
