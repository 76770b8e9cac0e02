"""Weapon profiles read from community files, parsed into Muster's typed values or refused.

A community catalogue writes a weapon as four strings (range, shots, penetration, special rules)
and writes them as its authors please: ``'12" - 60"'``, ``'1(D6+1)'``, ``'HE'``, ``'n/a'``. Pages
must never be the first to read them: ``parse_profile`` turns each into numbers and a dice
expression the combat engine has already accepted (the profile is built as a
``rules.combat.weapons.Weapon``, so whatever the odds pages will later ask of it has been asked
once here), or raises ``ProfileRefused`` saying which part could not be read. The importer
reports a refused weapon in its summary and keeps the units without it.

``split_mount`` reads a weapon name that carries its mount ("Front Pintle-mounted LMG",
"Co-axial MMG"): the weapon is the chart's LMG or MMG, and the mount belongs on the unit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.combat.dice import dice_pmf
from rules.combat.weapons import Weapon
from rules.errors import RulesError

from .classify import weapon_mount
from .untrusted import forbidden_character

# No Bolt Action weapon reaches past 84" (a super-heavy gun, a heavy howitzer's indirect band);
# anything far beyond is a typing slip or a hostile file, and would overflow the chart's columns.
MAX_RANGE = 240
MAX_PEN = 12
MAX_NAME = 200
# Words that stand for "no penetration bonus" in the files.
_NO_PEN = frozenset({"", "-", "–", "—", "n/a", "na", "none", "0", "he", "he only", "x"})
# Words that stand for "no range": the weapon is used in close combat only.
_NO_RANGE = frozenset({"-", "–", "—", "n/a", "na", "none", "cc", "close combat", "close-combat", "melee"})
_NUMBER_RE = re.compile(r"\d+")
_BAND_RE = re.compile(r"(\d+)\s*\"?\s*[-–]\s*(\d+)")
_PEN_RE = re.compile(r"^\+?\s*(\d+)\b")
_HE_RE = re.compile(r"\bHE\s*\(?\s*(\d+)", re.IGNORECASE)
# "1(D6+1)" and "1 (D6 hits)": one shot whose hit scores the bracketed dice (a flamethrower).
_SHOTS_RE = re.compile(r"^\s*([0-9D+\- ]+?)\s*(?:\(\s*([0-9D+\- ]+?)\s*(?:hits?)?\s*\))?\s*$", re.IGNORECASE)

# A mount or arc word at the start or end of a weapon name, with its "-mounted"/"-facing" tail.
_MOUNT_WORDS = (
    r"co-?\s?axial(?:ly)?(?:[\s-]mounted)?",
    r"pintle(?:[\s-]mounted)?",
    r"turret(?:[\s-]mounted)?",
    r"hull(?:[\s-]mounted)?",
    r"sponson(?:[\s-]mounted)?",
    r"casemate(?:[\s-]mounted)?",
    r"(?:front|forward|rear|left|right)(?:[\s-]facing)?",
    r"bow",
    r"360\s*°?",
    r"mounted",
    r"facing",
)
_MOUNT_WORD_RE = re.compile(rf"^(?:{'|'.join(_MOUNT_WORDS)})$", re.IGNORECASE)
_MOUNT_NOTE_RE = re.compile(r"\(\s*(?:360\s*°?|front|rear|left|right|forward)[^)]*\)", re.IGNORECASE)


class ProfileRefused(ValueError):
    """A weapon profile that cannot be read; ``part`` names the characteristic (range, shots, ...)."""

    def __init__(self, part: str, message: str) -> None:
        super().__init__(f"{part}: {message}")
        self.part = part
        self.message = message


@dataclass(frozen=True)
class Profile:
    """A weapon as Muster stores it, every value checked: what the chart and the engine read."""

    name: str
    range_max: int
    range_min: int | None
    indirect_min: int | None
    indirect_max: int | None
    shots: str  # a dice expression the engine reads: "1", "4", "D6", "D6+1", "2D6"
    pen: int
    he_size: int | None
    special_rules: tuple[str, ...]
    hits: str | None = None  # the bracketed hit dice of "1 (D6+1)"


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


def _text(value: str | None, part: str) -> str:
    text = _clean(value)
    problem = forbidden_character(text)
    if problem is not None:
        raise ProfileRefused(part, f"contains {problem}")
    return text


def _inches(digits: str, part: str) -> int:
    if len(digits) > 4 or int(digits) > MAX_RANGE:
        raise ProfileRefused(part, f'{digits}" is beyond any weapon\'s reach (at most {MAX_RANGE}")')
    return int(digits)


def parse_range(text: str) -> tuple[int | None, int, int | None, int | None]:
    """``'12-60"'`` to (12, 60, None, None); ``'72" (or 36-84)'`` to (None, 72, 36, 84); ``'-'`` to
    (None, 0, None, None): a weapon with no range (grenades, a demolition charge, a launcher's
    close-combat profile) is used in close combat, never fired at a distance."""
    if text.strip().lower() in _NO_RANGE:
        return None, 0, None, None
    main, _sep, extra = text.partition("(")
    numbers = _NUMBER_RE.findall(main)
    if not numbers:
        raise ProfileRefused("range", f"{text!r} holds no distance")
    band = _BAND_RE.search(main)
    indirect = _BAND_RE.search(extra)
    indirect_band: tuple[int | None, int | None] = (None, None)
    if indirect:
        low, high = _inches(indirect.group(1), "range"), _inches(indirect.group(2), "range")
        if low > high:
            raise ProfileRefused("range", f"{text!r}: the indirect band runs backwards")
        indirect_band = (low, high)
    if band:
        low, high = _inches(band.group(1), "range"), _inches(band.group(2), "range")
        if low > high:
            raise ProfileRefused("range", f"{text!r}: the minimum range is beyond the maximum")
        return low, high, *indirect_band
    return None, _inches(numbers[0], "range"), *indirect_band


def _dice(text: str, part: str) -> str:
    spec = text.replace(" ", "").upper()
    if len(spec) > 8:  # "2D6+12" at most; a 5,000-digit "number" must not reach int()
        raise ProfileRefused(part, f"{text[:20]!r} is not a dice expression Muster reads (1, 4, D3, D6+1, 2D6)")
    try:
        pmf = dice_pmf(spec)
    except RulesError:
        raise ProfileRefused(part, f"{text!r} is not a dice expression Muster reads (1, 4, D3, D6+1, 2D6)") from None
    if min(pmf) < 0 or max(pmf) > 20:
        raise ProfileRefused(part, f"{text!r} is outside 0 to 20")
    return spec


def parse_shots(text: str) -> tuple[str, str | None]:
    """``'4'`` to ("4", None); ``'1(D6+1)'`` to ("1", "D6+1"): the shots, and a hit's dice when bracketed."""
    match = _SHOTS_RE.match(text)
    if not text or match is None:
        raise ProfileRefused("shots", f"{text!r} is not a dice expression Muster reads (1, 4, D3, D6+1, 2D6)")
    shots, hits = match.groups()
    return _dice(shots, "shots"), _dice(hits, "shots") if hits else None


