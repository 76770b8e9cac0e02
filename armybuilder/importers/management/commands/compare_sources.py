"""List where two imported sources of one army price or size its units differently.

Two imported armies of the same edition and nation, from different sources (say the BSData
catalogue and the Barracks data for Germany), are compared unit by unit, units matched by
their names; every cost, cost per extra man or size they give differently is printed, so a
club knows which numbers to check against the book before a tournament.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from armybuilder.importers.compare import compare_sources
from armybuilder.reference.models import Edition


class Command(BaseCommand):
    help = (
        "Compare imported armies of one nation from two sources, unit by unit: list the costs and sizes "
        "they give differently."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--edition", metavar="SLUG", help="only this edition (v2, v3)")

    def handle(self, *args: Any, **options: Any) -> None:
        edition = options["edition"]
        if edition and not Edition.objects.filter(slug=edition).exists():
            raise CommandError(
                f"no edition {edition!r}; the editions are: "
                + ", ".join(Edition.objects.order_by("number").values_list("slug", flat=True))
            )
        comparisons = compare_sources(edition)
        if not comparisons:
            self.stdout.write(
                "Nothing to compare: no army has been imported from two sources (same edition and nation)."
            )
            return
        for comparison in comparisons:
            for line in comparison.lines():
                self.stdout.write(line)
        disagreeing = sum(len(comparison.disagreements) for comparison in comparisons)
        if disagreeing:
            self.stdout.write(f"{disagreeing} unit{'s' if disagreeing != 1 else ''} disagree between sources.")
        else:
            self.stdout.write("The sources agree on every unit they share.")
