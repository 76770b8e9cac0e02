"""The list summary the builder shows (points, order dice, officers, problems), from rules/.

``rules.army.summary.summarise`` does the maths on plain data; this adapter feeds it a list
loaded with ``ArmyList.objects.for_builder()`` and keeps a rules error from becoming a 500.
"""

from __future__ import annotations

from armybuilder.lists.models import ArmyList
from rules.army.model import ListSummary, Problem
from rules.army.summary import summarise
from rules.errors import RulesError


def list_summary(army_list: ArmyList) -> ListSummary:
    """Summarise a list; expects the ``for_builder()`` prefetches, so it runs no query."""
    try:
        return summarise(army_list.to_rules())
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
