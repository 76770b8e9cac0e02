from __future__ import annotations

from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "armybuilder.events"
    label = "events"
    verbose_name = "Events"
