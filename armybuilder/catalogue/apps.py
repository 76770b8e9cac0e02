from __future__ import annotations

from django.apps import AppConfig


class CatalogueConfig(AppConfig):
    name = "armybuilder.catalogue"
    label = "catalogue"
