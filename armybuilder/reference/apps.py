from __future__ import annotations

from django.apps import AppConfig


class ReferenceConfig(AppConfig):
    name = "armybuilder.reference"
    label = "reference"
    verbose_name = "Rules reference"
