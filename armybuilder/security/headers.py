"""Response headers Django does not set itself: Permissions-Policy, and the CSP's one exception.

The print preview's framed document (``ps-print-document``) is the only page whose markup must
carry inline styles: the page size (``@page``) and column widths computed per list, shared with
the PDF renderer, which has no stylesheet URL to fetch. It gets ``style-src 'unsafe-inline'``,
and still no script at all; every other page keeps the strict policy of ``SECURE_CSP``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.csp import CSP

INLINE_STYLE_VIEWS = frozenset({"ps-print-document", "ps-shared-print-document"})


class PermissionsPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        match = request.resolver_match
        if match is not None and match.view_name in INLINE_STYLE_VIEWS:
            # Read by Django's CSP middleware, which runs after this one on the way out.
            response._csp_config = {
                **settings.SECURE_CSP,
                "script-src": [CSP.NONE],
                "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
            }
        return response
