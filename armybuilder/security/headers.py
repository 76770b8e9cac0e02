"""Response headers Django does not set itself: Permissions-Policy.

The print preview's framed document, the one page allowed inline styles, says so with Django's
``@csp_override`` (``playsheets.views.print_document``); every other page keeps ``SECURE_CSP``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse


class PermissionsPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


# The service worker keeps a signed-in player's pages for offline use (static/site/sw.js). It must
# stop serving them once the session is gone, even when that happens without a logout.
USER_HEADER = "X-Muster-User"
USER_COOKIE = "muster_user"


class OfflineUserMiddleware:
    """Tells the service worker whose session a response belongs to.

    * Every response carries ``X-Muster-User``: the signed-in user's id, or empty. The worker
      compares it with the user whose pages it keeps, on every response it sees (pages, fragments,
      polls, PDFs), and drops them at the first one that disagrees: a session that expired or was
      ended elsewhere is noticed before any page script runs.
    * Whenever the session cookie is set or deleted, a companion cookie ``muster_user`` (the user's
      id, readable by the worker through the Cookie Store API, nothing secret) is set with the same
      lifetime, or deleted. When the session cookie expires in the browser, so does this one, and
      the worker then serves no kept private page even offline, with no response to learn it from.

    Listed before the session middleware, so that the session cookie is in the response here.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user_id = self._user_id(request)
        if user_id is None:
            return response  # the database is down: say nothing rather than something wrong
        response.headers[USER_HEADER] = user_id
        session = response.cookies.get(settings.SESSION_COOKIE_NAME)
        if session is None and user_id and request.COOKIES.get(USER_COOKIE) != user_id:
            # Signed in before the companion cookie existed (or it was lost): give it the session's
            # age from now, an upper bound; the header above catches an earlier end.
            response.set_cookie(
                USER_COOKIE,
                user_id,
                max_age=request.session.get_expiry_age(),
                path=settings.SESSION_COOKIE_PATH,
                secure=settings.SESSION_COOKIE_SECURE,
                samesite=settings.SESSION_COOKIE_SAMESITE,
            )
        if session is not None:
            if not session.value or session["max-age"] == 0:
                response.delete_cookie(USER_COOKIE, path=settings.SESSION_COOKIE_PATH)
            else:
                response.set_cookie(
                    USER_COOKIE,
                    user_id,
                    max_age=session["max-age"] or None,
                    expires=session["expires"] or None,
                    path=settings.SESSION_COOKIE_PATH,
                    secure=settings.SESSION_COOKIE_SECURE,
                    samesite=settings.SESSION_COOKIE_SAMESITE,
                )
        return response

    @staticmethod
    def _user_id(request: HttpRequest) -> str | None:
        user = getattr(request, "user", None)  # absent when a middleware answered before authentication
        try:
            return str(user.pk) if user is not None and user.is_authenticated else ""
        except (OperationalError, InterfaceError):
            return None
