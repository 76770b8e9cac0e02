"""``deploy/supervise.sh``: the task worker is started again whenever it exits (deploy/stack.sh and
scripts/run_dev.sh run it so; systemd's ``Restart=always`` does the same in production)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings

SUPERVISE = Path(settings.BASE_DIR) / "deploy" / "supervise.sh"


def _wait_for(condition, timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_command_that_exits_is_started_again_and_stops_with_its_supervisor(tmp_path):
    starts = tmp_path / "starts"
    # Exits at once the first two times (a crash), then runs until it is told to stop.
    script = (
        "import pathlib, signal, sys, time\n"
        f"p = pathlib.Path({str(starts)!r})\n"
        "n = len(p.read_text()) if p.exists() else 0\n"
        "p.write_text('x' * (n + 1))\n"
        "if n < 2: sys.exit(1)\n"
        "signal.signal(signal.SIGTERM, lambda *a: (pathlib.Path(str(p) + '.stopped').write_text('1'), sys.exit(0)))\n"
        "time.sleep(60)\n"
    )
    process = subprocess.Popen(
        [str(SUPERVISE), "test", sys.executable, "-c", script],
        env={"SUPERVISE_PAUSE": "0.1", "PATH": "/usr/bin:/bin"},
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert _wait_for(lambda: starts.exists() and len(starts.read_text()) == 3)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
    assert (tmp_path / "starts.stopped").exists()  # the command was told to stop, not left running
    assert len(starts.read_text()) == 3  # and not started again once its supervisor stopped
    assert process.stderr.read().count("supervise: test exited with status 1; starting it again") == 2


def test_every_way_muster_runs_the_worker_restarts_it():
    root = Path(settings.BASE_DIR)
    assert "deploy/supervise.sh worker" in (root / "deploy" / "stack.sh").read_text()
    assert 'deploy/supervise.sh" worker' in (root / "scripts" / "run_dev.sh").read_text()
    unit = (root / "deploy" / "systemd" / "muster-worker.service").read_text()
    assert "Restart=always" in unit and "StartLimitIntervalSec=0" in unit
