"""Army-builder "module" files (one JSON document for a generic list-building app) to the neutral model.

The community's richest public 3rd-edition data (the ``TTAMBA-Condensed`` file of
``PhyrexianQueen/BoltAction3D-WWII``) is one such module. Its shape, as the file itself shows it:

- top level: ``game`` ("Bolt Action"), ``toggles`` (switches a player turns on: ``bluesky``,
  ``campaign``, ``community``, ``compendium``, ``special``), ``credit``, and ``data``;
- ``data.factions``: the nations (``name``, optional ``additionalRules``: "Name - text; book, page",
  optional toggle flags);
- ``data.platoons``: the platoon kinds ("HQ Platoon", "Rifle Platoon", "Armored Platoon"...);
- ``data.units``: every unit once for all nations. ``availableIn`` lists the (platoon, nation)
  pairs it may fill (``[{"all": [{"in": "Rifle Platoon"}, {"in": "Germany"}]}, ...]``);
  ``order`` the order dice it gives; ``models`` its men; ``keywords`` its special rules, its
  war period ("Period: E|M|L") and its damage value ("Damage Value: 9+"); ``equipment`` its
  weapons with their mounts ("Turret Mounted Light Howitzer"); ``options`` everything bought:
  the qualities (``requireChooseOneKey: "morale"``, each with its price and nations), extra men
  (``increment`` and ``addsModels``), per-man swaps (``max: "parentModels"``, a shared ``maxKey``
  and a ``localLimit``), whole-unit upgrades (``perModel``), one-of groups (``chooseOneKey``),
  and what each is unlocked by (``unlockedByLocal``: qualities, or another option).

One imported army per faction. Nothing here imports Django; ``armybuilder.importers.writer``
writes the result.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any

from .classify import classify, platoon_kind, weapon_mount
from .model import (
    QUALITIES,
    ImportedArmy,
    ImportedCatalogue,
    ImportedOption,
    ImportedOptionGroup,
    ImportedRule,
    ImportedUnit,
    ImportedWeaponLine,
    ImportReport,
)
from .safety import CatalogueImportError, parse_json
from .untrusted import quoted_text

SYSTEM_NAME = "Bolt Action army-builder module"
EDITION = "v3"
# The toggles of the module that keep units out of ordinary play; "experimental" is a keyword.
FLAGS = ("campaign", "community", "compendium", "bluesky", "special")
_QUALITY_RE = re.compile(r"^\s*(inexperienced|green|regular|experienced|veteran)\b", re.IGNORECASE)
_QUALITY_WORDS = {"green": "inexperienced", "experienced": "regular"}
_EXTRA_MEN_RE = re.compile(r"^\s*additional\s+(men|man|soldiers?|crew(men|man)?)\s*$", re.IGNORECASE)
_DAMAGE_RE = re.compile(r"^\s*damage\s+value\s*:?\s*(\d+)\s*\+", re.IGNORECASE)
_PERIOD_RE = re.compile(r"^\s*period\s*:\s*([EML](?:\s*\|\s*[EML])*)\s*$", re.IGNORECASE)
_TRANSPORT_RE = re.compile(r"(?:^|\n)\s*transport\s*[:(]\s*(\d+)", re.IGNORECASE)
_EXPERIMENTAL_RE = re.compile(r"\bexperimental\b", re.IGNORECASE)
_SEPARATOR_RE = re.compile(r"^[\s\-_=*]*$")
# "Turret Mounted Coaxial MMG", "Casement Light Howitzer", "Hull Mounted F|L Flamethrower (Vehicle)".
_MOUNTED_RE = re.compile(r"^(?P<mount>.*?)\bmounted\s+(?P<weapon>.+)$", re.IGNORECASE)
_CASEMATE_RE = re.compile(r"^\s*case(?:ment|mate)\s+(?P<weapon>.+)$", re.IGNORECASE)
_ARC_CODE_RE = re.compile(r"^\s*([FRLB])\s*\|\s*([FRLB])\s+", re.IGNORECASE)
_ARC_CODES = {"f": "front", "b": "rear", "l": "left", "r": "right"}
_TRAILING_ARC_RE = re.compile(r",\s*([FRLB])\s*\|\s*([FRLB])\s*$", re.IGNORECASE)
_FACING_RE = re.compile(r"^\s*(front|forward|rear|left|right)\s+facing\s+", re.IGNORECASE)
_ARC_WORDS = {"front": "front", "forward": "front", "rear": "rear", "left": "left", "right": "right"}
_COAXIAL_RE = re.compile(r"^\s*co-?\s?axial\s+", re.IGNORECASE)
_TWIN_RE = re.compile(r"^\s*(twin|dual|triple|quad)\s+", re.IGNORECASE)
# Weapons the chart knows, at the end of an equipment or option name ("NCO SMG", "LMGs"), plural or not.
_WEAPON_END_RE = re.compile(
    r"(super[\s-]heavy at gun|(?:light|medium|heavy) (?:at gun|howitzer(?: gun)?|mortar|autocannon)|"
    r"flamethrower(?: \(vehicle\))?|anti-tank rifle|sniper rifle|assault rifle|automatic rifle|rifle|"
    r"smg|lmg|mmg|hmg|pistol|shotgun|bazooka|piat|panzerfaust|panzerschreck)s?$",
    re.IGNORECASE,
)
_NOT_WEAPON_RE = re.compile(r"shield|armou?r|skirts?|shells?|adaptor|grenades?|vehicle\b(?!\))", re.IGNORECASE)
_SMALL_ARMS = {"Rifle", "SMG", "LMG", "Pistol", "Shotgun", "Assault Rifle", "Automatic Rifle", "Sniper Rifle"}
_MAX_MODELS = 1000
_MAX_POINTS = 100_000


def looks_like_module(data: Any) -> bool:
    """Whether a parsed JSON document is an army-builder module for Bolt Action (by content, never by name)."""
    if not isinstance(data, dict):
        return False
    inner = data.get("data")
    game = data.get("game")
    return (
        isinstance(game, str)
        and game.strip().lower() == "bolt action"
        and isinstance(inner, dict)
        and "factions" in inner
        and "units" in inner
    )


def sniff_module(name: str, data: bytes) -> bool:
    """Whether the bytes of a file are such a module: cheap checks first, then the JSON itself."""
    head = data[:4096].lstrip()
    if not head.startswith(b"{") or b'"game"' not in data[:200_000] or b'"units"' not in data:
        return False
    try:
        return looks_like_module(parse_json(name, data))
    except CatalogueImportError:
        return False


_QUALITY_NAMES = ("inexperienced", "regular", "veteran")


def _texts(value: Any) -> list[str]:
    return [text for item in value if (text := _text(item))] if isinstance(value, list) else []


def _text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "item"


def _whole(value: Any, where: str, *, minimum: int = 0, maximum: int = _MAX_POINTS) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise CatalogueImportError(f"{where} is {value!r}, not a whole number")
    if not minimum <= value <= maximum:
        raise CatalogueImportError(f"{where} is {int(value)}, outside {minimum}..{maximum}")
    return int(value)


def _flags_of(raw: dict[str, Any], keywords: list[str] = ()) -> list[str]:
    flags = [flag for flag in FLAGS if raw.get(flag) is True]
    if any(_EXPERIMENTAL_RE.search(word) for word in keywords):
        flags.append("experimental")
    return flags


def _quality(name: str) -> str | None:
    match = _QUALITY_RE.match(name)
    if match is None:
        return None
    word = match.group(1).lower()
    return _QUALITY_WORDS.get(word, word)


def _weapon_name(text: str) -> str | None:
    """The chart weapon a name ends with, singular ("LMGs" -> "LMG", "NCO SMG" -> "SMG"), or None."""
    text = _text(text)
    if _NOT_WEAPON_RE.search(text):
        return None
    match = _WEAPON_END_RE.search(text)
    if match is None:
        return None
    word = re.sub(r"(howitzer) gun$", r"\1", match.group(0), flags=re.IGNORECASE)
    if word.lower().endswith("s") and not word.lower().endswith("(vehicle)"):
        word = word[:-1]
    return word


def _arc_of(*letters: str) -> str:
    """One arc for the module's two-letter arcs: "F|L" (front and left) is the left one, told apart from "F|R"."""
    arcs = [_ARC_CODES[letter.lower()] for letter in letters]
    return next((arc for arc in arcs if arc != "front"), "front")


