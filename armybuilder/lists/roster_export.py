"""A list as a BattleScribe/NewRecruit roster (.rosz), for lists whose army came from a BattleScribe catalogue.

The roster names everything by the catalogue's own ids (units, options, platoon force entries,
the game system and catalogue with their revisions), so only an army imported from BattleScribe
data can be written: built-in, Barracks and module armies have no such ids, nor has a player's
own unit. Those are refused with a reason (``RosterRefused``) instead. The XML itself is written
by ``armydata.roster_writer`` from the plain data built here.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from armybuilder.catalogue.models import Origin
from armybuilder.lists.models import ArmyList
from armydata.roster_writer import ForceTaken, OptionTaken, RosterData, UnitTaken
from rules.army.force_org import KIND_LABELS
from rules.army.model import ListSummary
from rules.army.points import quality_label

OUTSIDE_PLATOONS = "Units outside platoons"


class RosterRefused(Exception):
    """The list cannot be written as a roster; the message says why, for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _refuse_unless_exportable(army_list: ArmyList) -> dict[str, str]:
    army = army_list.army
    if army.origin != Origin.BATTLESCRIBE:
        raise RosterRefused(
            _(
                "A BattleScribe roster can only be made of a list whose army was imported from a BattleScribe "
                "catalogue; %(army)s is not (its data: %(origin)s)."
            )
            % {"army": army.display_name, "origin": Origin(army.origin).label}
        )
    header = army.roster_header or {}
    if not header.get("game_system_id") or not army.source_id:
        raise RosterRefused(
            _(
                "%(army)s was imported before Muster kept what a roster needs (the game system's id and the "
                "catalogue's revision). Ask the site's staff to import its catalogue again, then export the list."
            )
            % {"army": army.display_name}
        )
    own = sorted({entry.unit.name for entry in army_list.entries.all() if entry.unit.owner_id is not None})
    if own:
        raise RosterRefused(
            _(
                "The list holds %(units)s, a unit from a player's own book that the catalogue does not know, so "
                "BattleScribe and NewRecruit could not read it. Without it, the list exports as a roster."
            )
            % {"units": ", ".join(f"“{name}”" for name in own)}
        )
    missing = sorted({entry.unit.name for entry in army_list.entries.all() if not entry.unit.source_id})
    if missing:
        raise RosterRefused(
            _("The catalogue's id of %(units)s is not known; import the catalogue again, then export the list.")
            % {"units": ", ".join(f"“{name}”" for name in missing)}
        )
    return header


def _options(entry) -> tuple[OptionTaken, ...]:
    by_slug = {option.slug: option for option in entry.unit.options.all()}
    taken = []
    for slug, count in (entry.options or {}).items():
        option = by_slug.get(slug)
        if option is None or not count:
            continue
        if not option.source_id:
            raise RosterRefused(
                _("The catalogue's id of the option “%(option)s” of %(unit)s is not known; import the catalogue again.")
                % {"option": option.name, "unit": entry.unit.name}
            )
        # A whole-unit option is taken once, however many men carry it.
        number = 1 if option.all_models else int(count)
        taken.append(OptionTaken(source_id=option.source_id, name=option.name, number=number))
    return tuple(taken)


def _unit(entry, points: int) -> UnitTaken:
    unit = entry.unit
    return UnitTaken(
        source_id=unit.source_id,
        name=unit.name,
        quality=quality_label(entry.quality),
        quality_key=entry.quality,
        # The men a roster lists as model selections: those beyond the ones the unit implies.
        models=max(entry.models_count - unit.implicit_models, 0),
        model_name=unit.name,
        points=points,
        options=_options(entry),
    )


def roster_data(army_list: ArmyList, summary: ListSummary) -> RosterData:
    """The list as plain roster data; expects ``for_builder()`` prefetches. Raises ``RosterRefused``."""
    header = _refuse_unless_exportable(army_list)
    army = army_list.army
    force_ids = {force.get("kind"): force.get("source_id", "") for force in army.force_org or ()}
    by_platoon: dict[int | None, list[UnitTaken]] = {}
    for entry in army_list.entries.all():
        points = summary.entry_points.get(str(entry.pk), 0)
        by_platoon.setdefault(entry.platoon_id, []).append(_unit(entry, points))
    forces = [
        ForceTaken(
            entry_id=force_ids.get(platoon.kind, ""),
            name=platoon.name or KIND_LABELS.get(platoon.kind, platoon.kind),
            units=tuple(by_platoon.get(platoon.pk, ())),
        )
        for platoon in army_list.platoons.all()
    ]
    if by_platoon.get(None):
        forces.append(ForceTaken(entry_id="", name=OUTSIDE_PLATOONS, units=tuple(by_platoon[None])))
    return RosterData(
        name=army_list.name,
        game_system_id=header["game_system_id"],
        game_system_name=header.get("game_system_name", ""),
        game_system_revision=header.get("game_system_revision", ""),
        catalogue_id=army.source_id,
        catalogue_name=army.name,
        catalogue_revision=header.get("catalogue_revision", ""),
        points_type_id=header.get("points_type_id", ""),
        points=summary.points,
        points_limit=army_list.points_limit,
        forces=tuple(forces),
    )
