"""The staff upload page, mounted at ``/catalogue/import/``."""

from __future__ import annotations

from django.urls import path

from armybuilder.importers import views

urlpatterns = [
    path("", views.catalogue_import, name="imp-catalogue-import"),
    path("jobs/<uuid:job>/", views.catalogue_import_job, name="imp-catalogue-import-job"),
    path("compare/", views.compare_imported_sources, name="imp-compare-sources"),
]
