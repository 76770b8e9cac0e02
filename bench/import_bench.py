"""Import time and peak memory of the BattleScribe parser, each case in a fresh process.

    .venv/bin/python bench/import_bench.py [path/to/battlescribe/folder]

Cases: the folder given (default: the shared Norway catalogue and 2nd-edition game system, if
present), a 20 MB synthetic catalogue of ordinary units, and a 19 MB file of tiny elements
(refused at the element limit). Peak memory is the child's maximum resident set size, which
includes the interpreter (about 20 MB) and the file's own bytes.
"""

from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NR3 = ROOT / "tests" / "importers" / "data" / "nr3"
SHARED = ROOT.parent.parent / "shared" / "data" / "battlescribe"
TARGET_BYTES = 20 * 1024 * 1024 - 64 * 1024


def synthetic_catalogue() -> dict[str, bytes]:
    """The test catalogue's Rifle Squad repeated with fresh ids until the file is just under 20 MB."""
    text = (NR3 / "nr3_testland.cat").read_text()
    unit = re.search(
        r'    <selectionEntry type="unit"[^>]*id="u-rifle">.*?\n    </selectionEntry>\n', text, re.S
    ).group(0)
    head, tail = text.split("  <selectionEntries>\n", 1)[0], "  </selectionEntries>\n</catalogue>\n"
    parts, size, index = [head, "  <selectionEntries>\n"], len(head), 0
    while size + len(unit) + len(tail) < TARGET_BYTES:
        copy = re.sub(r'id="u-rifle', f'id="s{index}-u-rifle', unit).replace('"u-rifle-', f'"s{index}-u-rifle-')
        parts.append(copy)
        size += len(copy)
        index += 1
    parts.append(tail)
    return {"nr3.gst": (NR3 / "nr3.gst").read_bytes(), "synthetic.cat": "".join(parts).encode()}


def tiny_elements() -> dict[str, bytes]:
    body = b"<a/>" * ((TARGET_BYTES - 200) // 4)
    return {
        "nr3.gst": (NR3 / "nr3.gst").read_bytes(),
        "tiny.cat": b'<catalogue id="t" gameSystemId="nr3-sys">' + body + b"</catalogue>",
    }


def child(case: str, folder: str) -> None:
    sys.path.insert(0, str(ROOT))
    from armydata.battlescribe import parse_battlescribe
    from armydata.safety import CatalogueImportError

    if case == "folder":
        files = {p.name: p.read_bytes() for p in Path(folder).iterdir() if p.suffix in (".gst", ".cat")}
    elif case == "synthetic":
        files = synthetic_catalogue()
    else:
        files = tiny_elements()
    size = sum(len(data) for data in files.values())
    start = time.perf_counter()
    try:
        parsed = parse_battlescribe(files)
        outcome = f"{parsed.report.units} units"
    except CatalogueImportError as exc:
        outcome = f"refused: {exc.message}"
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "case": case,
                "megabytes": round(size / 1e6, 1),
                "seconds": round(seconds, 2),
                "peak_rss_mb": round(peak),
                "outcome": outcome,
            }
        )
    )


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
        return
    folder = sys.argv[1] if len(sys.argv) > 1 else str(SHARED)
    cases = (["folder"] if Path(folder).is_dir() else []) + ["synthetic", "tiny"]
    for case in cases:
        result = subprocess.run([sys.executable, __file__, "--child", case, folder], capture_output=True, text=True)
        print(result.stdout.strip() or result.stderr.strip())


if __name__ == "__main__":
    main()
