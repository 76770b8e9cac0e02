"""Two authors, one army: where two imported sources price or size the same units differently.

Two imported armies cover the same army when they are of the same edition and the same nation
and come from different sources. A source is the data an army was imported from: its origin
(BattleScribe, Barracks, ...) and the data set's name, both kept in ``Army.source`` by the
writer. A nation is read from the army's name ("BA2 - Armies of the Soviet Union", "Soviet
Union" and "USSR" are one nation); a name that names no nation Muster knows stands for itself.

Units are matched by their normalised names (case, accents, punctuation and bracketed notes
aside). For each pair, the numbers a club pays and fields are compared: the cost at each
quality both sources offer, the cost of each extra man at that quality, and the smallest and
largest size. What differs is listed unit by unit, so a club knows which numbers are doubtful.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations

from django.utils.translation import gettext as _

from armybuilder.catalogue.models import Army, Origin, Unit
from armybuilder.importers.names import _BRACKETS_RE, _words
from armydata.model import QUALITIES

# The words an army's name uses for its nation; the first that matches gives the nation.
_NATIONS: tuple[tuple[str, str], ...] = (
    ("Soviet Union", r"soviet|ussr|russia|red army"),
    ("Germany", r"german|deutsch|wehrmacht|afrika korps|\bheer\b"),
    ("Great Britain", r"great britain|british|britain|\buk\b"),
    ("United States", r"united states|\bus\b|\busa\b|americ"),
    ("Japan", r"japan"),
    ("Italy", r"ital"),
    ("France", r"france|french"),
    ("Finland", r"finland|finnish"),
    ("Hungary", r"hungar"),
    ("Romania", r"romania"),
    ("Bulgaria", r"bulgaria"),
    ("Poland", r"poland|polish"),
    ("China", r"china|chinese"),
    ("Sweden", r"sweden|swedish"),
    ("Belgium", r"belgi"),
    ("Netherlands", r"netherlands|dutch"),
    ("Norway", r"norw"),
    ("Greece", r"greece|greek"),
    ("Australia", r"australia"),
    ("Canada", r"canad"),
    ("New Zealand", r"new zea?land"),
    ("India", r"\bindia"),
    ("South Africa", r"south africa"),
    ("Commonwealth", r"commonwealth"),
    ("Partisans", r"partisan"),
)
_NATION_RES = tuple((nation, re.compile(pattern)) for nation, pattern in _NATIONS)


def _plain(text: str) -> str:
    """Accents taken off: "Aufklärer" and "Aufklarer" are one name."""
    return "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))


# What an army's name says besides its nation: "BA2 - Armies of the …", "(3rd edition)".
_NOT_NATION_RE = re.compile(r"^ba\d? |\b(armies|army|of|the|\d(st|nd|rd|th) edition|(second|third) edition|edition)\b")


def nation_of(army_name: str) -> str:
    """The nation an army's name names ("BA2 - Armies of the  Soviet Union": Soviet Union).

    A name that names no nation Muster knows is its own nation, less the words every army's
    name may carry ("Armies of Testland" and "Testland (3rd edition)" are both Testland)."""
    words = _words(_plain(army_name), False)
    for nation, pattern in _NATION_RES:
        if pattern.search(words):
            return nation
    rest = " ".join(_NOT_NATION_RE.sub(" ", words).split())
    return rest.title() if rest else army_name.strip()


def unit_key(name: str) -> str:
    """A unit's name for matching: case, accents, punctuation and bracketed notes aside."""
    bare = _BRACKETS_RE.sub(" ", name).strip() or name
    # Abbreviations spelt out: "LMG Team" and "Light Machine Gun Team" are one unit.
    return _words(_plain(bare), True)


def source_of(army: Army) -> str:
    """The data set an imported army came from, as the writer wrote it in ``Army.source``.

    The writer writes ``"<origin>: <data set>, <army> (id <id>)"``; the data set is the part
    before the army's name. A source written otherwise stands for itself."""
    tail = f", {army.name} (id {army.source_id})"
    return army.source[: -len(tail)] if army.source.endswith(tail) else army.source


