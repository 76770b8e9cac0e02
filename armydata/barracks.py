"""Barracks data (2nd edition, JSON) to the neutral import model.

Barracks ships ``armies.json`` (army names and national rules), ``core.json`` (weapons and
the shared special rules) and ``units/<army>.json`` (units grouped by section and category).
A Barracks unit may list several profiles, each a variant with its own price (an officer's
ranks, the kinds of forward observer); each profile becomes one imported unit. The "additional
soldier" or "attendant" option is how Barracks prices extra models, so it becomes the unit's
per-model cost rather than an option; a further soldier option ("Additional soldier (pistol
only)"), a spotter or a loader stays an option that adds a model when taken. A "Free Unit"
option makes the whole unit cost nothing, once per list. Options that use the same mount or
replace the same weapon of a vehicle exclude each other (one option group per mount).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from .classify import Classification, classify
from .model import (
    QUALITIES,
    ImportedArmy,
    ImportedCatalogue,
    ImportedOption,
    ImportedRule,
    ImportedUnit,
    ImportedWeapon,
    ImportReport,
)
from .safety import CatalogueImportError, parse_json

SYSTEM_NAME = "Bolt Action 2nd Edition (Barracks)"

_EXTRA_MODEL_RE = re.compile(
    r"^\s*(additional|extra)\b.*\b(soldiers?|men|man|crew(men|man)?|models?)\b|^\s*attendants?\b", re.IGNORECASE
)
# Further men an option adds beside the unit's per-model soldiers: a gun's loader, a spotter.
_TEAM_MEMBER_RE = re.compile(r"^\s*(spotter|loader)s?\b", re.IGNORECASE)
_FREE_UNIT_RE = re.compile(r"^\s*free\s+unit\s*$", re.IGNORECASE)
# Barracks' "Free Unit" option carries a maximum of 1 per unit; the limit per list is in the
# national rule it stands for (armies.json), and every such rule grants one: "one free
# Inexperienced or Regular artillery unit" (France), "1 regular artillery forward observer for
# free" (Great Britain), "a free 12-man squad" (Soviet Union). Lacking a number there, one is
# also the only reading that cannot make a whole list free. Barracks offers the option more
# widely than those rules read (France's guns at Veteran too, Britain's Air Force observer and
# at Veteran, Soviet squads at Regular): Muster follows Barracks' figures, as for every price.
FREE_UNITS_PER_LIST = 1
_REPLACES_RE = re.compile(
    r"replac(?:es|e|ing)\s+(?:the\s+|its\s+|their\s+|a\s+)?([\w\s.-]+?)(?:\)|,|$|\s+with\b)", re.I
)
_UPGRADE_RE = re.compile(r"\bupgrade\s+(?:the\s+)?(.+?)\s+to\s+(.+)$", re.IGNORECASE)
# Barracks writes an exclusive option only in its name: "Anti-tank grenades (if no Panzerfaust
# taken)". The words after the condition name the unit's other option(s), "or"/"/" between them.
_EXCLUDES_RE = re.compile(
    r"\(\s*(?:only\s+)?(if\s+no|if\s+not\s+taking|unless\s+no|not\s+with|cannot\s+be\s+taken\s+with|"
    r"instead\s+of)\s+(?:an?\s+|the\s+)?(.+?)(?:\s+(?:is|are|was|were)?\s*(?:taken|chosen|bought|selected))?\s*\)",
    re.IGNORECASE,
)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "item"


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def _inches(text: str) -> str:
    """Barracks writes ranges as bare numbers ("24", "12-60"); the rulebook writes inches."""
    if '"' in text:
        return text
    return re.sub(r"(\d+(?:\s*-\s*\d+)?)", r'\1"', text)


COST_MAX = 100_000


def _first_int(text: str | None, pattern: str = r"(\d+)") -> int | None:
    match = re.search(pattern, text or "")
    return int(match.group(1)) if match else None


def _expect(value: Any, kind: type, where: str) -> Any:
    if not isinstance(value, kind):
        expected = "an object" if kind is dict else "a list" if kind is list else kind.__name__
        raise CatalogueImportError(f"{where}: expected {expected}")
    return value


def _costs(raw: Any, where: str, report: ImportReport, allow_negative: bool) -> dict[str, int]:
    _expect(raw, dict, where)
    costs: dict[str, int] = {}
    for quality, value in raw.items():
        if quality not in QUALITIES:
            report.warn(f"{where}: unknown quality {quality!r}; ignored")
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
            raise CatalogueImportError(f"{where}: the {quality} cost {value!r} is not a whole number")
        if abs(value) > COST_MAX:  # a database integer column overflows long before; no unit costs this
            raise CatalogueImportError(f"{where}: the {quality} cost {value!r} is beyond {COST_MAX}")
        if value < 0 and not allow_negative:
            raise CatalogueImportError(f"{where}: the {quality} cost {value!r} is negative")
        costs[quality] = int(value)
    return costs


def _model_count(composition: Any) -> int | None:
    if not isinstance(composition, dict):
        return None
    text = composition.get("description")
    if isinstance(text, str) and text.strip():
        # "1 Officer and up to 2 further soldiers": only what comes before "up to" is fixed.
        fixed = re.split(r"\bup to\b", re.sub(r"\(.*?\)", "", text), maxsplit=1, flags=re.IGNORECASE)[0]
        numbers = [int(n) for n in re.findall(r"\d+", fixed)]
        if numbers:
            return sum(numbers)
    size = composition.get("baseSize")
    return size if isinstance(size, int) and size > 0 else None


def _rule_name(text: str) -> str:
    head, sep, _ = text.partition(":")
    return head.strip() if sep and len(head) <= 80 else text.strip()


class _WeaponIndex:
    def __init__(self, weapons: dict[str, ImportedWeapon]):
        self.by_key = weapons
        self.by_norm: dict[str, str] = {}
        for key, weapon in weapons.items():
            for norm in (_norm(key), _norm(weapon.name)):
                # Option names spell out what the chart abbreviates: "light anti-tank gun" for
                # "Light AT gun", "light autocannon" for "Light automatic cannon".
                spellings = dict.fromkeys(
                    (norm, norm.replace(" at ", " anti tank "), norm.replace("automatic cannon", "autocannon"))
                )
                for spelling in spellings:
                    self.by_norm.setdefault(spelling, weapon.name)
                    # Option names use plurals ("upgrade the MMGs to HMGs").
                    self.by_norm.setdefault(f"{spelling}s", weapon.name)

    def spellings_of(self, name: str) -> list[str]:
        """Every way option names may write the weapon ``name`` ("light anti tank gun", "hmgs")."""
        return [norm for norm, weapon in self.by_norm.items() if weapon == name]

    def named_in(self, text: str) -> set[str]:
        """The weapons a sentence names ("Sniper has a rifle and a pistol" -> Rifle, Pistol)."""
        padded = f" {_norm(text)} "
        return {weapon for norm, weapon in self.by_norm.items() if f" {norm} " in padded}

    def find(self, text: str) -> str | None:
        """The weapon an option names: an exact name, else the longest weapon named within it."""
        base = _norm(re.sub(r"\(.*?\)", "", text))
        if base in self.by_norm:
            return self.by_norm[base]
        padded = f" {base} "
        hits = [norm for norm in self.by_norm if f" {norm} " in padded]
        return self.by_norm[max(hits, key=len)] if hits else None


def _mount_groups(
    options: list[ImportedOption], replaced_by: dict[str, str | None], weapons: _WeaponIndex
) -> dict[str, str]:
    """Option name -> group key, for a vehicle's options that cannot be taken together.

    One pintle mount takes one weapon: "Pintle-mounted MMG" and "Pintle-mounted HMG" (the same
    words but the weapon) share a mount, "Pintle-mounted MMG (left arc)" and "... (right arc)"
    do not. Options that replace the same weapon ("Replace MMG with HMG", "Replace MMG with
    Anti-Tank Rifle") are alternatives for it. Only sets of two or more make a group.
    """
    members: dict[str, list[str]] = {}
    for option in options:
        if option.grants_weapon and "pintle" in option.name.lower():
            weapon_words = {_norm(option.grants_weapon), *weapons.spellings_of(option.grants_weapon)}
            words = f" {_norm(option.name)} "
            for spelling in sorted(weapon_words, key=len, reverse=True):
                words = re.sub(rf" {re.escape(spelling)}s? ", " # ", words)
            members.setdefault(_slug(words)[:60], []).append(option.name)
        elif replaced_by.get(option.name):
            members.setdefault(f"replaces-{_slug(replaced_by[option.name] or '')}"[:60], []).append(option.name)
    return {name: key for key, names in members.items() if len(names) > 1 for name in names}


def _exclusive_mounts(
    options: list[ImportedOption], replaced_by: dict[str, str | None], weapons: _WeaponIndex
) -> list[ImportedOption]:
    groups = _mount_groups(options, replaced_by, weapons)
    return [replace(option, group=groups[option.name]) if option.name in groups else option for option in options]


def armament_facts(text: str, weapons: Iterable[ImportedWeapon]) -> str:
    """What this parser reads from a unit's armament text, as a short phrase of Muster's own.

    The chart weapons the text names, in its order ("Rifles and LMG" -> "Rifle, LMG"), a sniper
    rifle as such, and "or none" when the text makes the weapon optional. Parsing the phrase gives
    the same unit as parsing Barracks' sentence, so a copy of the data may keep the phrase instead
    (fixtures/src/barracks_snapshot.py keeps facts, never sentences).
    """
    index = _WeaponIndex({weapon.source_id: weapon for weapon in weapons})
    padded = f" {_norm(text)} "
    first: dict[str, int] = {}
    for norm, name in index.by_norm.items():
        at = padded.find(f" {norm} ")
        if at >= 0 and (name not in first or at < first[name]):
            first[name] = at
    names = sorted(first, key=first.__getitem__)
    if re.search(r"\bsniper rifle", text, re.IGNORECASE):
        names = ["Sniper rifle" if _norm(name) == "rifle" else name for name in names]
    phrase = ", ".join(names)
    return f"{phrase} or none" if re.search(r"\bor none\b", text, re.IGNORECASE) else phrase


_REPLACE_WITH_RE = re.compile(
    r"\breplac(?:e|es|ing)\s+(?:the\s+|its\s+|their\s+|an?\s+)?(.+?)\s+with\s+(?:an?\s+|the\s+)?(.+?)\s*$", re.I
)


def _weapon_change(name: str, weapons: _WeaponIndex, *, vehicle: bool = False) -> tuple[str | None, str | None]:
    """What weapon an option adds and which one it takes away, read from its wording.

    A weapon named plainly ("a flamethrower") is the vehicle-mounted version on a vehicle and the
    infantry's one otherwise, where the chart has both.
    """

    def pick(text: str) -> str | None:
        return weapons.find(f"{'vehicle' if vehicle else 'infantry'} {text}") or weapons.find(text)

    # "Replace hull MMG with a flamethrower" (the Churchill Crocodile): the new weapon comes last.
    swap = _REPLACE_WITH_RE.search(name)
    if swap and pick(swap.group(2)) is not None:
        return pick(swap.group(2)), weapons.find(swap.group(1))
    upgrade = _UPGRADE_RE.search(name)
    if upgrade:
        return weapons.find(upgrade.group(2)), weapons.find(upgrade.group(1))
    replaced = _REPLACES_RE.search(name)
    if replaced:
        return pick(name[: replaced.start()].rstrip(" (-")), weapons.find(replaced.group(1))
    return pick(name), None


def _excluded_options(name: str, others: list[str]) -> tuple[list[str], list[str]]:
    """The other options an option's name says it cannot be taken with, and the words naming none.

    "Anti-tank grenades (if no Panzerfaust taken)" excludes the unit's "Panzerfaust" option; a
    plural ("Panzerfausts") or a lower-case spelling names it too.
    """
    by_norm: dict[str, str] = {}
    for other in others:
        if other != name:
            base = _norm(re.sub(r"\(.*?\)", "", other))
            by_norm.setdefault(base, other)
            by_norm.setdefault(f"{base}s", other)
    found: list[str] = []
    unknown: list[str] = []
    for match in _EXCLUDES_RE.finditer(name):
        # "(instead of a rifle)" may name the unit's own weapon, not an option: no warning then.
        swap = match.group(1).lower().startswith("instead")
        for part in re.split(r"\s*(?:/|,|\bor\b|\band\b)\s*", match.group(2)):
            if not part.strip():
                continue
            other = by_norm.get(_norm(part)) or by_norm.get(_norm(part).removesuffix("s"))
            if other is None:
                if not swap:
                    unknown.append(part.strip())
            elif other not in found:
                found.append(other)
    return found, unknown


def _unit_kind(section: str, category: str, name: str, damage: str | None) -> Classification:
    # Barracks files group units as section ("infantry", "artillery", "vehicles") and category
    # ("Headquarters", "Infantry Squads and Teams", "Tanks", "Transports and Tows"...): the category
    # is the more telling of the two. Guns have no vehicle profile worth reading as one.
    categories = [category, section]
    return classify(categories, name, damage=damage if section != "artillery" else None)


class _BarracksParser:
    def __init__(self, report: ImportReport):
        self.report = report
        self.rules: dict[str, ImportedRule] = {}

    def add_rule(self, source_id: str, name: str, description: str) -> None:
        name = " ".join(name.split())
        if not name:
            return
        known = self.rules.get(name)
        if known is None:
            self.rules[name] = ImportedRule(source_id=source_id, name=name, description=description)
        elif description and known.description and known.description != description:
            self.report.warn(f"rule {name!r} has different texts in different places; kept the first")

    def weapons(self, core: dict[str, Any]) -> dict[str, ImportedWeapon]:
        raw = _expect(core.get("weapons", {}), dict, "core.json: weapons")
        weapons: dict[str, ImportedWeapon] = {}
        for key, item in raw.items():
            where = f"core.json: weapon {key!r}"
            if not isinstance(item, dict) or not isinstance(item.get("type"), str):
                self.report.skip(key, f"{where} has no name")
                continue
            rules = item.get("rules", [])
            weapons[key] = ImportedWeapon(
                source_id=key,
                name=item["type"].strip(),
                range=_inches(str(item.get("range", "")).strip()),
                shots=str(item.get("shots", "")).strip(),
                pen=str(item.get("pen", "")).strip(),
                special_rules=[str(r).strip() for r in rules if str(r).strip()] if isinstance(rules, list) else [],
            )
        return weapons

    def core_rules(self, core: dict[str, Any]) -> None:
        groups = _expect(core.get("rules", {}), dict, "core.json: rules")
        for group, items in groups.items():
            for item in _expect(items, list, f"core.json: rules.{group}"):
                if isinstance(item, dict) and isinstance(item.get("name"), str):
                    self.add_rule(f"{group}/{_slug(item['name'])}", item["name"], str(item.get("description", "")))

    def army_unit(
        self,
        army: str,
        section: str,
        category: str,
        raw: dict[str, Any],
        profile: dict[str, Any],
        source_id: str,
        weapons: _WeaponIndex,
    ) -> ImportedUnit:
        where = f"units/{army}.json: {raw.get('name')!r}"
        name = " ".join(str(profile.get("name") or raw.get("name") or "").split())
        if not name:
            raise CatalogueImportError(f"{where}: a profile has no name")
        base_cost = _costs(profile.get("cost"), f"{where} ({name})", self.report, allow_negative=False)
        if not base_cost:
            raise CatalogueImportError(f"{where} ({name}): no cost at any quality")
        damage = raw.get("damage") if isinstance(raw.get("damage"), str) else None
        kind = _unit_kind(section, category, f"{raw.get('name', '')} {name}", damage)
        unit_type, slot = kind.unit_type, kind.slot
        base_models = _model_count(raw.get("composition")) or 1

        weapon_names: list[str] = []
        weapon_block = raw.get("weapons") if isinstance(raw.get("weapons"), dict) else {}
        weapons_text = weapon_block.get("description")
        weapons_text = " ".join(weapons_text.split()) if isinstance(weapons_text, str) else ""
        for key in weapon_block.get("keys", []) or []:
            weapon = weapons.by_key.get(key)
            if weapon is None:
                self.report.warn(f"{where}: weapon {key!r} is not in core.json; left out")
            elif weapon.name not in weapon_names:
                weapon_names.append(weapon.name)

        per_model: dict[str, int] = {}
        max_models: int | None = base_models
        options: list[ImportedOption] = []
        raw_options = raw.get("options", []) if isinstance(raw.get("options"), list) else []
        extra = next(
            (o for o in raw_options if isinstance(o, dict) and _EXTRA_MODEL_RE.search(str(o.get("name", "")))),
            None,
        )
        if extra is not None:
            per_model = _costs(extra.get("cost"), f"{where}: {extra.get('name')!r}", self.report, False)
            limit = extra.get("max")
            max_models = base_models + limit if isinstance(limit, int) else None
        option_names = [
            " ".join(o["name"].split())
            for o in raw_options
            if isinstance(o, dict) and isinstance(o.get("name"), str) and o is not extra
        ]
        is_vehicle = damage is not None and section != "artillery"
        replaced_by: dict[str, str | None] = {}
        for index, option in enumerate(raw_options):
            if option is extra:
                continue
            if not isinstance(option, dict) or not isinstance(option.get("name"), str):
                self.report.skip(f"{where}: option {index + 1}", "option without a name")
                continue
            option_name = " ".join(option["name"].split())
            cost = _costs(option.get("cost", {}), f"{where}: {option_name!r}", self.report, allow_negative=True)
            limit = option.get("max") if isinstance(option.get("max"), int) else None
            grants, replaces = _weapon_change(option_name, weapons, vehicle=unit_type.startswith("vehicle"))
            replaced_by[option_name] = replaces
            excludes, unknown = _excluded_options(option_name, option_names)
            for words in unknown:
                self.report.warn(f"{where}: {option_name!r} names {words!r}, which is none of the unit's options")
            # An upgrade the whole unit takes (grenades, Fanatics) is listed with a maximum of
            # about the unit's size (at least its base size; a few squads list one or three
            # below their largest size): all models or none, never 3 men of 10. A weapon swap
            # stays a per-selection price.
            whole_unit = (
                grants is None
                and limit is not None
                and max_models is not None
                and max_models > 1
                and limit > 1
                and limit >= base_models
            )
            # A further soldier beside the per-model ones (France's pistol-only man), a spotter or
            # a loader is a man of the unit once taken: one model each.
            adds_models = 1 if _EXTRA_MODEL_RE.search(option_name) or _TEAM_MEMBER_RE.search(option_name) else 0
            free_unit = _FREE_UNIT_RE.search(option_name) is not None
            options.append(
                ImportedOption(
                    source_id=f"{source_id}/{_slug(option_name)}",
                    name=option_name,
                    per_model=whole_unit,
                    all_models=whole_unit,
                    cost=cost,
                    max_count=None if whole_unit else limit,
                    grants_weapon=None if adds_models else grants,
                    replaces_weapon=replaces if replaces != grants and not adds_models else None,
                    excludes=excludes,
                    adds_models=adds_models,
                    free_unit=free_unit,
                    free_per_list=FREE_UNITS_PER_LIST if free_unit else None,
                )
            )
        if is_vehicle:
            options = _exclusive_mounts(options, replaced_by, weapons)

        # Barracks lists every weapon the unit may carry, its options' too ("rifle, SMG, LMG,
        # Panzerfaust" for a squad armed with rifles): what an option adds is the option's, not
        # the unit's own armament (cards and odds would count it twice, or when it is not taken).
        # A weapon the unit's own armament text names stays its own even if an option adds more
        # of it ("1 Light automatic cannon" and "Additional light automatic cannon"), unless the
        # text makes it optional ("Pistol or none", with a "Pistol" option).
        granted = {option.grants_weapon for option in options if option.grants_weapon}
        own = set() if re.search(r"\bor none\b", weapons_text, re.IGNORECASE) else weapons.named_in(weapons_text)
        weapon_names = [name for name in weapon_names if name not in granted or name in own]
        # A vehicle's armament text names each mount; a key it does not name is a sister
        # variant's weapon (a Sherman's howitzer), not this vehicle's.
        if is_vehicle and own & set(weapon_names):
            weapon_names = [name for name in weapon_names if name in own]

        rules: list[str] = []
        for text in raw.get("rules", []) if isinstance(raw.get("rules"), list) else []:
            if not isinstance(text, str) or not text.strip():
                continue
            rule = _rule_name(text)
            if rule not in rules:
                rules.append(rule)
            description = text.partition(":")[2].strip() if rule != text.strip() else ""
            self.add_rule(f"{army}/{_slug(rule)}", rule, description)

        officer_rank = kind.officer_rank
        transport = raw.get("transport") if isinstance(raw.get("transport"), str) else None
        return ImportedUnit(
            source_id=source_id,
            name=name,
            unit_type=unit_type,
            slot=slot,
            base_cost=base_cost,
            per_model_cost=per_model,
            base_models=base_models,
            min_models=base_models,
            max_models=max_models,
            weapons=weapon_names,
            options=options,
            special_rules=rules,
            damage_value=_first_int(damage, r"(\d+)\s*\+") if damage else None,
            transport_capacity=_first_int(transport) if transport else None,
            officer_rank=officer_rank,
            hidden=False,
            weapons_text=weapons_text,
        )

    def army_units(self, army: str, data: dict[str, Any], weapons: _WeaponIndex) -> list[ImportedUnit]:
        units: list[ImportedUnit] = []
        used: set[str] = set()
        for section, categories in data.items():
            if section == "lastUpdated":
                continue
            if not isinstance(categories, dict):
                self.report.skip(f"units/{army}.json: {section}", "not a set of categories")
                continue
            for category, entries in categories.items():
                if not isinstance(entries, list):
                    self.report.skip(f"units/{army}.json: {section}/{category}", "not a list of units")
                    continue
                for raw in entries:
                    self.report.entries_read += 1
                    label = f"units/{army}.json: {raw.get('name') if isinstance(raw, dict) else raw!r}"
                    if not isinstance(raw, dict) or not isinstance(raw.get("profiles"), list) or not raw["profiles"]:
                        self.report.skip(label, "unit without profiles")
                        continue
                    several = len(raw["profiles"]) > 1
                    for profile in raw["profiles"]:
                        if not isinstance(profile, dict):
                            self.report.skip(label, "profile is not an object")
                            continue
                        parts = [army, _slug(str(raw.get("name", "")))]
                        if several:
                            parts.append(_slug(str(profile.get("name", ""))))
                        source_id = "/".join(parts)
                        suffix = 2
                        while source_id in used:
                            source_id = f"{'/'.join(parts)}-{suffix}"
                            suffix += 1
                        used.add(source_id)
                        try:
                            units.append(self.army_unit(army, section, category, raw, profile, source_id, weapons))
                        except CatalogueImportError as exc:
                            self.report.skip(label, exc.message)
        return units


def _find(files: dict[str, bytes], basename: str) -> tuple[str, bytes] | None:
    matches = [(name, data) for name, data in files.items() if name.replace("\\", "/").split("/")[-1] == basename]
    if len(matches) > 1:
        raise CatalogueImportError(f"several files are named {basename}: {', '.join(n for n, _ in matches)}")
    return matches[0] if matches else None


def parse_barracks(files: dict[str, bytes]) -> ImportedCatalogue:
    """Parse Barracks ``armies.json``, ``core.json`` and ``units/<army>.json`` given as name -> bytes."""
    report = ImportReport()
    parser = _BarracksParser(report)
    armies_file = _find(files, "armies.json")
    core_file = _find(files, "core.json")
    if armies_file is None:
        raise CatalogueImportError("armies.json was not given")
    if core_file is None:
        raise CatalogueImportError("core.json was not given")
    armies_data = _expect(parse_json(*armies_file), dict, armies_file[0])
    core = _expect(parse_json(*core_file), dict, core_file[0])
    weapon_map = parser.weapons(core)
    weapons = _WeaponIndex(weapon_map)
    parser.core_rules(core)

    unit_files: dict[str, tuple[str, bytes]] = {}
    for name, data in files.items():
        parts = name.replace("\\", "/").split("/")
        if len(parts) >= 2 and parts[-2] == "units" and parts[-1].endswith(".json"):
            unit_files[parts[-1][: -len(".json")]] = (name, data)
        elif name not in (armies_file[0], core_file[0]):
            report.skip(name, "not a Barracks file (armies.json, core.json or units/<army>.json)")

    armies: list[ImportedArmy] = []
    keys = [k for k in armies_data if k != "lastUpdated"] + sorted(k for k in unit_files if k not in armies_data)
    for key in keys:
        info = armies_data.get(key, {})
        if not isinstance(info, dict):
            report.skip(f"armies.json: {key}", "not an army object")
            continue
        name = " ".join(str(info.get("name") or key.replace("-", " ").title()).split())
        if key not in armies_data:
            report.warn(f"units/{key}.json has no entry in armies.json; named {name!r}")
        national: list[str] = []
        for rule in info.get("rules", []) if isinstance(info.get("rules"), list) else []:
            if isinstance(rule, dict) and isinstance(rule.get("name"), str) and rule["name"].strip():
                national.append(" ".join(rule["name"].split()))
                parser.add_rule(f"{key}/{_slug(rule['name'])}", rule["name"], str(rule.get("description", "")))
        units: list[ImportedUnit] = []
        if key in unit_files:
            data = _expect(parse_json(*unit_files[key]), dict, unit_files[key][0])
            units = parser.army_units(key, data, weapons)
        else:
            report.warn(f"{name}: no units/{key}.json was given; the army has no units")
        armies.append(ImportedArmy(source_id=key, name=name, national_rules=national, units=units))

    rules = list(parser.rules.values())
    report.units = sum(len(a.units) for a in armies)
    report.weapons = len(weapon_map)
    report.rules = len(rules)
    return ImportedCatalogue(
        system_name=SYSTEM_NAME,
        edition="v2",
        armies=armies,
        weapons=list(weapon_map.values()),
        rules=rules,
        report=report,
    )
