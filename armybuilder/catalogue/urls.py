from __future__ import annotations

from django.urls import path

from armybuilder.catalogue import views

urlpatterns = [
    path("about/data/", views.about_data, name="about-data"),
]
