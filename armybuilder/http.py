"""What the views of every app share about requests: the htmx request type, and conditional GET.

Conditional GET: answer a reload with 304 Not Modified while what the page shows is unchanged.

``conditional(revision)`` decorates a GET view. ``revision(request, *args, **kwargs)`` reads, in
one cheap query, a stamp of everything the page's content depends on (a list's ``updated_at``
and its army's, the rules data's version...), or ``None`` when the visitor may not see the
object (the view then runs and answers its 404). The ETag hashes that stamp with everything
else the response depends on:

* the deployed code, templates and translations (``build_stamp``), so a new release is refetched;
* the active language, the full path with its query string, and the htmx headers (a fragment
  and the whole page never share an ETag);
* for pages with the site's layout (``per_visitor``): the signed-in user and the visitor's CSRF
  secret (the layout shows the user's name and carries CSRF tokens), so one visitor's ETag never
  matches another's page, and logging in or out refetches it.

A page rendered while flash messages are waiting gets no ETag (the next view would differ) and
a request with messages waiting is never answered 304. Responses are ``private, no-cache``:
the browser keeps them but asks every time. Only the ETag decides a 304 (``If-Modified-Since``
alone cannot tell the language or the visitor); ``Last-Modified`` is sent for information and
for the language-independent, visitor-independent API answers (``per_visitor=False``).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date, parse_etags, parse_http_date_safe
from django.utils.translation import get_language
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request through django-htmx's middleware, for type checkers (``request.htmx``)."""

    htmx: HtmxDetails


# What a deploy changes: a release with new templates, code, translations or static files (scripts,
# styles, icons: a page names them, and a page cached with an old script's behaviour is a stale page)
# gets new ETags.
BUILD_GLOBS = (
    "armybuilder/**/*.py",
    "armybuilder/**/*.mo",
    "armydata/**/*.py",
    "rules/**/*.py",
    "templates/**/*.html",
    "locale/**/*.mo",
    "static/**/*",
)


@dataclass(frozen=True)
class Revision:
    stamp: str
    modified: datetime | None = None


@functools.cache
def build_stamp() -> str:
    """A hash of the deployed files' names, sizes and modification times, read once per process."""
    digest = hashlib.blake2b(digest_size=8)
    root = Path(settings.BASE_DIR)
    for pattern in BUILD_GLOBS:
        for path in sorted(root.glob(pattern)):
            if not path.is_file():
                continue
            stat = path.stat()
            digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def etag_for(request: HttpRequest, stamp: str, *, per_visitor: bool = True) -> str:
    parts = [
        build_stamp(),
        stamp,
        get_language() or "",
        request.get_full_path(),
        request.headers.get("HX-Request", ""),
        request.headers.get("HX-History-Restore-Request", ""),
    ]
    if per_visitor:
        user = getattr(request, "user", None)
        signed_in = user is not None and user.is_authenticated
        parts += [str(user.pk) if signed_in else "-", request.META.get("CSRF_COOKIE", "")]
    return '"' + hashlib.blake2b("\x1f".join(parts).encode(), digest_size=12).hexdigest() + '"'


def _matches(request: HttpRequest, etag: str) -> bool:
    wanted = parse_etags(request.headers.get("If-None-Match", ""))
    # Weak comparison (RFC 9110 13.1.2): a proxy that compresses the body marks the ETag weak.
    return "*" in wanted or any(tag.removeprefix("W/") == etag for tag in wanted)


def _unmodified_since(request: HttpRequest, modified: datetime | None) -> bool:
    since = parse_http_date_safe(request.headers.get("If-Modified-Since", ""))
    return since is not None and modified is not None and int(modified.timestamp()) <= since


def messages_waiting(request: HttpRequest) -> bool:
    return len(get_messages(request)) > 0


def _mark(response: HttpResponse, etag: str | None, modified: datetime | None) -> HttpResponse:
    if etag is not None:
        response["ETag"] = etag
    if modified is not None:
        response["Last-Modified"] = http_date(modified.timestamp())
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language", "HX-Request"))
    return response


def conditional(
    revision: Callable[..., Revision | None], *, per_visitor: bool = True
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Decorate a GET view so that an unchanged page is answered 304 (see the module docstring)."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            if request.method not in ("GET", "HEAD"):
                return view(request, *args, **kwargs)
            current = revision(request, *args, **kwargs)
            if current is None or messages_waiting(request):
                return view(request, *args, **kwargs)
            etag = etag_for(request, current.stamp, per_visitor=per_visitor)
            unchanged = (
                _matches(request, etag)
                if "If-None-Match" in request.headers
                else not per_visitor and _unmodified_since(request, current.modified)
            )
            if unchanged:
                return _mark(HttpResponseNotModified(), etag, current.modified)
            response = view(request, *args, **kwargs)
            if response.status_code != 200 or response.has_header("ETag"):
                return response
            if messages_waiting(request):  # the page shows them: the next view will differ
                return _mark(response, None, None)
            # Worked out again after the view: rendering a form may have set a new CSRF secret.
            return _mark(response, etag_for(request, current.stamp, per_visitor=per_visitor), current.modified)

        return wrapped

    return decorator


def pdf_response(data: bytes, filename: str, *, download: bool) -> HttpResponse:
    """A PDF shown in the browser, or saved under ``filename`` when ``download`` (the page's "Download" link)."""
    response = HttpResponse(data, content_type="application/pdf")
    disposition = "attachment" if download else "inline"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response