def equipment_lines(text: str) -> list[ImportedWeaponLine]:
    """The weapon lines of one equipment string; "A; B" holds two ("Turret Mounted MMG, F|R; Turret
    Mounted MMG, F|L": two turret MMGs, front-right and front-left)."""
    return [line for part in _text(text).split(";") if (line := equipment_line(part)) is not None]


@functools.lru_cache(maxsize=4096)
def equipment_line(text: str) -> ImportedWeaponLine | None:
    """A weapon line from an equipment string ("Turret Mounted Coaxial MMG": coaxial MMG, 360°), or None.

    The module writes the mount before the word "Mounted" (turret, hull, pintle, platform, nose,
    wing, rear; "Rear Facing Hull Mounted"); "Casement" is its spelling of a casemate; an arc is
    written "F|L" before the weapon or after a comma, or in words ("Rear Facing", "Left Facing").
    """
    name = _text(text)
    mount = arc = ""
    weapon = name
    trailing = _TRAILING_ARC_RE.search(weapon)
    if trailing is not None:
        arc = _arc_of(trailing.group(1), trailing.group(2))
        weapon = weapon[: trailing.start()]
    mounted = _MOUNTED_RE.match(weapon)
    casemate = _CASEMATE_RE.match(weapon)
    if mounted is not None:
        words = mounted.group("mount")
        weapon = mounted.group("weapon")
        mount, word_arc, _coaxial = weapon_mount(f"{words} mounted")
        if not mount and re.search(r"\b(nose|wing)\b", words, re.IGNORECASE):
            mount, word_arc = "hull", "front"
        arc = arc or word_arc
    elif casemate is not None:
        weapon, mount = casemate.group("weapon"), "casemate"
    codes = _ARC_CODE_RE.match(weapon)
    if codes is not None:
        arc = arc or _arc_of(codes.group(1), codes.group(2))
        weapon = weapon[codes.end() :]
    facing = _FACING_RE.match(weapon)
    if facing is not None:
        arc = arc or _ARC_WORDS[facing.group(1).lower()]
        weapon = weapon[facing.end() :]
    if _COAXIAL_RE.match(weapon):
        weapon, mount = _COAXIAL_RE.sub("", weapon), "coaxial"
    count = 1
    twin = _TWIN_RE.match(weapon)
    if twin is not None:
        count = {"twin": 2, "dual": 2, "triple": 3, "quad": 4}[twin.group(1).lower()]
        weapon = weapon[twin.end() :]
    # A turret's weapons, its co-axial one too, fire all round; the module's equipment says so ("360° Arc").
    if (mount == "turret" or (mount == "coaxial" and re.search(r"\bturret\b", name, re.IGNORECASE))) and not arc:
        arc = "360"
    if mount in ("hull", "casemate") and not arc:
        arc = "front"
    found = _weapon_name(weapon)
    if found is None:
        return None
    return ImportedWeaponLine(weapon=found, mount=mount, count=count, arc=arc)


