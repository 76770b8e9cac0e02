"""A BattleScribe or NewRecruit roster (.ros, .rosz) brought in as a Muster list.

Each selection is matched to the imported catalogue by its source ids (an entry reached through
a link carries both the link's and the target's id): units by ``Unit.source_id``, options by
``Option.source_id``, the quality by the name of the chosen quality entry, the models by the
model selections. The result is written as a ``muster-list/1`` document and saved through
``exchange.import_list``, the one path every list import takes, so its checks and limits apply
and nothing is saved half-way. Anything that matches nothing is listed by name instead.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from armybuilder.catalogue.models import Army, Origin, Unit
from armybuilder.lists import exchange
from armybuilder.lists.models import ENTRIES_MAX, POINTS_LIMIT_MAX, ArmyList
from armybuilder.lists.summary import list_summary
from armydata.battlescribe import quality_of
from armydata.classify import is_setting, platoon_kind
from armydata.roster import Roster, RosterForce, RosterSelection, parse_roster
from armydata.safety import CatalogueImportError
from rules.army.force_org import KIND_LABELS, edition_rules

MAX_ROSTER_BYTES = 2 * 1024 * 1024
DEFAULT_POINTS_LIMIT = 1000
# Model entries in 2nd-edition community data are often plain upgrades named for the soldier.
_MODEL_NAME_RE = re.compile(
    r"\b(soldiers?|nco|man|men|trooper|troopers|crewman|crewmen|attendants?|rifleman|riflemen|crew)\b", re.I
)


@dataclass
class RosterImport:
    army_list: ArmyList
    roster_points: int | None
    muster_points: int
    notes: list[str] = field(default_factory=list)

    @property
    def difference(self) -> int | None:
        return None if self.roster_points is None else self.muster_points - self.roster_points


def _walk(selection: RosterSelection):
    for child in selection.children:
        yield child
        yield from _walk(child)


class _Matcher:
    def __init__(self, roster: Roster, army: Army):
        self.roster = roster
        self.army = army
        self.units = {unit.source_id: unit for unit in Unit.objects.filter(army=army).prefetch_related("options")}
        self.kinds = {force["source_id"]: force["kind"] for force in army.force_org or ()}
        self.allowed_kinds = set(edition_rules(army.edition.slug).platoons)
        self.errors: list[str] = []
        self.notes: list[str] = []
        self.platoons: list[dict[str, Any]] = []
        self.entries: list[dict[str, Any]] = []

    def unit_of(self, selection: RosterSelection) -> Unit | None:
        return next((self.units[i] for i in reversed(selection.entry_ids) if i in self.units), None)

    def units_below(self, selection: RosterSelection):
        """The outermost selections under ``selection`` that are units."""
        for child in selection.children:
            if self.unit_of(child) is not None:
                yield child
            else:
                yield from self.units_below(child)

    def force(self, force: RosterForce) -> None:
        kind = self.kinds.get(force.entry_id) or platoon_kind(force.name)
        platoon: int | None = None
        if kind in self.allowed_kinds:
            # A force named just for its kind gets no name of its own: the builder shows the
            # kind's label, translated, rather than "Rifle Platoon Rifle Platoon".
            plain = force.name.casefold() == KIND_LABELS.get(kind, "").casefold()
            self.platoons.append({"kind": kind, "name": "" if plain else force.name[: exchange.NAME_MAX]})
            platoon = len(self.platoons) - 1
        else:
            self.notes.append(f"“{force.name}” is not a platoon Muster knows; its units are outside any platoon.")
        for selection in force.selections:
            self.take(selection, force, platoon)

    def take(self, selection: RosterSelection, force: RosterForce, platoon: int | None) -> None:
        if is_setting(selection.name):
            return
        unit = self.unit_of(selection)
        if unit is not None:
            number = max(selection.number, 1)
            # Checked before the loop: a roster's number="10000000" once built ten million entries
            # (666 MB, a worker held 30 s) before the list's cap refused them.
            if len(self.entries) + number > ENTRIES_MAX:
                raise exchange.ListImportError(
                    [
                        f"The roster holds more than {ENTRIES_MAX} units (“{selection.name}” × {number} "
                        f"after {len(self.entries)} others); a Muster list holds at most {ENTRIES_MAX}."
                    ]
                )
            entry = self.entry(unit, selection, platoon)
            self.entries.extend(dict(entry) for _ in range(number))
            return
        # A wrapper entry (a theatre selector, a group of units) may hold the units further down.
        top = list(self.units_below(selection))
        for child in top:
            self.take(child, force, platoon)
        if not top and (selection.type == "unit" or selection.points):
            self.errors.append(f"{force.name}: “{selection.name}” matches no unit of {self.army.name} in Muster.")

    def entry(self, unit: Unit, selection: RosterSelection, platoon: int | None) -> dict[str, Any]:
        offered = unit.qualities()
        quality = next((q for child in _walk(selection) if (q := quality_of(child.name)) is not None), None)
        if quality is None:
            quality = offered[0] if len(offered) == 1 else ("regular" if "regular" in offered else offered[0])
        options = {option.source_id: option for option in unit.options.all() if option.source_id}
        taken: dict[str, int] = {}
        models = 0
        pending = list(selection.children)
        while pending:
            child = pending.pop(0)
            option = next((options[i] for i in reversed(child.entry_ids) if i in options), None)
            if option is not None:
                taken[option.slug] = taken.get(option.slug, 0) + child.number
                continue
            if quality_of(child.name) is not None:
                continue
            if child.type == "model" or (child.type != "unit" and _MODEL_NAME_RE.search(child.name)):
                models += child.number
                pending.extend(child.children)  # a model's own upgrades (an SMG for the NCO)
                continue
            if child.points:
                self.errors.append(
                    f"{unit.name}: “{child.name}” ({child.points:g} pts) matches no option of the unit in Muster."
                )
                continue
            pending.extend(child.children)
        return {
            "unit": unit.slug,
            "name": "",
            "quality": quality,
            # Models no entry stands for (an officer alone) are not in the roster; only the added ones are.
            "models": unit.implicit_models + models if models else unit.base_models,
            "options": taken,
            "platoon": platoon,
        }


def _army_for(roster: Roster, forces: list[RosterForce]) -> Army:
    catalogues = {force.catalogue_id: force.catalogue_name or force.catalogue_id for force in forces}
    if not catalogues:
        raise exchange.ListImportError(["The roster has no forces with units in them."])
    if len(catalogues) > 1:
        names = ", ".join(sorted(catalogues.values()))
        raise exchange.ListImportError([f"The roster mixes several armies ({names}); a Muster list holds one army."])
    (catalogue_id, catalogue_name), *_ = catalogues.items()
    army = (
        Army.objects.filter(origin=Origin.BATTLESCRIBE, source_id=catalogue_id)
        .select_related("edition")
        .order_by("-updated_at")
        .first()
    )
    if army is None:
        raise exchange.ListImportError(
            [
                f"The roster's army “{catalogue_name}” (catalogue {catalogue_id}) has not been imported into "
                "Muster; staff can import it on the catalogue import page."
            ]
        )
    return army


def roster_document(roster: Roster) -> tuple[dict[str, Any], list[str]]:
    """The roster as a ``muster-list/1`` document, and notes on what could not be carried over.

    Raises ``ListImportError`` naming every selection that matches nothing.
    """
    forces = [force for force in roster.all_forces() if not is_setting(force.name) and force.selections]
    army = _army_for(roster, forces)
    matcher = _Matcher(roster, army)
    for force in forces:
        matcher.force(force)
    if matcher.errors:
        raise exchange.ListImportError(matcher.errors)
    limit = roster.points_limit if roster.points_limit and roster.points_limit > 0 else roster.points
    points_limit = min(max(int(math.ceil(limit)) if limit else DEFAULT_POINTS_LIMIT, 1), POINTS_LIMIT_MAX)
    document = {
        "format": exchange.FORMAT,
        "name": roster.name[: exchange.NAME_MAX],
        "edition": army.edition.slug,
        "army": [army.edition.slug, army.slug],
        "points_limit": points_limit,
        "force_org": "platoons" if matcher.platoons else "none",
        "platoons": matcher.platoons,
        "entries": matcher.entries,
    }
    return document, matcher.notes


def import_roster(name: str, data: bytes, *, owner: Any = None) -> RosterImport:
    """Read, match and save a roster as a new list, all or nothing; ``ListImportError`` lists every problem."""
    if len(data) > MAX_ROSTER_BYTES:
        raise exchange.ListImportError([f"{name} is larger than 2 MB; a roster is far smaller."])
    try:
        roster = parse_roster(name, data)
    except CatalogueImportError as exc:
        raise exchange.ListImportError([f"{exc.message}."]) from exc
    document, notes = roster_document(roster)
    army_list = exchange.import_list(json.dumps(document), owner=owner)
    summary = list_summary(ArmyList.objects.for_builder(details=False).get(pk=army_list.pk))
    roster_points = None if roster.points is None else int(round(roster.points))
    return RosterImport(army_list=army_list, roster_points=roster_points, muster_points=summary.points, notes=notes)
