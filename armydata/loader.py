"""Gather import files from disk and hand them to the parser that fits them."""

from __future__ import annotations

import os

from .barracks import parse_barracks
from .battlescribe import parse_battlescribe
from .builder_module import parse_module, sniff_module
from .model import ImportedCatalogue
from .safety import CatalogueImportError, expand_archives, read_file

KNOWN_SUFFIXES = (".gst", ".cat", ".gstz", ".catz", ".zip", ".json")
MAX_FILES = 500
MAX_TOTAL_BYTES = 200 * 1024 * 1024
_BATTLESCRIBE_SUFFIXES = (".gst", ".cat")
_BARRACKS_NAMES = ("armies.json", "core.json")
_ARCHIVE_SUFFIXES = (".gstz", ".catz", ".zip")


def has_no_suffix(name: str) -> bool:
    """A file name without an extension ("TTAMBA-Condensed"): read it and let its content decide."""
    base = name.replace("\\", "/").split("/")[-1]
    return "." not in base.lstrip(".")


def split_modules(files: dict[str, bytes]) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """(army-builder module files, the others): a module is known by its content, whatever its name."""
    modules: dict[str, bytes] = {}
    others: dict[str, bytes] = {}
    for name, data in files.items():
        lower = name.lower()
        if not lower.endswith(_BATTLESCRIBE_SUFFIXES + _ARCHIVE_SUFFIXES) and sniff_module(name, data):
            modules[name] = data
        else:
            others[name] = data
    return modules, others


def load_paths(paths: list[str]) -> dict[str, bytes]:
    """Read files and folders into ``{name: bytes}``, unpacking archives.

    A folder contributes its files under their path relative to it (so Barracks'
    ``units/germany.json`` keeps its folder); a single file contributes its base name.
    Inside folders only the suffixes importers understand are read, and symbolic links are
    not followed, so pointing at a folder cannot pull in files from elsewhere.
    """
    files: dict[str, bytes] = {}
    total = 0

    def add(name: str, path: str) -> None:
        nonlocal total
        if name in files:
            raise CatalogueImportError(f"two files are named {name}")
        if len(files) >= MAX_FILES:
            raise CatalogueImportError(f"more than {MAX_FILES} files given; refused")
        data = read_file(path)
        total += len(data)
        if total > MAX_TOTAL_BYTES:
            raise CatalogueImportError(f"the files add up to more than {MAX_TOTAL_BYTES // (1024 * 1024)} MB")
        files[name] = data

    for path in paths:
        if os.path.isdir(path):
            for folder, subfolders, names in os.walk(path, followlinks=False):
                subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
                for filename in sorted(names):
                    full = os.path.join(folder, filename)
                    if filename.startswith(".") or os.path.islink(full):
                        continue
                    relative = os.path.relpath(full, path).replace(os.sep, "/")
                    if filename.lower().endswith(KNOWN_SUFFIXES):
                        add(relative, full)
                    elif has_no_suffix(filename) and sniff_module(relative, read_file(full)):
                        # A module file carries no extension ("TTAMBA-Condensed"); its content says what it is.
                        add(relative, full)
        elif os.path.exists(path):
            # read_file refuses anything but a regular file (a FIFO would block the command).
            add(os.path.basename(path), path)
        else:
            raise CatalogueImportError(f"{path} does not exist")
    return expand_archives(files)


def detect_format(files: dict[str, bytes]) -> str:
    if files and all(sniff_module(name, data) for name, data in files.items()):
        return "module"
    names = [name.replace("\\", "/").lower() for name in files]
    battlescribe = any(name.endswith(_BATTLESCRIBE_SUFFIXES) for name in names)
    barracks = any(name.split("/")[-1] in _BARRACKS_NAMES for name in names)
    if battlescribe and barracks:
        raise CatalogueImportError("BattleScribe and Barracks files were given together; import them separately")
    if battlescribe:
        return "battlescribe"
    if barracks:
        return "barracks"
    raise CatalogueImportError(
        "no catalogue files recognised: expected BattleScribe .gst and .cat files (or .gstz, .catz, .zip) "
        "or Barracks armies.json, core.json and units/*.json, or a Bolt Action army-builder module (JSON, "
        "any name)"
    )


def parse_any(files: dict[str, bytes]) -> ImportedCatalogue:
    """Unpack any archives among ``files``, then parse them with the matching importer."""
    expanded = expand_archives(files)
    kind = detect_format(expanded)
    if kind == "module":
        return parse_module(expanded)
    if kind == "battlescribe":
        return parse_battlescribe(expanded)
    return parse_barracks(expanded)
