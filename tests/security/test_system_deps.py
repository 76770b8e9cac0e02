"""`make test` / `make run` on a fresh machine: missing Debian packages are installed, or named."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from django.conf import settings

SCRIPT = Path(settings.BASE_DIR) / "scripts" / "system-deps.sh"


def _fake(bin_dir: Path, name: str, body: str) -> None:
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def _run(tmp_path: Path, *, uid: str, installed: str, kind: str = "test") -> subprocess.CompletedProcess:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    # dpkg knows only the packages in $installed; apt-get records what it was asked to install.
    _fake(bin_dir, "dpkg", f'for p in {installed}; do [ "$2" = "$p" ] && exit 0; done; exit 1')
    _fake(bin_dir, "id", f"echo {uid}")
    _fake(bin_dir, "apt-get", f'echo "$@" >> {tmp_path}/apt.log')
    env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin"}
    return subprocess.run(["bash", str(SCRIPT), kind], capture_output=True, text=True, env=env, timeout=30)


def test_nothing_happens_when_everything_is_there(tmp_path):
    everything = "libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core gettext chromium poppler-utils nginx openssl"
    result = _run(tmp_path, uid="1000", installed=everything)
    assert result.returncode == 0 and result.stdout == "" and result.stderr == ""


def test_a_user_is_told_the_one_command_and_make_stops(tmp_path):
    result = _run(tmp_path, uid="1000", installed="libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core gettext")
    assert result.returncode == 1
    # The suite serves the shipped TLS settings through a real nginx, so the test packages take it.
    assert "sudo apt-get install -y chromium poppler-utils nginx openssl" in result.stderr
    assert not (tmp_path / "apt.log").exists()


def test_root_gets_them_installed(tmp_path):
    result = _run(tmp_path, uid="0", installed="gettext chromium poppler-utils")
    assert result.returncode == 0
    log = (tmp_path / "apt.log").read_text()
    assert "update" in log
    assert "install -y -qq libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core" in log


def test_make_run_needs_only_weasyprints_libraries_and_gettext(tmp_path):
    result = _run(tmp_path, uid="1000", installed="libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core", kind="run")
    assert result.returncode == 1
    assert "sudo apt-get install -y gettext" in result.stderr


def test_the_makefile_checks_before_anything_else():
    makefile = (Path(settings.BASE_DIR) / "Makefile").read_text()
    assert "\ntest: system-deps-test " in makefile
    assert "\nrun: system-deps-run " in makefile