@dataclass
class _Variant:
    raw: dict[str, Any]
    index: int
    platoons: list[str]


class _ModuleParser:
    def __init__(self, name: str, root: dict[str, Any], report: ImportReport):
        self.name = name
        self.report = report
        self.rules: dict[str, ImportedRule] = {}
        data = root["data"]
        self.factions = self._factions(data.get("factions"))
        self.faction_names = {faction["name"] for faction in self.factions}
        self.platoons = self._platoons(data.get("platoons"))
        self.definitions = self._definitions(data.get("keywords"))
        # nation -> rule name -> the text the module gives the nation's rule
        self.national_texts: dict[str, dict[str, str]] = {}
        units = data.get("units")
        if not isinstance(units, list):
            raise CatalogueImportError(f"{name}: data.units is not a list")
        self.units = units
        self.exact_prices = 0
        self.needs_option = 0
        self.needs_unit = 0
        self.rifles_guessed = 0
        self.dropped_unit_points = 0

    # -- the file's parts ----------------------------------------------------------------------

    def _factions(self, raw: Any) -> list[dict[str, Any]]:
        if not isinstance(raw, list) or not raw:
            raise CatalogueImportError(f"{self.name}: data.factions is not a list of nations")
        factions = []
        seen: set[str] = set()
        for index, item in enumerate(raw):
            name = _text(item.get("name")) if isinstance(item, dict) else ""
            if not name:
                raise CatalogueImportError(f"{self.name}: data.factions[{index}] has no name")
            if name in seen:
                raise CatalogueImportError(f"{self.name}: the nation {name!r} is listed twice in data.factions")
            seen.add(name)
            factions.append(item)
        return factions

    def _platoons(self, raw: Any) -> dict[str, str | None]:
        """Platoon name -> Muster platoon kind (None for the HQ and kinds Muster lacks)."""
        if raw is None:
            return {}
        if not isinstance(raw, list):
            raise CatalogueImportError(f"{self.name}: data.platoons is not a list")
        platoons: dict[str, str | None] = {}
        for index, item in enumerate(raw):
            name = _text(item.get("name")) if isinstance(item, dict) else ""
            if not name:
                raise CatalogueImportError(f"{self.name}: data.platoons[{index}] has no name")
            platoons[name] = platoon_kind(name)
        return platoons

    def _definitions(self, raw: Any) -> dict[str, str]:
        """Keyword name -> the module's own definition of it (``data.keywords``), plain and bounded.

        The module defines its special rules here once ("Stubborn": its text; its book, page); a
        definition that is a stand-in ("---") or empty is left out. Malformed entries are ignored:
        the texts are shown beside the rules, never needed to play them.
        """
        definitions: dict[str, str] = {}
        for item in raw if isinstance(raw, list) else []:
            if not isinstance(item, dict):
                continue
            name, text = _text(item.get("name")), quoted_text(item.get("definition"))
            if name and not _SEPARATOR_RE.match(name) and text and not _SEPARATOR_RE.match(text):
                definitions.setdefault(name, text)
        return definitions

    def _is_hq(self, platoon: str) -> bool:
        return bool(re.search(r"\b(hq|headquarters?)\b", platoon, re.IGNORECASE))

    def _fills_a_slot(self, platoon: str) -> bool:
        return self._is_hq(platoon) or self.platoons.get(platoon) is not None or platoon_kind(platoon) is not None

    def _availability(self, raw: dict[str, Any], where: str) -> list[tuple[str, str | None]]:
        """(platoon, nation) pairs; a clause without a nation is open to every nation."""
        clauses = raw.get("availableIn", [])
        if not isinstance(clauses, list):
            raise CatalogueImportError(f"{where}: availableIn is not a list")
        pairs: list[tuple[str, str | None]] = []
        for clause in clauses:
            terms = clause.get("all") if isinstance(clause, dict) else None
            if not isinstance(terms, list):
                raise CatalogueImportError(f"{where}: availableIn holds {clause!r}, not {{'all': [...]}}")
            names = [_text(term.get("in")) for term in terms if isinstance(term, dict)]
            nations = [name for name in names if name in self.faction_names]
            platoons = [name for name in names if name and name not in self.faction_names]
            for platoon in platoons or [""]:
                for nation in nations or [None]:
                    pairs.append((platoon, nation))
        return pairs

    # -- armies ------------------------------------------------------------------------------------

    def armies(self) -> list[ImportedArmy]:
        by_nation: dict[str, dict[str, list[_Variant]]] = {faction["name"]: {} for faction in self.factions}
        for index, raw in enumerate(self.units):
            self.report.entries_read += 1
            if not isinstance(raw, dict):
                self.report.skip(f"{self.name}: data.units[{index}]", "not an object")
                continue
            name = _text(raw.get("name"))
            label = f"{self.name}: {name or f'data.units[{index}]'}"
            if not name or _SEPARATOR_RE.match(name):
                self.report.skip(label, "a separator line of the module, not a unit")
                continue
            locked = raw.get("unlockedByLocal")
            if isinstance(locked, dict) and _never_unlocked(locked):
                self.report.skip(label, "locked in the module (unlocked by a key no list holds)")
                continue
            if isinstance(locked, dict):
                # Offered once the list holds another unit ("quantityRequired": 1, "key": "Ss-Ki"):
                # imported; Muster does not check the other unit is there (the report counts them).
                self.needs_unit += 1
            try:
                pairs = self._availability(raw, label)
            except CatalogueImportError as exc:
                self.report.skip(label, exc.message)
                continue
            if not pairs:
                self.report.skip(label, "available in no nation")
                continue
            nations: dict[str, list[str]] = {}
            for platoon, nation in pairs:
                for each in [nation] if nation else list(by_nation):
                    nations.setdefault(each, [])
                    if platoon and platoon not in nations[each]:
                        nations[each].append(platoon)
            for nation, platoons in nations.items():
                usable = [p for p in platoons if self._fills_a_slot(p)]
                if platoons and not usable:
                    self.report.skip(
                        f"{nation}: {name}",
                        f"only in {', '.join(platoons)}, which Muster has no platoon for",
                    )
                    continue
                by_nation[nation].setdefault(name, []).append(_Variant(raw, index, usable))
        return [self._army(faction, by_nation[faction["name"]]) for faction in self.factions]

    def _army(self, faction: dict[str, Any], units_by_name: dict[str, list[_Variant]]) -> ImportedArmy:
        nation = faction["name"]
        national: list[str] = []
        rules = faction.get("additionalRules", [])
        for text in rules if isinstance(rules, list) else []:
            rule = self._rule(nation, text)
            if rule and rule not in national:
                national.append(rule)
        army_flags = _flags_of(faction)
        if army_flags:
            self.report.warn(
                f"{nation}: the module marks the nation {', '.join(army_flags)}; its units are marked so too"
            )
        units: list[ImportedUnit] = []
        for name, variants in units_by_name.items():
            distinct: list[_Variant] = []
            for variant in variants:
                same = next((d for d in distinct if _same_entry(d.raw, variant.raw)), None)
                if same is None:
                    distinct.append(_Variant(variant.raw, variant.index, list(variant.platoons)))
                else:
                    same.platoons += [p for p in variant.platoons if p not in same.platoons]
            for number, variant in enumerate(distinct, start=1):
                label = name
                if len(distinct) > 1:
                    label = self._variant_label(name, variant, distinct, number)
                source_id = f"{_slug(nation)}/{_slug(name)}" + (f"#{number}" if number > 1 else "")
                try:
                    units.append(self._unit(nation, label, variant, source_id, army_flags))
                except CatalogueImportError as exc:
                    self.report.skip(f"{nation}: {label}", exc.message)
        guessed = sum(1 for unit in units if unit.type_source == "name")
        marked = sum(1 for unit in units if unit.flags)
        skipped = sum(1 for entry, _reason in self.report.skipped if entry.startswith(f"{nation}: "))
        self.report.warn(
            f"{nation}: {len(units)} units read, {skipped} skipped; {guessed} typed from their name alone; "
            f"{marked} marked campaign, community or experimental (offered only when a player asks)"
        )
        texts = dict(self.national_texts.get(nation, {}))
        for unit in units:
            for rule in unit.special_rules:
                if rule in self.definitions:
                    texts.setdefault(rule, self.definitions[rule])
        return ImportedArmy(
            source_id=_slug(nation), name=nation, national_rules=national, units=units, rule_texts=texts
        )

    def _variant_label(self, name: str, variant: _Variant, distinct: list[_Variant], number: int) -> str:
        """Entries of one name that differ are named apart: by their platoons when those differ."""
        others = [set(d.platoons) for d in distinct if d is not variant]
        if variant.platoons and all(set(variant.platoons) != other for other in others):
            return f"{name} ({', '.join(variant.platoons)})"
        return f"{name} ({number})"

    def _rule(self, nation: str, text: Any) -> str:
        """A national rule's name from "Name - text; book, page"; the text is kept as the source's own."""
        text = _text(text)
        if not text:
            return ""
        parts = re.split(r"\s+-\s+|:\s+", text, maxsplit=1)
        head = parts[0].strip()
        name = head if 0 < len(head) <= 80 else text[:80]
        body = quoted_text(parts[1] if len(parts) > 1 and name == head else text)
        if body and body != name:
            self.national_texts.setdefault(nation, {}).setdefault(name, body)
        if name not in self.rules:
            self.rules[name] = ImportedRule(source_id=f"{_slug(nation)}/{_slug(name)}", name=name, description=text)
        return name

    # -- units ---------------------------------------------------------------------------------------

    def _unit(self, nation: str, name: str, variant: _Variant, source_id: str, army_flags: list[str]) -> ImportedUnit:
        raw = variant.raw
        where = f"{self.name}: {nation}: {name}"
        models = _whole(raw.get("models", 1), f"{where}: models", minimum=1, maximum=_MAX_MODELS)
        order = _whole(raw.get("order", 1), f"{where}: order", maximum=10)
        keywords = _texts(raw.get("keywords"))
        equipment = _texts(raw.get("equipment"))
        raw_options = raw.get("options", [])
        if not isinstance(raw_options, list):
            raise CatalogueImportError(f"{where}: options is not a list")
        options = [o for o in raw_options if isinstance(o, dict) and _available(o, nation)]

        # qualities: the choose-one "morale" options, each with its price (nation variants alike)
        base_cost: dict[str, int] = {}
        quality_of: dict[str, str] = {}
        for option in options:
            if option.get("requireChooseOneKey") != "morale":
                continue
            option_name = _text(option.get("name"))
            quality = _quality(option_name)
            if quality is None:
                self.report.warn(f"{nation}: {name}: quality {option_name!r} is none of Muster's; left out")
                continue
            price = _whole(option.get("points", 0), f"{where}: {option_name!r} points")
            quality_of[option_name] = quality
            if quality in base_cost and base_cost[quality] != price:
                self.report.warn(
                    f"{nation}: {name}: two {quality} prices ({base_cost[quality]}, {price}); kept the first"
                )
                continue
            base_cost.setdefault(quality, price)
        unit_points = _whole(raw.get("points", 0), f"{where}: points")
        if not base_cost:
            if not unit_points:
                raise CatalogueImportError("no price at any quality Muster knows")
            base_cost = {"regular": unit_points}
            self.report.warn(f"{nation}: {name}: no quality choice in the module; priced as Regular")
        elif unit_points:
            self.dropped_unit_points += 1
        qualities = [q for q in QUALITIES if q in base_cost]

        damage = next((int(m.group(1)) for k in keywords if (m := _DAMAGE_RE.match(k))), None)
        # The capacity is in the unit's text ("Transport: 12\n Tow: ..."), the keyword "Transport" says it carries.
        special_text = raw.get("specialText") if isinstance(raw.get("specialText"), str) else ""
        transport = next((int(m.group(1)) for k in [*keywords, special_text] if (m := _TRANSPORT_RE.search(k))), None)
        carries = transport is not None or any(k.lower() == "transport" for k in keywords)
        periods = next((m.group(1) for k in keywords if (m := _PERIOD_RE.match(k))), "")
        periods = "".join(letter for letter in "EML" if letter in periods.upper())
        rules = [
            k
            for k in keywords
            if not (_DAMAGE_RE.match(k) or _PERIOD_RE.match(k) or _TRANSPORT_RE.search(k) or k == name)
        ]
        soft = any(re.search(r"soft.?skin", k, re.IGNORECASE) for k in keywords)
        damage_text = f"{damage}+{' (soft-skin)' if soft else ''}" if damage is not None else None
        hint = self._platoon_hint(variant.platoons, vehicle=damage is not None, carries=carries)
        kind = _classify((name, *hint), damage_text, str(transport or 1) if carries else None)

        lines = _equipment(equipment)
        weapons = list(dict.fromkeys(line.weapon for line in lines))
        guessed_rifles = False
        if damage is None and kind.unit_type in ("infantry", "headquarters") and not _SMALL_ARMS.intersection(weapons):
            weapons.insert(0, "Rifle")
            guessed_rifles = True
            self.rifles_guessed += 1
        unit_options, per_model_cost, max_models, groups = self._options(
            nation, name, where, options, quality_of, qualities, models, "Rifle" if guessed_rifles else None
        )
        flags = list(dict.fromkeys([*_flags_of(raw, keywords), *army_flags]))
        return ImportedUnit(
            source_id=source_id,
            name=name,
            unit_type=kind.unit_type,
            slot=kind.slot,
            base_cost=base_cost,
            per_model_cost=per_model_cost,
            base_models=models,
            min_models=models,
            max_models=max_models,
            weapons=weapons,
            options=unit_options,
            special_rules=rules,
            damage_value=damage,
            transport_capacity=transport,
            officer_rank=kind.officer_rank,
            weapon_lines=[line for line in lines if damage is not None or line.mount],
            categories=list(variant.platoons),
            weapons_text=", ".join(equipment),
            option_groups=groups,
            type_source="name" if kind.guessed else "categories",
            order_dice=order,
            periods=periods,
            flags=flags,
        )

    def _platoon_hint(self, platoons: list[str], *, vehicle: bool, carries: bool) -> list[str]:
        """A category for the classifier when every platoon a unit fills says what it is."""
        kinds = {self.platoons.get(p) or platoon_kind(p) or ("hq" if self._is_hq(p) else None) for p in platoons}
        if kinds == {"hq"}:
            return ["Headquarters"]
        if kinds == {"artillery_platoon"} and not vehicle:
            return ["Artillery"]
        if kinds == {"armoured_platoon"} and vehicle and not carries:
            return ["Tanks"]
        if kinds == {"heavy_weapons_platoon"}:
            return ["Heavy Weapons"]
        return []

    def _options(
        self,
        nation: str,
        unit: str,
        where: str,
        options: list[dict[str, Any]],
        quality_of: dict[str, str],
        qualities: list[str],
        models: int,
        default_weapon: str | None,
    ) -> tuple[list[ImportedOption], dict[str, int], int, list[ImportedOptionGroup]]:
        per_model_cost: dict[str, int] = {}
        extra_men = 0
        merged: dict[tuple[Any, ...], dict[str, Any]] = {}
        group_keys: dict[str, ImportedOptionGroup] = {}
        required: dict[str, list[str]] = {}
        for option in options:
            name = _text(option.get("name"))
            if not name or option.get("requireChooseOneKey") == "morale":
                continue
            label = f"{where}: option {name!r}"
            unlocked = option.get("unlockedByLocal")
            if isinstance(unlocked, dict):
                if _never_unlocked(unlocked):
                    continue  # locked behind a count no list reaches
                unlocked = None  # needs another unit in the list: offered, not checked (reported)
                self.needs_unit += 1
            offered, needs = _unlocks(unlocked, quality_of, qualities)
            if not offered:
                continue
            price = _whole(option.get("points", 0), f"{label} points", minimum=-_MAX_POINTS)
            adds = _whole(option.get("addsModels", 0), f"{label} addsModels", maximum=_MAX_MODELS)
            limit = option.get("max")
            counted = option.get("increment") is True
            if counted and adds == 1 and _EXTRA_MEN_RE.match(name) and not needs and isinstance(limit, int):
                # The unit's extra men: its per-model price at each quality, and its largest size.
                for quality in offered:
                    if per_model_cost.get(quality, price) != price:
                        self.report.warn(
                            f"{nation}: {unit}: two prices for an extra man at {quality} "
                            f"({per_model_cost[quality]}, {price}); kept the first"
                        )
                    per_model_cost.setdefault(quality, price)
                extra_men = max(extra_men, _whole(limit, f"{label} max", maximum=_MAX_MODELS))
                continue
            per_man = limit == "parentModels"
            local = option.get("localLimit")
            max_count: int | None
            if per_man:
                max_count = None
            elif counted and isinstance(limit, int):
                max_count = _whole(limit, f"{label} max", minimum=1, maximum=_MAX_MODELS)
            elif counted and limit is None:
                max_count = None
            else:
                max_count = 1
            group = ""
            one_of = _text(option.get("chooseOneKey")) if isinstance(option.get("chooseOneKey"), str) else ""
            if per_man and isinstance(option.get("maxKey"), str) and option["maxKey"].strip():
                group = _text(option["maxKey"])
                group_keys.setdefault(
                    group, ImportedOptionGroup(key=group, label=f"Weapons ({group})", maximum=1, per_model=True)
                )
            elif one_of:
                group, one_of = one_of, ""
            elif isinstance(option.get("requireChooseOneKey"), str) and option["requireChooseOneKey"].strip():
                group = _text(option["requireChooseOneKey"])
                if not needs:
                    required.setdefault(group, []).append(name)
            shown = f"{name} (with {' or '.join(needs)})" if needs else name
            if needs:
                self.needs_option += 1
            weapon = None if adds else _weapon_name(name)
            key = (shown, per_man, bool(option.get("perModel")), max_count, adds, group, local)
            entry = merged.setdefault(
                key,
                {
                    "name": shown,
                    "per_man": per_man,
                    "whole_unit": option.get("perModel") is True,
                    "max_count": max_count,
                    "adds": adds,
                    "group": group,
                    "local": _whole(local, f"{label} localLimit", minimum=1, maximum=_MAX_MODELS)
                    if local is not None
                    else None,
                    "weapon": weapon,
                    "cost": {},
                    "flags": _flags_of(option),
                    "raw": name,
                    "excludes": [],
                    "one_of": one_of,
                },
            )
            # "unavailableWithLocal": the unit's options this one cannot be taken with.
            for other in _texts(option.get("unavailableWithLocal")):
                if other not in entry["excludes"]:
                    entry["excludes"].append(other)
            for quality in offered:
                if quality in entry["cost"] and entry["cost"][quality] != price:
                    self.report.warn(
                        f"{nation}: {unit}: {name!r} has two {quality} prices ({entry['cost'][quality]}, {price}); "
                        "kept the first"
                    )
                    continue
                entry["cost"].setdefault(quality, price)
        groups = list(group_keys.values())
        for key, members in required.items():
            if len(members) > 1:
                groups.append(ImportedOptionGroup(key=key, label=key, minimum=1, maximum=1))
        imported: list[ImportedOption] = []
        used: set[str] = set()
        shown_names: dict[str, list[str]] = {}
        one_of: dict[str, list[str]] = {}
        for entry in merged.values():
            shown = f"{entry['name']} [{', '.join(entry['flags'])}]" if entry["flags"] else entry["name"]
            entry["shown"] = shown
            shown_names.setdefault(entry["raw"], []).append(shown)
            if entry["one_of"]:
                one_of.setdefault(entry["one_of"], []).append(shown)
        # A one-of choice among per-man swaps (the NCO's SMG, or his sword and SMG...): the swaps
        # already share the men's group, so "one of these" becomes their exclusions of each other.
        for entry in merged.values():
            others = [name for name in one_of.get(entry["one_of"], []) if name != entry["shown"]]
            entry["excluded_names"] = [
                *(shown for other in entry["excludes"] for shown in shown_names.get(other, [])),
                *others,
            ]
        for entry in merged.values():
            if set(entry["cost"]) != set(qualities):
                self.exact_prices += 1
            option_id = f"{_slug(entry['name'])}"
            number = 2
            while option_id in used:
                option_id = f"{_slug(entry['name'])}#{number}"
                number += 1
            used.add(option_id)
            name = entry["shown"]
            imported.append(
                ImportedOption(
                    source_id=option_id,
                    name=name,
                    per_model=entry["per_man"] or entry["whole_unit"],
                    all_models=entry["whole_unit"] and not entry["per_man"],
                    cost=entry["cost"],
                    max_count=entry["max_count"],
                    grants_weapon=entry["weapon"],
                    replaces_weapon=default_weapon if entry["per_man"] and entry["weapon"] else None,
                    group=entry["group"],
                    adds_models=entry["adds"],
                    prices_exact=True,
                    per_man_limit=entry["local"] if entry["per_man"] else None,
                    excludes=list(dict.fromkeys(entry["excluded_names"])),
                )
            )
        return imported, per_model_cost, models + extra_men, groups


