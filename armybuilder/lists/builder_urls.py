"""The builder page of a list, its catalogue filter, a unit's row and editor, and one POST endpoint per action."""

from __future__ import annotations

from django.urls import path

from armybuilder.lists import builder_views as views

urlpatterns = [
    path("lists/<int:pk>/", views.builder, name="ab-list-builder"),
    path("lists/<int:pk>/editors/", views.builder_editors, name="ab-builder-editors"),
    path("lists/<int:pk>/catalogue/", views.builder_catalogue, name="ab-builder-catalogue"),
    path("lists/<int:pk>/entries/add/", views.entry_add, name="ab-entry-add"),
    path("lists/<int:pk>/entries/<int:entry_pk>/", views.entry_editor, name="ab-entry-editor"),
    path("lists/<int:pk>/entries/<int:entry_pk>/row/", views.entry_row, name="ab-entry-row"),
    path("lists/<int:pk>/entries/<int:entry_pk>/restore/", views.entry_restore, name="ab-entry-restore"),
    path("lists/<int:pk>/entries/<int:entry_pk>/quality/", views.entry_quality, name="ab-entry-quality"),
    path("lists/<int:pk>/entries/<int:entry_pk>/models/", views.entry_models, name="ab-entry-models"),
    path("lists/<int:pk>/entries/<int:entry_pk>/options/", views.entry_options, name="ab-entry-options"),
    path("lists/<int:pk>/entries/<int:entry_pk>/rename/", views.entry_rename, name="ab-entry-rename"),
    path("lists/<int:pk>/entries/<int:entry_pk>/platoon/", views.entry_platoon, name="ab-entry-platoon"),
    path("lists/<int:pk>/entries/<int:entry_pk>/move/", views.entry_move, name="ab-entry-move"),
    path("lists/<int:pk>/entries/<int:entry_pk>/duplicate/", views.entry_duplicate, name="ab-entry-duplicate"),
    path("lists/<int:pk>/entries/<int:entry_pk>/remove/", views.entry_remove, name="ab-entry-remove"),
    path("lists/<int:pk>/national-choice/", views.national_choice, name="ab-list-national-choice"),
    path("lists/<int:pk>/platoons/add/", views.platoon_add, name="ab-platoon-add"),
    path("lists/<int:pk>/platoons/<int:platoon_pk>/rename/", views.platoon_rename, name="ab-platoon-rename"),
    path("lists/<int:pk>/platoons/<int:platoon_pk>/remove/", views.platoon_remove, name="ab-platoon-remove"),
]
