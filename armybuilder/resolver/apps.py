from __future__ import annotations

from django.apps import AppConfig


class ResolverConfig(AppConfig):
    name = "armybuilder.resolver"
    label = "resolver"