def _equipment(equipment: list[str]) -> list[ImportedWeaponLine]:
    """Weapon lines of a unit's equipment; an "x2" after a weapon doubles it ("Turret Mounted MMG", "x2")."""
    lines: list[ImportedWeaponLine] = []
    for text in equipment:
        times = re.fullmatch(r"\s*x\s*(\d)\s*", text, re.IGNORECASE)
        if times is not None and lines:
            last = lines[-1]
            lines[-1] = ImportedWeaponLine(last.weapon, last.mount, last.count * int(times.group(1)), last.arc)
            continue
        lines.extend(equipment_lines(text))
    return lines


@functools.lru_cache(maxsize=4096)
def _classify(categories: tuple[str, ...], damage: str | None, transport: str | None):
    """The shared classifier, once per distinct unit description (a unit open to 21 nations is one)."""
    return classify(list(categories), categories[0], damage=damage, transport=transport)


def _never_unlocked(lock: dict[str, Any]) -> bool:
    """A lock no list opens: the module's separators ask for 1,000 of a key."""
    needed = lock.get("quantityRequired")
    return not isinstance(needed, int) or isinstance(needed, bool) or needed >= 100


def _available(option: dict[str, Any], nation: str) -> bool:
    nations = option.get("availableIn")
    if nations is None:
        return True
    return isinstance(nations, list) and nation in [_text(n) for n in nations]


