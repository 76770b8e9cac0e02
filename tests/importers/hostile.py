"""Builds small 3rd-edition BattleScribe catalogues around weapon profiles, for the untrusted-data tests.

The catalogue links the quality entries of ``data/battlescribe/system_v3.gst``; each unit is a
Regular unit with a price and one weapon entry per ``Entry``, holding that entry's profiles.
A unit with a ``damage`` value is a vehicle (its weapon lines keep their mounts).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

SYSTEM = "system_v3.gst"


@dataclass(frozen=True)
class Profile:
    name: str
    range: str = '24"'
    shots: str = "1"
    pen: str = "-"
    rules: str = "-"


@dataclass(frozen=True)
class Entry:
    name: str
    profiles: tuple[Profile, ...] = ()
    # ids of profiles defined elsewhere, linked by an infoLink (a missing one is a missing weapon)
    links: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnitSpec:
    name: str
    entries: tuple[Entry, ...] = ()
    damage: str | None = None
    cost: int = 50
    models: int = 1


@dataclass
class _Ids:
    n: int = 0
    seen: list[str] = field(default_factory=list)

    def __call__(self, kind: str) -> str:
        self.n += 1
        return f"{kind}-{self.n}"


def _profile(profile: Profile, ids: _Ids) -> str:
    cells = (("Range", profile.range), ("Shots", profile.shots), ("Pen", profile.pen), ("Special Rules", profile.rules))
    characteristics = "".join(
        f'<characteristic name="{name}" typeId="ct-{name.lower()[:5]}">{escape(value)}</characteristic>'
        for name, value in cells
    )
    return (
        f'<profile id="{ids("p")}" name={quoteattr(profile.name)} typeId="pt-weapon" typeName="Weapon">'
        f"<characteristics>{characteristics}</characteristics></profile>"
    )


def _entry(entry: Entry, ids: _Ids) -> str:
    eid = ids("w")
    profiles = "".join(_profile(p, ids) for p in entry.profiles)
    links = "".join(f'<infoLink id="{ids("il")}" targetId={quoteattr(t)} type="profile"/>' for t in entry.links)
    return (
        f'<selectionEntry type="upgrade" name={quoteattr(entry.name)} hidden="false" id="{eid}">'
        f'<constraints><constraint field="selections" scope="parent" value="1" type="min" id="{eid}-min"/>'
        f'<constraint field="selections" scope="parent" value="1" type="max" id="{eid}-max"/></constraints>'
        + (f"<profiles>{profiles}</profiles>" if profiles else "")
        + (f"<infoLinks>{links}</infoLinks>" if links else "")
        + '<costs><cost name="pts" typeId="ab12-points" value="0"/></costs></selectionEntry>'
    )


def _unit(unit: UnitSpec, ids: _Ids) -> str:
    uid = ids("u")
    vehicle = ""
    if unit.damage is not None:
        vehicle = (
            f'<profiles><profile id="{ids("pv")}" name="Vehicle" typeId="pt-vehicle" typeName="Vehicle">'
            "<characteristics>"
            f'<characteristic name="Damage Value" typeId="ct-dv">{escape(unit.damage)}</characteristic>'
            '<characteristic name="Transport" typeId="ct-tr">-</characteristic></characteristics></profile></profiles>'
        )
    return (
        f'<selectionEntry type="unit" name={quoteattr(unit.name)} hidden="false" id="{uid}">'
        f"{vehicle}"
        f'<selectionEntryGroups><selectionEntryGroup id="{uid}-q" name="Veterancy" hidden="false">'
        f'<constraints><constraint field="selections" scope="parent" value="1" type="min" id="{uid}-qmin"/>'
        f'<constraint field="selections" scope="parent" value="1" type="max" id="{uid}-qmax"/></constraints>'
        f'<entryLinks><entryLink id="{uid}-reg" name="Regular" hidden="false" targetId="q3-reg" type="selectionEntry">'
        f'<costs><cost name="pts" typeId="ab12-points" value="{unit.cost}"/></costs></entryLink></entryLinks>'
        "</selectionEntryGroup></selectionEntryGroups>"
        f"<selectionEntries>{''.join(_entry(e, ids) for e in unit.entries)}</selectionEntries>"
        "</selectionEntry>"
    )


def catalogue(units: list[UnitSpec], *, name: str = "Hostile Testland", cat_id: str = "cat-hostile") -> bytes:
    ids = _Ids()
    body = "".join(_unit(unit, ids) for unit in units)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<catalogue id={quoteattr(cat_id)} name={quoteattr(name)} revision="1" library="false" '
        'gameSystemId="sys-test-3" gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
        f"<selectionEntries>{body}</selectionEntries></catalogue>\n"
    ).encode()