@dataclass(frozen=True)
class Difference:
    """One number two sources give differently for one unit."""

    what: str  # "cost", "per_model", "base_models", "max_models"
    quality: str  # "" for sizes
    left: int
    right: int

    def label(self) -> str:
        quality = _(self.quality.capitalize()) if self.quality else ""
        if self.what == "cost":
            return _("%(quality)s cost") % {"quality": quality}
        if self.what == "per_model":
            return _("%(quality)s cost per extra man") % {"quality": quality}
        if self.what == "base_models":
            return _("fewest men")
        return _("most men")

    def text(self) -> str:
        return f"{self.label()} {self.left} / {self.right}"


@dataclass
class UnitDisagreement:
    name: str
    left: Unit
    right: Unit
    differences: list[Difference]

    def line(self) -> str:
        return f"{self.name}: " + "; ".join(difference.text() for difference in self.differences)


@dataclass
class ArmyComparison:
    """Two imported armies of one nation and edition, from two sources, unit by unit."""

    edition: str
    nation: str
    left: Army
    right: Army
    matched: int = 0  # units both armies have
    disagreements: list[UnitDisagreement] = field(default_factory=list)

    @property
    def left_source(self) -> str:
        return source_of(self.left)

    @property
    def right_source(self) -> str:
        return source_of(self.right)

    def lines(self) -> list[str]:
        lines = [
            f"{self.nation}, edition {self.edition}: {self.left.name} ({self.left_source}) / "
            f"{self.right.name} ({self.right_source})",
            f"  {self.matched} units in both; {len(self.disagreements)} disagree",
        ]
        lines += [f"  {disagreement.line()}" for disagreement in self.disagreements]
        return lines


def differences(left: Unit, right: Unit) -> list[Difference]:
    """Where two units' prices or sizes differ: costs at the qualities both offer, then sizes."""
    found: list[Difference] = []
    for quality in QUALITIES:
        for what in ("cost", "per_model"):
            a, b = getattr(left, f"{what}_{quality}"), getattr(right, f"{what}_{quality}")
            if a is not None and b is not None and a != b:
                found.append(Difference(what, quality, a, b))
    for what in ("base_models", "max_models"):
        a, b = getattr(left, what), getattr(right, what)
        if a != b:
            found.append(Difference(what, "", a, b))
    return found


def _units_by_key(army: Army) -> dict[str, Unit]:
    units: dict[str, Unit] = {}
    # The data's own units: a player's own unit, or one a newer version removed, is nobody's number.
    for unit in army.units.filter(owner__isnull=True, removed=False).order_by("position", "pk"):
        units.setdefault(unit_key(unit.name), unit)
    return units


def compare_armies(left: Army, right: Army) -> ArmyComparison:
    comparison = ArmyComparison(edition=left.edition.slug, nation=nation_of(left.name), left=left, right=right)
    right_units = _units_by_key(right)
    for key, unit in _units_by_key(left).items():
        other = right_units.get(key)
        if other is None:
            continue
        comparison.matched += 1
        found = differences(unit, other)
        if found:
            comparison.disagreements.append(UnitDisagreement(unit.name, unit, other, found))
    return comparison


def compare_sources(edition: str | None = None) -> list[ArmyComparison]:
    """Every pair of imported armies of one edition and nation from two different sources."""
    armies = Army.objects.exclude(origin=Origin.BUILTIN).select_related("edition").order_by("edition__number", "name")
    if edition:
        armies = armies.filter(edition__slug=edition)
    groups: dict[tuple[str, str], list[Army]] = defaultdict(list)
    for army in armies:
        groups[(army.edition.slug, nation_of(army.name))].append(army)
    comparisons = []
    for group in groups.values():
        for left, right in combinations(group, 2):
            if source_of(left) != source_of(right):
                comparisons.append(compare_armies(left, right))
    return comparisons
