"""Cards and print PDF of a list at 40 units and at the entry cap: render time and peak memory.

Each (size, PDF) pair is rendered in a fresh process, so the peak resident memory it reports
(``ru_maxrss``, less the process's size just before the render) is that render's alone.
Run: ``.venv/bin/python bench/pdf_cap_bench.py [--sizes 40,100]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _one(units: int, kind: str) -> dict[str, float]:
    import playsheet_bench

    playsheet_bench.UNITS = units
    db_dir = tempfile.mkdtemp(prefix="muster-capbench-")
    try:
        playsheet_bench._setup_django(db_dir)
        from django.test import Client

        user, army_list = playsheet_bench._build_list()
        client = Client()
        client.force_login(user)
        client.get("/reference/v3/sheet.pdf?lang=en&paper=a4")  # warm up: imports, fonts
        url = f"/lists/{army_list.pk}/{kind}.pdf"
        before = _rss_mb()
        start = time.perf_counter()
        response = client.get(url)
        seconds = time.perf_counter() - start
        assert response.status_code == 200 and response.content.startswith(b"%PDF-")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return {"seconds": seconds, "peak_mb": peak, "extra_mb": peak - before}
    finally:
        shutil.rmtree(db_dir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="40,100")
    parser.add_argument("--one", nargs=2, metavar=("UNITS", "KIND"))
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_one(int(args.one[0]), args.one[1])))
        return
    for units in (int(s) for s in args.sizes.split(",")):
        for kind in ("cards", "print"):
            out = (
                subprocess.run(
                    [sys.executable, __file__, "--one", str(units), kind],
                    capture_output=True,
                    text=True,
                    check=True,
                    env={**os.environ, "DEBUG": "1"},
                )
                .stdout.strip()
                .splitlines()[-1]
            )
            r = json.loads(out)
            print(
                f"{units:4} units, {kind:6} PDF: {r['seconds']:6.2f} s, peak RSS {r['peak_mb']:6.0f} MB "
                f"(+{r['extra_mb']:.0f} MB for the render)"
            )


if __name__ == "__main__":
    main()
