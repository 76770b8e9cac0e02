from __future__ import annotations

from django.urls import path

from armybuilder.events import api

urlpatterns = [
    path("events/<slug:slug>/", api.event_detail, name="events-api-event"),
    path("events/<slug:slug>/rounds/<int:number>/", api.round_detail, name="events-api-round"),
    path("events/<slug:slug>/standings/", api.standings_detail, name="events-api-standings"),
]
