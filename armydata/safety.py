"""Defensive reading of untrusted uploads: size limits, zip archives, XML and JSON.

Everything here treats input as hostile. Archives are expanded in memory only, and their
limits are checked against the bytes actually decompressed, because a zip's headers can lie
about sizes. XML goes through defusedxml with DOCTYPEs refused outright: BattleScribe files
never need one, and refusing it stops entity expansion ("billion laughs") and external
entities before they start.
"""

from __future__ import annotations

import io
import os
import stat
import zipfile
from collections.abc import Callable
from xml.etree.ElementTree import Element, ParseError

from defusedxml import ElementTree as SafeElementTree
from defusedxml.common import DefusedXmlException

from . import untrusted

MAX_FILE_BYTES = 20 * 1024 * 1024
# A large community catalogue holds some tens of thousands of elements; this leaves ample room
# and bounds the memory a parsed file can take (a few hundred bytes per element).
MAX_XML_ELEMENTS = 400_000
MAX_ARCHIVE_MEMBERS = 500
MAX_REPOSITORY_MEMBERS = 20_000
MAX_ARCHIVE_TOTAL_BYTES = 100 * 1024 * 1024
MAX_COMPRESSION_RATIO = 100
# Small members compress unevenly (a run of blank lines squeezes very well), so the ratio
# test only starts once a member has produced this much output.
RATIO_CHECK_FLOOR = 1024 * 1024
# A .zip may hold .catz files, which are zips themselves; anything deeper is refused.
MAX_ARCHIVE_DEPTH = 2
ARCHIVE_SUFFIXES = (".zip", ".gstz", ".catz")

_CHUNK = 64 * 1024


