"""The builder's "legal for <event>" marker: only a list submitted to an event fetches it."""

from __future__ import annotations

from django import template
from django.db.models import Q

from armybuilder.events.models import Entrant

register = template.Library()


@register.simple_tag
def submitted_to_event(army_list) -> bool:
    """Whether ``army_list`` is submitted to an event, as its list or as an escalation stage's: one
    ``exists()``, asked each time the problems panel is drawn, so a list sealed from another device
    or session shows at once."""
    pk = getattr(army_list, "pk", None)
    sealed_here = Q(submission__army_list_id=pk) | Q(stage_submissions__army_list_id=pk)
    return bool(pk) and Entrant.objects.filter(sealed_here).exists()
