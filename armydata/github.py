"""Fetch a community data repository from GitHub as one zip archive, and keep its catalogue files.

``OWNER/REPO[@REF]`` names the repository (REF: a branch, tag or commit; the default branch
when left out). The archive is downloaded over HTTPS from a base URL the caller gives (the
Django setting ``CATALOGUE_GITHUB_ARCHIVE_URL``; tests serve a local archive over plain HTTP,
which only their ``allow_loopback_http`` accepts), read in chunks
and refused as soon as it passes the size limit, then unpacked with the same guards as an
upload (member count, sizes, compression ratio, paths). Only BattleScribe files are kept, or,
in a repository with none, the Barracks data folder (``armies.json``, ``core.json``, ``units/``).
The commit the archive was made from is read from the zip's comment, where GitHub writes it.
"""

from __future__ import annotations

import io
import re
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, replace

from .builder_module import sniff_module
from .safety import CatalogueImportError, expand_archive

DEFAULT_ARCHIVE_URL = "https://codeload.github.com/{owner}/{repo}/zip/{ref}"
MAX_DOWNLOAD_BYTES = 50 * 1024 * 1024
TIMEOUT_SECONDS = 60
CATALOGUE_SUFFIXES = (".gst", ".cat", ".gstz", ".catz")
_CHUNK = 256 * 1024
_NAME_RE = re.compile(r"^(?P<owner>[A-Za-z0-9][A-Za-z0-9-]{0,38})/(?P<repo>[A-Za-z0-9._-]{1,100})(?:@(?P<ref>.+))?$")
_REF_RE = re.compile(r"^[A-Za-z0-9._/-]{1,200}$")
_LOOPBACK = ("127.0.0.1", "localhost", "::1")
_BARRACKS_RE = re.compile(r"(^|/)(armies\.json|core\.json|units/[^/]+\.json)$", re.IGNORECASE)
_COMMIT_RE = re.compile(rb"^[0-9a-f]{40}$")


@dataclass(frozen=True)
class Repository:
    owner: str
    repo: str
    ref: str  # "HEAD" for the default branch
    commit: str = ""  # the commit the downloaded archive holds, when the archive says

    @property
    def label(self) -> str:
        return f"{self.owner}/{self.repo}" + ("" if self.ref == "HEAD" else f"@{self.ref}")


def parse_repository(text: str) -> Repository:
    """``OWNER/REPO`` or ``OWNER/REPO@REF``, checked so nothing but a repository can be named."""
    match = _NAME_RE.match(text.strip())
    if match is None or match.group("repo") in (".", ".."):
        raise CatalogueImportError(f"{text!r} is not a GitHub repository: write OWNER/REPO or OWNER/REPO@REF")
    ref = match.group("ref") or "HEAD"
    if not _REF_RE.match(ref) or ".." in ref.split("/") or ref.startswith("/"):
        raise CatalogueImportError(f"{ref!r} is not a branch, tag or commit name")
    return Repository(match.group("owner"), match.group("repo"), ref)


def _allowed(url: str, allow_loopback_http: bool) -> bool:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "https":
        return True
    # Plain HTTP only to the loopback interface, and only where the caller allows it: the tests
    # serve archives there. In production a redirect to http://127.0.0.1 must not be followed.
    return allow_loopback_http and parts.scheme == "http" and parts.hostname in _LOOPBACK


def archive_url(
    repository: Repository, template: str = DEFAULT_ARCHIVE_URL, *, allow_loopback_http: bool = False
) -> str:
    url = template.format(
        owner=urllib.parse.quote(repository.owner),
        repo=urllib.parse.quote(repository.repo),
        ref=urllib.parse.quote(repository.ref, safe="/"),
    )
    if not _allowed(url, allow_loopback_http):
        raise CatalogueImportError(f"the archive address {url} is not HTTPS; refused")
    return url


class _HttpsOnlyRedirects(urllib.request.HTTPRedirectHandler):
    def __init__(self, allow_loopback_http: bool = False) -> None:
        super().__init__()
        self.allow_loopback_http = allow_loopback_http

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        if not _allowed(newurl, self.allow_loopback_http):
            raise CatalogueImportError(f"the download was redirected to {newurl}, which is not HTTPS; refused")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


Progress = Callable[[int, int | None], None]
"""Called as ``progress(bytes_so_far, bytes_expected_or_None)`` while downloading."""


