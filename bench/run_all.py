"""`make bench`: run every benchmark script in turn and print their reports.

Each script is a separate process so one benchmark's caches and database never colour the
next one's timings.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
SCRIPTS = [
    "builder_browser_bench.py",
    "gameday_browser_bench.py",
    "resolver_bench.py",
    "playsheet_bench.py",
    "reference_bench.py",
    "pdf_memory_bench.py",
    "events_bench.py",
]


def main() -> int:
    failures = 0
    for name in SCRIPTS:
        script = BENCH_DIR / name
        print(f"\n=== {name} ===", flush=True)
        result = subprocess.run([sys.executable, str(script)], cwd=BENCH_DIR.parent, check=False)
        if result.returncode != 0:
            print(f"{name} failed with exit code {result.returncode}", flush=True)
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
