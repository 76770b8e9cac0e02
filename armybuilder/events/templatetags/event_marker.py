"""The builder's "legal for <event>" marker: only a list submitted to an event fetches it."""

from __future__ import annotations

from django import template

from armybuilder.events.models import Submission

register = template.Library()


@register.simple_tag
def submitted_to_event(army_list) -> bool:
    """Whether ``army_list`` is submitted to an event: one indexed ``exists()``, asked each time the
    problems panel is drawn, so a list sealed from another device or session shows at once."""
    pk = getattr(army_list, "pk", None)
    return bool(pk) and Submission.objects.filter(army_list_id=pk).exists()
