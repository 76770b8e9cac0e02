from __future__ import annotations

from django.urls import path

from armybuilder.lists import api

urlpatterns = [
    path("lists/<str:token>/", api.list_detail, name="ab-api-list"),
]
