"""A player's own units: /units/ (theirs), the unit form, and a shared set's page."""

from __future__ import annotations

from django.urls import path

from armybuilder.catalogue import own_views as views

urlpatterns = [
    path("", views.index, name="ab-own-units"),
    path("new/<slug:edition>/", views.unit_new, name="ab-own-unit-new"),
    path("<int:pk>/", views.unit_edit, name="ab-own-unit-edit"),
    path("<int:pk>/delete/", views.unit_delete, name="ab-own-unit-delete"),
    path("share/<slug:edition>/", views.share, name="ab-own-units-share"),
    path("unshare/<slug:edition>/", views.unshare, name="ab-own-units-unshare"),
    path("shared/<str:token>/", views.shared, name="ab-own-units-shared"),
]
