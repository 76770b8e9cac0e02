"""``pip install`` with a short line per step, for ``make run`` and ``make test`` on a fresh clone.

pip's whole output is a wall of text and ``--quiet`` is a minute or two of silence while it
downloads and installs Muster's packages; this shows what it is doing, a line at a time, as it
happens. pip's warnings and errors still reach the terminal (stderr is left alone) and its exit
status is this script's. Run with the virtual environment's Python: ``.venv/bin/python
scripts/pip_progress.py -e .`` (any ``pip install`` arguments).
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time

# pip's own lines (stable across its recent versions) -> what to say, or None to stay quiet.
STEPS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^Obtaining "), "  reading Muster's own package"),
    (re.compile(r"^\s+Installing build dependencies: started"), "  getting the tools that build it"),
    (re.compile(r"^Collecting (?P<name>[A-Za-z0-9._-]+)"), "  wants {name}"),
    (re.compile(r"^Downloading (?P<file>\S+) \((?P<size>[^)]*)\)"), "  downloading {file} ({size})"),
    (re.compile(r"^Building wheels for collected packages"), "  building Muster's package"),
    (re.compile(r"^Installing collected packages: (?P<names>.*)"), "  installing {count}..."),
    (re.compile(r"^Successfully installed "), "  done."),
)


def summary(line: str) -> str | None:
    """What to print for one line of pip's output (None: nothing)."""
    for pattern, message in STEPS:
        match = pattern.match(line)
        if match:
            fields = match.groupdict()
            count = len(fields.get("names", "").split(","))
            fields["count"] = f"{count} package" if count == 1 else f"{count} packages"
            return message.format(**fields)
    return None


# pip installs its packages without a word between them (most of a minute on a fresh clone):
# past this many seconds without a line, say that it is still at it.
QUIET_SECONDS = 10


def _say(message: str, said: list[float]) -> None:
    print(message, flush=True)
    said[0] = time.monotonic()


def main(argv: list[str]) -> int:
    command = [sys.executable, "-m", "pip", "install", "--progress-bar", "off", *argv]
    said = [time.monotonic()]
    started = said[0]
    done = threading.Event()

    def heartbeat() -> None:
        while not done.wait(1):
            if time.monotonic() - said[0] >= QUIET_SECONDS:
                _say(f"  still working ({time.monotonic() - started:.0f} s)", said)

    threading.Thread(target=heartbeat, daemon=True).start()
    try:
        with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, bufsize=1) as process:
            assert process.stdout is not None
            for line in process.stdout:
                message = summary(line)
                if message:
                    _say(message, said)
            return process.wait()
    finally:
        done.set()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
