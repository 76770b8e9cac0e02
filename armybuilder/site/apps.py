from __future__ import annotations

from django.apps import AppConfig


class SiteConfig(AppConfig):
    """What belongs to Muster as a whole rather than to one app.

    The home page, health checks and error pages; the service worker and its offline page (they
    keep every app's pages, not only games'); "About the data" (every army, built-in or imported,
    and its licence); and ``load_reference_data``, which loads all the built-in data (rules
    reference and catalogue alike). It has no models.
    """

    name = "armybuilder.site"
    label = "site"
    verbose_name = "Site"
