"""Reading files from disk and picking the parser."""

from __future__ import annotations

import shutil

import pytest

from armydata.loader import load_paths, parse_any
from armydata.safety import CatalogueImportError
from tests.importers.helpers import BARRACKS, BATTLESCRIBE, make_zip, read_battlescribe


def test_it_walks_a_folder_keeping_relative_paths():
    files = load_paths([str(BARRACKS)])
    assert sorted(files) == ["armies.json", "core.json", "units/testland.json"]


def test_it_expands_archives_found_on_disk(tmp_path):
    archive = tmp_path / "upload.zip"
    archive.write_bytes(make_zip(read_battlescribe("rating.cat")))
    assert sorted(load_paths([str(archive)])) == ["rating.cat", "system.gst"]


def test_it_does_not_follow_symbolic_links_in_a_folder(tmp_path):
    shutil.copy(BATTLESCRIBE / "rating.cat", tmp_path / "rating.cat")
    (tmp_path / "elsewhere.cat").symlink_to(BATTLESCRIBE / "links.cat")
    assert list(load_paths([str(tmp_path)])) == ["rating.cat"]


def test_it_refuses_a_path_that_does_not_exist(tmp_path):
    with pytest.raises(CatalogueImportError, match="does not exist"):
        load_paths([str(tmp_path / "missing.cat")])


def test_it_parses_battlescribe_from_a_zip():
    catalogue = parse_any({"upload.zip": make_zip(read_battlescribe("rating.cat"))})
    assert [army.name for army in catalogue.armies] == ["Rating Test"]


def test_it_parses_barracks_from_a_folder():
    catalogue = parse_any(load_paths([str(BARRACKS)]))
    assert catalogue.system_name == "Bolt Action 2nd Edition (Barracks)"


def test_it_refuses_mixed_formats():
    files = {**read_battlescribe("rating.cat"), **load_paths([str(BARRACKS)])}
    with pytest.raises(CatalogueImportError, match="separately"):
        parse_any(files)


def test_it_refuses_files_it_does_not_recognise():
    with pytest.raises(CatalogueImportError, match="no catalogue files recognised"):
        parse_any({"notes.txt": b"hello"})
