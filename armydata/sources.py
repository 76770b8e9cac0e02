"""The public sources of Bolt Action army data that Muster knows how to import, as data.

Muster ships none of these files: none of them carries a licence that allows it. The staff
import page lists them (author, nations, edition, licence) with a button that downloads and
imports each one through the same GitHub archive import as a typed ``OWNER/REPO``.

Each entry says where its facts were read (``facts_from``): the repository's own files, looked
at when the entry was written. Nations and licences change when the authors change them; the
page shows the facts as of that reading, and the date Muster last imported each source.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KnownSource:
    key: str  # stable, for URLs and tests
    repository: str  # OWNER/REPO, as the GitHub import takes it
    title: str
    author: str
    data_format: str  # "BattleScribe", "NewRecruit", "Barracks", "JSON module"
    edition: str  # edition slug: "v2" or "v3"
    nations: tuple[str, ...]
    licence: str  # "none" (no licence stated) or "mit-app" (MIT for the app, not for the books' figures)
    facts_from: str  # where the facts above were read
    note: str = ""

    @property
    def licence_text(self) -> str:
        return LICENCES[self.licence]

    @property
    def url(self) -> str:
        return f"https://github.com/{self.repository}"


# A licence that allowed redistributing the data would let Muster ship it; none of these does.
LICENCES = {
    "none": "No licence stated: import for your own use; Muster cannot ship it",
    "mit-app": (
        "MIT licence for the app; the army data inside restates the published books' points, "
        "so Muster does not ship it either"
    ),
}

KNOWN_SOURCES: tuple[KnownSource, ...] = (
    KnownSource(
        key="bsdata-boltaction",
        repository="BSData/boltaction",
        title="BSData Bolt Action",
        author="BSData community",
        data_format="BattleScribe",
        edition="v2",
        nations=(
            "Australia",
            "Belgium",
            "Bulgaria",
            "Canada",
            "China",
            "Denmark",
            "Finland",
            "France",
            "Germany",
            "Great Britain",
            "Greece",
            "Hungary",
            "India",
            "Italy",
            "Japan",
            "Netherlands",
            "New Zealand",
            "Norway",
            "Partisans",
            "Poland",
            "Romania",
            "Slovakia",
            "South Africa",
            "Soviet Union",
            "United States",
        ),
        licence="none",
        facts_from="The repository's catalogue files (Bolt Action 2 .gst, BA2 - Armies of ….cat); no LICENSE file.",
        note="Its files quote rules text from the published books.",
    ),
    KnownSource(
        key="jelle-kuipers-nrdata",
        repository="Jelle-Kuipers/Bolt-Action-Third-Edition-NRData",
        title="Bolt Action: Third Edition (NewRecruit data)",
        author="Jelle Kuipers",
        data_format="NewRecruit",
        edition="v3",
        nations=("Soviet Union",),
        licence="none",
        facts_from=(
            "The repository's README.md and files (Bolt Action Third Edition.gst, "
            "Armies of the soviet union.cat); no LICENSE file."
        ),
        note="Armies are added as the author writes them; so far the Soviet Union.",
    ),
    KnownSource(
        key="jasseji-3e-data",
        repository="Jasseji/bolt-action-3e-data",
        title="Bolt Action 3ed (Germany)",
        author="Jasseji",
        data_format="NewRecruit",
        edition="v3",
        nations=("Germany",),
        licence="none",
        facts_from=(
            "The repository's README.md and game system (name “Bolt Action 3ed”, author “Jasseji / ChatGPT”); "
            "no LICENSE file."
        ),
        note="Its README calls it an experimental fan data set with points entered by hand.",
    ),
    KnownSource(
        key="phyrexianqueen-ttamba",
        repository="PhyrexianQueen/BoltAction3D-WWII",
        title="TTAMBA module (BoltAction3D-WWII)",
        author="PhyrexianQueen",
        data_format="JSON module",
        edition="v3",
        nations=(
            "Germany",
            "Great Britain",
            "United States",
            "Japan",
            "France",
            "Sweden",
            "Soviet Union",
            "and 14 minor nations",
        ),
        licence="none",
        facts_from=(
            "The repository's files (TTAMBA-Condensed, one JSON module of 21 nations; SubSegment-*); no LICENSE file."
        ),
        note="One JSON file with no extension, TTAMBA-Condensed; it is recognised by its content.",
    ),
    KnownSource(
        key="barracks",
        repository="fjlaubscher/barracks",
        title="Barracks",
        author="Francois Laubscher",
        data_format="Barracks",
        edition="v2",
        nations=("France", "Germany", "Great Britain", "Imperial Japan", "Italy", "Soviet Union", "United States"),
        licence="mit-app",
        facts_from="The repository's LICENSE.md (MIT, 2023) and barracks-web/public/data (armies.json, units/*.json).",
        note="The data is the JSON of the Barracks web app, in barracks-web/public/data.",
    ),
)


def known_source(key: str) -> KnownSource | None:
    return next((source for source in KNOWN_SOURCES if source.key == key), None)


def repository_name(text: str) -> str:
    """``OWNER/REPO`` of ``OWNER/REPO[@REF]``, lower-cased: how imports are matched to a source."""
    return text.strip().split("@", 1)[0].lower()
