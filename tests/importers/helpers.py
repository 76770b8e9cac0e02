"""Small builders shared by the importer tests."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from armydata.battlescribe import parse_battlescribe
from armydata.model import ImportedCatalogue, ImportedUnit

DATA = Path(__file__).parent / "data"
BATTLESCRIBE = DATA / "battlescribe"
BARRACKS = DATA / "barracks"


def read_battlescribe(*names: str, system: str = "system.gst") -> dict[str, bytes]:
    """The game system plus the named catalogues, as an upload would hand them over."""
    files = {system: (BATTLESCRIBE / system).read_bytes()}
    for name in names:
        files[Path(name).name] = (BATTLESCRIBE / name).read_bytes()
    return files


def parse_catalogue(name: str, system: str = "system.gst") -> ImportedCatalogue:
    return parse_battlescribe(read_battlescribe(name, system=system))


def only_unit(catalogue: ImportedCatalogue, name: str) -> ImportedUnit:
    matches = [unit for army in catalogue.armies for unit in army.units if unit.name == name]
    assert len(matches) == 1, [unit.name for army in catalogue.armies for unit in army.units]
    return matches[0]


def read_barracks() -> dict[str, bytes]:
    return {path.relative_to(BARRACKS).as_posix(): path.read_bytes() for path in BARRACKS.rglob("*.json")}


def make_zip(members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()