class CatalogueImportError(Exception):
    """A file cannot be imported; the message is written for the person who uploaded it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.0f} MB"


def check_size(name: str, data: bytes) -> None:
    if len(data) > MAX_FILE_BYTES:
        raise CatalogueImportError(f"{name} is larger than {_megabytes(MAX_FILE_BYTES)}, the limit per file")


def read_file(path: str) -> bytes:
    """Read a regular file from disk, refusing it as soon as it exceeds the per-file limit.

    A FIFO, socket or device is refused before anything is read: reading one could block the
    command forever or never end. The file is opened without blocking and checked through its
    open descriptor, so it cannot be swapped for something else in between.
    """
    name = os.path.basename(path)
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise CatalogueImportError(f"cannot read {name}: {exc.strerror or exc}") from exc
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise CatalogueImportError(f"{name} is not a regular file (a pipe, socket or device); refused")
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            # Read one byte past the limit rather than trusting stat(): the file may grow.
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise CatalogueImportError(f"cannot read {name}: {exc.strerror or exc}") from exc
    finally:
        os.close(descriptor)
    check_size(name, data)
    return data


def is_archive(name: str) -> bool:
    return name.lower().endswith(ARCHIVE_SUFFIXES)


def _safe_member_name(archive: str, raw: str) -> str:
    name = raw.replace("\\", "/")
    if "\x00" in name:
        raise CatalogueImportError(f"{archive} contains a file name with a NUL character")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise CatalogueImportError(f"{archive} contains an absolute path ({raw!r}); refused")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise CatalogueImportError(f"{archive} contains a path that climbs out of the archive ({raw!r}); refused")
    return "/".join(parts)


def _read_member(archive: str, zf: zipfile.ZipFile, info: zipfile.ZipInfo, budget: list[int]) -> bytes:
    if info.file_size > MAX_FILE_BYTES:
        raise CatalogueImportError(
            f"{archive}: {info.filename} would unpack to more than {_megabytes(MAX_FILE_BYTES)}, the limit per file"
        )
    out = io.BytesIO()
    size = 0
    compressed = max(info.compress_size, 1)
    try:
        with zf.open(info) as member:
            while chunk := member.read(_CHUNK):
                size += len(chunk)
                budget[0] += len(chunk)
                if size > MAX_FILE_BYTES:
                    raise CatalogueImportError(
                        f"{archive}: {info.filename} unpacks to more than {_megabytes(MAX_FILE_BYTES)}, "
                        "the limit per file"
                    )
                if budget[0] > MAX_ARCHIVE_TOTAL_BYTES:
                    raise CatalogueImportError(
                        f"{archive} unpacks to more than {_megabytes(MAX_ARCHIVE_TOTAL_BYTES)} in total; "
                        "refused as a possible zip bomb"
                    )
                if size > RATIO_CHECK_FLOOR and size > compressed * MAX_COMPRESSION_RATIO:
                    raise CatalogueImportError(
                        f"{archive}: {info.filename} is compressed more than {MAX_COMPRESSION_RATIO} to 1; "
                        "refused as a possible zip bomb"
                    )
                out.write(chunk)
    except (zipfile.BadZipFile, EOFError, OSError, NotImplementedError, RuntimeError) as exc:
        raise CatalogueImportError(f"{archive}: cannot unpack {info.filename}: {exc}") from exc
    return out.getvalue()


def expand_archive(
    name: str,
    data: bytes,
    depth: int = 0,
    budget: list[int] | None = None,
    keep: Callable[[str], bool] | None = None,
) -> dict[str, bytes]:
    """Unpack a .zip, .gstz or .catz held in memory; nested archives are unpacked in turn.

    ``keep`` picks the members worth reading by name; the others are never decompressed (a
    repository archive's images and read-me files). Every path is checked all the same.
    """
    check_size(name, data)
    budget = budget if budget is not None else [0]
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise CatalogueImportError(f"{name} is not a valid zip archive") from exc
    with zf:
        infos = zf.infolist()
        # A repository archive (``keep`` given) may hold many files that are never read; only
        # the ones kept count toward the usual limit, under a looser bound on the whole archive.
        limit = MAX_REPOSITORY_MEMBERS if keep is not None else MAX_ARCHIVE_MEMBERS
        if len(infos) > limit:
            raise CatalogueImportError(f"{name} holds more than {limit} files; refused")
        if keep is not None and sum(1 for info in infos if keep(info.filename)) > MAX_ARCHIVE_MEMBERS:
            raise CatalogueImportError(f"{name} holds more than {MAX_ARCHIVE_MEMBERS} catalogue files; refused")
        files: dict[str, bytes] = {}
        for info in infos:
            member = _safe_member_name(name, info.filename)
            if info.is_dir() or not member:
                continue
            if stat.S_ISLNK(info.external_attr >> 16):
                raise CatalogueImportError(f"{name} contains a symbolic link ({info.filename}); refused")
            if keep is not None and not keep(member):
                continue
            if info.flag_bits & 0x1:
                raise CatalogueImportError(f"{name}: {info.filename} is encrypted; refused")
            content = _read_member(name, zf, info, budget)
            if is_archive(member):
                if depth + 1 >= MAX_ARCHIVE_DEPTH:
                    raise CatalogueImportError(f"{name}: archives nested too deep ({member}); refused")
                inner = expand_archive(f"{name}/{member}", content, depth + 1, budget)
                _merge(files, inner, name)
            else:
                _merge(files, {member: content}, name)
        return files


def _merge(into: dict[str, bytes], new: dict[str, bytes], source: str) -> None:
    for key, value in new.items():
        if key in into:
            raise CatalogueImportError(f"{source}: two files are named {key}")
        into[key] = value


def expand_archives(files: dict[str, bytes]) -> dict[str, bytes]:
    """Replace every archive in ``files`` by its members; plain files pass through."""
    out: dict[str, bytes] = {}
    budget = [0]
    for name, data in files.items():
        check_size(name, data)
        if is_archive(name):
            _merge(out, expand_archive(name, data, budget=budget), name)
        else:
            _merge(out, {name: data}, name)
    return out


def parse_xml(name: str, data: bytes) -> Element:
    """Parse XML incrementally, refusing it once it holds more than ``MAX_XML_ELEMENTS`` elements.

    The byte limit alone does not bound memory: 20 MB of ``<a/>`` is millions of elements, each
    far larger in memory than in the file. Counting elements as the parser meets them stops such
    a file early, with memory bounded by the element limit.
    """
    check_size(name, data)
    try:
        root: Element | None = None
        events = SafeElementTree.iterparse(
            io.BytesIO(data), events=("start",), forbid_dtd=True, forbid_entities=True, forbid_external=True
        )
        for count, (_event, element) in enumerate(events, start=1):
            if root is None:
                root = element
            if count > MAX_XML_ELEMENTS:
                raise CatalogueImportError(
                    f"{name} holds more than {MAX_XML_ELEMENTS:,} XML elements, far more than any army list; refused"
                )
        if root is None:
            raise ParseError("no element found")
        return root
    except DefusedXmlException as exc:
        raise CatalogueImportError(
            f"{name}: XML entity declarations are not allowed (the file declares a DOCTYPE, "
            "entities or external references)"
        ) from exc
    except ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        reason = str(exc).split(":")[0]
        raise CatalogueImportError(
            f"{name} is not well-formed XML: {reason} (line {line}, column {column + 1})"
        ) from exc


def parse_json(name: str, data: bytes) -> object:
    check_size(name, data)
    try:
        return untrusted.loads(data)
    except untrusted.UntrustedInput as exc:
        # Too deep, numbers too long, control characters or lone surrogates (which no database
        # stores) are refused here, with the rest of the file's faults.
        if exc.syntax is not None:
            error = exc.syntax
            message = f"is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        else:
            message = exc.message.rstrip(".")
        where = "" if exc.field == "body" else f" at {exc.field}"
        raise CatalogueImportError(f"{name}{where} {message}") from None
