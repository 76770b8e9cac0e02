"""The known public sources as the staff import page lists them: each with this Muster's last import of it."""

from __future__ import annotations

from dataclasses import dataclass

from armybuilder.importers.models import ImportJob
from armydata.sources import KNOWN_SOURCES, KnownSource, repository_name


@dataclass(frozen=True)
class SourceRow:
    """A known source as the page lists it: its facts and this Muster's last import of it."""

    source: KnownSource
    last: ImportJob | None

    @property
    def army_reports(self) -> list[dict]:
        report = (self.last.report if self.last else None) or {}
        return [army for catalogue in report.get("catalogues", []) for army in catalogue.get("army_reports", [])]


def source_rows() -> list[SourceRow]:
    latest = ImportJob.objects.latest_per_repository()
    return [SourceRow(source, latest.get(repository_name(source.repository))) for source in KNOWN_SOURCES]


def source_row_of(job: ImportJob) -> SourceRow | None:
    name = repository_name(job.repository)
    return next((row for row in source_rows() if repository_name(row.source.repository) == name), None)
