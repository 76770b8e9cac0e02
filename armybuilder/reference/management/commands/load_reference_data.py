"""Load Muster's built-in data (rules reference and generic catalogue) from fixtures/.

Fixtures use natural keys, so running this twice updates rows in place instead of
duplicating them. Files load in name order (``00_`` editions first, then each edition's
reference data, then the catalogue), which is how dependencies are kept in order.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand


def fixture_files() -> list[Path]:
    return sorted((Path(settings.BASE_DIR) / "fixtures").glob("*.json"))


class Command(BaseCommand):
    help = "Load the built-in rules reference and catalogue (idempotent)."

    def handle(self, *args: object, **options: object) -> None:
        files = fixture_files()
        if not files:
            self.stdout.write("No fixtures found in fixtures/.")
            return
        call_command("loaddata", *[str(f) for f in files], verbosity=0)
        self.stdout.write(f"Loaded built-in data from {len(files)} fixture files.")
