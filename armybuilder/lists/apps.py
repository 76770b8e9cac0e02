from __future__ import annotations

from django.apps import AppConfig


class ListsConfig(AppConfig):
    name = "armybuilder.lists"
    label = "lists"

    def ready(self) -> None:
        from armybuilder.lists import signals

        signals.connect()
