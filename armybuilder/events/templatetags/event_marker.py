"""The builder's "legal for <event>" marker: only a list submitted to an event fetches it."""

from __future__ import annotations

from django import template

from armybuilder.events.marker import submitted

register = template.Library()


@register.simple_tag(takes_context=True)
def submitted_to_event(context, army_list) -> bool:
    """Whether the visitor submitted ``army_list`` to an event, from their session: no query."""
    return submitted(context.get("request"), getattr(army_list, "pk", None))
