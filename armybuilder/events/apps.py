from __future__ import annotations

from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "armybuilder.events"
    label = "events"
    verbose_name = "Events"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from armybuilder.events.marker import on_login

        # The builder's "legal for <event>" marker reads the submitted lists from the session.
        user_logged_in.connect(on_login, dispatch_uid="events-submitted-lists")
