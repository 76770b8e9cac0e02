"""The entry point: game systems and catalogues given as bytes, read into one imported catalogue."""

from __future__ import annotations

from armydata.editions import edition_of
from armydata.model import ImportedArmy, ImportedCatalogue, ImportReport
from armydata.safety import CatalogueImportError

from .document import _ENTRY_TAGS, _clean, _Document, _library_chain, _load, _points_type, _truthy
from .forces import _forces
from .links import _Resolver, _root_nodes
from .reference import _collect_rules, _collect_weapons
from .units import _ArmyParser


def _edition(system_name: str) -> str:
    edition = edition_of(system_name)
    if edition is None:
        raise CatalogueImportError(
            f"game system {system_name!r} is not recognisable as Bolt Action 2nd or 3rd edition; "
            "say which it is with --edition v2 or --edition v3 (on the import page: the Edition field)"
        )
    return edition


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
        system_id=system.id,
        system_revision=system.root.get("revision", ""),
        points_type_id=points,
    )
