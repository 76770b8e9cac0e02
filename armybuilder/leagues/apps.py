from __future__ import annotations

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "armybuilder.leagues"
    label = "leagues"
    verbose_name = "Leagues"
