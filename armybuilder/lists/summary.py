"""The list summary the builder shows (points, order dice, officers, problems), from rules/.

``rules.army.summary.summarise`` does the maths on plain data; this adapter feeds it a list
loaded with ``ArmyList.objects.for_builder()`` and keeps a rules error from becoming a 500.
"""

from __future__ import annotations

from armybuilder.catalogue.models import Unit
from armybuilder.lists.models import ArmyList
from rules.army.model import EntrySpec, ListSpec, ListSummary, Problem, UnitSpec
from rules.army.summary import summarise
from rules.errors import RulesError


def _unit_rules(unit: Unit) -> UnitSpec:
    """``unit.to_rules()``, kept on the unit for this request: ``for_builder()`` gives the
    entries of one unit the same instance, so each distinct unit is converted once."""
    spec = unit.__dict__.get("_rules_spec")
    if spec is None:
        spec = unit.__dict__["_rules_spec"] = unit.to_rules()
    return spec


def list_spec(army_list: ArmyList) -> ListSpec:
    """``army_list.to_rules()``, building each distinct unit's spec once rather than once per entry.

    The builder summarises the whole list on every change, and a list's entries share a few
    units, each with its options. Same data as ``ArmyList.to_rules()`` (a test holds them equal).
    """
    units: dict[int, UnitSpec] = {}
    names = army_list.entry_names()
    platoon_names = army_list.platoon_names()
    entries = []
    for entry in army_list.entries.all():
        unit_id = entry.unit_id
        known = units.get(unit_id)
        if known is None:
            known = units[unit_id] = _unit_rules(entry.unit)
        platoon_id = entry.platoon_id
        entries.append(
            EntrySpec(
                key=str(entry.pk),
                name=names[entry.pk],  # shared names numbered, as every page prints them
                unit=known,
                quality=entry.quality,
                models=entry.models_count,
                options=dict(entry.options),
                platoon=str(platoon_id) if platoon_id else None,
            )
        )
    return ListSpec(
        edition=army_list.edition.slug,
        force_org=army_list.force_org,
        points_limit=army_list.points_limit,
        max_order_dice=army_list.max_order_dice,
        max_platoons=army_list.max_platoons,
        platoons=tuple(p.to_rules(name=platoon_names.get(p.pk)) for p in army_list.platoons.all()),
        entries=tuple(entries),
        forces=army_list.army.force_rules(),
    )


def list_summary(army_list: ArmyList) -> ListSummary:
    """Summarise a list once; expects the ``for_builder()`` prefetches, so it runs no query."""
    try:
        return summarise(list_spec(army_list))
    except RulesError as exc:
        # Bad data (an unknown selector, an impossible cost) is shown as a problem, not a crash.
        return ListSummary(
            points=0,
            points_limit=army_list.points_limit,
            entry_points={},
            order_dice=0,
            officers=(),
            problems=(Problem(message=str(exc), rule="rules-error"),),
        )
