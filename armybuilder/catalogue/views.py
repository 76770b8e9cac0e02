"""The "About the data" page: every army Muster offers, where its figures come from, under which licence."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from armybuilder.catalogue.imported import imported_weapons_by_army
from armybuilder.catalogue.models import Army, Origin

BARRACKS_LICENCE = Path(settings.BASE_DIR) / "fixtures" / "LICENSE-barracks.md"


def licence_of(army: Army) -> str:
    """The licence of an army's figures, from where they came (the data keeps its source on every army)."""
    if "barracks" in army.source.lower():
        return _("MIT (Barracks, © 2023 Francois Laubscher)")
    if army.origin == Origin.BATTLESCRIBE:
        return _("As the BattleScribe data repository it was imported from states")
    if army.origin == Origin.BARRACKS:
        return _("MIT (Barracks data, imported)")
    return _("Muster's own compilation (points as the source says)")


@require_safe
def about_data(request: HttpRequest) -> HttpResponse:
    armies = (
        Army.objects.select_related("edition")
        .prefetch_related("national_rules")
        .annotate(unit_count=Count("units", filter=Q(units__removed=False, units__hidden=False)))
        .order_by("edition__number", "origin", "name")
    )
    rows = [(army, licence_of(army)) for army in armies]
    licence_text = BARRACKS_LICENCE.read_text(encoding="utf-8") if BARRACKS_LICENCE.exists() else ""
    context = {
        "rows": rows,
        "barracks_licence": licence_text,
        # Weapons the rulebook chart lacks, under the imported army that brought them.
        "imported_weapons": imported_weapons_by_army([army for army, _licence in rows]),
    }
    return render(request, "catalogue/about_data.html", context)
