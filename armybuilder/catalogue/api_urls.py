from __future__ import annotations

from django.urls import path

from armybuilder.catalogue import api

# Mounted at /api/ before the reference API, whose `editions/<edition>/<table>/` would match "armies".
urlpatterns = [
    path("editions/<slug:edition>/armies/", api.armies, name="cat-api-armies"),
    path("editions/<slug:edition>/armies/<slug:army>/units/", api.units, name="cat-api-units"),
]
