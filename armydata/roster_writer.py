"""Writing a BattleScribe/NewRecruit roster (.ros, zipped as .rosz) from plain data.

The reverse of ``roster_file``: a list of an army imported from a BattleScribe catalogue, given
as plain values (no Django), becomes the XML those tools save. Each force is a platoon, named by
the game system's force entry id; each unit selection names its catalogue entry by source id and
holds its quality choice, its models and the options taken (each by its source id).

What Muster does not keep is written as plainly as the format allows: the quality and model
choices carry Muster's own ids (the catalogue's ids for them are not kept), and the unit's whole
points sit on the unit's selection (its choices carry 0), so the roster's total is the sum of its
units as Muster counts them.
"""

from __future__ import annotations

import io
import itertools
import uuid
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element, SubElement, register_namespace, tostring

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
BATTLESCRIBE_VERSION = "2.03"
POINTS_NAME = "pts"
# The roster's namespace as the default one, as the tools write it (no "ns0:" prefixes).
register_namespace("", NAMESPACE)


@dataclass(frozen=True)
class OptionTaken:
    source_id: str
    name: str
    number: int


@dataclass(frozen=True)
class UnitTaken:
    source_id: str
    name: str
    quality: str  # "Regular", as the catalogue's quality choice is named
    quality_key: str  # "regular"
    models: int  # the models the roster lists as model selections (the unit's own men beyond those implied)
    model_name: str
    points: int
    options: tuple[OptionTaken, ...] = ()


@dataclass(frozen=True)
class ForceTaken:
    entry_id: str  # the game system's force entry (a platoon kind); empty for units outside platoons
    name: str
    units: tuple[UnitTaken, ...] = ()


@dataclass(frozen=True)
class RosterData:
    name: str
    game_system_id: str
    game_system_name: str
    game_system_revision: str
    catalogue_id: str
    catalogue_name: str
    catalogue_revision: str
    points_type_id: str
    points: int
    points_limit: int
    forces: tuple[ForceTaken, ...] = field(default_factory=tuple)


def _tag(name: str) -> str:
    return f"{{{NAMESPACE}}}{name}"


def _costs(parent: Element, type_id: str, value: float) -> None:
    costs = SubElement(parent, _tag("costs"))
    SubElement(costs, _tag("cost"), name=POINTS_NAME, typeId=type_id, value=f"{float(value):.1f}")


def _new_ids() -> Iterator[str]:
    while True:
        yield str(uuid.uuid4())


def roster_element(data: RosterData, ids: Callable[[], str] | None = None) -> Element:
    """The roster as an XML tree; ``ids`` makes each element's id (random UUIDs, as the tools write)."""
    next_id = ids or _new_ids().__next__
    root = Element(
        _tag("roster"),
        id=next_id(),
        name=data.name,
        battleScribeVersion=BATTLESCRIBE_VERSION,
        gameSystemId=data.game_system_id,
        gameSystemName=data.game_system_name,
        gameSystemRevision=data.game_system_revision or "1",
    )
    _costs(root, data.points_type_id, data.points)
    limits = SubElement(root, _tag("costLimits"))
    SubElement(
        limits, _tag("costLimit"), name=POINTS_NAME, typeId=data.points_type_id, value=f"{float(data.points_limit):.1f}"
    )
    forces = SubElement(root, _tag("forces"))
    for force in data.forces:
        holder = SubElement(
            forces,
            _tag("force"),
            id=next_id(),
            name=force.name,
            entryId=force.entry_id,
            catalogueId=data.catalogue_id,
            catalogueRevision=data.catalogue_revision or "1",
            catalogueName=data.catalogue_name,
        )
        selections = SubElement(holder, _tag("selections"))
        for unit in force.units:
            _unit(selections, unit, data.points_type_id, next_id)
    return root


def _unit(parent: Element, unit: UnitTaken, type_id: str, next_id: Callable[[], str]) -> None:
    selection = SubElement(
        parent, _tag("selection"), id=next_id(), name=unit.name, entryId=unit.source_id, number="1", type="unit"
    )
    children = SubElement(selection, _tag("selections"))
    choices: list[tuple[str, str, int, str]] = [
        (f"muster-quality-{unit.quality_key}", unit.quality, 1, "upgrade"),
    ]
    if unit.models > 0:
        # Named for the unit's own entry (the last of a link path): "::" would make it a path.
        choices.append((f"muster-model-{unit.source_id.split('::')[-1]}", unit.model_name, unit.models, "model"))
    choices.extend((option.source_id, option.name, option.number, "upgrade") for option in unit.options)
    for entry_id, name, number, kind in choices:
        child = SubElement(
            children, _tag("selection"), id=next_id(), name=name, entryId=entry_id, number=str(number), type=kind
        )
        _costs(child, type_id, 0)
    _costs(selection, type_id, unit.points)


def roster_xml(data: RosterData, ids: Callable[[], str] | None = None) -> bytes:
    body = tostring(roster_element(data, ids), encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + body).encode("utf-8")


def roster_zip(data: RosterData, member: str, ids: Callable[[], str] | None = None) -> bytes:
    """The .rosz: one .ros member named ``member``, deflated, as BattleScribe and NewRecruit save it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, roster_xml(data, ids))
    return buffer.getvalue()


def counter_ids(prefix: str = "id") -> Callable[[], str]:
    """Ids that repeat from one run to the next, for tests and stable files."""
    numbers = itertools.count(1)
    return lambda: f"{prefix}-{next(numbers)}"
