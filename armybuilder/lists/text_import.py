"""A list pasted as Muster's own plain-text export (``exchange.export_text``), read back into the list
format (``muster-list/3``), so the JSON reader (``exchange.parse_list``) checks it like any file.

The text is written for people: it names the edition, the army, the units, their quality and
options by their names (in the language of the page it came from: English or French names are
recognised), numbers shared names ("Rifle Squad 2"), and counts the men that teams add. Each line
is read back into slugs and counts here; a line that does not read, or that names something the
text cannot carry (a player's own unit, whose definition is not in the text; a platoon given its
own name, whose kind the text does not say), is refused with its line number. Officers, problems,
weapons and points are worked out again from the data, so their lines are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils import translation
from django.utils.translation import gettext

from armybuilder.catalogue.models import Army, Quality, Unit
from armybuilder.lists.exchange import FORMAT, ListImportError
from armybuilder.lists.models import PlatoonKind
from armybuilder.reference.models import Edition

LINES_MAX = 2000  # far beyond a list's hundred units and their weapon lines

_POINTS = re.compile(r"(\d+)\s*/\s*(\d+)")
_ENTRY = re.compile(
    r"^\*\s+(?P<name>.+?) \((?P<quality>[^,()]+), (?P<models>\d+)[^)]*\)(?P<own> \[[^\]]+\])?(?:: (?P<options>.+))?$"
)
_COUNTED = re.compile(r"^(?P<name>.+?) x(?P<count>\d+)$")
_NUMBERED = re.compile(r"^(?P<name>.+?) #?\d+$")  # "Rifle Squad #2", "Rifle Platoon 2" (rules.army.names)


def _both(message: str) -> set[str]:
    """An interface string as English and the active language write it, lower case."""
    with translation.override("en"):
        english = gettext(message)
    return {english.lower(), gettext(message).lower()}


def _label(choice) -> set[str]:
    """A choice's label (``TextChoices``) as English and the active language write it, lower case."""
    with translation.override("en"):
        english = str(choice.label)
    return {english.lower(), str(choice.label).lower()}


def _labels(*names: str) -> set[str]:
    return {name.strip().lower() for name in names if name}


@dataclass
class _Reading:
    errors: list[str] = field(default_factory=list)
    platoons: list[dict] = field(default_factory=list)
    entries: list[dict] = field(default_factory=list)

    def refuse(self, number: int, message: str) -> None:
        self.errors.append(f"Line {number}: {message}")


def _find(candidates, text: str):
    """The candidate whose name, French name or shown name is ``text`` (case aside), then without a
    trailing number (a shared name numbered on the page)."""
    wanted = text.strip().lower()
    numbered = _NUMBERED.match(wanted)
    for attempt in (wanted, numbered.group("name") if numbered else None):
        if attempt is None:
            continue
        for candidate in candidates:
            if attempt in _labels(candidate.name, getattr(candidate, "name_fr", ""), candidate.display_name):
                return candidate
    return None


def _header(lines: list[tuple[int, str]], reading: _Reading) -> tuple[dict, int]:
    """The name, edition, army, points limit and force organisation: the lines before the first blank."""
    head: dict = {}
    if len(lines) < 3:
        reading.errors.append(
            "The text is too short: Muster's text export starts with the list's name, the edition and army, "
            "and the points."
        )
        return head, len(lines)
    (n1, name), (n2, army_line), (n3, points_line) = lines[0], lines[1], lines[2]
    if not name.strip() or len(name.strip()) > 100:
        reading.refuse(n1, "the list's name, 1 to 100 characters.")
    head["name"] = name.strip()[:100]
    edition_text, _dash, army_text = army_line.partition(" - ")
    edition = _find(list(Edition.objects.all()), edition_text) if army_text else None
    if edition is None:
        reading.refuse(
            n2, f"“{army_line.strip()}” is not an edition and army as Muster writes them (“3rd edition - Germany”)."
        )
    else:
        army = _find(list(Army.objects.filter(edition=edition)), army_text)
        if army is None:
            reading.refuse(n2, f"no army “{army_text.strip()}” in {edition.display_name}.")
        else:
            head |= {"edition": edition.slug, "army": [edition.slug, army.slug], "_army": army}
    points = _POINTS.search(points_line)
    if points is None:
        reading.refuse(n3, "the points as Muster writes them (“Points: 995 / 1000 …”).")
    else:
        head["points_limit"] = int(points.group(2))
    head["force_org"] = "platoons"
    index = 3
    no_restrictions = _both("Force organisation: no restrictions")
    while index < len(lines) and lines[index][1].strip():
        if lines[index][1].strip().lower() in no_restrictions:
            head["force_org"] = "none"
        index += 1  # the list's own tournament limits: an event replaces them with its own
    return head, index


