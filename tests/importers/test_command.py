"""``manage.py import_catalogue``: the summary, ``--dry-run``, the progress bar and refused input."""

from __future__ import annotations

import io
import shutil
from unittest import mock

import pytest
from django.core.management import call_command, execute_from_command_line
from django.db import connections

from armybuilder.catalogue.models import Army, Unit
from armybuilder.importers.management.commands.import_catalogue import ProgressBar
from armybuilder.reference.models import SpecialRule, Weapon
from armydata import safety
from tests.importers.helpers import BARRACKS, BATTLESCRIBE, make_zip, read_battlescribe
from tests.importers.test_bs3 import BS3
from tests.importers.test_writer import make_chart

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def chart():
    make_chart()


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_catalogue", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def run_from_shell(capsys, *args: str) -> tuple[int, str]:
    """Run as ``manage.py`` would: the exit code and what went to stderr."""
    code = 0
    # manage.py closes every database connection when a command ends; inside a test that would
    # close the test's own transaction (PostgreSQL), so connections stay open here.
    with mock.patch.object(connections, "close_all"):
        try:
            execute_from_command_line(["manage.py", "import_catalogue", *args])
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, capsys.readouterr().err


def nothing_written() -> bool:
    return (Army.objects.count(), Unit.objects.count(), Weapon.objects.count(), SpecialRule.objects.count()) == (
        0,
        0,
        2,
        1,
    )


# the summary


def test_it_prints_a_summary_of_what_it_imported():
    out, _err = run(str(BARRACKS))
    assert "  Armies: 2 (2 created, 0 updated, 0 unchanged)" in out
    assert "  Units: 6 (6 created, 0 updated, 0 unchanged); 0 gone from the data, marked removed" in out
    assert out.endswith("Import complete.\n")


def test_it_counts_weapons_and_rules_in_the_summary():
    out, _err = run(str(BARRACKS))
    assert "  Weapons: 5 (2 matched to the v2 weapons chart, 3 created)" in out
    assert "  Rules: 7 (1 matched to the v2 special rules, 6 created)" in out


def test_it_says_which_entries_it_skipped_and_why():
    out, _err = run(str(BATTLESCRIBE / "system.gst"), str(BATTLESCRIBE / "army.cat"))
    assert "  Skipped 1 entry:\n    - Points Adjuster (u-adjuster): utility entry" in out


def test_it_imports_a_zip_archive(tmp_path):
    archive = tmp_path / "upload.zip"
    archive.write_bytes(make_zip(read_battlescribe("rating.cat")))
    run(str(archive))
    assert Unit.objects.get().name == "Second Lieutenant"


def test_it_imports_battlescribe_and_barracks_in_one_run():
    out, _err = run(str(BATTLESCRIBE / "system.gst"), str(BATTLESCRIBE / "rating.cat"), str(BARRACKS))
    assert Army.objects.count() == 3
    assert out.count("Armies: ") == 2


def test_it_imports_into_the_edition_given(tmp_path):
    system = (BATTLESCRIBE / "system.gst").read_bytes().replace(b"Bolt Action 2nd Edition (test)", b"Skirmish")
    (tmp_path / "system.gst").write_bytes(system)
    shutil.copy(BATTLESCRIBE / "rating.cat", tmp_path)
    run(str(tmp_path), "--edition", "v2")
    assert Army.objects.get().edition.slug == "v2"


# --dry-run


def test_it_writes_nothing_on_a_dry_run():
    run(str(BARRACKS), "--dry-run")
    assert nothing_written()


def test_it_prints_the_same_summary_on_a_dry_run():
    dry, _err = run(str(BARRACKS), "--dry-run")
    real, _err = run(str(BARRACKS))
    assert dry.replace("Dry run: the data was checked and nothing was written.", "Import complete.") == real


# progress


def test_it_shows_progress_on_stderr_without_a_terminal():
    _out, err = run(str(BARRACKS))
    assert "[0/6 units, 0%] Armies of Testland\n" in err
    assert "[6/6 units, 100%] Armies of Testland: Truck\n" in err


def test_it_redraws_one_line_on_a_terminal():
    stream = io.StringIO()
    bar = ProgressBar(stream, tty=True)
    bar.update(3, 6, "Armies of Testland", "Rifle Squad")
    bar.finish()
    assert stream.getvalue().startswith("\r[###############---------------] 3/6 units  Armies of Testland: Rifle Squad")
    assert stream.getvalue().endswith("\n")


def test_it_shows_no_progress_at_verbosity_0():
    _out, err = run(str(BARRACKS), "--verbosity", "0")
    assert err == ""


