"""The project's own pages, mounted at the site root (their paths are public: keep them)."""

from __future__ import annotations

from django.urls import path

from armybuilder.site import manifest, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz/", views.healthz, name="healthz"),
    path("ping/", views.ping, name="ping"),
    path("language/", views.language, name="language"),
    # At the root, not under /static/: a service worker's scope is the folder it is served from.
    path("sw.js", views.service_worker, name="service-worker"),
    path("offline/", views.offline, name="offline"),
    # At the root too: the installed app's scope is the folder its manifest names as start.
    path("manifest.webmanifest", manifest.manifest, name="manifest"),
    path("about/data/", views.about_data, name="about-data"),
]
