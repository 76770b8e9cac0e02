from __future__ import annotations

from django.urls import path

from armybuilder.leagues import views

urlpatterns = [
    path("seasons/<slug:slug>/", views.season_api, name="api-season"),
    path("events/<slug:slug>/results/", views.event_results_api, name="api-event-results"),
]
