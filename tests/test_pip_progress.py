"""``make run`` says what pip is doing on a fresh clone (scripts/pip_progress.py), a line per step."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
try:
    import pip_progress
finally:
    sys.path.pop(0)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("Obtaining file:///home/me/muster\n", "  reading Muster's own package"),
        ("  Installing build dependencies: started\n", "  getting the tools that build it"),
        ("  Installing build dependencies: finished with status 'done'\n", None),
        ("Collecting Django<6.2,>=6.0 (from muster==0.1.0)\n", "  wants Django"),
        ("Downloading pip-25.3-py3-none-any.whl (1.8 MB)\n", "  downloading pip-25.3-py3-none-any.whl (1.8 MB)"),
        ("Installing collected packages: zopfli, brotli, Django\n", "  installing 3 packages..."),
        ("Installing collected packages: pip\n", "  installing 1 package..."),
        ("Successfully installed Django-6.1.3 muster-0.1.0\n", "  done."),
        ("  Downloading django-6.1.3-py3-none-any.whl.metadata (3.9 kB)\n", None),
        ("Requirement already satisfied: sqlparse>=0.5.0 in ./.venv/lib/python3.13/site-packages\n", None),
    ],
)
def test_it_says_one_short_line_per_step(line, said):
    assert pip_progress.summary(line) == said


def test_it_keeps_pips_exit_status_and_its_errors():
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "pip_progress.py"), "--no-index", "--dry-run", "no-such-package-x"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "no-such-package-x" in result.stderr
