"""The header's links say which part of the site the page belongs to (``aria-current``)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def current(context: template.Context, prefix: str) -> SafeString:
    """``aria-current="page"`` when the request's path lies under ``prefix``; screen readers say
    "current page" and the stylesheet underlines the link, so the mark is the same for both."""
    request = context.get("request")
    if request is not None and request.path.startswith(prefix):
        return mark_safe(' aria-current="page"')
    return mark_safe("")
