"""The build stamp behind every page's ETag changes with any file a release changes, scripts included."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from armybuilder import http


@pytest.fixture
def release(tmp_path, settings):
    """A copy of the project's served files, so a test can change one as a release would."""
    root = Path(settings.BASE_DIR)
    for folder in ("static", "templates"):
        shutil.copytree(root / folder, tmp_path / folder)
    (tmp_path / "armybuilder").mkdir()
    (tmp_path / "armybuilder" / "views.py").write_text("# code\n")
    settings.BASE_DIR = tmp_path
    http.build_stamp.cache_clear()
    yield tmp_path
    http.build_stamp.cache_clear()


def _changed(path: Path) -> None:
    path.write_bytes(path.read_bytes() + b"\n")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000_000))


@pytest.mark.parametrize(
    "changed",
    [
        "static/js/builder.js",
        "static/site/sw.js",
        "static/css/muster.css",
        "templates/base.html",
        "armybuilder/views.py",
    ],
)
def test_a_release_that_changes_one_file_gets_a_new_stamp(release, changed):
    before = http.build_stamp()
    http.build_stamp.cache_clear()
    _changed(release / changed)
    assert http.build_stamp() != before


def test_the_stamp_is_read_once_per_process(release):
    before = http.build_stamp()
    _changed(release / "static/js/builder.js")
    assert http.build_stamp() == before  # cached: a running process serves one release