def parse_pen(text: str) -> int:
    """``'+5'`` to 5; ``'n/a'``, ``'-'`` and ``'HE'`` to 0 (no bonus)."""
    lowered = text.strip().lower()
    if lowered in _NO_PEN:
        return 0
    match = _PEN_RE.match(lowered)
    if match is None:
        raise ProfileRefused("penetration", f"{text!r} is not a bonus like +3")
    if len(match.group(1)) > 3 or int(match.group(1)) > MAX_PEN:
        raise ProfileRefused("penetration", f"+{match.group(1)} is beyond any weapon (at most +{MAX_PEN})")
    return int(match.group(1))


def parse_he(texts: list[str]) -> int | None:
    """The HE template in inches from ``HE (2")`` among the rules, or None."""
    for text in texts:
        match = _HE_RE.search(text)
        if match:
            size = match.group(1)
            if len(size) > 2 or not 1 <= int(size) <= 6:
                raise ProfileRefused("special rules", f'HE ({size}") is not a template of 1 to 6 inches')
            return int(size)
    return None


def parse_profile(name: str, range_text: str, shots_text: str, pen_text: str, rules: list[str]) -> Profile:
    """A profile's four strings as typed values, checked by the engine; ``ProfileRefused`` otherwise."""
    clean_name = _text(name, "name")
    if not clean_name:
        raise ProfileRefused("name", "empty")
    if len(clean_name) > MAX_NAME:
        raise ProfileRefused("name", f"{len(clean_name)} characters long (at most {MAX_NAME})")
    range_min, range_max, indirect_min, indirect_max = parse_range(_text(range_text, "range"))
    shots, hits = parse_shots(_text(shots_text, "shots"))
    pen_clean = _text(pen_text, "penetration")
    pen = parse_pen(pen_clean)
    special = tuple(rule for rule in (_text(rule, "special rules") for rule in rules) if rule)
    he_size = parse_he([*special, pen_clean])
    profile = Profile(clean_name, range_max, range_min, indirect_min, indirect_max, shots, pen, he_size, special, hits)
    try:  # the engine's own checks, so a page never meets a profile it would refuse
        Weapon(
            name=clean_name,
            slug="imported",
            range_max=range_max,
            range_min=range_min,
            shots=shots,
            pen=pen,
            he_size=he_size,
        )
    except RulesError as exc:
        raise ProfileRefused("profile", str(exc)) from None
    return profile


@dataclass(frozen=True)
class Mounted:
    """A weapon name read as a mount and the weapon on it ("Front Pintle-mounted LMG": pintle, front, LMG)."""

    weapon: str
    mount: str
    arc: str


def split_mount(name: str) -> Mounted | None:
    """The weapon a mounted name stands for, or None when the name names no mount.

    Mount and arc words are taken off the front and back of the name ("Front Pintle-mounted LMG",
    "LMG (360°)", "Co-axial MMG"); what is left is the weapon. A name that is nothing but mount
    words, or has none, is not a mount variant.
    """
    text = _clean(_MOUNT_NOTE_RE.sub(" ", name))
    tokens = [word for word in text.replace(" - ", " ").split(" ") if word]
    start, end = 0, len(tokens)
    while start < end and _MOUNT_WORD_RE.match(tokens[start].strip(",")):
        start += 1
    while end > start and _MOUNT_WORD_RE.match(tokens[end - 1].strip(",")):
        end -= 1
    weapon = " ".join(tokens[start:end]).strip(" ,-")
    if not weapon or (start == 0 and end == len(tokens) and text == _clean(name)):
        return None
    mount, arc, _coaxial = weapon_mount(name)
    return Mounted(weapon, mount, arc)
