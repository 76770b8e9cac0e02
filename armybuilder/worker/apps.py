from __future__ import annotations

from django.apps import AppConfig


class WorkerConfig(AppConfig):
    name = "armybuilder.worker"
    label = "worker"
    verbose_name = "Task worker"
