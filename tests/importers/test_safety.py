"""Hostile input: oversized files, zip bombs, path tricks, broken XML and JSON."""

from __future__ import annotations

import io
import zipfile

import pytest

from armydata import safety
from armydata.loader import parse_any
from armydata.safety import CatalogueImportError, expand_archive, expand_archives, parse_json, read_file
from tests.importers.helpers import make_zip, read_battlescribe

OVER_LIMIT = safety.MAX_FILE_BYTES + 1


def test_it_refuses_an_uploaded_file_over_20_mb():
    files = {**read_battlescribe(), "huge.cat": b" " * OVER_LIMIT}
    with pytest.raises(CatalogueImportError, match="huge.cat is larger than 20 MB"):
        parse_any(files)


def test_it_stops_reading_a_file_on_disk_past_20_mb(tmp_path):
    path = tmp_path / "huge.cat"
    with path.open("wb") as handle:
        handle.truncate(OVER_LIMIT)
    with pytest.raises(CatalogueImportError, match="larger than 20 MB"):
        read_file(str(path))


def test_it_unpacks_a_catz_archive():
    assert expand_archives({"army.catz": make_zip({"Army.cat": b"<catalogue/>"})}) == {"Army.cat": b"<catalogue/>"}


def test_it_unpacks_catz_archives_inside_a_zip():
    outer = make_zip({"army.catz": make_zip({"Army.cat": b"<c/>"}), "system.gst": b"<g/>"})
    assert expand_archive("upload.zip", outer) == {"Army.cat": b"<c/>", "system.gst": b"<g/>"}


def test_it_refuses_archives_nested_deeper():
    innermost = make_zip({"Army.cat": b"<c/>"})
    outer = make_zip({"inner.zip": make_zip({"army.catz": innermost})})
    with pytest.raises(CatalogueImportError, match="nested too deep"):
        expand_archive("upload.zip", outer)


@pytest.mark.parametrize("name", ["../escape.cat", "data/../../escape.cat", "..\\escape.cat"])
def test_it_refuses_a_member_that_climbs_out_of_the_archive(name):
    with pytest.raises(CatalogueImportError, match="climbs out of the archive"):
        expand_archive("upload.zip", make_zip({name: b"<c/>"}))


@pytest.mark.parametrize("name", ["/etc/escape.cat", "C:/escape.cat"])
def test_it_refuses_an_absolute_member_path(name):
    with pytest.raises(CatalogueImportError, match="absolute path"):
        expand_archive("upload.zip", make_zip({name: b"<c/>"}))


def test_it_refuses_a_symbolic_link_member():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        link = zipfile.ZipInfo("link.cat")
        link.external_attr = 0o120777 << 16
        archive.writestr(link, "/etc/passwd")
    with pytest.raises(CatalogueImportError, match="symbolic link"):
        expand_archive("upload.zip", buffer.getvalue())


def test_it_refuses_a_zip_bomb_by_its_compression_ratio():
    # 8 MB of zeros deflate to a few kilobytes: far past 100 to 1, though under the size limits.
    bomb = make_zip({"bomb.cat": bytes(8 * 1024 * 1024)})
    with pytest.raises(CatalogueImportError, match="possible zip bomb"):
        expand_archive("bomb.zip", bomb)


def test_it_counts_the_bytes_it_unpacks_rather_than_the_headers(monkeypatch):
    monkeypatch.setattr(safety, "MAX_ARCHIVE_TOTAL_BYTES", 1000)
    members = {f"part{i}.cat": bytes(400) for i in range(3)}
    with pytest.raises(CatalogueImportError, match="in total; refused as a possible zip bomb"):
        expand_archive("parts.zip", make_zip(members, compression=zipfile.ZIP_STORED))


def test_it_refuses_a_member_over_20_mb_once_unpacked():
    huge = make_zip({"huge.cat": bytes(OVER_LIMIT)})
    with pytest.raises(CatalogueImportError, match="the limit per file"):
        expand_archive("huge.zip", huge)


def test_it_limits_the_number_of_members(monkeypatch):
    monkeypatch.setattr(safety, "MAX_ARCHIVE_MEMBERS", 3)
    with pytest.raises(CatalogueImportError, match="more than 3 files"):
        expand_archive("many.zip", make_zip({f"{i}.cat": b"" for i in range(4)}))


def test_it_refuses_a_broken_archive():
    with pytest.raises(CatalogueImportError, match="not a valid zip archive"):
        expand_archive("broken.catz", b"PK\x03\x04 not really a zip")


def test_it_reports_malformed_json_with_line_and_column():
    with pytest.raises(CatalogueImportError, match=r"core.json is not valid JSON: .* \(line 3, column 5\)"):
        parse_json("core.json", b'{\n  "a": 1,\n    oops\n}')


def test_it_refuses_json_that_is_not_utf8():
    with pytest.raises(CatalogueImportError, match="not UTF-8"):
        parse_json("armies.json", b'{"name": "\xff"}')


def test_a_file_of_countless_tiny_elements_is_refused_early():
    # 19 MB of "<a/>": under the byte limit, but millions of elements; refused at the element limit.
    data = b"<catalogue>" + b"<a/>" * (19 * 1024 * 1024 // 4) + b"</catalogue>"
    with pytest.raises(CatalogueImportError, match="more than 400,000 XML elements"):
        safety.parse_xml("tiny.cat", data)