# refused input: exit code 1, the reason on stderr, nothing written


def _write(tmp_path, files: dict[str, bytes]) -> str:
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return str(tmp_path)


LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE c [<!ENTITY lol0 "lol">'
    + "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
    + "]><catalogue>&lol9;</catalogue>"
).encode()


def _bad_xml(tmp_path):
    return _write(tmp_path, {**read_battlescribe(), "broken.cat": b'<?xml version="1.0"?>\n<catalogue id="x">\n'})


def _bad_json(tmp_path):
    shutil.copytree(BARRACKS, tmp_path / "barracks")
    (tmp_path / "barracks" / "core.json").write_bytes(b'{\n  "weapons": {\n    oops\n}')
    return str(tmp_path / "barracks")


def _orphan(tmp_path):
    return str(BATTLESCRIBE / "bad" / "orphan.cat")


def _unknown_cost(tmp_path):
    return _write(tmp_path, read_battlescribe("bad/unknown_cost.cat"))


def _cycle(tmp_path):
    return _write(tmp_path, read_battlescribe("bad/cycle.cat"))


def _xml_bomb(tmp_path):
    return _write(tmp_path, {**read_battlescribe(), "laughs.cat": LAUGHS})


def _zip_bomb(tmp_path):
    return _write(tmp_path, {"bomb.zip": make_zip({"bomb.cat": bytes(8 * 1024 * 1024)})})


def _path_traversal(tmp_path):
    return _write(tmp_path, {"evil.zip": make_zip({**read_battlescribe("rating.cat"), "../escape.cat": b"<c/>"})})


def _over_20_mb(tmp_path):
    _write(tmp_path, read_battlescribe("rating.cat"))
    with (tmp_path / "huge.cat").open("wb") as handle:
        handle.truncate(safety.MAX_FILE_BYTES + 1)
    return str(tmp_path)


@pytest.mark.parametrize(
    ("make_input", "message"),
    [
        (_bad_xml, "broken.cat is not well-formed XML"),
        (_bad_json, "core.json is not valid JSON"),
        (_orphan, "needs game system sys-nowhere, which was not given"),
        (_unknown_cost, "cost type 'gold'"),
        (_cycle, "cycle: Alpha -> Bravo -> Alpha"),
        (_xml_bomb, "XML entity declarations are not allowed"),
        (_zip_bomb, "refused as a possible zip bomb"),
        (_path_traversal, "climbs out of the archive"),
        (_over_20_mb, "huge.cat is larger than 20 MB, the limit per file"),
    ],
    ids=["xml", "json", "no-game-system", "cost-type", "link-cycle", "xml-bomb", "zip-bomb", "traversal", "size"],
)
def test_it_refuses_bad_input_with_exit_code_1_and_writes_nothing(capsys, tmp_path, make_input, message):
    code, err = run_from_shell(capsys, make_input(tmp_path))
    assert (code, message in err, "Nothing was imported." in err) == (1, True, True)
    assert nothing_written()


def test_it_exits_0_after_an_import(capsys):
    code, _err = run_from_shell(capsys, str(BARRACKS), "--verbosity", "0")
    assert (code, Army.objects.count()) == (0, 2)


def test_it_refuses_a_path_that_does_not_exist(capsys, tmp_path):
    code, err = run_from_shell(capsys, str(tmp_path / "missing.cat"))
    assert (code, "missing.cat does not exist" in err) == (1, True)


# another author's 3rd-edition data


def test_it_reads_the_edition_from_a_game_system_named_3ed_and_reports_guessed_types():
    make_chart("v3")
    out, _err = run(str(BS3))
    assert "Bolt Action 3ed (BattleScribe, edition v3)" in out
    assert "Panzer III: no category says what kind of unit this is; its profiles say vehicle armoured (guessed)" in out
    assert "  Units: 9 (9 created, 0 updated, 0 unchanged)" in out
    again, _err = run(str(BS3))
    assert "  Nothing changed: the data is the same as at the last import." in again


def test_a_game_system_name_without_an_edition_is_refused_naming_the_flag(capsys, tmp_path):
    for path in BS3.iterdir():
        if path.suffix in (".gst", ".cat"):
            shutil.copy(path, tmp_path / path.name)
    gst = tmp_path / "bs3.gst"
    gst.write_text(gst.read_text().replace('name="Bolt Action 3ed"', 'name="Bolt Action"'))
    code, err = run_from_shell(capsys, str(tmp_path))
    assert code == 1
    assert "--edition v2 or --edition v3" in err
    make_chart("v3")
    out, _err = run(str(tmp_path), "--edition", "v3")
    assert "(BattleScribe, edition v3)" in out
