"""One call for the builder page: points, order dice, officers and every problem of a list.

An entry whose points cannot be worked out (a quality its unit does not offer, a model count or
option out of range) becomes a problem and counts 0 points, so one bad entry never breaks the
page. Problems come in a stable order: entries' points (list order), choices the list must make
(required option groups, free units over their limit), officers whose rank the
edition lacks (list order), then force organisation and tournament limits (see ``force_org``).
"""

from __future__ import annotations

from rules.army.force_org import validate
from rules.army.model import ListSpec, ListSummary, Problem
from rules.army.officers import officer_effects, officer_problems
from rules.army.order_dice import order_dice
from rules.army.points import entry_points, list_option_problems
from rules.errors import RulesError


def summarise(spec: ListSpec) -> ListSummary:
    """Summarise a list; raises only for a list-level input error (unknown edition or force_org)."""
    points: dict[str, int] = {}
    problems: list[Problem] = []
    for entry in spec.entries:
        try:
            points[entry.key] = entry_points(entry)
        except RulesError as error:
            points[entry.key] = 0
            params = {"reason": error.code, **error.params} if error.code else {}
            problems.append(
                Problem(str(error), "entry-points", entry_key=entry.key, platoon_key=entry.platoon, params=params)
            )
    # Never below 0 whatever the entries say (each is refused below 0 already): a negative total
    # reads as room under a points limit, and an event cannot store it.
    total = max(0, sum(points.values()))
    problems += list_option_problems(spec)
    problems += officer_problems(spec)
    problems += validate(spec, points=total)
    return ListSummary(
        points=total,
        points_limit=spec.points_limit,
        entry_points=points,
        order_dice=order_dice(spec),
        officers=officer_effects(spec),
        problems=tuple(problems),
    )
