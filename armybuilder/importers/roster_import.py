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
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from armybuilder.catalogue.models import Army, Origin, Unit
from armybuilder.lists import exchange
from armybuilder.lists.models import ENTRIES_MAX, POINTS_LIMIT_MAX, ArmyList
from armybuilder.lists.summary import list_summary
from armydata.battlescribe import edition_of, quality_of
from armydata.classify import is_setting, platoon_kind
from armydata.roster_file import Roster, RosterForce, RosterSelection, parse_roster
from armydata.safety import CatalogueImportError
from rules.army.force_org import KIND_LABELS, edition_rules
from rules.army.model import EntrySpec
from rules.army.points import entry_points
from rules.errors import RulesError

MAX_ROSTER_BYTES = 2 * 1024 * 1024
DEFAULT_POINTS_LIMIT = 1000
# Model entries in 2nd-edition community data are often plain upgrades named for the soldier.
_MODEL_NAME_RE = re.compile(
    r"\b(soldiers?|nco|man|men|trooper|troopers|crewman|crewmen|attendants?|rifleman|riflemen|crew)\b", re.I
)

_ADDED_RE = re.compile(r"\b(additional|extra)\b", re.I)


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


def _key(name: str) -> str:
    """A name as names are compared across data authors: no accents, case, punctuation or spacing."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^0-9a-z]+", " ", plain.casefold()).split())


def _bare(name: str) -> str:
    """The name without bracketed notes: "Second Lieutenant (Leutnant)" is "second lieutenant"."""
    return _key(re.sub(r"\([^)]*\)|\[[^]]*\]", " ", name))


class _Names:
    """Rows by name, for data whose ids cannot match (a built-in army, a unit reached by a link)."""

    def __init__(self, rows: list[Any]):
        self.rows = rows
        self.exact: dict[str, list[Any]] = {}
        self.bare: dict[str, list[Any]] = {}
        for row in rows:
            for name in {row.name, getattr(row, "name_fr", "") or row.name}:
                self.exact.setdefault(_key(name), []).append(row)
                self.bare.setdefault(_bare(name), []).append(row)

    def find(self, name: str, *, loose: bool = False) -> Any | None:
        for table, key in ((self.exact, _key(name)), (self.bare, _bare(name))):
            found = list(dict.fromkeys(table.get(key, [])))
            if len(found) == 1:
                return found[0]
        if not loose or not _bare(name):
            return None
        # One name holding the other ("Anti-tank Grenades" in "Anti-tank grenades (+2 pts per man)").
        words = f" {_bare(name)} "
        found = [
            row for row in self.rows if (b := _bare(row.name)) and (f" {b} " in words or words.strip() in f" {b} ")
        ]
        return found[0] if len(found) == 1 else None


class _Matcher:
    def __init__(self, roster: Roster, army: Army, *, by_name: bool = False):
        self.roster = roster
        self.army = army
        # A built-in army shares no ids with the roster's data: everything is mapped by names,
        # and what maps to nothing is listed rather than refused.
        self.by_name = by_name
        units = list(
            Unit.objects.filter(army=army).builtin().prefetch_related("options").order_by("removed", "position")
        )
        self.units: dict[str, Unit] = {}
        for unit in units:
            for ident in (unit.source_id, *(unit.source_aliases or ())):
                if ident:
                    self.units.setdefault(ident, unit)
        self.names = _Names([unit for unit in units if not unit.removed])
        self.kinds = {force["source_id"]: force["kind"] for force in army.force_org or ()}
        self.allowed_kinds = set(edition_rules(army.edition.slug).platoons)
        self.errors: list[str] = []
        self.notes: list[str] = []
        self.platoons: list[dict[str, Any]] = []
        self.entries: list[dict[str, Any]] = []
        self.by_category: dict[tuple[int, str], int] = {}
        self.unplaced: list[str] = []

    def problem(self, message: str) -> None:
        (self.notes if self.by_name else self.errors).append(message)

    def unit_of(self, selection: RosterSelection) -> Unit | None:
        unit = next((self.units[i] for i in reversed(selection.entry_ids) if i in self.units), None)
        if unit is None and self.by_name and selection.type == "unit":
            unit = self.names.find(selection.name)
        return unit

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
        self.unplaced = []
        for selection in force.selections:
            self.take(selection, force, platoon)
        if self.unplaced:
            self.notes.append(f"“{force.name}” is not a platoon Muster knows; its units are outside any platoon.")

    def platoon_of(self, selection: RosterSelection, force: RosterForce) -> int | None:
        """The platoon a unit's category names, for data that puts the whole army in one force."""
        for category in selection.categories:
            kind = platoon_kind(category)
            if kind in self.allowed_kinds:
                key = (id(force), kind)
                if key not in self.by_category:
                    self.platoons.append({"kind": kind, "name": ""})
                    self.by_category[key] = len(self.platoons) - 1
                return self.by_category[key]
        return None

    def take(self, selection: RosterSelection, force: RosterForce, platoon: int | None) -> None:
        if is_setting(selection.name):
            return
        unit = self.unit_of(selection)
        if unit is not None:
            place = platoon if platoon is not None else self.platoon_of(selection, force)
            if place is None:
                self.unplaced.append(selection.name)
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
            entry = self.entry(unit, selection, place)
            self.entries.extend(dict(entry) for _ in range(number))
            return
        # A wrapper entry (a theatre selector, a group of units) may hold the units further down.
        top = list(self.units_below(selection))
        for child in top:
            self.take(child, force, platoon)
        if not top and (selection.type == "unit" or selection.points):
            self.problem(f"{force.name}: “{selection.name}” matches no unit of {self.army.name} in Muster.")

    def entry(self, unit: Unit, selection: RosterSelection, platoon: int | None) -> dict[str, Any]:
        offered = unit.qualities()
        quality = next((q for child in _walk(selection) if (q := quality_of(child.name)) is not None), None)
        if quality is None or quality not in offered:
            quality = offered[0] if len(offered) == 1 else ("regular" if "regular" in offered else offered[0])
        all_options = list(unit.options.all())
        options: dict[str, Any] = {}
        for option in all_options:
            for ident in (option.source_id, *option.source_id.split("::")):
                if ident:
                    options.setdefault(ident, option)
        names = _Names(all_options)
        taken: dict[str, int] = {}
        models = 0
        added = 0  # "Additional soldier" entries: men on top of the unit's base size
        beside = 0  # men of a team taken whom the roster lists next to the team, not inside it
        pending = list(selection.children)
        while pending:
            child = pending.pop(0)
            option = next((options[i] for i in child.entry_ids if i in options), None)
            if option is None and self.by_name and quality_of(child.name) is None:
                option = names.find(child.name, loose=True)
            if option is not None:
                taken[option.slug] = taken.get(option.slug, 0) + child.number
                if option.adds_models and not any(_is_man(item) for item in _walk(child)):
                    beside += option.adds_models * child.number
                if self.by_name and (child.type == "model" or _MODEL_NAME_RE.search(child.name)):
                    # "Regular Soldier with LMG" is one of the squad's men who carries the option.
                    models += child.number
                continue
            if quality_of(child.name) is not None:
                pending.extend(child.children)  # a variant's quality may hold its own choices
                continue
            if _is_man(child):
                models += child.number
                if _ADDED_RE.search(child.name):
                    added += child.number
                pending.extend(child.children)  # a model's own upgrades (an SMG for the NCO)
                continue
            if child.points:
                self.problem(
                    f"{unit.name}: “{child.name}” ({child.points:g} pts) matches no option of the unit in Muster."
                )
                continue
            pending.extend(child.children)
        count = unit.implicit_models + models if models else unit.base_models
        if beside and not self.by_name:
            count = _without_team_men(unit, quality, count, beside, taken, selection)
        if self.by_name and added:
            # Another author's data lists the men added to the squad's base size as such; the
            # others it lists (a soldier with an LMG) are base men.
            count = unit.base_models + added
        if self.by_name and not unit.base_models <= count <= unit.max_models:
            # Another author's squad sizes: keep the nearest size Muster's unit allows.
            fitted = min(max(count, unit.base_models), unit.max_models)
            self.notes.append(f"{unit.name}: {count} models in the roster; Muster's unit takes {fitted}.")
            count = fitted
        return {
            "unit": unit.slug,
            "name": "",
            "quality": quality,
            # Models no entry stands for (an officer alone) are not in the roster; only the added ones are.
            "models": count,
            "options": taken,
            "platoon": platoon,
        }


