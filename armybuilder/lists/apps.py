from __future__ import annotations

from django.apps import AppConfig


class ListsConfig(AppConfig):
    name = "armybuilder.lists"
    label = "lists"
