"""National rules that act on some units of an army only: Italy's "Cedere, Obbedire, Combattere".

The army chooses one bonus for the whole game (``ArmyList.national_choice``) and the bonus gives a
special rule to some of its units [BR2, Italy]:

- Cedere: Blackshirt 'M' Battalion squads and Regular HQ units gain Fanatics.
- Obbedire: Alpini squads gain Stubborn; Veteran HQ units modelled as Alpini gain Stubborn and
  Mountaineers (a movement rule: named, acts in no calculator).
- Combattere: Bersaglieri squads and Veteran HQ units modelled as Bersaglieri gain Fire and Manoeuvre:
  their rifle-armed models fire on an Advance without the -1.

``gained`` says, from a unit's facts, which of these rules it gains and why. A squad is known by its
unit's name (the catalogue's, or a player's own unit's: "Alpini squad"); how an HQ unit is *modelled*
Muster cannot see, so the player says it by naming the unit (the entry's name, "Bersaglieri captain")
or by an own unit's name. Names are matched in English, Italian and French, whatever their case,
accents or punctuation. Nothing here imports Django.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rules.combat.config import config_for

if TYPE_CHECKING:
    from collections.abc import Callable

UnitKind = Literal["squad", "hq", "other"]
Gain = Literal["fanatics", "stubborn", "fire_and_manoeuvre", "mountaineers"]
Because = Literal["blackshirt", "alpini", "bersaglieri", "regular_hq", "veteran_hq"]

RULE_SLUG = "cedere-obbedire-combattere"  # the catalogue's slug of the rule that offers the bonuses [BR2]
ARMY = "italy"
EDITION = "2e"  # Barracks names the rule for 2nd edition; no public 3rd-edition text was found

# The catalogue's slots of HQ units (the Barracks "Headquarters" section: officers, observers, medics,
# chaplains); an own unit of the "headquarters" kind is one whatever its slot.
HQ_SLOTS = frozenset({"officer", "company_commander", "character", "medic", "forward_observer"})

# Gains whose effect a calculator applies; Mountaineers (moving over rough ground) is only named.
MODELLED = frozenset({"fanatics", "stubborn", "fire_and_manoeuvre"})

RULE_NAMES: dict[str, str] = {
    "fanatics": "Fanatics",
    "stubborn": "Stubborn",
    "fire_and_manoeuvre": "Fire and Manoeuvre",
    "mountaineers": "Mountaineers",
}
CHOICE_NAMES = {"cedere": "Cedere", "obbedire": "Obbedire", "combattere": "Combattere"}
CHOICE_OF: dict[str, str] = {
    "fanatics": "cedere",
    "stubborn": "obbedire",
    "mountaineers": "obbedire",
    "fire_and_manoeuvre": "combattere",
}


def gain_name(rule: str) -> str:
    """ "Fire and Manoeuvre (Combattere)": the gained rule and the bonus that gives it."""
    return f"{RULE_NAMES[rule]} ({CHOICE_NAMES[CHOICE_OF[rule]]})"


# Names, after ``_words`` (lower case, no accents, punctuation as single spaces).
_BLACKSHIRT = re.compile(
    r"\bblack ?shirts?\b|\bcamici[ae] ner[ae]\b|\bchemises? noires?\b|\bccnn\b|\bmvsn\b"
    r"|\bm battalions?\b|\bbattaglion[ei] m\b|\bbataillons? m\b"
)
_ALPINI = re.compile(r"\balpin(?:i|o|a|e|es|s)?\b")
_BERSAGLIERI = re.compile(r"\bbersaglier[ei]\b")


def _words(name: str) -> str:
    """``name`` in lower case without accents, every run of other characters one space:
    "Blackshirt 'M' Battalion Squad" -> "blackshirt m battalion squad"."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    return " ".join(re.findall(r"[a-z0-9]+", plain))


def is_blackshirt(name: str) -> bool:
    return bool(_BLACKSHIRT.search(_words(name)))


def is_alpini(name: str) -> bool:
    return bool(_ALPINI.search(_words(name)))


def is_bersaglieri(name: str) -> bool:
    return bool(_BERSAGLIERI.search(_words(name)))


def unit_kind(unit_type: str, slot: str) -> UnitKind:
    """A catalogue unit's kind for the bonus: an HQ unit (the headquarters kind, or an HQ slot), an
    infantry squad, or anything else (teams, guns, vehicles gain nothing)."""
    if unit_type == "headquarters" or slot in HQ_SLOTS:
        return "hq"
    return "squad" if unit_type == "infantry" else "other"


@dataclass(frozen=True)
class UnitFacts:
    """What the bonus reads of a unit: its unit's names (catalogue or own unit, any language), its
    kind, its quality, and the name the player gave it in the list (how an HQ unit is modelled)."""

    names: tuple[str, ...]
    kind: UnitKind
    quality: str
    given_name: str = ""


@dataclass(frozen=True)
class Gained:
    """One special rule the unit gains: which, from which bonus, and why it qualifies."""

    rule: Gain
    choice: str  # "cedere", "obbedire", "combattere"
    because: Because

    @property
    def name(self) -> str:
        return gain_name(self.rule)

    @property
    def modelled(self) -> bool:
        return self.rule in MODELLED


def offered(edition: str, army: str) -> bool:
    """Whether the army has the bonus in ``edition`` (Italy, 2nd edition)."""
    return army == ARMY and config_for(edition).edition == EDITION


def gained(edition: str, army: str, choice: str, unit: UnitFacts) -> tuple[Gained, ...]:
    """The special rules ``unit`` gains from the Italian bonus ``choice`` (its list's
    ``national_choice``), in book order; () for another army, edition or choice."""
    if not choice or not offered(edition, army):
        return ()
    squad = unit.kind == "squad"
    hq = unit.kind == "hq"
    # A squad is its unit; an HQ unit is also what the player says it is modelled as.
    hq_names = (*unit.names, unit.given_name) if hq else ()

    def named(test: Callable[[str], bool], names: tuple[str, ...]) -> bool:
        return any(test(n) for n in names if n)

    veteran_hq = hq and unit.quality == "veteran"
    if choice == "cedere":
        if squad and named(is_blackshirt, unit.names):
            return (Gained("fanatics", choice, "blackshirt"),)
        if hq and unit.quality == "regular":
            return (Gained("fanatics", choice, "regular_hq"),)
    elif choice == "obbedire":
        if squad and named(is_alpini, unit.names):
            return (Gained("stubborn", choice, "alpini"),)
        if veteran_hq and named(is_alpini, hq_names):
            return (Gained("stubborn", choice, "veteran_hq"), Gained("mountaineers", choice, "veteran_hq"))
    elif choice == "combattere":
        if squad and named(is_bersaglieri, unit.names):
            return (Gained("fire_and_manoeuvre", choice, "bersaglieri"),)
        if veteran_hq and named(is_bersaglieri, hq_names):
            return (Gained("fire_and_manoeuvre", choice, "veteran_hq"),)
    return ()


def gains(edition: str, army: str, choice: str, unit: UnitFacts) -> frozenset[Gain]:
    """The modelled rules among ``gained`` (what the calculators apply)."""
    return frozenset(g.rule for g in gained(edition, army, choice, unit) if g.modelled)


# The weapons Fire and Manoeuvre covers for the bonus: "rifle-armed models" (carbines are rifles on
# the chart); not automatic rifles, unlike the US rule.
RIFLES = frozenset({"rifle"})
