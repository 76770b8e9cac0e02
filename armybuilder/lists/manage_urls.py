"""URLs for managing lists (``/lists/...``) and share links (``/s/...``)."""

from __future__ import annotations

from django.urls import path, re_path

from armybuilder.lists import views

list_patterns = [
    path("lists/", views.index, name="ab-list-index"),
    path("lists/new/", views.new, name="ab-list-new"),
    path("lists/trash/", views.trash, name="ab-list-trash"),
    path("lists/import/", views.import_list, name="ab-list-import"),
    path("lists/export-all.zip", views.export_all, name="ab-list-export-all"),
    path("lists/<int:pk>/rename/", views.rename, name="ab-list-rename"),
    path("lists/<int:pk>/duplicate/", views.duplicate, name="ab-list-duplicate"),
    path("lists/<int:pk>/delete/", views.delete, name="ab-list-delete"),
    path("lists/<int:pk>/restore/", views.restore, name="ab-list-restore"),
    path("lists/<int:pk>/purge/", views.purge, name="ab-list-purge"),
    path("lists/<int:pk>/share/regenerate/", views.regenerate_share, name="ab-list-share-regenerate"),
    path("lists/<int:pk>/export.txt", views.export_text, name="ab-list-export-text"),
    path("lists/<int:pk>/export.json", views.export_json, name="ab-list-export-json"),
    path("lists/<int:pk>/export.rosz", views.export_roster, name="ab-list-export-roster"),
    re_path(r"^lists/(?P<pk>[0-9]+)/export\.(?P<kind>md|bbcode)$", views.export_forum, name="ab-list-export-forum"),
    path("s/<str:token>/", views.shared, name="ab-list-shared"),
    path("s/<str:token>/copy/", views.shared_copy, name="ab-list-shared-copy"),
    path("s/<str:token>/export.txt", views.shared_export_text, name="ab-list-shared-export-text"),
    path("s/<str:token>/export.rosz", views.shared_export_roster, name="ab-list-shared-export-roster"),
    re_path(
        r"^s/(?P<token>[^/]+)/export\.(?P<kind>md|bbcode)$",
        views.shared_export_forum,
        name="ab-list-shared-export-forum",
    ),
]

urlpatterns = list_patterns
