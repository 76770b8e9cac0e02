"""Reference pages and API answers kept per rules-data version, and answered 304 when unchanged.

``reference_page`` decorates a reference view that returns an unrendered ``TemplateResponse``.
The whole page (or the whole htmx fragment) is rendered once per rules-data version
(``version.data_version``), language, template, path, and signed in or not, and kept in Django's
cache under those; a stale page cannot be served, because a new version is a new key and the
old keys simply age out.

The layout's few per-visitor values are rendered into the kept page as markers and filled in for
each request: the CSRF token (masked afresh for each response, as ``{% csrf_token %}`` does), the
full path the language switch returns to, and the signed-in player's name and id. So a visitor's
page costs a cache read and a few string replacements, not a template render, and no visitor's
values are ever in what is kept. A request with flash messages waiting is rendered as usual.

``reference_json`` does the same for the API's JSON. Both answer conditional GETs through
``armybuilder.http.conditional`` with the data version as the revision.
"""

from __future__ import annotations

import functools
import hashlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from threading import Lock

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils.html import escape
from django.utils.translation import get_language

from armybuilder.http import Revision, build_stamp, conditional, messages_waiting
from armybuilder.reference.version import DataVersion, data_version

KEEP_SECONDS = 24 * 3600
# The query parameters the reference reads (the weapons chart's filters, the compare view's
# editions): only these tell kept pages apart, so stray parameters cannot fill the cache.
QUERY_PARAMS = ("q", "category", "rule", "min_pen", "a", "b", "changes")

# Private-use characters: nothing a template renders from the rules data produces them by
# accident, and none of them is changed by HTML escaping. (Were an imported catalogue to contain
# one, the visitor would only see their own value there.)
CSRF_MARK = "\ue000csrf\ue000"
PATH_MARK = "\ue000path\ue000"
NAME_MARK = "\ue000name\ue000"
ID_MARK = "\ue000id\ue000"


@dataclass(frozen=True)
class _MarkedUser:
    """Stands in for ``request.user`` in a kept page: what the layout shows of a visitor."""

    is_authenticated: bool

    @property
    def pk(self) -> str:
        return ID_MARK if self.is_authenticated else ""

    def get_username(self) -> str:
        return NAME_MARK if self.is_authenticated else ""


class _Recent:
    """The last pages this process answered, in front of the shared cache.

    Safe without invalidation for the same reason the shared cache is: the key carries the data
    version read for this request, so an entry for an old version is only ever left unused (and
    pushed out by newer ones). It saves a round trip to Redis and the copy of a 30 kB page.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[str, object] = OrderedDict()
        self.lock = Lock()  # gthread workers answer requests in threads

    def get(self, key: str) -> object | None:
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def set(self, key: str, value: object) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


RECENT = _Recent(size=200)


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


def _shared(request: HttpRequest) -> bool:
    """Whether the page may go to the shared cache: only pages without the visitor's own filters.

    Each distinct ``?q=`` once kept ~10.5 kB in Redis for 24 hours: three anonymous threads wrote
    ~1.3 GB an hour until Redis refused every write. The pages a visitor's query chooses are kept
    only in this process's ``RECENT`` (200 pages at most), so what any visitor sends can occupy a
    bounded amount of memory; the pages without a query (the set is fixed by the rules data)
    are shared between workers as before.
    """
    return not any(name in request.GET for name in QUERY_PARAMS)


def _kept(key: str, make: Callable[[], object | None], *, shared: bool = True) -> object | None:
    """What is kept under ``key``: this process's copy, the shared cache's, or ``make()``'s."""
    value = RECENT.get(key)
    if value is None:
        value = cache.get(key) if shared else None
        if value is None:
            value = make()
            if value is None:
                return None
            if shared:
                cache.set(key, value, KEEP_SECONDS)
        RECENT.set(key, value)
    return value


def _fill_in(page: str, request: HttpRequest, signed_in: bool) -> str:
    page = page.replace(CSRF_MARK, get_token(request)).replace(PATH_MARK, escape(request.get_full_path()))
    if signed_in:
        page = page.replace(NAME_MARK, escape(request.user.get_username())).replace(ID_MARK, str(request.user.pk))
    return page


def reference_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @conditional(reference_revision)
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if messages_waiting(request):  # the layout shows them, once: nothing to keep
            return view(request, *args, **kwargs)
        fragment = bool(getattr(request, "htmx", False)) and not request.htmx.history_restore_request  # type: ignore[attr-defined]
        signed_in = request.user.is_authenticated  # type: ignore[attr-defined]
        kind = ("fragment" if fragment else "page") + (":signed-in" if signed_in else "")
        answered: list[HttpResponse] = []

        def render() -> str | None:
            response = view(request, *args, **kwargs)
            if not isinstance(response, TemplateResponse) or response.status_code != 200:
                answered.append(response)  # a 404 or a redirect is answered, not kept
                return None
            marks = {"csrf_token": CSRF_MARK, "layout_next": PATH_MARK, "user": _MarkedUser(signed_in)}
            return render_to_string(str(response.template_name), {**(response.context_data or {}), **marks}, request)

        page = _kept(_key(request, kind), render, shared=_shared(request))
        if page is None:
            return answered[0]
        return HttpResponse(_fill_in(str(page), request, signed_in))

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