def _is_man(selection: RosterSelection) -> bool:
    """A model selection, or (2nd-edition data) an upgrade named for the soldier it adds."""
    return selection.type == "model" or (selection.type != "unit" and bool(_MODEL_NAME_RE.search(selection.name)))


def _points(unit: Unit, quality: str, models: int, options: dict[str, int]) -> int | None:
    """Muster's points for the unit so taken, or None when Muster refuses that reading."""
    spec = EntrySpec(
        key="roster", name=unit.name, unit=unit.to_rules(), quality=quality, models=models, options=options
    )
    try:
        return entry_points(spec)
    except RulesError:
        return None


def _roster_points(selection: RosterSelection) -> set[int]:
    """The unit's points as the roster gives them, read both ways tools write them: on the unit for
    everything below it, or on each selection for itself."""
    own = selection.points
    below = sum(item.points for item in _walk(selection))
    number = max(selection.number, 1)
    return {round(value / number) for value in (own, own + below) if value > 0}


def _without_team_men(
    unit: Unit, quality: str, count: int, beside: int, taken: dict[str, int], selection: RosterSelection
) -> int:
    """The unit's own men when a team taken brings men the roster also lists as the unit's models.

    Some data shows a team's men (an LMG gunner and loader) as model entries beside the team's own
    choice; a roster then lists the choice and the men. They are the team's, which already counts
    and charges them: counting them as the squad's too charges them twice. The roster's own points
    for the unit are the check: the reading whose points are the roster's is kept, and without
    points the team's men are the team's.
    """
    fewer = count - beside
    if fewer < unit.base_models:
        return count
    roster = _roster_points(selection)
    for models in (fewer, count):
        if roster and _points(unit, quality, models, taken) in roster:
            return models
    return fewer


