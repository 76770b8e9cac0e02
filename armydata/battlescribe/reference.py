"""The weapons and special rules a game system and its catalogues define."""

from __future__ import annotations

from armydata.model import ImportedRule, ImportedWeapon, ImportReport

from .document import _clean, _Document
from .links import _Resolver


def _split_rules(text: str | None) -> list[str]:
    """Split "Team, Fixed, HE (2\")" on the commas that are not inside brackets."""
    items: list[str] = []
    depth = 0
    current = ""
    for char in text or "":
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        if char in ",;" and depth == 0:
            items.append(current)
            current = ""
        else:
            current += char
    items.append(current)
    return [item.strip() for item in items if item.strip() and item.strip().lower() not in ("-", "n/a", "none")]


def _collect_weapons(system: _Document, catalogues: list[_Document], report: ImportReport) -> list[ImportedWeapon]:
    weapons: dict[str, ImportedWeapon] = {}
    for doc in [system, *catalogues]:
        # The game system names the characteristic types that catalogue profiles refer to.
        resolver = _Resolver([doc, system], "", {}, report)
        for element in doc.root.iter("profile"):
            profile = resolver._profile(element)
            if not profile.is_weapon or not profile.name:
                continue
            weapon = ImportedWeapon(
                source_id=profile.id,
                name=profile.name,
                range=profile.get("range") or "",
                shots=profile.get("shots") or "",
                pen=profile.get("pen", "penetration", "pen value", "pv", "ap") or "",
                special_rules=_split_rules(profile.get("special rules", "rules", "special", "notes")),
            )
            known = weapons.get(profile.name)
            if known is None:
                weapons[profile.name] = weapon
            elif (known.range, known.shots, known.pen) != (weapon.range, weapon.shots, weapon.pen):
                report.warn(f"weapon {profile.name!r} is defined twice with different values; kept the first")
    return list(weapons.values())


def _collect_rules(docs: list[_Document]) -> list[ImportedRule]:
    rules: dict[str, ImportedRule] = {}
    for doc in docs:
        for element in doc.root.iter("rule"):
            name = _clean(element.get("name"))
            if not name or name in rules:
                continue
            description = element.find("description")
            text = (description.text or "").strip() if description is not None else ""
            rules[name] = ImportedRule(source_id=element.get("id", ""), name=name, description=text)
    return list(rules.values())
