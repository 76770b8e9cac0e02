from __future__ import annotations

from django.urls import path

from armybuilder.reference import views

# `compare/` and `<edition>/weapons/` come before the patterns whose slugs would swallow them.
urlpatterns = [
    path("", views.index, name="ref-index"),
    path("compare/<slug:subject>/", views.compare, name="ref-compare"),
    path("<slug:edition>/", views.edition_index, name="ref-edition"),
    path("<slug:edition>/weapons/", views.weapons, name="ref-weapons"),
    path("<slug:edition>/<slug:topic>/", views.topic, name="ref-topic"),
]
