from __future__ import annotations

from django.apps import AppConfig


class ImportersConfig(AppConfig):
    """The database side of imports: the writer, the staff page, the command, roster imports.

    The parsers themselves live in the framework-free ``armydata`` package.
    """

    name = "armybuilder.importers"
    label = "importers"