def _platoon(number: int, title: str, reading: _Reading) -> int | None:
    """The platoon a title opens (its index), None for the units in no platoon."""
    if title.strip().lower() in _both("Not in a platoon"):
        return None
    for kind in PlatoonKind:
        labels = _label(kind)
        bare = _NUMBERED.match(title.strip())
        if title.strip().lower() in labels or (bare and bare.group("name").lower() in labels):
            reading.platoons.append({"kind": kind.value, "name": ""})
            return len(reading.platoons) - 1
    reading.refuse(
        number,
        f"platoon “{title.strip()}”: the text does not say which kind of platoon a named platoon is; "
        "paste the list's JSON export instead, or name it by its kind (“Rifle Platoon”).",
    )
    return None


def _entry(number: int, line: str, army: Army, platoon: int | None, units: list[Unit], reading: _Reading) -> None:
    match = _ENTRY.match(line.rsplit(" - ", 1)[0].strip())
    if match is None:
        reading.refuse(
            number,
            f"“{line.strip()}” is not a unit as Muster writes it (“* Rifle Squad (Regular, 5 models) - 50 pts”).",
        )
        return
    name = match.group("name")
    if match.group("own"):
        reading.refuse(
            number,
            f"{name} is the player's own unit, whose definition the text does not carry: "
            "paste the list's JSON export instead.",
        )
        return
    unit = _find(units, name)
    if unit is None:
        reading.refuse(
            number,
            f"no unit “{name}” in {army.display_name} (a unit renamed in the builder is written by its new name).",
        )
        return
    typed = match.group("quality").strip().lower()
    quality = next((q.value for q in Quality if typed in {*_label(q), q.value}), None)
    if quality is None:
        reading.refuse(number, f"“{match.group('quality')}” is not a quality (Inexperienced, Regular, Veteran).")
        return
    options: dict[str, int] = {}
    added = 0
    for part in filter(None, (p.strip() for p in (match.group("options") or "").split(", "))):
        counted = _COUNTED.match(part)
        option_name, count = (counted.group("name"), int(counted.group("count"))) if counted else (part, 1)
        option = _find(list(unit.options.all()), option_name)
        if option is None:
            reading.refuse(number, f"{unit.display_name} has no option “{option_name}”.")
            return
        options[option.slug] = options.get(option.slug, 0) + count
        added += option.adds_models * count
    reading.entries.append(
        {
            "unit": unit.slug,
            "name": "",
            "quality": quality,
            "models": int(match.group("models")) - added,
            "options": options,
            "platoon": platoon,
        }
    )


def export_from_text(text: str) -> dict:
    """The ``muster-list/3`` data of a list pasted as Muster's text export; ``ListImportError`` names
    every line that does not read (the first problems, with their line numbers)."""
    numbered = [(n, line.rstrip()) for n, line in enumerate(text.splitlines()[:LINES_MAX], start=1)]
    lines = [(n, line) for n, line in numbered if line.strip() or n > 1]
    while lines and not lines[0][1].strip():
        lines.pop(0)
    reading = _Reading()
    head, index = _header(lines, reading)
    army = head.pop("_army", None)
    units = list(Unit.objects.filter(army=army).builtin().prefetch_related("options")) if army else []
    skipping = {*_both("Officers"), *_both("Problems")}
    ended = _both("Built with Muster")
    platoon: int | None = None
    section_skipped = False
    body = lines[index:]
    for position, (number, line) in enumerate(body):
        stripped = line.strip()
        following = body[position + 1][1].strip() if position + 1 < len(body) else ""
        if not stripped or set(stripped) == {"-"}:
            continue
        if stripped.lower() in ended:
            break
        if stripped.lower() in skipping:
            section_skipped = True
            continue
        if line.startswith("  ") and not stripped.startswith("*"):
            continue  # a unit's weapons: worked out again from the data
        if stripped.startswith("*"):
            if not section_skipped and army is not None:
                _entry(number, stripped, army, platoon, units, reading)
            continue
        if following and set(following) == {"-"}:
            section_skipped = False
            platoon = _platoon(number, stripped, reading)
            continue
        reading.refuse(number, f"“{stripped[:80]}” is not a line of Muster's text export.")
    if not reading.entries and not reading.errors:
        reading.errors.append("The text lists no unit: paste the whole of Muster's text export.")
    if reading.errors:
        raise ListImportError(reading.errors)
    return {"format": FORMAT, **head, "platoons": reading.platoons, "entries": reading.entries}
