"""What the views of every app share about requests."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request through django-htmx's middleware, for type checkers (``request.htmx``)."""

    htmx: HtmxDetails
