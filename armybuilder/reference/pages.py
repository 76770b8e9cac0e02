"""Reference pages and API answers: the content kept per rules-data version, the layout per request.

``reference_page`` decorates a reference view that returns an unrendered ``TemplateResponse`` of
a reference template (``reference/topic.html``...; or one of its ``#fragment`` partials for htmx).
What the reference shows is rendered once per rules-data version (``version.data_version``),
deployed build, language, path and filters, and kept in Django's cache under those; a new version
is a new key, so a stale page cannot be served and nothing has to be invalidated.

The kept content is rendered without the request: no context processor runs, so no visitor's
token, name or messages can ever be in it. The site's layout (``reference/page.html`` on
``base.html``) is rendered for each request around it, as on every other page, so whatever
``base.html`` shows of the visitor is right without this module knowing about it.

``reference_json`` keeps the API's JSON the same way. Both answer conditional GETs through
``armybuilder.http.conditional`` with the data version as the revision.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import cast

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from armybuilder.http import Revision, build_stamp, conditional
from armybuilder.reference.models import SpecialRule, WeaponCategory
from armybuilder.reference.version import DataVersion, data_version

KEEP_SECONDS = 24 * 3600
# The query parameters the reference reads (the weapons chart's filters, the compare view's
# editions): only these tell kept pages apart, so stray parameters cannot fill the cache.
QUERY_PARAMS = ("q", "category", "rule", "min_pen", "a", "b", "changes")
MIN_PEN_MAX = 20  # the weapons filter's own bound (reference.views.WeaponFilterForm)
RULE_SLUG_MAX = 120
# The site's layout around a kept reference content.
PAGE_TEMPLATE = "reference/page.html"


def request_version(request: HttpRequest) -> DataVersion:
    """The data version, read once per request (the ETag and the cache key both need it)."""
    version = getattr(request, "reference_version", None)
    if version is None:
        version = request.reference_version = data_version()  # type: ignore[attr-defined]
    return version


def reference_revision(request: HttpRequest, *args: object, **kwargs: object) -> Revision:
    version = request_version(request)
    return Revision(version.stamp, version.modified)


def _key(request: HttpRequest, kind: str) -> str:
    query = [(name, request.GET.getlist(name)) for name in QUERY_PARAMS if name in request.GET]
    parts = (kind, build_stamp(), request_version(request).stamp, get_language() or "", request.path, query)
    return "reference:" + hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def _shared(request: HttpRequest) -> bool:
    """Whether the page may be kept: only when every parameter it reads has one of a bounded set of values.

    Each distinct ``?q=`` once kept ~10.5 kB in Redis for 24 hours: three anonymous threads wrote
    ~1.3 GB an hour until Redis refused every write. Free text (``q``) is therefore never kept: such a
    page is rendered for its request. The other parameters are kept only with values the reference
    can answer differently (a weapon category, a special rule's slug, a pen from 0 to 20, the compare
    view's switch), so the pages that can be kept are a set fixed by the rules data. An unknown
    edition in ``a``/``b`` is a 404, which is never kept.
    """
    for name in QUERY_PARAMS:
        values = request.GET.getlist(name)
        if len(values) > 1 or (values and not _bounded(name, values[0])):
            return False
    return True


def _bounded(name: str, value: str) -> bool:
    if value == "" or name in ("a", "b"):
        return True
    if name == "changes":
        return value == "1"
    if name == "category":
        return value in WeaponCategory.values
    if name == "min_pen":
        return value.isdigit() and int(value) <= MIN_PEN_MAX
    if name == "rule":
        return len(value) <= RULE_SLUG_MAX and SpecialRule.objects.filter(slug=value).exists()
    return False  # "q": free text


def _kept(key: str, make: Callable[[], object | None], *, shared: bool = True) -> object | None:
    """What the shared cache keeps under ``key``, or ``make()``'s answer, kept (unless ``None``)."""
    if not shared:
        return make()
    value = cache.get(key)
    if value is None:
        value = make()
        if value is not None:
            cache.set(key, value, KEEP_SECONDS)
    return value


def _content(response: TemplateResponse) -> dict[str, str]:
    """The page's title and content, rendered from its context alone (no request: nothing per visitor)."""
    template_name = str(response.template_name)
    context = response.context_data or {}
    content = {"body": render_to_string(template_name, context)}
    if "#" not in template_name:  # a whole page: the layout needs its title too
        content["title"] = render_to_string(f"{template_name}#title", context)
    return content


def reference_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @conditional(reference_revision)
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        fragment = bool(getattr(request, "htmx", False)) and not request.htmx.history_restore_request  # type: ignore[attr-defined]
        answered: list[HttpResponse] = []

        def make() -> dict[str, str] | None:
            response = view(request, *args, **kwargs)
            if not isinstance(response, TemplateResponse) or response.status_code != 200:
                answered.append(response)  # a 404 or a redirect is answered, not kept
                return None
            return _content(response)

        content = cast(
            "dict[str, str] | None",
            _kept(_key(request, "fragment" if fragment else "page"), make, shared=_shared(request)),
        )
        if content is None:
            return answered[0]
        # Rendered by Django's templates, which escaped every value in it.
        body = mark_safe(content["body"])  # noqa: S308
        if "title" not in content:  # an htmx fragment: no layout
            return HttpResponse(body)
        return render(request, PAGE_TEMPLATE, {"title": mark_safe(content["title"]), "content": body})  # noqa: S308

    return wrapped


def reference_json(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The API's answers, kept per data version like the pages (JSON has no visitor in it)."""

    @conditional(reference_revision, per_visitor=False)
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        answered: list[HttpResponse] = []

        def answer() -> tuple[str, bytes] | None:
            response = view(request, *args, **kwargs)
            if response.status_code != 200:
                answered.append(response)  # an unknown table is answered, not kept
                return None
            return (response["Content-Type"], response.content)

        kept = _kept(_key(request, "json"), answer, shared=_shared(request))
        if kept is None:
            return answered[0]
        content_type, content = kept  # type: ignore[misc]
        return HttpResponse(content, content_type=content_type)

    return wrapped
