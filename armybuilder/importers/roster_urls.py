"""The roster import page, mounted at ``/lists/import/roster/`` beside the lists' own import."""

from __future__ import annotations

from django.urls import path

from armybuilder.importers import roster_views

urlpatterns = [
    path("", roster_views.import_roster_view, name="imp-roster-import"),
]
