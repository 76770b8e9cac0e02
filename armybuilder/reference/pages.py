"""Reference pages and API answers kept per rules-data version, and answered 304 when unchanged.

``reference_page`` decorates a reference view that returns an unrendered ``TemplateResponse``.
The rendered content (its title, head and main part, or the whole htmx fragment) is kept in
Django's cache under the data version (``version.data_version``), the language, the template and
the full path, so each page of each version is read from the database and rendered once; the
layout around it (navigation with the visitor's name, language switch, CSRF tokens) is rendered
for each visitor from ``reference/shell.html``. A stale page cannot be served: a new version is
a new key, and the old keys simply age out.

``reference_json`` does the same for the API's JSON. Both answer conditional GETs through
``armybuilder.http.conditional`` with the data version as the revision.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from armybuilder.http import Revision, build_stamp, conditional
from armybuilder.reference.version import DataVersion, data_version

BARE = "reference/bare.html"
SHELL = "reference/shell.html"
PART = "<muster-part>"
KEEP_SECONDS = 24 * 3600
# The query parameters the reference reads (the weapons chart's filters, the compare view's
# editions): only these tell kept pages apart, so stray parameters cannot fill the cache.
QUERY_PARAMS = ("q", "category", "rule", "min_pen", "a", "b", "changes")


def request_version(request: HttpRequest) -> DataVersion:
    """The data version, read once per request (the ETag and the cache key both need it)."""
    version = getattr(request, "_reference_version", None)
    if version is None:
        version = request._reference_version = data_version()  # type: ignore[attr-defined]
    return version


def reference_revision(request: HttpRequest, *args: object, **kwargs: object) -> Revision:
    version = request_version(request)
    return Revision(version.stamp, version.modified)


def _key(request: HttpRequest, kind: str) -> str:
    query = [(name, request.GET.getlist(name)) for name in QUERY_PARAMS if name in request.GET]
    parts = (kind, build_stamp(), request_version(request).stamp, get_language() or "", request.path, query)
    return "reference:" + hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def reference_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @conditional(reference_revision)
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        fragment = bool(getattr(request, "htmx", False)) and not request.htmx.history_restore_request  # type: ignore[attr-defined]
        key = _key(request, "fragment" if fragment else "page")
        kept = cache.get(key)
        if kept is None:
            response = view(request, *args, **kwargs)
            if not isinstance(response, TemplateResponse) or response.status_code != 200:
                return response
            template = str(response.template_name)
            context = dict(response.context_data or {})
            if "#" in template:
                kept = (render_to_string(template, context, request),)
            else:
                kept = tuple(render_to_string(template, {**context, "reference_base": BARE}, request).split(PART))
            cache.set(key, kept, KEEP_SECONDS)
        if len(kept) == 1:
            return HttpResponse(kept[0])
        title, head, content = (SafeString(part) for part in kept)
        return HttpResponse(
            render_to_string(SHELL, {"page_title": title, "page_head": head, "page_content": content}, request)
        )

    return wrapped


def reference_json(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The API's answers, kept per data version like the pages (JSON has no visitor in it)."""

    @conditional(reference_revision, per_visitor=False)
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        key = _key(request, "json")
        kept = cache.get(key)
        if kept is None:
            response = view(request, *args, **kwargs)
            kept = (response.status_code, response["Content-Type"], response.content)
            cache.set(key, kept, KEEP_SECONDS)
        status, content_type, content = kept
        return HttpResponse(content, status=status, content_type=content_type)

    return wrapped