def _unlocks(unlocked: Any, quality_of: dict[str, str], qualities: list[str]) -> tuple[list[str], list[str]]:
    """(qualities an option is offered at, options it needs first) from its ``unlockedByLocal``."""
    if unlocked is None:
        return list(qualities), []
    items = [unlocked] if isinstance(unlocked, str) else unlocked if isinstance(unlocked, list) else []
    offered: list[str] = []
    needs: list[str] = []
    for item in items:
        text = _text(item)
        quality = quality_of.get(text) or (
            _quality(text) if text.lower() in ("inexperienced", "regular", "veteran") else None
        )
        if quality is not None:
            if quality in qualities and quality not in offered:
                offered.append(quality)
        elif text:
            needs.append(text)  # another option of the unit, which must be taken first
    if not offered and needs:
        offered = list(qualities)
    return [q for q in QUALITIES if q in offered], needs


def _same_entry(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two entries of one name say the same unit when all but where they go (platoons, limits) agree."""
    ignore = ("availableIn", "limits", "sortPriority", "factions", "limit")

    def canonical(raw: dict[str, Any]) -> str:
        return json.dumps({k: v for k, v in raw.items() if k not in ignore}, sort_keys=True, default=str)

    return canonical(a) == canonical(b)


def parse_module(files: dict[str, bytes]) -> ImportedCatalogue:
    """Parse one army-builder module file (``{name: bytes}`` holding exactly one) into a catalogue."""
    if len(files) != 1:
        raise CatalogueImportError(
            f"army-builder modules are imported one file at a time; {len(files)} were given together"
        )
    ((name, data),) = files.items()
    root = parse_json(name, data)
    if not isinstance(root, dict):
        raise CatalogueImportError(f"{name}: the module is not a JSON object")
    if not looks_like_module(root):
        raise CatalogueImportError(
            f'{name}: not a Bolt Action army-builder module (it needs "game": "Bolt Action" and '
            "data.factions and data.units)"
        )
    report = ImportReport()
    parser = _ModuleParser(name, root, report)
    armies = parser.armies()
    if parser.dropped_unit_points:
        report.warn(
            f"{parser.dropped_unit_points} units carry their own points beside their quality prices; "
            "the quality prices are the whole price, the unit's own points were not added"
        )
    if parser.rifles_guessed:
        report.warn(
            f"{parser.rifles_guessed} infantry units list no small arms in their equipment; "
            "they are given rifles (the module's unit text names riflemen)"
        )
    if parser.needs_option:
        report.warn(
            f"{parser.needs_option} options need another option taken first; Muster does not enforce it, "
            "so their names say which ('... (with ...)')"
        )
    if parser.needs_unit:
        report.warn(
            f"{parser.needs_unit} units or options are offered once the list holds another unit "
            "(the module's unlock keys); Muster offers them without checking"
        )
    if parser.exact_prices:
        report.warn(
            f"{parser.exact_prices} options are offered at some of their unit's qualities only; "
            "Muster offers them at those alone"
        )
    rules = list(parser.rules.values())
    report.units = sum(len(army.units) for army in armies)
    report.rules = len(rules)
    credit = root.get("credit")
    return ImportedCatalogue(
        system_name=SYSTEM_NAME,
        edition=EDITION,
        armies=armies,
        weapons=[],
        rules=rules,
        report=report,
        credit=quoted_text(
            "; ".join(c for c in credit if isinstance(c, str)) if isinstance(credit, list) else credit, 200
        ),
    )
