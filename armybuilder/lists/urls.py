from __future__ import annotations

from django.urls import include, path

# The list pages are split by concern: managing lists, and the builder page.
urlpatterns = [
    path("", include("armybuilder.lists.manage_urls")),
    path("", include("armybuilder.lists.builder_urls")),
]
