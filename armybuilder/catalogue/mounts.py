"""How a unit carries its weapons: one line per mount, and what taken options change.

Plain Python (no Django), shared by the fixture generators and the printed cards and roster. A
line is ``{"weapon": slug, "mount": "turret", "count": 1, "arc": "360"}``; infantry and guns
have no mounts, so their lines have an empty mount and arc.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from armydata.names import shown_part

# Mount and arc words, in English and French, for the printed lines.
MOUNTS = {
    "turret": ("turret", "tourelle"),
    "coaxial": ("co-axial", "coaxiale"),
    "hull": ("hull", "caisse"),
    "pintle": ("pintle", "affût pivot"),
    "casemate": ("casemate", "casemate"),
    "platform": ("platform", "plateforme"),
    "remote": ("remote mount", "tourelleau téléopéré"),
    "sponson": ("sponson", "sponson"),
}
# Imported data also names side arcs ("Left Pintle-mounted LMG").
ARCS = {
    "360": ("360°", "360°"),
    "front": ("front", "avant"),
    "rear": ("rear", "arrière"),
    "left": ("left", "gauche"),
    "right": ("right", "droite"),
    "": ("", ""),
}


def mount_and_arc(text: str, previous_mount: str = "") -> tuple[str, str]:
    """The mount and arc an armament phrase names ("1 forward facing hull-mounted MMG": hull, front)."""
    lowered = text.lower()
    if "co-axial" in lowered or "coaxial" in lowered:
        return "coaxial", "360"
    if "360" in lowered:
        arc = "360"
    elif "rear-facing" in lowered or "rear arc" in lowered or "rear facing" in lowered:
        arc = "rear"
    elif "forward" in lowered or "front" in lowered:
        arc = "front"
    else:
        arc = ""
    if "turret" in lowered:
        return "turret", arc if arc and arc != "front" else "360"
    if "hull" in lowered:
        return "hull", arc or "front"
    if "pintle" in lowered:
        return "pintle", arc or "360"
    if "casement" in lowered or "casemate" in lowered:
        return "casemate", "front"
    if "platform" in lowered:
        return "platform", arc or "360"
    if "remotely" in lowered:
        return "remote", arc or "360"
    return previous_mount or "hull", arc or "front"


def mount_label(line: dict, french: bool = False, language: str = "") -> str:
    """ "hull, front" for a mounted line; empty for a man-carried weapon.

    French has its words here; another ``language`` with a glossary ("de": "Wanne, vorn") takes
    them from it, and any other keeps the English.
    """
    if not line.get("mount"):
        return ""
    if language and language.split("-")[0] not in ("en", "fr"):
        return shown_part(mount_label(line), language)
    mount = MOUNTS.get(line["mount"], (line["mount"], line["mount"]))[french]
    arc = ARCS.get(line.get("arc", ""), (line.get("arc", ""),) * 2)[french]
    return f"{mount}, {arc}" if arc else mount


@dataclass(frozen=True)
class Change:
    """A taken option as far as weapons go."""

    name: str
    grants: str | None
    replaces: str | None
    count: int
    whole_unit: bool = False


def carried_lines(lines: Iterable[dict], weapons: Iterable[str], changes: Iterable[Change], models: int) -> list[dict]:
    """The lines a unit fires with once its options are taken.

    ``lines`` are the unit's mounts (vehicles); without them each weapon is one man-carried line.
    An option that replaces a weapon takes it off when it covers every model that carries it (a
    vehicle's single mount, "SMG instead of rifle" on 2 of 2 models, a whole-unit swap); a
    partial swap (the NCO's SMG) leaves the others' rifles. A granted weapon is added once, on
    the mount the option names.
    """
    result = [dict(line) for line in lines] or [
        {"weapon": slug, "mount": "", "count": 1, "arc": ""} for slug in dict.fromkeys(weapons)
    ]
    mounted = any(line["mount"] for line in result)
    for change in changes:
        if change.count <= 0:
            continue
        if change.replaces and (mounted or change.whole_unit or change.count >= models):
            same = [i for i, line in enumerate(result) if line["weapon"] == change.replaces]
            named = [i for i in same if result[i]["mount"] and result[i]["mount"][:4] in change.name.lower()]
            if same:
                del result[(named or same)[-1]]
        if change.grants and not any(line["weapon"] == change.grants for line in result if not line["mount"]):
            if mounted:
                mount, arc = mount_and_arc(change.name)
                two = re.match(r"\s*(?:replace .* with\s+)?(\d+)\s", change.name, re.IGNORECASE)
                count = int(two.group(1)) if two else 1
                result.append({"weapon": change.grants, "mount": mount, "count": count, "arc": arc})
            else:
                result.append({"weapon": change.grants, "mount": "", "count": 1, "arc": ""})
    return result
