from __future__ import annotations

from django.apps import AppConfig


class PlaysheetsConfig(AppConfig):
    name = "armybuilder.playsheets"
    label = "playsheets"
