from __future__ import annotations

from django.urls import path

from armybuilder.reference import api

# Mounted at /api/ after the other apps' routes, so `editions/<slug>/armies/` stays theirs.
urlpatterns = [
    path("editions/", api.editions, name="ref-api-editions"),
    path("editions/<slug:edition>/", api.edition_detail, name="ref-api-edition"),
    path("editions/<slug:edition>/<slug:table>/", api.table, name="ref-api-table"),
]