def download(
    url: str, *, limit: int | None = None, progress: Progress | None = None, allow_loopback_http: bool = False
) -> bytes:
    """The body at ``url``, refused once it passes ``limit`` bytes (whatever Content-Length says).

    Redirects are followed to HTTPS addresses only (``allow_loopback_http``: and to plain HTTP on
    the loopback interface, for tests)."""
    limit = MAX_DOWNLOAD_BYTES if limit is None else limit
    opener = urllib.request.build_opener(_HttpsOnlyRedirects(allow_loopback_http))
    request = urllib.request.Request(url, headers={"User-Agent": "Muster catalogue import"})
    chunks: list[bytes] = []
    received = 0
    try:
        with opener.open(request, timeout=TIMEOUT_SECONDS) as response:
            length = response.headers.get("Content-Length")
            expected = int(length) if length and length.isdigit() else None
            if expected is not None and expected > limit:
                raise CatalogueImportError(f"the archive is larger than {limit // (1024 * 1024)} MB; refused")
            while chunk := response.read(_CHUNK):
                received += len(chunk)
                if received > limit:
                    raise CatalogueImportError(f"the archive is larger than {limit // (1024 * 1024)} MB; refused")
                chunks.append(chunk)
                if progress is not None:
                    progress(received, expected)
    except urllib.error.HTTPError as exc:
        reason = "not found (check the owner, repository and branch)" if exc.code == 404 else f"HTTP {exc.code}"
        raise CatalogueImportError(f"cannot download {url}: {reason}") from exc
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise CatalogueImportError(f"cannot download {url}: {reason}") from exc
    return b"".join(chunks)


def catalogue_files(repository: Repository, archive: bytes) -> dict[str, bytes]:
    """The BattleScribe files of a repository archive, named by their path inside the repository.

    GitHub puts everything under one ``REPO-REF/`` folder; it is dropped. Other files (read-me
    files, images, workflows) are not unpacked at all.
    """
    members = expand_archive(f"{repository.label}.zip", archive, keep=_maybe_catalogue)
    files: dict[str, bytes] = {}
    for name, data in members.items():
        inside = name.split("/", 1)[1] if "/" in name else name
        files[inside] = data
    # BattleScribe files, and army-builder modules (a .json or extensionless member whose content is one).
    found = {
        name: data
        for name, data in files.items()
        if name.lower().endswith(CATALOGUE_SUFFIXES) or sniff_module(name, data)
    }
    if found:
        return found
    barracks = _barracks_folder(files)
    if not barracks:
        raise CatalogueImportError(
            f"{repository.label} holds no BattleScribe files (.gst, .cat, .gstz, .catz), no army-builder module "
            "and no Barracks data (armies.json, core.json, units/*.json)"
        )
    return barracks


def _barracks_folder(files: dict[str, bytes]) -> dict[str, bytes]:
    """The JSON of the folder that holds ``armies.json`` (a Barracks app keeps its data in one folder)."""
    folders = sorted(name[: -len("armies.json")] for name in files if name.lower().rsplit("/", 1)[-1] == "armies.json")
    if not folders:
        return {}
    # The shallowest data folder: a copy deeper in the tree (a test fixture, a build) is left alone.
    folder = min(folders, key=lambda path: (path.count("/"), path))
    return {name: data for name, data in files.items() if name.startswith(folder) and _BARRACKS_RE.search(name)}


def archive_commit(archive: bytes) -> str:
    """The commit id GitHub writes as the zip's comment, or "" when the archive has none."""
    try:
        with zipfile.ZipFile(io.BytesIO(archive)) as zf:
            comment = zf.comment.strip()
    except (zipfile.BadZipFile, OSError, ValueError):
        return ""
    return comment.decode("ascii") if _COMMIT_RE.match(comment) else ""


def _maybe_catalogue(name: str) -> bool:
    """Members worth unpacking: BattleScribe files, and JSON or extensionless files that may be a module
    (the module ``TTAMBA-Condensed`` has no extension); their content decides, each bounded like any file."""
    lower = name.lower()
    base = lower.rsplit("/", 1)[-1]
    return lower.endswith(CATALOGUE_SUFFIXES) or lower.endswith(".json") or ("." not in base.lstrip(".") and bool(base))


def fetch_repository(
    text: str,
    *,
    url_template: str = DEFAULT_ARCHIVE_URL,
    progress: Progress | None = None,
    allow_loopback_http: bool = False,
) -> tuple[Repository, dict[str, bytes]]:
    """Download ``OWNER/REPO[@REF]`` and return it (with the commit downloaded) and its catalogue files.

    ``allow_loopback_http`` (tests only) accepts plain HTTP on the loopback interface."""
    repository = parse_repository(text)
    url = archive_url(repository, url_template, allow_loopback_http=allow_loopback_http)
    archive = download(url, progress=progress, allow_loopback_http=allow_loopback_http)
    files = catalogue_files(repository, archive)
    return replace(repository, commit=archive_commit(archive)), files
