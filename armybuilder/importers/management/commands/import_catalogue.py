"""Import community army data (BattleScribe, Barracks or an army-builder module) into the catalogue.

``PATH`` may be files, folders or zip archives (.zip, .gstz, .catz); ``--github OWNER/REPO[@REF]``
downloads a repository's archive and takes every BattleScribe file and army-builder module in it. BattleScribe and
Barracks files given together are parsed separately and written in one transaction. Anything
that cannot be imported stops the command with exit code 1 and the reason on stderr, and
nothing is written.
"""

from __future__ import annotations

from typing import Any, TextIO

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from armybuilder.importers.jobs import report_data
from armybuilder.importers.models import ImportJob
from armybuilder.importers.writer import ImportResult, import_catalogues, parse_files
from armydata.github import CATALOGUE_SUFFIXES, Repository, fetch_repository
from armydata.loader import load_paths
from armydata.safety import CatalogueImportError


class ProgressBar:
    """Units written so far, on stderr.

    On a terminal one line is redrawn in place; otherwise (a log, a pipe, CI) a line is written
    when each army starts and at every tenth of the units, so the output stays short.
    """

    WIDTH = 30

    def __init__(self, stream: TextIO, *, tty: bool, enabled: bool = True):
        self.stream = stream
        self.tty = tty
        self.enabled = enabled
        self.last_tenth = -1
        self.drawn = False

    def update(self, done: int, total: int, army: str, unit: str) -> None:
        if not self.enabled:
            return
        share = done / total if total else 1.0
        label = f"{army}: {unit}" if unit else army
        if self.tty:
            filled = round(share * self.WIDTH)
            bar = "#" * filled + "-" * (self.WIDTH - filled)
            self.stream.write(f"\r[{bar}] {done}/{total} units  {label[:50]:<50}")
            self.stream.flush()
            self.drawn = True
            return
        tenth = int(share * 10)
        if not unit or tenth != self.last_tenth:
            self.last_tenth = tenth
            self.stream.write(f"[{done}/{total} units, {share:.0%}] {label}\n")
            self.stream.flush()

    def finish(self) -> None:
        if self.enabled and self.tty and self.drawn:
            self.stream.write("\n")
            self.stream.flush()


class Command(BaseCommand):
    help = (
        "Import BattleScribe (.gst, .cat, .gstz, .catz) or Barracks (.json) army data, from files, folders "
        "or .zip archives, into the catalogue. Re-importing updates in place."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="*", metavar="PATH", help="files, folders or zip archives")
        parser.add_argument(
            "--github",
            metavar="OWNER/REPO[@REF]",
            help="download this GitHub repository (a branch, tag or commit after @) and import its .gst and .cat files",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="parse and check everything, print the summary, write nothing"
        )
        parser.add_argument(
            "--edition",
            metavar="SLUG",
            help="the edition to import into (v2, v3), for data whose edition cannot be detected",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        stderr = self.stderr._out
        bar = ProgressBar(stderr, tty=self.stderr.isatty(), enabled=options["verbosity"] > 0)
        self.repository: Repository | None = None
        started = timezone.now()
        if not options["paths"] and not options["github"]:
            raise CommandError("give PATH arguments, --github OWNER/REPO, or both")
        try:
            files = load_paths(options["paths"]) if options["paths"] else {}
            if options["github"]:
                files = self._github(options["github"], files, stderr, enabled=options["verbosity"] > 0)
            parsed = parse_files(files, edition=options["edition"])
            result = import_catalogues(parsed, dry_run=options["dry_run"], progress=bar.update)
        except CatalogueImportError as exc:
            raise CommandError(f"{exc.message}. Nothing was imported.") from exc
        finally:
            bar.finish()
        if self.repository is not None and not options["dry_run"]:
            self._record(self.repository, options["edition"] or "", result, started)
        for line in result.lines():
            self.stdout.write(line)

    def _record(self, repository: Repository, edition: str, result: ImportResult, started) -> None:
        """Keep the import with the page's: the sources list shows each repository's last import and report."""
        ImportJob.objects.create(
            repository=repository.label,
            edition=edition,
            status=ImportJob.Status.DONE,
            stage="done",
            commit=repository.commit,
            report=report_data(result),
            started_at=started,
            finished_at=timezone.now(),
        )

    def _github(self, name: str, files: dict[str, bytes], stream: TextIO, *, enabled: bool) -> dict[str, bytes]:
        last = [-1]

        def progress(done: int, expected: int | None) -> None:
            megabytes = done // (1024 * 1024)
            if enabled and megabytes != last[0]:
                last[0] = megabytes
                total = f" of {expected / (1024 * 1024):.1f}" if expected else ""
                stream.write(f"downloading {name}: {done / (1024 * 1024):.1f}{total} MB\n")
                stream.flush()

        repository, fetched = fetch_repository(
            name,
            url_template=settings.CATALOGUE_GITHUB_ARCHIVE_URL,
            progress=progress,
            allow_loopback_http=settings.CATALOGUE_GITHUB_ALLOW_LOOPBACK_HTTP,
        )
        self.repository = repository
        if enabled:
            battlescribe = sum(1 for key in fetched if key.lower().endswith(CATALOGUE_SUFFIXES))
            if not battlescribe and any(key.lower().endswith("armies.json") for key in fetched):
                described = f"{len(fetched)} Barracks files"
            else:
                modules = len(fetched) - battlescribe
                described = f"{battlescribe} BattleScribe files"
                if modules:
                    described += f", {modules} army-builder module{'s' if modules != 1 else ''}"
            stream.write(f"{repository.label}: {described}\n")
        for key, data in fetched.items():
            if key in files:
                raise CatalogueImportError(f"two files are named {key}")
            files[key] = data
        return files