def _builtin_army(roster: Roster, catalogue_name: str) -> Army | None:
    """The built-in army a roster's catalogue names ("BA2 - Armies of Germany" is Germany), in
    the roster's edition when its game system's name says one."""
    edition = edition_of(roster.game_system_name)
    armies = Army.objects.filter(origin=Origin.BUILTIN).select_related("edition")
    if edition is not None:
        armies = armies.filter(edition__slug=edition)
    words = f" {_key(catalogue_name)} "
    found = [
        (len(key), army)
        for army in armies
        for name in {army.name, army.name_fr or army.name}
        if (key := _key(name)) and key != "generic" and f" {key} " in words
    ]
    if not found:
        return None
    longest = max(length for length, _ in found)
    best = {army.pk: army for length, army in found if length == longest}
    return next(iter(best.values())) if len(best) == 1 else None


def _army_for(roster: Roster, forces: list[RosterForce]) -> tuple[Army, bool]:
    """The army the roster's catalogue was imported as, else the built-in army it names (by names)."""
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
    if army is not None:
        return army, False
    army = _builtin_army(roster, catalogue_name)
    if army is not None:
        return army, True
    raise exchange.ListImportError(
        [
            f"The roster's army “{catalogue_name}” (catalogue {catalogue_id}) has not been imported into Muster "
            "and is not one of its built-in armies. Staff can import the catalogue (its .cat file with the game "
            "system's .gst) on the catalogue import page; then import the roster again."
        ]
    )


def roster_document(roster: Roster) -> tuple[dict[str, Any], list[str]]:
    """The roster as a ``muster-list/1`` document, and notes on what could not be carried over.

    Raises ``ListImportError`` naming every selection that matches nothing.
    """
    forces = [force for force in roster.all_forces() if not is_setting(force.name) and force.selections]
    army, by_name = _army_for(roster, forces)
    matcher = _Matcher(roster, army, by_name=by_name)
    if by_name:
        matcher.notes.append(
            f"The roster's army is mapped onto Muster's built-in {army.name} ({army.edition.slug}) by names; "
            "check the points and the options."
        )
    for force in forces:
        matcher.force(force)
    if by_name and not matcher.entries:
        raise exchange.ListImportError([*matcher.notes[1:], f"No unit of the roster maps onto {army.name}."])
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
