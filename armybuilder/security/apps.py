from __future__ import annotations

from django.apps import AppConfig


class SecurityConfig(AppConfig):
    name = "armybuilder.security"
    label = "security"
    verbose_name = "Security and operations"

    def ready(self) -> None:
        from armybuilder.security import checks  # noqa: F401  (registers the deploy checks)
